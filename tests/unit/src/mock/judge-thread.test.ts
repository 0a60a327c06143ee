/**
 * The judge's side of its worker thread (src/mock/judge-thread.ts), on a stand-in worker and vitest's
 * fake clock: what it sends (each operation once per worker, the body's bytes moved or copied), how
 * it settles each judgement from the worker's replies, and the worker's life (started on the first
 * body with its heap limit, its start and each judgement bounded in time, ended when idle, failed or
 * closed, a stale worker's messages ignored). The real worker, with its real time limits, is in
 * judge.slow.test.ts.
 */
import { EventEmitter } from "node:events";
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { MessageChannel, receiveMessageOnPort, type Worker, type WorkerOptions } from "node:worker_threads";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Judge, type JudgeReply, type JudgeRequest, type Judgement } from "../../../../src/mock/judge-thread.js";
import type { Element, Operation } from "../../../../src/mock/types.js";
import { repoRoot } from "../../../../src/registry.js";

/** The worker's heap limit the module documents (WORKER_HEAP_MB). */
const HEAP_MB = 512;

/** A worker thread's stand-in: records how it was started and what it is sent (through a real port, so a moved buffer is detached). */
class StandIn extends EventEmitter {
  readonly sent: JudgeRequest[] = [];
  terminated = false;
  unreffed = false;
  constructor(
    readonly script: string | URL,
    readonly options: WorkerOptions,
  ) {
    super();
  }
  postMessage(message: JudgeRequest, transfer: ArrayBuffer[]) {
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(message, transfer);
    this.sent.push(receiveMessageOnPort(port2)!.message as JudgeRequest);
    port1.close();
  }
  terminate() {
    this.terminated = true;
    return Promise.resolve(1);
  }
  unref() {
    this.unreffed = true;
  }
  reply(reply: JudgeReply) {
    this.emit("message", reply);
  }
}

/** A judge whose workers are stand-ins, listed in the order started. */
function judgeWith(limits: { timeoutMs?: number; startMs?: number; idleMs?: number } = {}) {
  const workers: StandIn[] = [];
  const WorkerThread = class extends StandIn {
    constructor(script: string | URL, options: WorkerOptions) {
      super(script, options);
      workers.push(this);
    }
  } as unknown as typeof Worker;
  const judge = new Judge({ timeoutMs: 100, startMs: 200, idleMs: 300, ...limits, WorkerThread });
  return { judge, workers, last: () => workers.at(-1)! };
}

/** A judgement's promise, with whether and how it has settled so far. */
function watch(promise: Promise<Judgement>) {
  const state: { settled: boolean; value?: Judgement; error?: Error } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: Error) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

