/**
 * The deliverer's work through the store's one path (src/sandbox/delivery/deliverer.ts `run`), where
 * a durable store differs from the memory store: each run may be handed the credential's state read
 * back from its rows (a state another instance wrote), a run that throws writes nothing, and a run
 * answers later than it is asked (the store's I/O). What src/sandbox/README.md and the deliverer's
 * header say holds there too: an attempt's outcome is recorded on the delivery as the store holds it
 * now (a cancelled one's on its log entry), stopping waits for the outcome to be written (`drain`),
 * and a credential's queue is looked at only while something waits in it: not after its last
 * delivery, not after a reset, not for a state read back with nothing queued.
 *
 * A step that runs on the very millisecond its delivery is due, or another instance's lease ends,
 * makes the attempt then (due means due).
 *
 * Waits are on events: a receiver's arrivals, `idle()`, a count of the store's runs, and, to show
 * that nothing ran for a credential up to a time, another credential's retry due after that time
 * (the scheduler makes what is due in the order of the due times). No sleeps.
 */
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { type HookReceiver, useHookReceivers } from "../../../helpers/hook-receiver.js";
import { orderPaidEvent, queuedDeliveryState } from "../../../helpers/queued-delivery.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { Deliverer, type StateRunner } from "../../../../src/sandbox/delivery/deliverer.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const payload = { order_id: "o-1", status: "PAID" };
const CANCELLED = "the credential's state was reset or dropped before the delivery succeeded";
const { receiver, closeAfter } = useHookReceivers();
/** A delivery that never ends fails its test in seconds, not at the suite's bound. */
const BOUND_MS = 10_000;

const event = (url: string) => orderPaidEvent(url, { idempotencyKey: "key-of-the-event" });

/**
 * A store that keeps each credential's state as its rows: every run works on a state read back from
 * them and writes the rows back only when the work returns (a run that throws writes nothing);
 * `io`: each run waits a turn of the event loop first, as a store's read does.
 */
class RowStore {
  private readonly rows = new Map<string, unknown>();
  constructor(private readonly io = false) {}

  read(key: string): CredentialState {
    const rows = this.rows.get(key) ?? new CredentialState(key).rows();
    return CredentialState.load({ key, version: 1, rows: JSON.parse(JSON.stringify(rows)) });
  }

  private work<T>(key: string, work: (current: CredentialState) => T): T {
    const current = this.read(key);
    const result = work(current);
    this.rows.set(key, JSON.parse(JSON.stringify(current.rows())));
    return result;
  }

  readonly run: StateRunner = <T>(state: CredentialState, work: (current: CredentialState) => T) =>
    this.io ? new Promise<T>((resolve) => setImmediate(() => resolve(this.work(state.key, work)))) : this.work(state.key, work);
}

/** A runner on the state it is given (the memory store's), which counts its runs by credential and wakes waiters after each. */
function countingRunner() {
  const runs: Array<string | undefined> = [];
  const waiters: Array<() => void> = [];
  const run: StateRunner = (state, work) => {
    runs.push(state?.key);
    try {
      return work(state);
    } finally {
      for (const wake of waiters.splice(0)) wake();
    }
  };
  const count = (key: string) => runs.filter((k) => k === key).length;
  /** Resolves once `key` has had `n` runs. */
  const ran = (key: string, n: number) =>
    new Promise<void>((resolve) => {
      const check = () => (count(key) >= n ? resolve() : waiters.push(check));
      check();
    });
  return { run, runs, count, ran };
}

function deliverer(run: StateRunner, retry: { attempts?: number; baseDelayMs?: number; timeoutMs?: number } = {}) {
  const baseDelayMs = retry.baseDelayMs ?? 1;
  return closeAfter(
    new Deliverer({
      alias: shop.alias,
      registry,
      retry: { attempts: retry.attempts ?? 3, baseDelayMs, maxDelayMs: baseDelayMs, timeoutMs: retry.timeoutMs ?? 30_000 },
      run,
    }),
  );
}

describe("a store that hands each run the state read back from its rows", () => {
  it(
    "holds the attempt's outcome on the delivery as stored: delivered once, the attempt in its log",
    async () => {
      const target = await receiver([200]);
      const store = new RowStore();
      const d = deliverer(store.run);
      store.run(new CredentialState("k"), (state) => d.enqueue(state, event(target.url)));
      await d.idle();
      const [entry] = store.read("k").deliveries;
      expect(entry).toMatchObject({ state: "delivered", deliveredCount: 1, idempotencyKey: "key-of-the-event" });
      expect(entry.attempts.map((a) => a.status)).toEqual([200]);
      expect(store.read("k").queue).toEqual([]);
    },
    BOUND_MS,
  );

  it(
    "holds a cancelled delivery's attempt in flight on its log entry as stored",
    async () => {
      const target = await receiver();
      const store = new RowStore();
      const d = deliverer(store.run);
      store.run(new CredentialState("k"), (state) => d.enqueue(state, event(target.url)));
      await target.arrived(1);
      store.run(new CredentialState("k"), (state) => d.cancel(state));
      target.answer(200); // the cancelled attempt's request, aborted already
      await d.idle();
      const [entry] = store.read("k").deliveries;
      expect(entry).toMatchObject({ state: "failed", note: CANCELLED, deliveredCount: 0 });
      // The attempt aborted by the reset: no answer, its error logged (a local sandbox).
      expect(entry.attempts).toEqual([{ at: expect.any(String), status: 0, error: expect.any(String), durationMs: expect.any(Number) }]);
      expect(target.seen).toHaveLength(1);
    },
    BOUND_MS,
  );
});

