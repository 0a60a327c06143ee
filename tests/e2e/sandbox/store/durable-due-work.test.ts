/**
 * How the durable store finds work due without a request (src/sandbox/store/durable.ts `start`,
 * `close`) over a `file:` store in a scratch directory, in process: at start, on a store of one
 * process, every credential with work ahead is read and handed to `onLoad`; then, and every `pollMs`,
 * the credentials due are claimed under the store's owner name for `claimLeaseMs` and taken in, one
 * poll at a time; a `wakeAt` found stale is written again; a failure is told in one line and the
 * store goes on; a closed store stops polling and tells nothing more. Expectations: the module's
 * header, the backend's documented contract (src/sandbox/store/backend.ts) and hand-written values.
 */
import { hostname } from "node:os";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { DURABLE_DEFAULTS, DurableStore, type DurableStoreOptions } from "../../../../src/sandbox/store/durable.js";
import type { FileBackend } from "../../../../src/sandbox/store/file.js";
import { SandboxBudget } from "../../../../src/sandbox/store/limits.js";
import { type CredentialState, credentialKey } from "../../../../src/sandbox/store/state.js";
import { type Probe, Scratch } from "./durable-probe.js";

const scratch = new Scratch();
afterAll(() => scratch.close());
const stores: DurableStore[] = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const store of stores.splice(0)) await store.close();
});

const [DUE, AHEAD, IDLE] = ["due", "ahead", "idle"].map(credentialKey) as [string, string, string];
/** Longer than any test: only the poll at start runs, unless a test moves the fake clock. */
const NO_TICK = 3_600_000;

/** The lines a store tells, and a wait for the next one. */
function logLines() {
  const lines: string[] = [];
  let waiting: ((line: string) => void) | undefined;
  return {
    lines,
    log: (line: string) => {
      lines.push(line);
      waiting?.(line);
      waiting = undefined;
    },
    next: () => new Promise<string>((resolve) => (waiting = resolve)),
  };
}

function storeOn(probe: Probe, options: DurableStoreOptions = {}): DurableStore {
  const store = new DurableStore(probe, { budget: new SandboxBudget(), pollMs: NO_TICK, ...options });
  stores.push(store);
  return store;
}

/** A state with a move scheduled `inMs` from now (real clock): its work is due then. */
const scheduleIn = (inMs: number) => (state: CredentialState) => {
  const record = state.add("order", "o-1", { order_id: "o-1", status: "CREATED" });
  state.scheduleMove({ resource: "order", id: "o-1", seq: record.seq, action: "pay", at: state.now() + inMs, cause: "test" });
};

/** A new `file:` store holding DUE (work overdue), AHEAD (work in an hour) and IDLE (nothing due), written by a store since closed. */
async function leftBehind(): Promise<FileBackend> {
  const root = await scratch.store();
  const left = new DurableStore(await scratch.probe(root), { budget: new SandboxBudget() });
  await left.run(DUE, scheduleIn(-5_000));
  await left.run(AHEAD, scheduleIn(3_600_000));
  await left.run(IDLE, (state) => state.add("order", "o-1", { order_id: "o-1", status: "CREATED" }));
  await left.close();
  return root;
}

