/**
 * The durable store's one path (src/sandbox/store/durable.ts `DurableStore`) over a `file:` store in a
 * scratch directory, in process, without the engine: works on one credential run in order, each in a
 * transaction, and resolve once written; the bound of works waiting on one credential; a closed store
 * refusing; a work that throws rejects with its own error and a store that cannot write with a
 * StoreUnavailable, the state in memory read back as stored either way; `runExisting` for a credential
 * with nothing stored; states loaded handed to `onLoad`, states dropped to `onDrop`; the states kept
 * in memory (the cache's bound, the memory budget counted but never refusing, what has work due kept);
 * the operator's summaries; resets. Expectations: the store's documented behaviour
 * (src/sandbox/store/store.ts, durable.ts's header, src/sandbox/README.md) and hand-written values.
 */
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { DURABLE_DEFAULTS, DurableStore, type DurableStoreOptions } from "../../../../src/sandbox/store/durable.js";
import type { FileBackend } from "../../../../src/sandbox/store/file.js";
import { DEFAULT_BOUNDS, DEFAULT_BUDGET, LIMITS, LimitError, SandboxBudget } from "../../../../src/sandbox/store/limits.js";
import { type CredentialState, credentialKey } from "../../../../src/sandbox/store/state.js";
import { StoreUnavailable } from "../../../../src/sandbox/store/store.js";
import { type Probe, Scratch } from "./durable-probe.js";

const scratch = new Scratch();
afterAll(() => scratch.close());
const stores: DurableStore[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const store of stores.splice(0)) await store.close();
});

const [ONE, TWO, THREE] = ["one", "two", "three"].map(credentialKey) as [string, string, string];

async function storeOn(probe: Probe, options: DurableStoreOptions = {}): Promise<DurableStore> {
  const store = new DurableStore(probe, { budget: new SandboxBudget(), ...options });
  stores.push(store);
  return store;
}

/** A fresh `file:` store and a probe over its namespace of the shop API. */
async function fresh(): Promise<{ root: FileBackend; probe: Probe }> {
  const root = await scratch.store();
  return { root, probe: await scratch.probe(root) };
}

const order = (id: string) => ({ order_id: id, merchant_id: "m-1", status: "CREATED" });
const addOrder = (id: string) => (state: CredentialState) => state.add("order", id, order(id)).seq;
const orderIds = (state: CredentialState) => state.list("order").map((record) => record.id);

describe("a durable store's defaults", () => {
  it("counts in the process's memory budget and keeps LIMITS' idle time when given neither", async () => {
    const { probe } = await fresh();
    const store = new DurableStore(probe);
    stores.push(store);
    expect(store.durable).toBe(true);
    expect(store.backend).toBe(probe);
    expect(store.evictIdleSeconds).toBe(LIMITS.evictIdleSeconds);
    expect(store.budget.limit).toBe(DEFAULT_BUDGET.limit);
    const before = DEFAULT_BUDGET.used;
    store.budget.add(123);
    expect(DEFAULT_BUDGET.used).toBe(before + 123);
    store.budget.add(-123);
    expect(DEFAULT_BUDGET.used).toBe(before);
    expect((await storeOn(probe, { evictIdleSeconds: 30 })).evictIdleSeconds).toBe(30);
  });
});