describe("stopping over a store that writes later than it is asked", () => {
  it(
    "drain resolves once the attempt's outcome is written",
    async () => {
      const target = await receiver();
      const store = new RowStore(true);
      const d = deliverer(store.run);
      await store.run(new CredentialState("k"), (state) => d.enqueue(state, event(target.url)));
      await target.arrived(1);
      target.answer(200);
      await d.drain(10_000);
      const [entry] = store.read("k").deliveries;
      expect(entry).toMatchObject({ state: "delivered", deliveredCount: 1 });
      expect(entry.attempts.map((a) => a.status)).toEqual([200]);
    },
    BOUND_MS,
  );
});

describe("a credential's queue is looked at only while something waits in it", () => {
  /**
   * A time mark: credential `clock`'s delivery, refused once, whose retry comes `baseDelayMs` after
   * that: its second arrival follows every step due before it.
   */
  async function clockMark(d: Deliverer): Promise<HookReceiver> {
    const clock = await receiver([503, 200]);
    d.enqueue(new CredentialState("clock"), event(clock.url));
    return clock;
  }

  it(
    "after its last delivery, no step runs for it again (an attempt's timeout later included)",
    async () => {
      const target = await receiver([200]);
      const counting = countingRunner();
      const d = deliverer(counting.run, { baseDelayMs: 800, timeoutMs: 500 });
      const state = new CredentialState("k");
      const entry = d.enqueue(state, event(target.url));
      // The runs made for k up to its delivery's outcome (recorded inside the last of them).
      let untilDelivered: number | undefined;
      d.onOutcome = (outcome) => {
        if (outcome === "delivered" && entry.state === "delivered") untilDelivered ??= counting.count("k");
      };
      await target.arrived(1);
      const clock = await clockMark(d);
      await clock.arrived(2);
      await d.idle();
      expect(entry).toMatchObject({ state: "delivered", deliveredCount: 1 });
      // After the outcome, the one step that finds the queue empty: none after it.
      expect(counting.count("k")).toBe(untilDelivered! + 1);
    },
    BOUND_MS,
  );

  it(
    "after a reset, the step its retry was due for does not run",
    async () => {
      const target = await receiver([503]);
      const counting = countingRunner();
      const d = deliverer(counting.run, { baseDelayMs: 300 });
      const state = new CredentialState("k");
      const entry = d.enqueue(state, event(target.url));
      // The lease of the first attempt, its outcome, and the step that sets the retry 300 ms ahead.
      await counting.ran("k", 3);
      expect(state.queue[0]).toMatchObject({ attempts: 1, next: "attempt" });
      d.cancel(state);
      const before = counting.count("k");
      const clock = await clockMark(d);
      await clock.arrived(2);
      expect(counting.count("k")).toBe(before);
      expect(entry).toMatchObject({ state: "failed", note: CANCELLED });
      expect(target.seen).toHaveLength(1);
    },
    BOUND_MS,
  );

  it(
    "read back with nothing queued, the step due for the state kept before does not run",
    async () => {
      const target = await receiver([200]);
      const counting = countingRunner();
      const d = deliverer(counting.run, { baseDelayMs: 300 });
      // A state loaded with a delivery due in 100 ms, then read back with nothing queued (another instance delivered it).
      d.watch(queuedDeliveryState(target.url, { name: "queued", payload, due: Date.now() + 100 }));
      d.watch(new CredentialState("k"));
      const clock = await clockMark(d);
      await clock.arrived(2);
      expect(counting.runs.filter((key) => key !== "clock")).toEqual([]);
      expect(target.seen).toEqual([]);
    },
    BOUND_MS,
  );
});

describe("a step on the very millisecond a delivery is due", () => {
  /** Runs `body` with Date.now stopped at one millisecond, so each step runs on the millisecond its delivery is due. */
  async function onOneMillisecond(body: (now: number) => Promise<void>): Promise<void> {
    const now = Date.now();
    const stopped = vi.spyOn(Date, "now").mockReturnValue(now);
    try {
      await body(now);
    } finally {
      stopped.mockRestore();
    }
  }

  it(
    "makes the attempt due now",
    async () => {
      const target = await receiver([200]);
      const d = deliverer((state, work) => work(state));
      await onOneMillisecond(async () => {
        const entry = d.enqueue(new CredentialState("k"), event(target.url));
        await d.idle();
        expect(entry).toMatchObject({ state: "delivered", deliveredCount: 1 });
      });
    },
    BOUND_MS,
  );

  it(
    "takes over another instance's lease that ends now (shared leases), with the event's key",
    async () => {
      const target = await receiver([200]);
      const d = closeAfter(
        new Deliverer({
          alias: shop.alias,
          registry,
          retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1, timeoutMs: 30_000 },
          leases: "shared",
        }),
      );
      await onOneMillisecond(async (now) => {
        const loaded = queuedDeliveryState(target.url, { name: "queued", payload, attempts: 1, lease: now });
        d.watch(loaded);
        await d.idle();
        expect(loaded.deliveries[0]).toMatchObject({ state: "delivered", deliveredCount: 1 });
        // The attempt the other instance left without an outcome, then this one's.
        expect(loaded.deliveries[0].attempts.map((a) => a.status)).toEqual([0, 200]);
        expect(target.seen.map((s) => s.key)).toEqual(["key-of-the-queued-delivery"]);
      });
    },
    BOUND_MS,
  );
});
