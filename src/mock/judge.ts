/**
 * Stage 3 of a request's way through the mock (server.ts): judge the request. Its body is decoded
 * as prism-http-server hands it to Prism: here when it is small, by the worker thread of
 * judge-thread.ts when it is over LARGE_BODY_BYTES (so that one API's large request does not hold
 * up the others); then Prism's security check and request validation (validate.ts) find what Prism
 * would find. A body that is not JSON is, for an operation that declares a 400 and no 422, an
 * invalid request of that operation (DEVIATIONS invalidJson); else it is refused as
 * prism-http-server refuses it (micri's 400).
 */
import type { Exchange, MockContext } from "./context.js";
import { Judge } from "./judge-thread.js";
import { LARGE_BODY_BYTES, MAX_JSON_DEPTH } from "./limits.js";
import { ERROR } from "./prism-parts.js";
import { type BodyError, decodeBody, INVALID_JSON, parseBody, TOO_DEEP } from "./receive.js";
import { hasCallbacks } from "./route.js";
import { type Diagnostic, type Element, JUDGED, type Operation, WithheldBody } from "./types.js";
import { inputFindings, securityFindings } from "./validate.js";

export { decodeBody, Judge, LARGE_BODY_BYTES, WithheldBody };

/** DEVIATIONS invalidJson: the finding of a body that is not JSON. */
export const NOT_JSON: Diagnostic = Object.freeze({
  path: ["body"],
  code: "invalid_json",
  message: "Request body is not valid JSON",
  severity: ERROR,
}) as Diagnostic;

/** DEVIATIONS invalidJson (and jsonDepth): the finding of a JSON body nested deeper than MAX_JSON_DEPTH. */
export const TOO_DEEP_JSON: Diagnostic = Object.freeze({
  path: ["body"],
  code: "invalid_json",
  message: `Request body is JSON nested deeper than ${MAX_JSON_DEPTH} levels, which the mock does not read`,
  severity: ERROR,
}) as Diagnostic;

/** Whether Prism answers an invalid request of `operation` with its declared 400 (it declares a 400 and no 422). */
function answers400(operation: Operation): boolean {
  const codes = (operation.responses as Array<{ code: string }>).map((response) => response.code);
  return codes.includes("400") && !codes.includes("422");
}

/**
 * DEVIATIONS invalidJson: a body that is not JSON (`error`, the 400 prism-http-server sends), on an
 * operation that declares a 400 and no 422, as an invalid request of that operation: the request
 * with its one finding judged (JUDGED), answered as any invalid request, by the fast path or Prism.
 * `error` itself where no such operation takes the request.
 */
export function unreadable(
  context: MockContext,
  element: Omit<Element, "body">,
  fast: Operation | undefined,
  error: BodyError,
  tooDeep: boolean,
): Element | BodyError {
  const operation = fast ?? context.router.operation(element);
  if (!operation || !answers400(operation)) return error;
  return { ...element, body: null, [JUDGED]: { operation, findings: [tooDeep ? TOO_DEEP_JSON : NOT_JSON] } };
}

/**
 * The request with its body (up to LARGE_BODY_BYTES) decoded, as Prism's components see it; bad JSON
 * is a BodyError (400), or with `context`, an invalid request where the operation declares a 400
 * (`unreadable`).
 */
export function decodeHere(
  { request, raw }: Exchange,
  element: Omit<Element, "body">,
  context?: MockContext,
  fast?: Operation,
): Element | BodyError {
  try {
    return { ...element, body: parseBody(request, raw) };
  } catch (error) {
    if (!context) return error as BodyError;
    return unreadable(context, element, fast, error as BodyError, (error as BodyError).message === TOO_DEEP().message);
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
  if (judgement.invalidJson) {
    const tooDeep = judgement.tooDeep === true;
    return unreadable(context, element, operation, tooDeep ? TOO_DEEP() : INVALID_JSON(), tooDeep);
  }
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