const operation = (path: string) => ({ method: "post", path, responses: [{ code: "200" }] }) as unknown as Operation;
const element: Omit<Element, "body"> = { method: "post", url: { path: "/v1/batch", query: {} }, headers: {} };
const bytes = (text = "[1]") => {
  const owned = Buffer.alloc(Buffer.byteLength(text));
  owned.write(text);
  return owned;
};
/** Sends a body whose judgement the test does not wait for (closing the judge fails it). */
const quiet = (judgement: Promise<Judgement>) => void judgement.catch(() => undefined);
const VALID: Judgement = { invalidJson: false, findings: undefined };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Judge's worker", () => {
  it("is started on the first body only, as tsx's ES module entry running judge-worker.ts, with its heap limit, not keeping the process alive", () => {
    const { judge, workers } = judgeWith();
    expect(judge.running).toBe(false);
    expect(workers).toHaveLength(0);
    quiet(judge.judge(undefined, element, bytes(), false));
    quiet(judge.judge(undefined, element, bytes(), false));
    expect(judge.running).toBe(true);
    expect(workers).toHaveLength(1);
    const [worker] = workers;
    expect(worker.options).toEqual({ resourceLimits: { maxOldGenerationSizeMb: HEAP_MB }, eval: true });
    expect(worker.unreffed).toBe(true);
    // tsx's `import` entry of its esm/api export, as its package manifest names it.
    const tsx = JSON.parse(readFileSync(join(repoRoot, "node_modules/tsx/package.json"), "utf8")).exports["./esm/api"].import.default;
    const script = String(worker.script);
    // Resolved as require resolves it: through a linked node_modules (a mutation run's copy) to the real folder.
    const folder = realpathSync(join(repoRoot, "node_modules/tsx"));
    expect(script).toContain(JSON.stringify(pathToFileURL(join(folder, tsx)).href));
    expect(script).toContain(JSON.stringify(pathToFileURL(join(repoRoot, "src/mock/judge-worker.ts")).href));
    void judge.close();
  });

  it("sends an operation once per worker, a new id per body, no operation where Prism routes to none, and counts the bodies", async () => {
    const { judge, workers, last } = judgeWith();
    const op = operation("/v1/batch");
    const other = operation("/v1/other");
    quiet(judge.judge(op, element, bytes(), false));
    quiet(judge.judge(op, element, bytes(), true, 50));
    quiet(judge.judge(other, element, bytes(), false));
    quiet(judge.judge(undefined, element, bytes(), false));
    const sent = last().sent;
    expect(sent.map((request) => request.operation?.value)).toEqual([op, undefined, other, undefined]);
    const [first, second, third, fourth] = sent.map((request) => request.operation?.key);
    expect(second).toBe(first);
    expect(third).not.toBe(first);
    expect(fourth).toBeUndefined();
    expect(new Set(sent.map((request) => request.id)).size).toBe(4);
    expect(sent[1]).toMatchObject({ element, wantBody: true, maxBodyBytes: 50 });
    expect(sent[0]).toMatchObject({ wantBody: false, maxBodyBytes: Number.POSITIVE_INFINITY });
    expect(judge.count).toBe(4);
    // A new worker knows no operation: the next one sends it again.
    last().emit("exit", 1);
    quiet(judge.judge(op, element, bytes(), false));
    expect(workers).toHaveLength(2);
    expect(last().sent[0].operation?.value).toEqual(op);
    await judge.close();
  });

  it("moves a body's bytes when they own their memory, and copies a view of a larger buffer, whole or from its start or to its end", () => {
    const { judge, last } = judgeWith();
    const owned = bytes("owned");
    quiet(judge.judge(undefined, element, owned, false));
    expect(owned.buffer.byteLength).toBe(0); // moved: detached here
    const whole = bytes("xxsharedyy");
    for (const view of [whole.subarray(2, 8), whole.subarray(0, 8), whole.subarray(2)]) quiet(judge.judge(undefined, element, view, false));
    expect(whole.toString()).toBe("xxsharedyy"); // still readable: copied
    expect(last().sent.map((request) => Buffer.from(request.bytes).toString())).toEqual(["owned", "shared", "xxshared", "sharedyy"]);
    void judge.close();
  });

  it("settles each judgement with its reply: the judgement, or a failure named; a reply of no pending judgement is ignored", async () => {
    const { judge, last } = judgeWith();
    const first = watch(judge.judge(undefined, element, bytes(), false));
    const second = watch(judge.judge(undefined, element, bytes(), false));
    const [a, b] = last().sent.map((request) => request.id);
    last().reply({ ready: true });
    last().reply({ id: a, failure: "operation 9 was never sent to this worker" });
    last().reply({ id: a, judgement: VALID }); // again: no longer pending
    last().reply({ id: b + 100, judgement: VALID });
    await vi.advanceTimersByTimeAsync(0);
    expect(first.error?.message).toBe("judging a request body failed: operation 9 was never sent to this worker");
    expect(second.settled).toBe(false);
    last().reply({ id: b, judgement: { invalidJson: true, tooDeep: true } });
    await vi.advanceTimersByTimeAsync(0);
    expect(second.value).toEqual({ invalidJson: true, tooDeep: true });
    expect(judge.running).toBe(true);
    await judge.close();
  });

  it("bounds its start: past startMs without saying it is ready, it is stopped and its judgements fail; no judgement's clock runs before", async () => {
    const { judge, last } = judgeWith({ timeoutMs: 100, startMs: 200 });
    const pending = watch(judge.judge(undefined, element, bytes(), false));
    await vi.advanceTimersByTimeAsync(199);
    expect(pending.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(pending.error?.message).toBe("the worker judging request bodies did not start within 200 ms; it was stopped");
    expect(last().terminated).toBe(true);
    expect(judge.running).toBe(false);
  });

  it("bounds each judgement handed to a ready worker, those sent before it was ready from the moment it is", async () => {
    const { judge, last } = judgeWith({ timeoutMs: 100, startMs: 200 });
    const early = watch(judge.judge(undefined, element, bytes(), false));
    await vi.advanceTimersByTimeAsync(150);
    last().reply({ ready: true });
    await vi.advanceTimersByTimeAsync(99);
    expect(early.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(early.error?.message).toBe("judging a request body took more than 100 ms; the worker was stopped");
    expect(last().terminated).toBe(true);
    // The next worker, once ready, bounds a judgement handed to it then; its start's bound is off.
    const later = judgeWith({ timeoutMs: 100, startMs: 200 });
    quiet(later.judge.judge(undefined, element, bytes(), false));
    later.last().reply({ ready: true });
    const ready = watch(later.judge.judge(undefined, element, bytes(), false));
    later.last().reply({ id: later.last().sent[0].id, judgement: VALID });
    await vi.advanceTimersByTimeAsync(99);
    expect(ready.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(ready.error?.message).toBe("judging a request body took more than 100 ms; the worker was stopped");
    expect(later.judge.running).toBe(false);
  });

  it("once ready and answering in time, is not stopped by its start's bound", async () => {
    const { judge, last } = judgeWith({ timeoutMs: 1000, startMs: 200 });
    const pending = watch(judge.judge(undefined, element, bytes(), false));
    last().reply({ ready: true });
    await vi.advanceTimersByTimeAsync(500);
    expect(pending.settled).toBe(false);
    last().reply({ id: last().sent[0].id, judgement: VALID });
    await vi.advanceTimersByTimeAsync(0);
    expect(pending.value).toEqual(VALID);
    await judge.close();
  });

  it("ends after idleMs without work (not while a judgement is pending, nor when work came meanwhile); the next body starts another", async () => {
    const { judge, workers, last } = judgeWith({ timeoutMs: 10_000, idleMs: 300 });
    const a = watch(judge.judge(undefined, element, bytes(), false));
    const b = watch(judge.judge(undefined, element, bytes(), false));
    const worker = last();
    worker.reply({ ready: true });
    worker.reply({ id: worker.sent[0].id, judgement: VALID });
    await vi.advanceTimersByTimeAsync(300);
    expect(a.value).toEqual(VALID);
    expect(b.settled).toBe(false); // one still pending: not idle
    expect(judge.running).toBe(true);
    worker.reply({ id: worker.sent[1].id, judgement: VALID });
    await vi.advanceTimersByTimeAsync(200);
    // Work within idleMs of the last reply puts off the end.
    const c = watch(judge.judge(undefined, element, bytes(), false));
    await vi.advanceTimersByTimeAsync(150);
    expect(c.settled).toBe(false);
    expect(judge.running).toBe(true);
    worker.reply({ id: worker.sent[2].id, judgement: VALID });
    await vi.advanceTimersByTimeAsync(299);
    expect(judge.running).toBe(true);
    expect(worker.terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(judge.running).toBe(false);
    expect(worker.terminated).toBe(true);
    quiet(judge.judge(undefined, element, bytes(), false));
    expect(workers).toHaveLength(2);
    await judge.close();
  });

  it("fails what is pending when it fails or stops, and when the mock closes; a replaced worker's messages change nothing", async () => {
    const { judge, last } = judgeWith({ timeoutMs: 100, startMs: 200 });
    const crashed = watch(judge.judge(undefined, element, bytes(), false));
    const first = last();
    first.emit("error", new Error("out of memory"));
    const stopped = watch(judge.judge(undefined, element, bytes(), false));
    const second = last();
    expect(second).not.toBe(first);
    second.emit("exit", 1);
    const closed = watch(judge.judge(undefined, element, bytes(), false));
    const third = last();
    // The first two, already replaced, fail, stop or say they are ready: the third is not touched.
    first.emit("error", new Error("late"));
    second.emit("exit", 1);
    first.reply({ ready: true });
    await vi.advanceTimersByTimeAsync(150);
    expect(crashed.error?.message).toBe("the worker judging request bodies failed: out of memory");
    expect(stopped.error?.message).toBe("the worker judging request bodies stopped");
    expect(closed.settled).toBe(false);
    expect(third.terminated).toBe(false);
    await judge.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(closed.error?.message).toBe("the mock was closed");
    expect(third.terminated).toBe(true);
    expect(judge.running).toBe(false);
    await expect(new Judge().close()).resolves.toBeUndefined();
  });
});