describe("a durable store's budget", () => {
  it("counts its states in the budget it is given, never refuses a write for it, and hands out the budget's bounds", async () => {
    const { probe } = await fresh();
    const shared = new SandboxBudget(1_000);
    const quota = { records: 1, bytes: 100_000, events: 5, named: "partner acme's quota" };
    const budget = shared.withBounds((key) => (key === ONE ? quota : undefined));
    const [store, other] = [await storeOn(probe, { budget }), await storeOn(probe, { budget })];
    expect(store.budget.limit).toBe(1_000);
    // Past the limit: a durable store keeps its states on disk, so its budget never refuses.
    expect(store.budget.fits(1_000_000)).toBe(true);
    expect(store.budget.boundsOf(ONE)).toEqual(quota);
    expect(store.budget.boundsOf(TWO)).toEqual(DEFAULT_BOUNDS);

    await store.run(TWO, addOrder("o-1"));
    const bytes = store.states()[0]!.bytes;
    expect(bytes).toBeGreaterThan(0);
    // Its own states in its budget; every store's in the one it was given.
    expect(store.budget.used).toBe(bytes);
    expect(shared.used).toBe(bytes);
    other.budget.add(10);
    expect(store.budget.used).toBe(bytes);
    expect(shared.used).toBe(bytes + 10);
    other.budget.add(-10);

    // The partner's quota of one record: the second refused with the work's own LimitError, nothing kept of it.
    await store.run(ONE, addOrder("o-1"));
    const refusal = await store.run(ONE, addOrder("o-2")).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(LimitError);
    expect((refusal as Error).message).toBe(
      "this credential holds 1 records, partner acme's quota; reset its state (DELETE /_sandbox/state) to make room",
    );
    expect(await store.run(ONE, orderIds)).toEqual(["o-1"]);
  });

  it("lets idle states without due work leave memory once the budget is over its limit, not at it", async () => {
    const { probe } = await fresh();
    const shared = new SandboxBudget(10_000);
    const store = await storeOn(probe, { budget: shared });
    await store.run(ONE, addOrder("o-1"));
    const bytes = store.states()[0]!.bytes;
    // Other stores' states fill the budget to its limit exactly: still within it.
    shared.add(10_000 - bytes);
    expect(shared.used).toBe(10_000);
    await store.run(ONE, () => undefined);
    expect(store.size).toBe(1);
    // One byte over: the idle state leaves memory (after the work that found it so).
    shared.add(1);
    await store.run(ONE, () => undefined);
    expect(store.size).toBe(0);
    expect(store.states()).toEqual([]);
    expect(shared.used).toBe(10_001 - bytes);
    // ...and is read back as stored on its next work.
    expect(await store.run(ONE, orderIds)).toEqual(["o-1"]);
  });
});

