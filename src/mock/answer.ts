/**
 * Stage 4 of a request's way through the mock (server.ts): answer a judged request. Three sources,
 * tried in this order:
 * - the fast path (fast-path.ts): Prism's answer to an earlier request of the same kind (operation,
 *   `Accept`, outcome of the judgement), sent again with this request's findings;
 * - the attached layer's `answer` hook (the sandbox, MockHooks): may replace a 2xx answer Prism
 *   chose for a valid request, on the fast path as on Prism's;
 * - Prism's pipeline (`prism.request`), for the first request of a kind and for any request the
 *   fast path does not take (one that chooses its answer, an operation with callbacks, a route
 *   Prism's router must rank); its answer is kept for the kind, and for identical requests in the
 *   response cache.
 */
import type { IHttpRequest } from "@stoplight/prism-http";
import type { Exchange, MockContext } from "./context.js";
import { findingsOf } from "./judge.js";
import { getHttpConfigFromRequest, NOT_ACCEPTABLE, ProblemJsonError, serialize, UNPROCESSABLE_ENTITY_NAME } from "./prism-parts.js";
import { mockConfig } from "./prism.js";
import { cacheKey } from "./response-cache.js";
import { hasCallbacks } from "./route.js";
import type { Answer, Diagnostic, Element, HookAnswer, Operation, PrismResult, ProblemError } from "./types.js";
import {
  corsPairs,
  emit,
  type Keep,
  listedProblemBytes,
  problemBody,
  setPair,
  violationsHeader,
  violationsOf,
  write,
  writeAnswer,
  writeJson,
  writeProblem,
  writeProblemAnswer,
} from "./write.js";

/** A request the fast path classified: its operation, kind and findings. */
interface Known {
  operation: Operation;
  kind: string;
  findings: Diagnostic[];
}

/**
 * The fast path if it has Prism's answer to this kind of request, else Prism. `operation` is the
 * route stage's (undefined: Prism's pipeline answers).
 */
export function answerRequest(
  context: MockContext,
  exchange: Exchange,
  input: Element,
  operation: Operation | undefined,
): Promise<void> | undefined {
  if (!operation || hasCallbacks(operation)) return viaPrism(context, exchange, input);
  const findings = findingsOf(operation, input);
  const { accept } = exchange.request.headers;
  const kind = context.fast.kind(typeof accept === "string" ? accept : "", findings);
  const kept = context.fast.answer(operation, kind);
  if (!kept) return viaPrism(context, exchange, input, { operation, kind, findings });
  context.counts.fast++;
  return sendAnswer(context, exchange, kept, findings, operation, input, undefined);
}

