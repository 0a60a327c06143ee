/**
 * Stage 4, answer: the body a declared operation built, shaped to the operation's response schema
 * (members it does not declare left out, times rendered: ../shape.ts); the answer of a status the
 * operation declares (its example, else no body) or does not (a problem+json body: ../problem.ts);
 * a refusal's answer; a hosted sandbox's 429 for a partner over its request rate; and the check of
 * an answer against the contract (`validateAnswer`: its findings as `sl-violations`, the 507 of a
 * bound reached, the 429 of a rate reached and the 503 of a store that cannot write reported as the
 * sandbox's own where the operation does not declare them, and a refusal's reason that no body
 * member carries as an entry of code `sandbox-refusal`).
 */
import { type Operation, pickMediaContent, responseContents, responseKey } from "../../document/index.js";
import { admittedTypes, resolveSchema } from "../../document/schema.js";
import type { ContractViolation } from "../../validation/contract.js";
import { problem, type RefusalReason, type SandboxAnswer } from "../problem.js";
import { plain, shape } from "../shape.js";
import type { LimitError } from "../store/limits.js";
import type { StoreUnavailable } from "../store/store.js";
import { isPlainObject, type Json } from "../values.js";
import type { Refusal } from "./apply.js";
import type { EngineContext } from "./context.js";

/** An sl-violations entry, as Prism writes them. */
export interface AnswerViolation {
  location: string[];
  severity: string;
  code: string | number | undefined;
  message: string;
}

/** What validateAnswer finds in an answer that keeps the contract. */
const NO_VIOLATIONS: AnswerViolation[] = Object.freeze([]) as unknown as AnswerViolation[];
/** Operation and status pairs whose answer check is kept (statuses are three digits: a guard against odd callers). */
const MAX_ANSWER_CHECKS = 10_000;
/** The members of an error schema that carry a refusal's reason, in order of preference. */
const REASON_MEMBERS = ["detail", "message", "error_message", "reason", "description", "error", "title"];

/** `$.a.b[0]["c d"]` -> `["a", "b", "0", "c d"]`. */
export function jsonPathTokens(path: string): string[] {
  const tokens: string[] = [];
  const pattern = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (const match of path.slice(1).matchAll(pattern)) tokens.push(match[1] ?? match[2] ?? JSON.parse(match[3]));
  return tokens;
}

/** Contract violations of an answer in the sl-violations form Prism uses. */
export function toSlViolations(violations: ContractViolation[]): AnswerViolation[] {
  return violations.map((v) => ({
    location: v.in === "body" ? ["response", "body", ...jsonPathTokens(v.path)] : ["response", v.in],
    severity: "Error",
    code: v.keyword ?? (v.in === "status" ? "status" : undefined),
    message: v.message,
  }));
}

/** The answer when a sandbox bound is reached (its own status, reported as a deviation by validateAnswer). */
export const limitAnswer = (error: LimitError): SandboxAnswer => problem(507, error.message, { title: "Sandbox limit reached" });

/** The title of a durable store's 503 (a forced 503 has the status's own). */
const STORE_TITLE = "Sandbox store unavailable";

/** A durable store that could not keep a request's changes: 503, to be retried (nothing was changed, nothing acknowledged). */
export function storeAnswer(error: StoreUnavailable): SandboxAnswer {
  const answer = problem(503, error.message, { title: STORE_TITLE });
  answer.headers = { ...answer.headers, "Retry-After": "1" };
  return answer;
}

/** The title of a hosted sandbox's 429 (how validateAnswer tells it from a 429 forced through the control API). */
export const RATE_LIMIT_TITLE = "Sandbox rate limit reached";

/**
 * The answer to a request over its partner's rate (a hosted sandbox, src/hosted/rate-limit.ts): 429
 * problem+json with `Retry-After`, as the sandbox's 507; reported as a deviation by validateAnswer
 * where the operation does not declare 429.
 */
export function rateLimitAnswer(detail: string, retryAfterSeconds: number): SandboxAnswer {
  const answer = problem(429, detail, { title: RATE_LIMIT_TITLE });
  answer.headers = { ...answer.headers, "Retry-After": String(retryAfterSeconds) };
  return answer;
}

/**
 * The sandbox's own answers validateAnswer reports when the operation does not declare their
 * status: their code and what reaches them (a 429 or a 503 only by its title: one forced through the
 * control API is the contract validator's to judge).
 */
const OWN_ANSWERS = {
  507: { code: "sandbox-limit", when: "one of its bounds is reached" },
  429: { code: "sandbox-rate-limit", when: "a partner's request rate is reached" },
  503: { code: "sandbox-store", when: "its store cannot keep a request's changes" },
} as const;

/** The sandbox's own answer `answer` is (a bound's 507, a rate's 429, a store's 503), else undefined. */
function ownAnswer(answer: SandboxAnswer): (typeof OWN_ANSWERS)[keyof typeof OWN_ANSWERS] | undefined {
  if (answer.status === 507) return OWN_ANSWERS[507];
  const title = (answer.body as { title?: unknown } | undefined)?.title;
  if (answer.status === 429 && title === RATE_LIMIT_TITLE) return OWN_ANSWERS[429];
  if (answer.status === 503 && title === STORE_TITLE) return OWN_ANSWERS[503];
  return undefined;
}

/** The body built for the operation's `status`, shaped to its JSON response schema (rendered plain where it declares none). */
export function shapeAnswer(engine: EngineContext, op: Operation, status: number, body: Json): Json {
  const key = responseKey(op, status);
  const contents = key ? responseContents(engine.doc, op.responses[key]) : [];
  const media = contents.find((c) => /json/i.test(c.mediaType)) ?? contents[0];
  if (!media) return undefined;
  return media.schema ? shape(engine.doc, body, media.schema.value, media.schema.at) : plain(body);
}

