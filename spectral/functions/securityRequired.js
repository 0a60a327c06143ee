/**
 * An operation needs a security requirement: its own `security`, or the root `security` when it has none.
 * A requirement counts when the list holds at least one requirement object that names a scheme;
 * `security: []` and `security: [{}]` both mean "no authentication" and do not count.
 * Given: an operation object under `paths`.
 */
const requiresAuth = (security) => Array.isArray(security) && security.some((r) => r && Object.keys(r).length > 0);

export default function securityRequired(operation, _options, context) {
  if (operation?.security !== undefined) {
    if (requiresAuth(operation.security)) return [];
    return [{ message: "The operation's own security list requires no scheme", path: [...context.path, "security"] }];
  }
  if (requiresAuth(context.document.data?.security)) return [];
  return [{ message: "The operation has no security requirement and the root declares none", path: context.path }];
}
