/**
 * A request Prism judged valid, answered from state: the stages in order (as Prism's mocker resolves
 * the operation, checks, builds and answers). `answerRequest` resolves the request (./resolve.ts),
 * then runs the rest on the credential's state through the store's one path (`store.run`: the
 * memory store at once, a durable store inside its transaction):
 *
 * 1. resolve: the operation, the credential's key, the declared operation;
 * 2. lifecycle: what is due on the credential's clock moves (./clock.ts), a status forced through
 *    the control API answers instead (./forced.ts);
 * 3. apply: the declared operation changes the records (./apply.ts), all of it undone if it fails;
 * 4. answer: the body shaped to the response schema, or the declared 404, or a refusal's answer, or
 *    507 when a bound is reached (./answer.ts);
 * 5. events: the events the change raised are kept and their callbacks queued once it succeeded
 *    (./move.ts, ./events.ts).
 *
 * An operation the declaration does not cover keeps Prism's answer (undefined). A durable store
 * that cannot keep the request's changes answers 503 (nothing changed, nothing acknowledged).
 */
import { WithheldBody } from "../../mock/types.js";
import type { SandboxAnswer } from "../problem.js";
import { LIMITS, LimitError } from "../store/limits.js";
import type { CredentialState } from "../store/state.js";
import { StoreUnavailable } from "../store/store.js";
import { declaredAnswer, limitAnswer, refusalAnswer, shapeAnswer, storeAnswer } from "./answer.js";
import { apply, isRefusal, NOT_FOUND } from "./apply.js";
import { tick } from "./clock.js";
import type { EngineContext } from "./context.js";
import { forcedAnswer } from "./forced.js";
import { paramsOf, type Resolved, resolve, type SandboxRequest } from "./resolve.js";

/** Thrown inside a request's change to answer without keeping what it changed. */
class Rollback extends Error {
  constructor(readonly answer: SandboxAnswer) {
    super("rolled back");
  }
}

/** The answer to a request Prism judged valid, from state; undefined keeps Prism's answer. */
export function answerRequest(
  engine: EngineContext,
  request: SandboxRequest,
): SandboxAnswer | undefined | Promise<SandboxAnswer | undefined> {
  const resolved = resolve(engine, request);
  if (!resolved) return undefined;
  let answered: SandboxAnswer | undefined | Promise<SandboxAnswer | undefined>;
  try {
    answered = engine.store.run(resolved.key, (state) => answerOnState(engine, resolved, state));
  } catch (error) {
    return answerLimit(error);
  }
  return answered instanceof Promise ? answered.catch(answerLimit) : answered;
}

/** A bound reached answers 507, a store that cannot write 503; anything else is thrown on. */
function answerLimit(error: unknown): SandboxAnswer {
  if (error instanceof LimitError) return limitAnswer(error);
  if (error instanceof StoreUnavailable) return storeAnswer(error);
  throw error;
}

/** Stages 2 to 5 on the credential's state. */
function answerOnState(engine: EngineContext, resolved: Resolved, state: CredentialState): SandboxAnswer | undefined {
  const { op, declared, request } = resolved;
  tick(engine, state, "expiry");
  const forced = forcedAnswer(engine, state, op);
  if (forced) return forced;
  if (!declared) return undefined;
  if (request.body instanceof WithheldBody) {
    return limitAnswer(
      new LimitError(
        `a request body of ${request.body.bytes} bytes exceeds the sandbox's limit of ${LIMITS.recordBytes} bytes per record: it is not kept`,
      ),
    );
  }
  const params = paramsOf(engine, resolved);
  const deferred: Array<() => void> = [];
  let answer: SandboxAnswer;
  engine.deferred = deferred;
  try {
    answer = state.atomically(() => {
      const body = apply(engine, state, op, declared, request.body, params);
      if (body === NOT_FOUND) throw new Rollback(declaredAnswer(engine, op, 404));
      if (isRefusal(body)) throw new Rollback(refusalAnswer(engine, op, body));
      return { status: request.status, body: shapeAnswer(engine, op, request.status, body) };
    });
  } catch (error) {
    if (error instanceof Rollback) return error.answer;
    if (error instanceof LimitError) return limitAnswer(error);
    throw error;
  } finally {
    engine.deferred = undefined;
  }
  for (const effect of deferred) effect();
  return answer;
}