describe("a durable store's start", () => {
  it("on a store of one process: reads every credential with work ahead, then claims those due under its owner name, for the default lease", async () => {
    const probe = await scratch.probe(await leftBehind());
    const loads: string[] = [];
    const store = storeOn(probe, { onLoad: (state) => loads.push(state.key) });
    const claimed = probe.settled("claimDue");
    const before = Date.now();
    store.start();
    await claimed;
    expect(probe.calls.map((call) => call.method).filter((method) => method !== "transact")).toEqual(["scheduled", "claimDue"]);
    expect(probe.of("scheduled")).toEqual([[1000]]);
    // DUE and AHEAD have work ahead: each read, and handed over.
    expect(new Set(loads)).toEqual(new Set([DUE, AHEAD]));
    expect(
      store
        .states()
        .map((state) => state.key)
        .sort(),
    ).toEqual([DUE, AHEAD].sort());
    const [[now, owner, leaseMs, limit]] = probe.of("claimDue") as [[number, string, number, number]];
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
    expect(owner).toBe(store.owner);
    expect(owner).toMatch(
      new RegExp(
        `^${hostname().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/${process.pid}/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`,
      ),
    );
    expect(leaseMs).toBe(DURABLE_DEFAULTS.claimLeaseMs);
    expect(leaseMs).toBe(5_000);
    expect(limit).toBe(1000);
    // Each instance its own name.
    expect(storeOn(probe).owner).not.toBe(owner);
  });

  it("on a store several processes share: reads no schedule, claims what is due for the lease it is given, and takes each in", async () => {
    const probe = await scratch.probe(await leftBehind(), { shared: true });
    const loads: string[] = [];
    const store = storeOn(probe, { claimLeaseMs: 1_234, onLoad: (state) => loads.push(state.key) });
    const refreshed = probe.settled("transact");
    store.start();
    await refreshed;
    expect(probe.of("scheduled")).toEqual([]);
    expect(probe.of("claimDue").map((args) => args[2])).toEqual([1_234]);
    // Only DUE is due; AHEAD waits for its time.
    expect(probe.of("transact").map(([key]) => key)).toEqual([DUE]);
    expect(loads).toContain(DUE);
    expect(loads).not.toContain(AHEAD);
  });

  it("hands over a state found due that it holds already, current", async () => {
    const root = await scratch.store();
    const probe = await scratch.probe(root);
    const loads: string[] = [];
    let third!: () => void;
    const thirdLoad = new Promise<void>((resolve) => (third = resolve));
    const store = storeOn(probe, {
      onLoad: (state) => {
        if (loads.push(state.key) === 3) third();
      },
    });
    await store.run(DUE, scheduleIn(-5_000));
    expect(loads).toEqual([DUE]);
    store.start();
    await thirdLoad;
    // Read at start (work ahead), then claimed (due): handed over each time, though memory held it, and read no more.
    expect(loads).toEqual([DUE, DUE, DUE]);
    expect(probe.of("transact")).toEqual([
      [DUE, undefined],
      [DUE, 1],
      [DUE, 1],
    ]);
  });

  it("writes again a wakeAt found stale: a credential with nothing due is not found due again", async () => {
    const root = await scratch.store();
    const probe = await scratch.probe(root);
    const store = storeOn(probe);
    await store.run(IDLE, (state) => state.add("order", "o-1", { order_id: "o-1", status: "CREATED" }));
    // Stored as due, though its state has nothing due (as a change of another version could leave it).
    await probe.inner.transact(IDLE, undefined, () => ({ changes: { puts: [], deletes: [], wakeAt: Date.now() - 1_000 }, result: 0 }));
    expect(await probe.inner.scheduled(10)).toEqual([IDLE]);
    const claimed = probe.settled("claimDue");
    store.start();
    await claimed;
    expect(await probe.inner.scheduled(10)).toEqual([]);
    expect(await probe.inner.claimDue(Date.now(), "another", 1_000, 10)).toEqual([]);
  });

  it("runs once: a second start, or a start after close, reads and claims nothing more", async () => {
    const probe = await scratch.probe(await leftBehind());
    const store = storeOn(probe);
    const claimed = probe.settled("claimDue");
    store.start();
    store.start();
    await claimed;
    expect(probe.of("scheduled")).toHaveLength(1);
    expect(probe.of("claimDue")).toHaveLength(1);

    const closed = storeOn(await scratch.probe(await scratch.store()));
    await closed.close();
    closed.start();
    expect((closed.backend as Probe).calls.map((call) => call.method)).toEqual(["close"]);
  });
  it("keeps no process alive for its polling", async () => {
    const probe = await scratch.probe(await scratch.store(), { shared: true });
    const store = storeOn(probe);
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
    const before = timers();
    const claimed = probe.settled("claimDue");
    store.start();
    expect(timers()).toBe(before);
    await claimed;
  });

  it("stopped before its first pass ends: claims nothing", async () => {
    const probe = await scratch.probe(await leftBehind());
    const store = storeOn(probe);
    store.start();
    await store.close();
    expect(probe.of("scheduled")).toEqual([[1000]]);
    expect(probe.of("claimDue")).toEqual([]);
    expect(probe.of("transact")).toEqual([]);
  });
  it("hands over nothing for a credential found due with nothing stored", async () => {
    const probe = await scratch.probe(await scratch.store(), { shared: true });
    const loads: unknown[] = [];
    const { lines, log } = logLines();
    const store = storeOn(probe, { log, onLoad: (state) => loads.push(state) });
    // Due, but no row: no state to take in.
    await probe.inner.transact(IDLE, undefined, () => ({ changes: { puts: [], deletes: [], wakeAt: Date.now() - 1_000 }, result: 0 }));
    const read = probe.settled("transact");
    store.start();
    await read;
    expect(probe.of("transact")).toEqual([[IDLE, undefined]]);
    expect(loads).toEqual([]);
    expect(lines).toEqual([]);
    expect(store.size).toBe(0);
  });
  it("takes in what is due without onLoad, telling nothing", async () => {
    const probe = await scratch.probe(await leftBehind(), { shared: true });
    const { lines, log } = logLines();
    const store = storeOn(probe, { log });
    const read = probe.settled("transact");
    store.start();
    await read;
    expect(probe.of("transact")).toEqual([[DUE, undefined]]);
    expect(store.states().map((state) => state.key)).toEqual([DUE]);
    expect(lines).toEqual([]);
  });
});

