/**
 * What every stage of the sandbox's engine shares (as src/mock/context.ts is the mock's): the API's
 * entry, bundled document and declaration, its operations, the validators, the store of states
 * (../store/store.ts StateStore: the memory store unless the options give another), the delivery
 * scheduler, the scheduler of the moves test values schedule, the operator's token, and the caches
 * made per operation on first use. One per sandbox; the stages (./resolve.ts, ./lifecycle.ts,
 * ./apply.ts, ./answer.ts, ./events.ts, run by ./run.ts) are functions of it. This module imports
 * no stage.
 */
import { type Doc, findOperation, type Operation, operations } from "../../document/index.js";
import type { ApiEntry } from "../../registry.js";
import { type ContractValidator, createValidator, validatorForDocument } from "../../validation/contract.js";
import { type SpecValidator, sharedSpecValidator } from "../../validation/spec.js";
import { type Declaration, declarationOf, type ResourceDeclaration } from "../declaration.js";
import { Deliverer } from "../delivery/deliverer.js";
import type { OperatorToken } from "../operator.js";
import type { SandboxOptions } from "../options.js";
import { Scheduler } from "../scheduler.js";
import { sharedSettings } from "../shared.js";
import { MemoryStore } from "../store/memory.js";
import type { CredentialState } from "../store/state.js";
import type { StateStore, StateStoreOptions } from "../store/store.js";
import { redactUrl } from "../store/url.js";

/** How long stopping waits for the callback attempts in flight to be recorded (a durable store keeps the rest). */
const SETTLE_MS = 5_000;

/**
 * What the engine's maker (./create.ts) gives the context: what to do when a credential's scheduled
 * move falls due, and with a state a durable store brought in (./resume.ts).
 */
export interface EngineHooks {
  onWake(key: string): void;
  onLoad(state: CredentialState): void;
}

/**
 * A store address as a message shows it: with a Postgres password (or password parameters) replaced
 * by `***`, else as given (redactUrl would rewrite `file:<dir>` as a URL, `file:///<dir>`).
 */
function shownAddress(address: string): string {
  const redacted = redactUrl(address);
  return redacted.includes("***") ? redacted : address;
}

export class EngineContext {
  readonly declaration: Declaration | undefined;
  /** The API's operations (paths). */
  readonly operations: Operation[];
  readonly store: StateStore;
  readonly deliverer: Deliverer;
  /** When each credential's next scheduled move falls due (real clock): ./clock.ts. */
  readonly wakes: Scheduler;
  /** The operator's token; without one, the operations over every credential do not exist. */
  readonly operator: OperatorToken | undefined;
  /** The contract validator (answers' findings, worded). */
  readonly validator: ContractValidator;
  /** Ajv over the document (statuses, answer checks): the contract validator's own. */
  readonly statusChecks: SpecValidator;
  /** Per operation and status: the answer check (./answer.ts). */
  readonly answerChecks = new Map<string, ((body: unknown) => boolean) | null>();
  /** Per path template: its matcher (./resolve.ts). */
  readonly matchers = new Map<string, (path: string) => Record<string, string> | undefined>();
  /** Set once a latency or drop rule has been queued: until then requests are not matched for one. */
  transportArmed = false;
  /**
   * While an API request's change runs (./run.ts): the events it raised, kept and sent only once it
   * succeeded (./move.ts); undefined otherwise (a control call's or the clock's are at once).
   */
  deferred: Array<() => void> | undefined = undefined;

  constructor(
    readonly entry: ApiEntry,
    readonly doc: Doc,
    options: SandboxOptions,
    specPath: string,
    hooks: EngineHooks,
  ) {
    this.statusChecks = sharedSpecValidator(doc); // the contract validator's too: the document is added to Ajv once
    this.declaration = declarationOf(entry, doc, options.declarationPath, this.statusChecks);
    this.operations = operations(doc);
    this.validator = specPath === entry.bundlePath ? createValidator(entry) : validatorForDocument(entry.alias, doc);
    const shared = sharedSettings(options);
    this.operator = shared.operator;
    const storeOptions: StateStoreOptions = {
      budget: shared.budget,
      evictIdleSeconds: shared.evictIdleSeconds,
      onDrop: (state) => this.deliverer.cancel(state),
      onLoad: (state) => hooks.onLoad(state),
    };
    if (typeof options.store === "string" && options.store !== "memory")
      throw new TypeError(
        `${entry.alias}: the sandbox's store ${JSON.stringify(shownAddress(options.store))} is opened when the mock starts (startMock, or startSandbox): createSandbox takes a store made already`,
      );
    this.store = typeof options.store === "function" ? options.store(storeOptions) : new MemoryStore(storeOptions);
    this.deliverer = new Deliverer({
      alias: entry.alias,
      registry: options.registry,
      retry: options.retry,
      fetch: options.fetch,
      targets: shared.targets,
      queue: shared.queue,
      run: (state, work) => this.store.runExisting(state.key, work),
      // Another instance on the same store may hold a delivery's lease; the file store's and memory's are this process's.
      leases: this.store.backend?.shared ? "shared" : "own",
    });
    this.wakes = new Scheduler(hooks.onWake);
  }

  /** The operation `operationId` of the API's paths. */
  operation(operationId: string): Operation | undefined {
    const op = findOperation(this.doc, operationId);
    return op?.section === "paths" ? op : undefined;
  }

  /** A resource of the declaration; throws when there is none of that name (a bug: the declaration was checked). */
  resource(name: string): ResourceDeclaration {
    const resource = this.declaration?.resources[name];
    if (!resource) throw new Error(`${this.entry.alias}: no resource "${name}" in the sandbox declaration`);
    return resource;
  }

  /**
   * Stops the schedulers. In memory, what waits fails and every state is dropped (the memory budget
   * given back); a durable store keeps what waits (queued callbacks, delayed moves) for its next
   * start, once the attempts in flight are recorded (at most SETTLE_MS), and closes.
   */
  async close(): Promise<void> {
    this.wakes.close();
    if (!this.store.durable) {
      this.deliverer.close();
      await this.store.close();
      return;
    }
    this.deliverer.close({ keep: true });
    await this.deliverer.drain(SETTLE_MS);
    await this.store.close();
  }
}
