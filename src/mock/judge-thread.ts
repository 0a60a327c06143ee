/**
 * Isolation of large requests: a request body over LARGE_BODY_BYTES is decoded, parsed and
 * validated by a worker thread of its mock, not by the thread that answers every mock's requests.
 * Parsing a 10 MB JSON body takes the better part of a second of CPU; on the shared thread it would
 * hold up the answers of every other API served by the process (and of the docs server). The
 * worker runs the same functions the mock runs on smaller bodies (`decodeBody`, then validate.ts's
 * `inputFindings`), so the findings, and so the answer, are the same; the thread that answers only
 * routes the request and sends the answer.
 *
 * - One worker per mock server, started on its first large request (start-up pays nothing), ended
 *   after IDLE_MS without work and when the server closes; it does not keep the process alive.
 * - The operation a request is judged against is sent to the worker once (a structured copy); the
 *   worker keeps its compiled validators as the mock does.
 * - The parsed body comes back only when the answer needs it (an `answer` hook, callbacks), the
 *   request is valid and its JSON size is within the bound the judgement is given (`maxBodyBytes`:
 *   the sandbox's, which keeps no larger body); a larger one comes back as its size (`withheld`), an
 *   invalid one as its findings, which are bounded (validation of a large body stops at its first
 *   violation). What crosses back to the answering thread is so bounded.
 * - Bounds: the worker's heap (WORKER_HEAP_MB), its start (JUDGE_MS from being started until it says
 *   it is ready: loading its modules, which tsx compiles when running from source) and the time of one
 *   judgement (JUDGE_MS from being handed to a ready worker): past either, the worker is ended and
 *   the requests it holds fail (a 500 problem that says so); the next large request starts a new worker.
 */
import { Worker } from "node:worker_threads";
import type { Diagnostic, Element, Operation } from "./types.js";

/** A judgement takes at most this long (a 10 MB body takes well under a second). */
export const JUDGE_MS = 30_000;
/** A worker without work for this long ends; the next large request starts another. */
const IDLE_MS = 60_000;
/** The worker's heap limit: a 10 MB body parses into far less. */
const WORKER_HEAP_MB = 512;

/** What the worker found. */
export type Judgement =
  | {
      invalidJson: true;
      /** Parsed, but nested deeper than MAX_JSON_DEPTH (receive.ts decodeBody). */
      tooDeep?: boolean;
    }
  | {
      invalidJson: false;
      /** validate.ts's inputFindings for the operation (undefined: none, or no operation). */
      findings: Diagnostic[] | undefined;
      /** The parsed body, when asked for, the request is valid and its JSON size is within `maxBodyBytes`. */
      body?: unknown;
      /** The JSON size of a valid body asked for but over `maxBodyBytes`: it stays in the worker. */
      withheld?: number;
    };

/** A request to judge: the element without its body, the operation (if Prism routes it to one) and the body's bytes. */
export interface JudgeRequest {
  id: number;
  /** The operation's number in this judge, and the operation itself the first time it is sent. */
  operation?: { key: number; value?: Operation };
  element: Omit<Element, "body">;
  bytes: Uint8Array;
  wantBody: boolean;
  /** The largest JSON size of a body handed back (default: any). */
  maxBodyBytes?: number;
}

export type JudgeReply = { id: number; judgement: Judgement } | { id: number; failure: string } | { ready: true };

/** How to start the worker: the compiled module, or (running from source) the TypeScript one through tsx. */
function startWorker(WorkerThread: typeof Worker): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (!import.meta.url.endsWith(".ts")) return new WorkerThread(new URL("./judge-worker.js", import.meta.url), options);
  // tsx's ES module entry: its package exports' `import` condition.
  const tsx = import.meta.resolve("tsx/esm/api");
  const entry = new URL("./judge-worker.ts", import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
  return new WorkerThread(code, { ...options, eval: true });
}

export class Judge {
  readonly #timeoutMs: number;
  readonly #startMs: number;
  readonly #idleMs: number;
  readonly #WorkerThread: typeof Worker;
  #worker: Worker | undefined;
  /** Whether the current worker has said it is ready (its modules loaded); until then no judgement's clock runs. */
  #ready = false;
  /** Bounds the current worker's start. */
  #starting: NodeJS.Timeout | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, { resolve: (j: Judgement) => void; reject: (e: Error) => void; timer: NodeJS.Timeout | undefined }>();
  /** Operations sent to the current worker, by object. */
  #sent = new WeakMap<Operation, number>();
  #nextKey = 1;
  #idle: NodeJS.Timeout | undefined;
  /** Judgements made (for the server's stats). */
  count = 0;

