/**
 * The judge's worker after a failure (src/mock/judge-thread.ts), on a stand-in worker and vitest's
 * fake clock: a worker that failed while idle takes its idle timer with it, so the worker started for
 * the next body runs its judgements to their end, however long after the failure they take.
 */
import { EventEmitter } from "node:events";
import type { Worker } from "node:worker_threads";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Judge, type JudgeReply, type JudgeRequest, type Judgement } from "../../../../src/mock/judge-thread.js";
import type { Element } from "../../../../src/mock/types.js";

/** A worker thread's stand-in: what it is sent, whether it was ended. */
class StandIn extends EventEmitter {
  readonly sent: JudgeRequest[] = [];
  terminated = false;
  postMessage(message: JudgeRequest) {
    this.sent.push(message);
  }
  terminate() {
    this.terminated = true;
    return Promise.resolve(1);
  }
  unref() {}
  reply(reply: JudgeReply) {
    this.emit("message", reply);
  }
}

const element: Omit<Element, "body"> = { method: "post", url: { path: "/v1/batch", query: {} }, headers: {} };
const VALID: Judgement = { invalidJson: false, findings: undefined };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("Judge after its idle worker failed", () => {
  it("the next worker is not ended by the failed one's idle timer: its judgement settles with its reply", async () => {
    const workers: StandIn[] = [];
    const WorkerThread = class extends StandIn {
      constructor() {
        super();
        workers.push(this);
      }
    } as unknown as typeof Worker;
    const judge = new Judge({ timeoutMs: 10_000, startMs: 10_000, idleMs: 300, WorkerThread });

    const first = judge.judge(undefined, element, Buffer.from("[1]"), false);
    const [failed] = workers;
    failed.reply({ ready: true });
    failed.reply({ id: failed.sent[0].id, judgement: VALID });
    expect(await first).toEqual(VALID);
    // Idle now (its idle timer runs), then it fails.
    await vi.advanceTimersByTimeAsync(100);
    failed.emit("error", new Error("out of memory"));
    expect(judge.running).toBe(false);

    let settled: { value?: Judgement; error?: Error } | undefined;
    judge.judge(undefined, element, Buffer.from("[2]"), false).then(
      (value) => (settled = { value }),
      (error: Error) => (settled = { error }),
    );
    expect(workers).toHaveLength(2);
    const next = workers[1];
    next.reply({ ready: true });
    // Past the moment the failed worker's idle timer was set to end it.
    await vi.advanceTimersByTimeAsync(400);
    expect(settled).toBeUndefined();
    expect(next.terminated).toBe(false);
    expect(judge.running).toBe(true);
    next.reply({ id: next.sent[0].id, judgement: VALID });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toEqual({ value: VALID });
    await judge.close();
  });
});