describe("a credential's works", () => {
  it("run one after another in the order they came, each resolving once written", async () => {
    const { probe } = await fresh();
    const store = await storeOn(probe);
    const seen: number[] = [];
    const works = Array.from({ length: 5 }, (_, i) =>
      store.run(ONE, (state) => {
        seen.push(i);
        state.add("order", `o-${i}`, order(`o-${i}`));
        return i;
      }),
    );
    expect(await Promise.all(works)).toEqual([0, 1, 2, 3, 4]);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    // Each in a transaction of its own, every one on the version the one before it wrote.
    expect(probe.of("transact")).toEqual([
      [ONE, undefined],
      [ONE, 1],
      [ONE, 2],
      [ONE, 3],
      [ONE, 4],
    ]);
    // A second store on the same backend (another process) reads them back.
    const other = await storeOn(probe);
    expect(await other.run(ONE, orderIds)).toEqual(["o-0", "o-1", "o-2", "o-3", "o-4"]);
  });

  it("are bounded per credential: one beyond waits for none and is refused 503, other credentials unaffected", async () => {
    const { probe } = await fresh();
    const store = await storeOn(probe, { queuePerCredential: 2 });
    const held = probe.hold("transact");
    const first = store.run(ONE, addOrder("o-1"));
    const second = store.run(ONE, addOrder("o-2"));
    const refusal = await store.run(ONE, addOrder("o-3")).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StoreUnavailable);
    expect((refusal as Error).message).toBe(
      "2 requests of this credential are already waiting for the store, the sandbox's limit; retry later",
    );
    await expect(store.runExisting(ONE, orderIds)).rejects.toThrow("2 requests of this credential are already waiting");
    await expect(store.resetState(ONE)).rejects.toThrow("2 requests of this credential are already waiting");
    const other = store.run(TWO, addOrder("o-9"));
    held.release();
    expect(await Promise.all([first, second, other])).toEqual([1, 2, 1]);
    // Done: room again.
    expect(await store.run(ONE, orderIds)).toEqual(["o-1", "o-2"]);
  });

  it("keep their bound on a credential never stored across the end of its first work", async () => {
    const { probe } = await fresh();
    const store = await storeOn(probe, { queuePerCredential: 2 });
    const reader = credentialKey("reader");
    const started = probe.called("transact");
    const one = store.run(reader, () => 1);
    const two = store.run(reader, () => 2);
    await started;
    const second = probe.hold("transact");
    // The first ended having stored nothing; the second waits for the store.
    expect(await one).toBe(1);
    const three = store.run(reader, () => 3);
    // Refused at once, not queued behind the store.
    let refusal: unknown = "waiting";
    const four = store
      .run(reader, () => 4)
      .then(
        (value) => (refusal = value),
        (error: unknown) => (refusal = error),
      );
    await new Promise((resolve) => setImmediate(resolve));
    second.release();
    await four;
    expect(refusal).toBeInstanceOf(StoreUnavailable);
    expect((refusal as Error).message).toBe(
      "2 requests of this credential are already waiting for the store, the sandbox's limit; retry later",
    );
    expect(await Promise.all([two, three])).toEqual([2, 3]);
    expect(store.size).toBe(0);
  });

  it("wait up to 1000 on one credential by default", async () => {
    expect(DURABLE_DEFAULTS.queuePerCredential).toBe(1000);
    const { probe } = await fresh();
    const store = await storeOn(probe);
    const held = probe.hold("transact");
    const waiting = Array.from({ length: 1000 }, () => store.run(ONE, () => 1));
    await expect(store.run(ONE, () => 1)).rejects.toThrow(
      "1000 requests of this credential are already waiting for the store, the sandbox's limit; retry later",
    );
    held.release();
    expect(await Promise.all(waiting)).toHaveLength(1000);
  });

  it("that only read keep the version, whatever the wakeAt stored", async () => {
    const { probe } = await fresh();
    const store = await storeOn(probe);
    await store.run(ONE, addOrder("o-1"));
    // A wakeAt of another version of the sandbox: not what this state has due (nothing).
    const stale = Date.now() - 1_000;
    await probe.inner.transact(ONE, undefined, () => ({ changes: { puts: [], deletes: [], wakeAt: stale }, result: undefined }));
    expect(await store.run(ONE, orderIds)).toEqual(["o-1"]);
    expect(await store.run(ONE, (state) => state.count)).toBe(1);
    // Read at version 2 and read again at it: nothing written.
    expect(probe.of("transact").slice(-2)).toEqual([
      [ONE, 1],
      [ONE, 2],
    ]);
    const { version } = await probe.inner.transact(ONE, 2, () => ({ changes: { puts: [], deletes: [] }, result: undefined }));
    expect(version).toBe(2);
  });

  it("reject with the work's own error when it throws, and with a StoreUnavailable when the store cannot write; the state is read back as stored", async () => {
    const { probe } = await fresh();
    const store = await storeOn(probe);
    await store.run(ONE, addOrder("o-1"));
    const mine = new Error("refused by the engine");
    const thrown = await store
      .run(ONE, (state) => {
        state.add("order", "o-lost", order("o-lost"));
        throw mine;
      })
      .catch((error: unknown) => error);
    expect(thrown).toBe(mine);
    // Dropped from memory: the next work reads the stored rows (the transaction is handed them).
    expect(await store.run(ONE, orderIds)).toEqual(["o-1"]);
    expect(probe.of("transact").at(-1)).toEqual([ONE, undefined]);

    probe.fail.transact = new Error("disk full");
    const refused = await store.run(ONE, addOrder("o-lost")).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreUnavailable);
    expect((refused as Error).message).toBe("the sandbox's store could not keep this request's changes (disk full); nothing was changed");
    delete probe.fail.transact;
    expect(await store.run(ONE, orderIds)).toEqual(["o-1"]);
    expect(probe.of("transact").at(-1)).toEqual([ONE, undefined]);
  });
});

