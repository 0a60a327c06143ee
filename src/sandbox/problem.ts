/**
 * The one writer of the sandbox's refusals: an `application/problem+json` answer (RFC 9457) with its
 * status, a title, the `detail` that says what is wrong, and the members a refusal adds (the control
 * API's `field`, `allowed`, `final`). The engine's answers on a status an operation does not declare
 * (a forced error, a refusal, a bound reached) and every control API problem are made here.
 */
import { STATUS_CODES } from "node:http";

/** An answer of the sandbox: a status, headers, and a body serialised as JSON. */
export interface SandboxAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /**
   * A refusal's reason that no member of the body carries (the status declares no body, or none with
   * a member for it): reported in `sl-violations` as an entry of its own (engine/answer.ts).
   */
  reason?: RefusalReason;
}

/** Why a request was refused: the rule, and where it comes from (a `<file>:<line>` source, the sandbox's convention). */
export interface RefusalReason {
  detail: string;
  source?: string;
  convention?: string;
}

export const PROBLEM_TYPE = "application/problem+json";

/** A problem+json answer: `title` defaults to the status's reason phrase; `members` follow `detail`. */
export function problem(
  status: number,
  detail: string,
  options: { title?: string; members?: Record<string, unknown> } = {},
): SandboxAnswer {
  return {
    status,
    headers: { "Content-Type": PROBLEM_TYPE },
    body: { type: "about:blank", title: options.title ?? STATUS_CODES[status] ?? "Error", status, detail, ...options.members },
  };
}
