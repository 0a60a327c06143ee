/**
 * Stage 3 of a request's way through the mock (server.ts): judge the request. Its body is decoded
 * as prism-http-server hands it to Prism: here when it is small, by the worker thread of
 * judge-thread.ts when it is over LARGE_BODY_BYTES (so that one API's large request does not hold
 * up the others); then Prism's security check and request validation (validate.ts) find what Prism
 * would find.
 */
import type { Exchange, MockContext } from "./context.js";
import { Judge } from "./judge-thread.js";
import { LARGE_BODY_BYTES } from "./limits.js";
import { type BodyError, decodeBody, INVALID_JSON, parseBody, TOO_DEEP } from "./receive.js";
import { hasCallbacks } from "./route.js";
import { type Diagnostic, type Element, JUDGED, type Operation, WithheldBody } from "./types.js";
import { inputFindings, securityFindings } from "./validate.js";

export { decodeBody, Judge, LARGE_BODY_BYTES, WithheldBody };

/** The request with its body (up to LARGE_BODY_BYTES) decoded, as Prism's components see it; bad JSON is a BodyError (400). */
export function decodeHere({ request, raw }: Exchange, element: Omit<Element, "body">): Element | BodyError {
  try {
    return { ...element, body: parseBody(request, raw) };
  } catch (error) {
    return error as BodyError;
  }
}

/**
 * A body over LARGE_BODY_BYTES: the worker decodes it and finds its violations against the
 * operation Prism routes the request to (`fast`: the route stage's, else Prism's router); it comes
 * back as its findings (JUDGED), the body itself only when the answer needs it and, for the `answer`
 * hook, within its `maxBodyBytes` (else a WithheldBody: the sandbox answers that it cannot keep it).
 */
export async function judgeLarge(
  context: MockContext,
  { raw }: Exchange,
  element: Omit<Element, "body">,
  fast: Operation | undefined,
): Promise<Element | BodyError> {
  const operation = fast ?? context.router.operation(element);
  const callbacks = hasCallbacks(operation);
  const wantBody = context.hooks.answer !== undefined || callbacks;
  // Prism's callbacks read the body whatever its size, as in static mode; the hook takes at most its bound.
  const bound = callbacks ? undefined : context.hooks.maxBodyBytes;
  context.judge ??= new Judge();
  const judgement = await context.judge.judge(operation, element, raw.bytes, wantBody, bound);
  if (judgement.invalidJson) return judgement.tooDeep ? TOO_DEEP() : INVALID_JSON();
  const body = judgement.withheld === undefined ? judgement.body : new WithheldBody(judgement.withheld);
  return { ...element, body, [JUDGED]: { operation, findings: judgement.findings } };
}

/**
 * What Prism's checks find in a request of `operation`: the security check's finding first, then
 * the input's (validate.ts; for a large body, what the worker found); empty when it is valid.
 */
export function findingsOf(operation: Operation, input: Element): Diagnostic[] {
  const security = securityFindings(operation, input);
  const invalid = inputFindings(operation, input);
  return security && invalid ? [...security, ...invalid] : (security ?? invalid ?? []);
}