describe("a state loaded and dropped", () => {
  it("is handed to onLoad when read from the store, not when the copy in memory is current", async () => {
    const { probe } = await fresh();
    const loaded: string[][] = [];
    const onLoad = (state: CredentialState) => loaded.push(orderIds(state));
    const [a, b] = [await storeOn(probe, { onLoad }), await storeOn(probe)];
    await a.run(ONE, addOrder("o-1"));
    // A credential never stored: a new state, handed over too (once its work ran on it).
    expect(loaded).toEqual([["o-1"]]);
    await a.run(ONE, addOrder("o-2"));
    expect(loaded).toEqual([["o-1"]]);
    // Changed by another instance: read back and handed over.
    await b.run(ONE, addOrder("o-3"));
    expect(await a.run(ONE, orderIds)).toEqual(["o-1", "o-2", "o-3"]);
    expect(loaded).toEqual([["o-1"], ["o-1", "o-2", "o-3"]]);
    expect(a.states().map(orderIds)).toEqual([["o-1", "o-2", "o-3"]]);
  });

  it("gives its budget back when a newer one replaces it, and when a work on one just read fails", async () => {
    const { probe } = await fresh();
    const [a, b] = [await storeOn(probe), await storeOn(probe)];
    await a.run(ONE, addOrder("o-1"));
    await b.run(ONE, addOrder("o-2"));
    await a.run(ONE, () => undefined);
    // Two records now, counted once: the state read at version 1 gave its bytes back.
    expect(a.states()[0]!.count).toBe(2);
    expect(a.budget.used).toBe(a.states()[0]!.bytes);
    // Changed again elsewhere, then a write that fails: neither the copy held nor the one read stays counted.
    await b.run(ONE, addOrder("o-3"));
    probe.fail.transact = new Error("disk full");
    await expect(a.run(ONE, addOrder("o-4"))).rejects.toBeInstanceOf(StoreUnavailable);
    delete probe.fail.transact;
    expect(a.budget.used).toBe(0);
    expect(a.size).toBe(0);
  });

  it("runExisting: undefined without running the work for a credential nothing is stored for", async () => {
    const { probe } = await fresh();
    const dropped: CredentialState[] = [];
    const store = await storeOn(probe, { onDrop: (state) => dropped.push(state) });
    let ran = 0;
    const count = (state: CredentialState) => {
      ran++;
      return state.count;
    };
    expect(await store.runExisting(ONE, count)).toBeUndefined();
    expect(ran).toBe(0);
    // A state made by a work still in memory at version 0 (it wrote nothing): still nothing stored.
    const made = store.run(ONE, () => "made");
    expect(await store.runExisting(ONE, count)).toBeUndefined();
    expect(await made).toBe("made");
    expect(ran).toBe(0);
    expect(dropped).toEqual([]);
    expect(store.size).toBe(0);
    await store.run(ONE, addOrder("o-1"));
    expect(await store.runExisting(ONE, count)).toBe(1);
    expect(ran).toBe(1);
  });

  it("runExisting on a state reset through another instance: undefined, and what this one held is dropped", async () => {
    const { probe } = await fresh();
    const dropped: string[][] = [];
    const a = await storeOn(probe, { onDrop: (state) => dropped.push([state.key]) });
    const b = await storeOn(probe);
    await a.run(ONE, addOrder("o-1"));
    const held = a.states()[0]!;
    expect(await b.resetState(ONE)).toBe(1);
    expect(await a.runExisting(ONE, (state) => state.count)).toBeUndefined();
    expect(dropped).toEqual([[ONE]]);
    expect(a.size).toBe(0);
    expect(held.count).toBe(0);
    // Nothing to drop the next time.
    expect(await a.runExisting(ONE, (state) => state.count)).toBeUndefined();
    expect(dropped).toHaveLength(1);
  });

  it("is dropped at a reset, with its budget given back, and rejected as unavailable when the store cannot remove it", async () => {
    const { probe } = await fresh();
    const dropped: CredentialState[] = [];
    const store = await storeOn(probe, { onDrop: (state) => dropped.push(state) });
    await store.run(ONE, addOrder("o-1"));
    const state = store.states()[0]!;
    expect(await store.resetState(ONE)).toBe(1);
    expect(dropped).toEqual([state]);
    expect(store.budget.used).toBe(0);
    expect(store.size).toBe(0);
    expect(await store.runExisting(ONE, orderIds)).toBeUndefined();
    // A credential with nothing in memory: removed, nothing to drop.
    expect(await store.resetState(TWO)).toBe(1);
    expect(dropped).toHaveLength(1);

    await store.run(ONE, addOrder("o-2"));
    probe.fail.remove = new Error("database gone");
    const refusal = await store.resetState(ONE).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(StoreUnavailable);
    expect((refusal as Error).message).toBe("the sandbox's store could not reset this state (database gone)");
    delete probe.fail.remove;
    // Still stored, read back from the store (memory forgot it).
    expect(store.size).toBe(0);
    expect(await store.run(ONE, orderIds)).toEqual(["o-2"]);
    expect(probe.of("transact").at(-1)).toEqual([ONE, undefined]);
  });

  it("resetAll drops what this instance holds of a credential another instance reset", async () => {
    const { probe } = await fresh();
    const dropped: string[] = [];
    const a = await storeOn(probe, { onDrop: (state) => dropped.push(state.key) });
    const b = await storeOn(probe);
    await a.run(ONE, addOrder("o-1"));
    await b.resetState(ONE);
    expect(a.size).toBe(1);
    expect(await a.resetAll()).toBe(1);
    expect(dropped).toEqual([ONE]);
    expect(a.size).toBe(0);
    expect(a.budget.used).toBe(0);
  });

  it("resetAll removes every stored credential and those in memory, counting each once, none never stored", async () => {
    const { probe } = await fresh();
    const a = await storeOn(probe, { cacheCredentials: 1 });
    const b = await storeOn(probe);
    await a.run(ONE, addOrder("o-1"));
    await a.run(TWO, addOrder("o-1"));
    await b.run(THREE, addOrder("o-1"));
    // A credential whose first work is under way when the reset starts: nothing stored, not counted.
    const held = probe.hold("transact");
    const reading = a.run(credentialKey("reader"), () => "read");
    const resetting = a.resetAll();
    held.release();
    expect(await resetting).toBe(3);
    expect(await reading).toBe("read");
    expect(
      probe
        .of("remove")
        .map(([key]) => key)
        .sort(),
    ).toEqual([ONE, TWO, THREE].sort());
    expect(await b.runExisting(THREE, orderIds)).toBeUndefined();
    expect(await a.resetAll()).toBe(0);
  });
});

