/**
 * The stateful sandbox: a layer over the contract mock (src/mock/server.ts hooks) that keeps what
 * a partner creates, per credential, and answers from it; moves statuses, runs a clock, expires
 * and sends callbacks as the API's declaration (`specs/<service>/<release>/sandbox.yaml`) says; and
 * serves the control API under `/_sandbox/`. Prism still judges every request first: a request it
 * answers 401, 404, 405, 415 or 422 gets exactly Prism's answer. See README.md in this folder.
 *
 * Hosted mode (`hosted: { service }`, ./hosting.ts): every request passes the control API's
 * credential gate first (./control/gate.ts), and only a request it admitted (an issued credential's,
 * within its rate) is answered from state; what each API's sandbox holds and how its deliveries end
 * feed the service's metrics.
 */
import type { Doc } from "../document/index.js";
import type { MockHooks } from "../mock/types.js";
import type { ApiEntry } from "../registry.js";
import { CONTROL_PREFIX, ControlApi } from "./control/index.js";
import { validateAnswer } from "./engine/answer.js";
import type { EngineContext } from "./engine/context.js";
import { createEngine } from "./engine/create.js";
import { answerRequest } from "./engine/run.js";
import { type HostedSandbox, hostedService } from "./hosting.js";
import type { SandboxOptions } from "./options.js";
import { LIMITS } from "./store/limits.js";

export { CONTROL_DOCUMENT, CONTROL_PREFIX } from "./control/index.js";

/** The control API's first path segment, as it may appear in a request's target. */
const CONTROL_NAME = CONTROL_PREFIX.slice(1);
export { type Declaration, DeclarationError, declarationPath, loadDeclaration } from "./declaration.js";
export { boundedRetry, DEFAULT_RETRY, type RetryPolicy } from "./delivery/policy.js";
export type { EngineContext } from "./engine/context.js";
export type { SandboxOptions } from "./options.js";
export { LIMITS } from "./store/limits.js";

export interface Sandbox {
  engine: EngineContext;
  hooks: MockHooks;
  /**
   * Stops the schedulers. In memory: waiting callback retries fail and every state is dropped; a
   * durable store keeps what waits for its next start and closes once its writes are done.
   */
  close(): Promise<void>;
}

/** The sandbox of one API over its bundled document `doc` (read from `specPath`). */
export function createSandbox(entry: ApiEntry, doc: Doc, options: SandboxOptions = {}, specPath = entry.bundlePath): Sandbox {
  const hosted = hostedService(options.hosted, entry.alias);
  const engine = createEngine(entry, doc, options, specPath);
  const control = new ControlApi(engine, hosted);
  const unfeed = hosted ? feedMetrics(engine, hosted) : () => {};
  const hooks: MockHooks = {
    intercept: (request, response, body) => control.handle(request, response, body),
    // The control API's paths (a URL naming `_sandbox` anywhere, however it is written), and every
    // request once a latency or drop rule was queued: nothing else is the control API's. In hosted
    // mode every request, for the credential gate.
    mayIntercept: hosted ? () => true : (request) => engine.transportArmed || (request.url ?? "").includes(CONTROL_NAME),
    answer: (judged) =>
      // Hosted mode: only a request the gate admitted is answered from state (any other keeps Prism's answer).
      hosted && !control.admitted.has(judged.headers)
        ? undefined
        : answerRequest(engine, {
            operationId: String(judged.operation.iid ?? ""),
            path: judged.path,
            query: judged.query,
            headers: judged.headers,
            body: judged.body,
            status: judged.status,
          }),
    validateAnswer: (operation, answer) => validateAnswer(engine, String(operation.iid ?? ""), answer),
    // A larger body cannot be kept (one record's bound): it stays in the mock's worker (src/mock/judge.ts).
    maxBodyBytes: LIMITS.recordBytes,
  };
  return {
    engine,
    hooks,
    close: () => {
      unfeed();
      return engine.close();
    },
  };
}

/**
 * Hosted mode's metrics fed by this API's sandbox: what it holds (records and bytes of the states in
 * memory, callbacks waiting), read at each scrape, and each delivery's outcome; returns the removal.
 */
function feedMetrics(engine: EngineContext, hosted: HostedSandbox): () => void {
  const api = engine.entry.alias;
  engine.deliverer.onOutcome = (outcome) => hosted.delivery(api, outcome);
  const remove = hosted.holdings(() => {
    let records = 0;
    let bytes = 0;
    for (const state of engine.store.states()) {
      records += state.count;
      bytes += state.bytes;
    }
    return [{ api, records, bytes, queuedCallbacks: engine.deliverer.queued() }];
  });
  return () => {
    engine.deliverer.onOutcome = undefined;
    remove();
  };
}