/**
 * An answer with `status` as the operation declares it: its first example, else no body. A status
 * the operation does not declare gets a problem+json body with `detail` when one is given (the
 * sl-violations header names the status as undeclared).
 */
export function declaredAnswer(engine: EngineContext, op: Operation, status: number, detail?: string): SandboxAnswer {
  const key = responseKey(op, status);
  if (!key) return detail === undefined ? { status } : problem(status, detail);
  const contents = responseContents(engine.doc, op.responses[key]);
  const media = contents.find((c) => c.examples.length > 0);
  if (!media) return { status };
  return { status, headers: { "Content-Type": media.mediaType }, body: media.examples[0].value };
}

/**
 * A refusal's answer (`refuse`, `status.refuse`, a `refuse` test value): on a status the operation
 * declares, a body shaped by its schema (the example's members, if any) with the reason in the
 * member the schema has for one (REASON_MEMBERS); where it has none, or declares no body (a body
 * would break the contract), as declaredAnswer (the example, or no body) with the reason kept beside
 * the answer for `validateAnswer`, which reports it as an `sl-violations` entry of its own. An
 * undeclared status: a problem+json body whose `detail` is the reason.
 */
export function refusalAnswer(engine: EngineContext, op: Operation, refusal: Refusal): SandboxAnswer {
  const { status, detail } = refusal;
  const doc = engine.doc;
  const key = responseKey(op, status);
  if (!key || detail === undefined) return declaredAnswer(engine, op, status, detail);
  const media = responseContents(doc, op.responses[key]).find((c) => /json/i.test(c.mediaType) && c.schema);
  if (media?.schema) {
    const { schema, at } = resolveSchema(doc, media.schema.value, media.schema.at);
    const member = REASON_MEMBERS.find((name) => {
      const declared = isPlainObject(schema?.properties) ? schema.properties[name] : undefined;
      return declared !== undefined && admittedTypes(doc, declared, `${at}/properties/${name}`)?.has("string") === true;
    });
    if (member) {
      const example = media.examples[0]?.value;
      const body = { ...(isPlainObject(example) ? example : {}), [member]: detail };
      return { status, headers: { "Content-Type": media.mediaType }, body: shape(doc, body, media.schema.value, media.schema.at) };
    }
  }
  const answer = declaredAnswer(engine, op, status);
  answer.reason = { detail, source: refusal.source, convention: refusal.convention };
  return answer;
}

/**
 * A refusal's reason as an `sl-violations` entry (code `sandbox-refusal`): the rule, then where it
 * comes from, the provider's document by its title (src/sources.ts `cite`) and, where the rule or
 * its status is the sandbox's own, its convention. Severity Information: the answer keeps the
 * contract, only the reason travels beside it.
 */
export function refusalViolation(reason: RefusalReason): AnswerViolation {
  const from = [
    ...(reason.source ? [reason.source] : []),
    ...(reason.convention ? [`the sandbox's convention: ${reason.convention}`] : []),
  ];
  return {
    location: ["request"],
    severity: "Information",
    code: "sandbox-refusal",
    message: from.length > 0 ? `${reason.detail} (${from.join("; ")})` : reason.detail,
  };
}

/** The findings of the contract validator on an answer, as sl-violations. */
export function validateAnswer(engine: EngineContext, operationId: string, answer: SandboxAnswer): AnswerViolation[] {
  const own = ownAnswer(answer);
  if (own) {
    // The sandbox's own answer (a bound, a rate, its store): a deviation from the contract when the operation does not declare its status.
    const op = engine.operation(operationId);
    if (op && responseKey(op, answer.status) !== undefined) return [];
    return [
      {
        location: ["response", "status"],
        severity: "Error",
        code: own.code,
        message: `${answer.status} is the sandbox's own answer when ${own.when} (not a status ${operationId} declares): ${String((answer.body as { detail?: unknown })?.detail ?? "")}`,
      },
    ];
  }
  // The common case, a body the schema accepts, by the operation's check alone; anything else
  // (a finding, no schema, no body) by the contract validator, which words the findings.
  if (answer.reason === undefined && answerCheck(engine, operationId, answer.status)?.(answer.body)) return NO_VIOLATIONS;
  const { violations } = engine.validator.validateResponse({ operationId, status: answer.status, body: answer.body });
  const findings = toSlViolations(violations);
  if (answer.reason !== undefined) findings.push(refusalViolation(answer.reason));
  return findings;
}

/**
 * Whether a body is one the operation declares for `status` (its JSON schema's check, the
 * contract validator's own), made per operation and status on first use; null where the
 * operation declares no schema for it.
 */
function answerCheck(engine: EngineContext, operationId: string, status: number): ((body: unknown) => boolean) | null {
  const key = `${status} ${operationId}`;
  let check = engine.answerChecks.get(key);
  if (check === undefined) {
    check = null;
    const op = engine.operation(operationId);
    const declared = op && Number.isInteger(status) && status >= 100 && status <= 599 ? responseKey(op, status) : undefined;
    const contents = op && declared ? responseContents(engine.doc, op.responses[declared]) : [];
    const at = contents.length > 0 ? pickMediaContent(contents, undefined)?.schema?.at : undefined;
    if (at !== undefined) check = (body) => body !== undefined && body !== null && body !== "" && engine.statusChecks.test(at, body);
    if (engine.answerChecks.size < MAX_ANSWER_CHECKS) engine.answerChecks.set(key, check);
  }
  return check;
}