describe("polling", () => {
  it("claims every pollMs (250 ms by default), one poll at a time, and stops at close", async () => {
    expect(DURABLE_DEFAULTS.pollMs).toBe(250);
    const probe = await scratch.probe(await scratch.store(), { shared: true });
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const store = storeOn(probe, { pollMs: undefined });
    let claimed = probe.settled("claimDue");
    store.start();
    await claimed;
    expect(probe.of("claimDue")).toHaveLength(1);
    vi.advanceTimersByTime(249);
    expect(probe.of("claimDue")).toHaveLength(1);
    claimed = probe.settled("claimDue");
    vi.advanceTimersByTime(1);
    await claimed;
    expect(probe.of("claimDue")).toHaveLength(2);
    // A poll that takes longer than pollMs: none other starts beside it.
    const held = probe.hold("claimDue");
    claimed = probe.settled("claimDue");
    vi.advanceTimersByTime(250);
    vi.advanceTimersByTime(250);
    vi.advanceTimersByTime(250);
    expect(probe.of("claimDue")).toHaveLength(3);
    held.release();
    await claimed;
    claimed = probe.settled("claimDue");
    vi.advanceTimersByTime(250);
    await claimed;
    expect(probe.of("claimDue")).toHaveLength(4);
    await store.close();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(probe.of("claimDue")).toHaveLength(4);
  });

  it("waits at close for the poll in flight, and tells nothing of its failure then", async () => {
    const probe = await scratch.probe(await scratch.store(), { shared: true });
    const { lines, log } = logLines();
    const store = storeOn(probe, { log });
    const held = probe.hold("claimDue");
    store.start();
    // The poll at start is under way (no schedule to read on a shared store).
    await Promise.resolve();
    expect(probe.of("claimDue")).toHaveLength(1);
    let closed = false;
    const closing = store.close().then(() => {
      closed = true;
    });
    probe.fail.claimDue = new Error("connection lost");
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    held.release();
    await closing;
    expect(lines).toEqual([]);
    expect(probe.of("close")).toHaveLength(1);
  });
  it("tells nothing of a credential's reading that fails once it is closing", async () => {
    const probe = await scratch.probe(await leftBehind(), { shared: true });
    const { lines, log } = logLines();
    const store = storeOn(probe, { log });
    const reading = probe.called("transact");
    const held = probe.hold("transact");
    store.start();
    // DUE claimed, its reading under way.
    await reading;
    const closing = store.close();
    probe.fail.transact = new Error("connection lost");
    held.release();
    await closing;
    expect(probe.of("transact")).toEqual([[DUE, undefined]]);
    expect(lines).toEqual([]);
  });
});

describe("a failure while looking for due work", () => {
  it("of the schedule at start: told in one line, no claim in that pass", async () => {
    const probe = await scratch.probe(await leftBehind());
    const { lines, log, next } = logLines();
    const store = storeOn(probe, { log });
    probe.fail.scheduled = new Error("disk unreadable");
    const told = next();
    store.start();
    expect(await told).toBe("sandbox store: the work left due could not be read: disk unreadable");
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(1);
    expect(probe.of("claimDue")).toEqual([]);
  });

  it("of a claim: told in one line", async () => {
    const probe = await scratch.probe(await scratch.store(), { shared: true });
    const { log, next } = logLines();
    const store = storeOn(probe, { log });
    probe.fail.claimDue = new Error("connection lost");
    const told = next();
    store.start();
    expect(await told).toBe("sandbox store: looking for due work failed: connection lost");
  });

  it("of reading a credential found due: told in one line naming the credential by its label", async () => {
    const probe = await scratch.probe(await leftBehind(), { shared: true });
    const { log, next } = logLines();
    const store = storeOn(probe, { log });
    probe.fail.transact = new Error("disk full");
    const told = next();
    store.start();
    expect(await told).toBe(
      `sandbox store: credential ${DUE.slice(0, 12)}: its due work could not be read: the sandbox's store could not keep this request's changes (disk full); nothing was changed`,
    );
  });

  it("is told on standard error by default", async () => {
    const probe = await scratch.probe(await scratch.store(), { shared: true });
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((text) => {
      written.push(String(text));
      return true;
    });
    const store = storeOn(probe);
    probe.fail.claimDue = new Error("connection lost");
    const failed = probe.settled("claimDue");
    store.start();
    await failed;
    expect(written.filter((text) => text.startsWith("sandbox store:"))).toEqual([
      "sandbox store: looking for due work failed: connection lost\n",
    ]);
  });
});