describe("the states kept in memory", () => {
  it("keep no credential never stored, and the stored ones up to the cache's bound, least recently used leaving first", async () => {
    const { probe } = await fresh();
    const store = await storeOn(probe, { cacheCredentials: 2 });
    await store.run(ONE, addOrder("o-1"));
    await store.run(TWO, addOrder("o-1"));
    // Read, never written: it leaves memory at once, and takes no room from the others.
    await store.run(credentialKey("reader"), () => undefined);
    expect(store.states().map((state) => state.key)).toEqual([ONE, TWO]);
    await store.run(ONE, () => undefined);
    expect(store.states().map((state) => state.key)).toEqual([TWO, ONE]);
    await store.run(THREE, addOrder("o-1"));
    // TWO was the least recently used.
    expect(store.states().map((state) => state.key)).toEqual([ONE, THREE]);
    expect(store.size).toBe(2);
  });

  it("keep a state with work due beyond the bound, and one whose work is under way", async () => {
    const { probe } = await fresh();
    const loads: string[] = [];
    const dropped: string[] = [];
    const store = await storeOn(probe, {
      cacheCredentials: 1,
      onLoad: (state) => loads.push(state.key),
      onDrop: (state) => dropped.push(state.key),
    });
    await store.run(ONE, (state) => {
      const record = state.add("order", "o-1", order("o-1"));
      state.scheduleMove({ resource: "order", id: "o-1", seq: record.seq, action: "pay", at: state.now() + 3_600_000, cause: "test" });
    });
    await store.run(TWO, addOrder("o-1"));
    await store.run(THREE, addOrder("o-1"));
    // ONE has a move due: it stays; the others leave, the bound being reached.
    expect(store.states().map((state) => state.key)).toEqual([ONE]);
    expect(await store.resetState(ONE)).toBe(1);
    expect(dropped).toEqual([ONE]);
    await store.run(TWO, (state) => state.count);
    expect(store.states().map((state) => state.key)).toEqual([TWO]);
    // TWO's reset waits for the store while THREE's work ends: TWO, the older, is not dropped under it...
    const held = probe.hold("remove");
    const reset = store.resetState(TWO);
    expect(await store.run(THREE, (state) => state.count)).toBe(1);
    expect(store.states().map((state) => state.key)).toEqual([TWO]);
    held.release();
    // ...but by its reset, its state handed to onDrop.
    expect(await reset).toBe(1);
    expect(dropped).toEqual([ONE, TWO]);
    expect(store.states()).toEqual([]);
    expect(loads).toEqual([ONE, TWO, THREE, TWO, THREE]);
  });

  it("count no credential never stored, even while its works run", async () => {
    const { probe } = await fresh();
    const store = await storeOn(probe);
    await store.run(ONE, addOrder("o-1"));
    const reader = credentialKey("reader");
    const first = store.run(reader, () => "read");
    // Runs on the state the first made, which nothing stored.
    const second = store.run(reader, (state) => [state.key === reader, store.size, store.states().map((s) => s.key)]);
    expect(await first).toBe("read");
    expect(await second).toEqual([true, 1, [ONE]]);
    expect(store.size).toBe(1);
  });
});

