/**
 * The error rules queued through the control API (POST /_sandbox/errors), data in the credential's
 * state: a status forced on the next calls of an operation (any 400-599; a problem+json body where
 * the operation does not declare it) with an optional Retry-After, and a latency or a dropped
 * connection, which the control API's interception applies before Prism sees the request.
 */
import type { Operation } from "../../document/index.js";
import type { SandboxAnswer } from "../problem.js";
import type { CredentialState } from "../store/state.js";
import type { ErrorRule } from "../store/types.js";
import { credentialKey } from "../store/state.js";
import { declaredAnswer } from "./answer.js";
import type { EngineContext } from "./context.js";
import { credentialOf, operationAt, type SandboxRequest } from "./resolve.js";

/** The answer a status rule queued for `op` forces, using one of its calls; undefined when none is queued. */
export function forcedAnswer(engine: EngineContext, state: CredentialState, op: Operation): SandboxAnswer | undefined {
  if (state.errors.length === 0) return undefined;
  const forced = state.errors.find((rule) => rule.operationId === op.operationId && rule.status > 0);
  if (!forced) return undefined;
  state.useErrorRule(forced);
  const answer = declaredAnswer(engine, op, forced.status, `forced by the sandbox's control API (error rule ${forced.id})`);
  if (forced.retryAfter !== undefined) answer.headers = { ...answer.headers, "Retry-After": String(forced.retryAfter) };
  return answer;
}

/**
 * The latency or drop queued (POST /_sandbox/errors) for the operation a request goes to, used up by
 * this request when it forces no status (a status is used up by `forcedAnswer`), through the store's
 * one path. Undefined at once while no credential has such a rule.
 */
export function queuedTransport(
  engine: EngineContext,
  method: string,
  path: string,
  headers: SandboxRequest["headers"],
  query: SandboxRequest["query"],
): ErrorRule | undefined | Promise<ErrorRule | undefined> {
  if (!engine.transportArmed) return undefined;
  const op = operationAt(engine, method, path);
  if (!op) return undefined;
  return engine.store.runExisting(credentialKey(credentialOf(engine, op, headers, query)), (state) => transportRule(state, op));
}

/** The latency or drop rule queued for `op`, used up when it forces no status; undefined when none is queued. */
function transportRule(state: CredentialState, op: Operation): ErrorRule | undefined {
  const rule = state.errors.find((r) => r.operationId === op.operationId && (r.latencyMs || r.drop));
  if (!rule) return undefined;
  if (rule.status === 0) state.useErrorRule(rule);
  return rule;
}