/** Prism's whole pipeline; with `known` (a request the fast path classified), its answer is kept for the kind. */
export async function viaPrism(context: MockContext, exchange: Exchange, input: Element, known?: Known): Promise<void> {
  const { request, response, raw } = exchange;
  const { responses, router } = context;
  const allow = () => router.allowed(input.url.path);
  const key = responses && !known ? cacheKey(request, raw) : undefined;
  const hit = key === undefined ? undefined : responses!.get(key);
  if (hit) {
    context.counts.cache++;
    emit(response, hit.status, [...hit.headers], hit.body);
    return;
  }
  context.counts.prism++;

  const preferences = getHttpConfigFromRequest(input as IHttpRequest);
  let keep: Keep | undefined = key === undefined ? undefined : { cache: responses!, key };
  if (preferences._tag === "Left") return writeProblem(request, response, preferences.left as ProblemError, { keep, allow });
  const mock: Record<string, unknown> = { ...mockConfig.mock };
  for (const [name, value] of Object.entries(preferences.right)) if (value !== undefined) mock[name] = value;
  if (mock.dynamic) keep = undefined; // generated data differs from call to call

  let result = await askPrism(context, input, mock);
  // DEVIATIONS dynamicFallback: a generated answer that breaks its own schema (json-schema-faker
  // ignores `propertyNames`, and a `pattern` beside a `format`) is not served: the static answer
  // (the example) is, instead. Severity 0 is Prism's DiagnosticSeverity.Error.
  if (mock.dynamic && result._tag === "Right" && result.right.validations.output.some((v) => v.severity === 0)) {
    result = await askPrism(context, input, { ...mock, dynamic: false });
  }
  if (result._tag === "Left") {
    const answer = answerOf(result);
    if (answer && known) context.fast.keep(known.operation, known.kind, answer);
    return writeProblem(request, response, result.left, { keep, allow });
  }
  let answer: Answer;
  try {
    answer = answerOf(result)!;
  } catch (error) {
    // As prism-http-server: a body its Content-Type cannot carry is a 500, sent with the headers set so far.
    const { output, validations } = result.right;
    const pairs = corsPairs(request);
    const violations = [...violationsOf("request", validations.input), ...violationsOf("response", validations.output)];
    if (violations.length > 0) pairs.push(["sl-violations", violationsHeader(violations)]);
    for (const [name, value] of Object.entries(output.headers ?? {})) setPair(pairs, name, value);
    return writeProblem(request, response, error as ProblemError, { allow, pairs });
  }
  if (known) context.fast.keep(known.operation, known.kind, answer);
  const routed = known?.operation ?? router.operation(input);
  await sendAnswer(context, exchange, answer, result.right.validations.input, routed!, input, keep);
}

/** What content-type's parse throws for an Accept entry prism-http's negotiation could not match. */
const MALFORMED_ACCEPT = new Set(["invalid media type", "invalid parameter format", "argument string is required"]);

/**
 * The errors prism-http's negotiation throws (content-type's parse) for a malformed Accept it could
 * not match: an entry that is not a media type (`nonsense`, or a parameter without a value as in
 * `text/csv;x`), or an empty one (`Accept: ,`).
 */
function isMalformedAcceptError(error: unknown): boolean {
  return error instanceof TypeError && MALFORMED_ACCEPT.has(error.message);
}

/** Prism's answer to `input` with the given mock settings. */
export async function askPrism(context: MockContext, input: Element, mock: Record<string, unknown>): Promise<PrismResult> {
  try {
    return (await context.prism.request(input as IHttpRequest, context.operations, { ...mockConfig, mock } as never)()) as PrismResult;
  } catch (error) {
    // DEVIATIONS malformedAccept: Prism fails on an Accept entry that is not a media type when no declared
    // one was acceptable; that is its 406, as for any Accept that matches nothing.
    const accept = input.headers?.accept;
    if (!isMalformedAcceptError(error) || !accept) throw error;
    return {
      _tag: "Left",
      left: ProblemJsonError.fromTemplate(NOT_ACCEPTABLE, `Unable to find content for ${String(accept).split(",")}`),
    };
  }
}

/** Prism's answer to a request as an Answer (undefined when it is a 5xx: those are never kept). */
export function answerOf(result: PrismResult): Answer | undefined {
  if (result._tag === "Left") {
    const error = result.left;
    const status = error.status || 500;
    if (status >= 500) return undefined;
    const listsFindings = error.name === UNPROCESSABLE_ENTITY_NAME && Array.isArray(error.additional?.validation);
    return {
      status,
      headers: [["content-type", "application/problem+json"], ...Object.entries(error.additional?.headers ?? {})],
      body: listsFindings ? undefined : Buffer.from(problemBody(error)),
      problem: true,
      listsFindings,
      outputFindings: [],
      example: undefined,
    };
  }
  const { output, validations } = result.right;
  const headers = Object.entries(output.headers ?? {});
  let contentType: string | undefined;
  for (const [name, value] of headers) if (name.toLowerCase() === "content-type") contentType = value;
  const body = serialize(output.body, contentType);
  return {
    status: output.statusCode,
    headers,
    body: body === undefined ? undefined : Buffer.from(body),
    problem: false,
    listsFindings: false,
    outputFindings: validations.output,
    example: output.body,
  };
}