describe("the operator's summaries", () => {
  it("sum up every stored credential, as stored: a copy in memory only when it is current, nothing counted in the budget", async () => {
    const { probe } = await fresh();
    const [a, b] = [await storeOn(probe), await storeOn(probe)];
    await a.run(ONE, addOrder("o-1"));
    await a.run(TWO, (state) => {
      state.add("order", "o-1", order("o-1"));
      state.advanceClock(60_000);
    });
    await b.run(ONE, addOrder("o-2"));
    const used = a.budget.used;
    const summaries = await a.summaries();
    expect(summaries.sort((x, y) => (x.label < y.label ? -1 : 1))).toEqual(
      [
        { label: ONE.slice(0, 12), records: 2, clockOffsetMs: 0, errors: 0, deliveries: 0 },
        { label: TWO.slice(0, 12), records: 1, clockOffsetMs: 60_000, errors: 0, deliveries: 0 },
      ].sort((x, y) => (x.label < y.label ? -1 : 1)),
    );
    expect(a.budget.used).toBe(used);
  });
});

describe("a closed store", () => {
  it("refuses every work, and closes its backend once", async () => {
    const { probe } = await fresh();
    const store = new DurableStore(probe, { budget: new SandboxBudget() });
    await store.run(ONE, addOrder("o-1"));
    await store.close();
    await store.close();
    expect(probe.of("close")).toHaveLength(1);
    expect(store.size).toBe(0);
    for (const refused of [store.run(ONE, orderIds), store.runExisting(ONE, orderIds), store.resetState(ONE)]) {
      const error = await refused.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreUnavailable);
      expect((error as Error).message).toBe("the sandbox is stopping: its store is closed");
    }
  });

  it("waits for the works queued before it closes, and keeps what they wrote", async () => {
    const { root, probe } = await fresh();
    const store = new DurableStore(probe, { budget: new SandboxBudget() });
    const held = probe.hold("transact");
    const works = [store.run(ONE, addOrder("o-1")), store.run(ONE, addOrder("o-2")), store.run(TWO, addOrder("o-1"))];
    const closing = store.close();
    held.release();
    await closing;
    expect(await Promise.all(works)).toEqual([1, 2, 1]);
    expect(store.budget.used).toBe(0);
    expect(probe.of("close")).toHaveLength(1);
    const again = await storeOn(await scratch.probe(root));
    expect(await again.run(ONE, orderIds)).toEqual(["o-1", "o-2"]);
  });
});
