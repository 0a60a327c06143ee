/**
 * A control API refusal (ControlError) and the problem+json answer (../problem.ts) of anything a
 * control call throws: a ControlError as it says, a credential refused for room 507, another bound
 * reached 409, a move the lifecycle refuses 409 with the moves `allowed` and whether the status is
 * `final`, a durable store that cannot write 503, anything else 500: saying why on a sandbox of the
 * caller's own, naming only the failure's id in its operator's log on a hosted one (`conceal`).
 */
import { MoveRefused } from "../engine/lifecycle.js";
import { problem, type SandboxAnswer } from "../problem.js";
import { CapacityError, LimitError } from "../store/limits.js";
import { StoreUnavailable } from "../store/store.js";

/** A control-API input problem: answered 4xx with the message and the member it concerns. */
export class ControlError extends Error {
  override readonly name = "ControlError";
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
    /** More members of the problem body (e.g. `allowed`: the moves allowed from here). */
    readonly extra?: Record<string, unknown>,
    /** The problem's title, where it is not the status's reason phrase. */
    readonly title?: string,
    /** Headers of the answer (e.g. `Retry-After`). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/**
 * The problem answer of what a control call threw. `conceal`, in hosted mode: logs a failure the
 * sandbox does not foresee and gives its id, which the answer names instead of the failure's message.
 */
export function problemOf(error: unknown, conceal?: (error: unknown) => string): SandboxAnswer {
  const failure =
    error instanceof ControlError
      ? error
      : error instanceof CapacityError
        ? new ControlError(507, error.message)
        : error instanceof LimitError
          ? new ControlError(409, error.message)
          : error instanceof MoveRefused
            ? new ControlError(409, error.message, "status", { allowed: error.allowed, final: error.final })
            : error instanceof StoreUnavailable
              ? new ControlError(503, error.message, undefined, undefined, "Sandbox store unavailable", { "Retry-After": "1" })
              : conceal
                ? new ControlError(500, `the sandbox failed; its operator's log names the cause, as failure ${conceal(error)}`)
                : new ControlError(500, `the sandbox failed: ${(error as Error).message}`);
  const answer = problem(failure.status, failure.message, {
    title: failure.title,
    members: { ...(failure.field ? { field: failure.field } : {}), ...failure.extra },
  });
  if (failure.headers) answer.headers = { ...answer.headers, ...failure.headers };
  return answer;
}
