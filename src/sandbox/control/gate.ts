/**
 * Hosted mode's credential gate (../hosting.ts), in the intercept stage: before Prism judges a
 * request of the API and before the store makes any state, so that it covers every method, reads
 * included. The operation and the credential are found as the transport rules find them
 * (../engine/resolve.ts `operationAt`, `credentialOf`), then the service decides:
 *
 * - an issued credential within its partner's rate goes on (marked admitted: only such a request
 *   is answered from state);
 * - a credential no one issued (made up, or revoked) is taken off the request, which goes on
 *   without it: Prism answers it exactly as it answers a request that carries none, with the 401
 *   the operation's contract declares (its example, or Prism's own problem where it declares none),
 *   and nothing is created;
 * - one over its partner's rate is answered 429 problem+json with `Retry-After`, named in
 *   `sl-violations` as the sandbox's own answer where the operation does not declare 429
 *   (../engine/answer.ts `validateAnswer`, as its 507).
 *
 * A request no operation matches goes on untouched: Prism answers 404 or 405, nothing is created.
 * When the partners or the rates cannot be read (a durable store down), the request is answered 503
 * with `Retry-After`, as a store that cannot write answers it.
 */
import type { IncomingMessage } from "node:http";
import { securitySchemes } from "../../document/index.js";
import { rateLimitAnswer, storeAnswer, validateAnswer } from "../engine/answer.js";
import type { EngineContext } from "../engine/context.js";
import { credentialOf, operationAt } from "../engine/resolve.js";
import type { HostedSandbox } from "../hosting.js";
import type { SandboxAnswer } from "../problem.js";
import { credentialKey } from "../store/state.js";
import { StoreUnavailable } from "../store/store.js";
import type { AnswerViolation } from "../engine/answer.js";

/** What the gate decided: go on (`admitted` when an issued credential's), or this answer. */
export type GateOutcome = { pass: true; admitted: boolean } | { pass: false; answer: SandboxAnswer; violations: AnswerViolation[] };

/** What a request is told when its credential cannot be looked up (what failed is the operator's to see, not the partner's). */
export const UNREADABLE = "the sandbox cannot read its partners or their request rates now (its store does not answer): retry";

const PASS_UNADMITTED: GateOutcome = Object.freeze({ pass: true, admitted: false }) as GateOutcome;
const PASS_ADMITTED: GateOutcome = Object.freeze({ pass: true, admitted: true }) as GateOutcome;

/** Lets a request of the API through, or not; `url` is its parsed target. */
export async function gate(engine: EngineContext, hosted: HostedSandbox, request: IncomingMessage, url: URL): Promise<GateOutcome> {
  const op = operationAt(engine, request.method ?? "GET", url.pathname);
  if (!op) return PASS_UNADMITTED;
  const query = Object.fromEntries(url.searchParams);
  const credential = credentialOf(engine, op, request.headers, query);
  let admission: Awaited<ReturnType<HostedSandbox["admit"]>>;
  try {
    admission = await hosted.admit(request, credential === "" ? undefined : credentialKey(credential));
  } catch {
    const answer = storeAnswer(new StoreUnavailable(UNREADABLE));
    return { pass: false, answer, violations: validateAnswer(engine, op.operationId, answer) };
  }
  if (admission.outcome === "admitted") return PASS_ADMITTED;
  if (admission.outcome === "limited") {
    const answer = rateLimitAnswer(admission.detail, admission.retryAfterSeconds);
    return { pass: false, answer, violations: validateAnswer(engine, op.operationId, answer) };
  }
  // Unissued: the request goes on as one that carries no credential for the operation.
  hosted.keepHeaders(request, request.headers);
  const headers = { ...request.headers };
  let target: URL | undefined;
  for (const scheme of securitySchemes(engine.doc, op)) {
    if (scheme.type === "apiKey" && scheme.parameter) {
      if (scheme.in === "header") delete headers[scheme.parameter.toLowerCase()];
      else if (scheme.in === "query") {
        target ??= new URL(url.href);
        target.searchParams.delete(scheme.parameter);
      } else if (scheme.in === "cookie") delete headers.cookie;
    } else delete headers.authorization;
  }
  request.headers = headers;
  if (target) request.url = target.pathname + target.search;
  return PASS_UNADMITTED;
}