/**
 * Sends `answer` (Prism's, or kept from an earlier request of the same kind) to a request of
 * `operation` with its findings; the `answer` hook may replace a 2xx.
 */
export function sendAnswer(
  context: MockContext,
  exchange: Exchange,
  answer: Answer,
  findings: Diagnostic[],
  operation: Operation,
  input: Element,
  keep: Keep | undefined,
): Promise<void> | undefined {
  const { request, response } = exchange;
  if (answer.problem) {
    if (!keep) {
      writeProblemAnswer(request, response, answer, findings);
      return;
    }
    const pairs = corsPairs(request);
    for (const [name, value] of answer.headers) setPair(pairs, name, value);
    emit(response, answer.status, pairs, answer.listsFindings ? listedProblemBytes(findings) : answer.body, keep);
    return;
  }
  if (context.hooks.answer && answer.status >= 200 && answer.status < 300) {
    return sendHooked(context, exchange, answer, findings, operation, input, keep);
  }
  writeAnswer(request, response, answer, findings, keep);
}

/** The headers of a replacement with a body and no headers of its own: Content-Type's default. */
const JSON_HEADERS: ReadonlyArray<[string, string]> = [["Content-Type", "application/json"]];
const NO_HEADERS: ReadonlyArray<[string, string]> = [];

/**
 * sendAnswer with the `answer` hook asked first; synchronous when the hook answers synchronously
 * (the sandbox does), a promise only for a hook that returns one.
 */
function sendHooked(
  context: MockContext,
  exchange: Exchange,
  answer: Answer,
  findings: Diagnostic[],
  operation: Operation,
  input: Element,
  keep: Keep | undefined,
): Promise<void> | undefined {
  const replaced = context.hooks.answer!({
    operation,
    method: input.method,
    path: input.url.path,
    query: input.url.query ?? {},
    headers: exchange.request.headers,
    body: input.body,
    status: answer.status,
    example: answer.example,
  });
  if (typeof (replaced as Promise<unknown> | undefined)?.then === "function") {
    return (replaced as Promise<HookAnswer | undefined>).then((settled) =>
      sendReplaced(context, exchange, answer, findings, operation, settled, keep),
    );
  }
  sendReplaced(context, exchange, answer, findings, operation, replaced as HookAnswer | undefined, keep);
}

/** Prism's answer when the hook kept it (undefined), else the hook's, checked against the spec. */
function sendReplaced(
  context: MockContext,
  { request, response }: Exchange,
  answer: Answer,
  findings: Diagnostic[],
  operation: Operation,
  replaced: HookAnswer | undefined,
  keep: Keep | undefined,
): void {
  if (!replaced) {
    const violations = [...violationsOf("request", findings), ...violationsOf("response", answer.outputFindings)];
    write(request, response, answer.status, violations, answer.headers, answer.body, keep);
    return;
  }
  let headers: ReadonlyArray<[string, string]> | undefined;
  let text: string | undefined;
  if (replaced.headers === undefined) {
    // The common case (an answer built from state): JSON, as Prism's serialiser writes application/json.
    text = replaced.body === undefined ? undefined : JSON.stringify(replaced.body);
  } else {
    const pairs = Object.entries({ ...(replaced.body === undefined ? {} : { "Content-Type": "application/json" }), ...replaced.headers });
    let contentType: string | undefined;
    for (const [name, value] of pairs) if (name.toLowerCase() === "content-type") contentType = value;
    headers = pairs;
    text = serialize(replaced.body, contentType);
  }
  const own = context.hooks.validateAnswer?.(operation, replaced);
  const violations = findings.length === 0 && !own?.length ? undefined : [...violationsOf("request", findings), ...(own ?? [])];
  if (headers === undefined && keep === undefined) {
    writeJson(request, response, replaced.status, violations, text);
    return;
  }
  headers ??= replaced.body === undefined ? NO_HEADERS : JSON_HEADERS;
  write(request, response, replaced.status, violations, headers as Array<[string, string]>, text, keep);
}