  /**
   * `timeoutMs` (one judgement), `startMs` (a worker's start; both JUDGE_MS by default), `idleMs` (a
   * minute) and `WorkerThread` (node:worker_threads' Worker, or a stand-in that records what it is sent)
   * are options for tests.
   */
  constructor({
    timeoutMs = JUDGE_MS,
    startMs = JUDGE_MS,
    idleMs = IDLE_MS,
    WorkerThread = Worker,
  }: { timeoutMs?: number; startMs?: number; idleMs?: number; WorkerThread?: typeof Worker } = {}) {
    this.#timeoutMs = timeoutMs;
    this.#startMs = startMs;
    this.#idleMs = idleMs;
    this.#WorkerThread = WorkerThread;
  }

  /** Whether a worker is running now. */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /**
   * Judges a large body: its decoding, and its findings against `operation` when Prism routes the
   * request to one; with `wantBody`, a valid body comes back when its JSON size is at most `maxBodyBytes`.
   */
  judge(
    operation: Operation | undefined,
    element: Omit<Element, "body">,
    bytes: Buffer,
    wantBody: boolean,
    maxBodyBytes = Number.POSITIVE_INFINITY,
  ): Promise<Judgement> {
    const worker = this.#ensure();
    const id = this.#nextId++;
    let op: JudgeRequest["operation"];
    if (operation) {
      const key = this.#sent.get(operation);
      if (key !== undefined) op = { key };
      else {
        op = { key: this.#nextKey++, value: operation };
        this.#sent.set(operation, op.key);
      }
    }
    // The bytes are moved to the worker when they own their memory, else copied (a slice of a shared pool must not move).
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const payload = own ? bytes : Uint8Array.prototype.slice.call(bytes);
    const message: JudgeRequest = { id, operation: op, element, bytes: payload, wantBody, maxBodyBytes };
    return new Promise<Judgement>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, timer: this.#ready ? this.#clock() : undefined });
      this.count++;
      worker.postMessage(message, [payload.buffer as ArrayBuffer]);
    });
  }

  /** The time limit of a judgement handed to a ready worker. */
  #clock(): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.#fail(new Error(`judging a request body took more than ${this.#timeoutMs} ms; the worker was stopped`));
    }, this.#timeoutMs);
    timer.unref();
    return timer;
  }

  close(): Promise<void> {
    const worker = this.#worker;
    this.#fail(new Error("the mock was closed"));
    return worker ? worker.terminate().then(() => undefined) : Promise.resolve();
  }

  #ensure(): Worker {
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = undefined;
    if (this.#worker) return this.#worker;
    const worker = startWorker(this.#WorkerThread);
    worker.unref();
    this.#ready = false;
    this.#starting = setTimeout(() => {
      this.#fail(new Error(`the worker judging request bodies did not start within ${this.#startMs} ms; it was stopped`));
    }, this.#startMs);
    this.#starting.unref();
    worker.on("message", (reply: JudgeReply) => {
      if ("ready" in reply) {
        if (this.#worker !== worker) return;
        this.#ready = true;
        clearTimeout(this.#starting);
        this.#starting = undefined;
        for (const pending of this.#pending.values()) pending.timer ??= this.#clock();
        return;
      }
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      clearTimeout(pending.timer);
      if ("failure" in reply) pending.reject(new Error(`judging a request body failed: ${reply.failure}`));
      else pending.resolve(reply.judgement);
      if (this.#pending.size === 0 && this.#worker === worker) {
        this.#idle = setTimeout(() => this.#fail(undefined), this.#idleMs);
        this.#idle.unref();
      }
    });
    worker.on("error", (error) => {
      if (this.#worker === worker) this.#fail(new Error(`the worker judging request bodies failed: ${error.message}`));
    });
    worker.on("exit", () => {
      if (this.#worker === worker) this.#fail(new Error("the worker judging request bodies stopped"));
    });
    this.#worker = worker;
    this.#sent = new WeakMap();
    return worker;
  }

  /** Ends the current worker; its pending judgements fail with `error`. */
  #fail(error: Error | undefined): void {
    const worker = this.#worker;
    this.#worker = undefined;
    this.#ready = false;
    clearTimeout(this.#starting);
    this.#starting = undefined;
    if (this.#idle) clearTimeout(this.#idle);
    this.#idle = undefined;
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      clearTimeout(pending.timer);
      pending.reject(error ?? new Error("the worker judging request bodies stopped"));
    }
    void worker?.terminate();
  }
}
