/**
 * Work a durable store holds ahead at a sandbox's start (src/sandbox/start.ts): when the store holds
 * some (here: an order paid 5 seconds after its creation, a delayed move of the fixture's
 * declaration), the engine is made at start, to carry it out without waiting for a request; when it
 * holds none, the engine waits for the first request, and a store of one process (`file:`) is not
 * looked at again. A look at start that fails fails the start, the store given back.
 *
 * A store that other instances share (Postgres) is looked at every DURABLE_DEFAULTS.pollMs until a
 * request or the work found makes the engine. It is shown in process on a stand-in: the `file:`
 * store's views marked as shared, what they find ahead chosen by the test, on vitest's fake
 * interval (one look per interval, never two at once, a failed look tried again at the next).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { startMock } from "../../../../src/mock/index.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { startSandbox } from "../../../../src/sandbox/start.js";
import { DURABLE_DEFAULTS } from "../../../../src/sandbox/store/durable.js";
import { FileBackend } from "../../../../src/sandbox/store/file.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const work = mkdtempSync(join(repoRoot, ".tmp", "sandbox-work-ahead-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

let made = 0;
const storeAt = () => `file:${join(work, `store-${made++}`)}`;
const options = (store: string) => ({ declarationPath, registry, store });
const POLL_MS = DURABLE_DEFAULTS.pollMs;
/** One turn of the event loop: whatever follows a timer through promises has run by then. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The looks for work ahead the sandbox's start made (`scheduled(1)`; the engine's store asks for more at once). */
function looks() {
  const scheduled = vi.spyOn(FileBackend.prototype, "scheduled");
  return { scheduled, count: () => scheduled.mock.calls.filter(([limit]) => limit === 1).length };
}

/** The store's views that start.ts opens, marked as shared with other instances (as Postgres is). */
function sharedViews() {
  const scope = FileBackend.prototype.scope;
  vi.spyOn(FileBackend.prototype, "scope").mockImplementation(function (this: FileBackend, namespace: string) {
    const view = scope.call(this, namespace);
    (view as { shared: boolean }).shared = true;
    return view;
  });
}

describe("a durable store with work ahead at start", () => {
  it("has the engine made at start", async () => {
    const store = storeAt();
    const first = await startMock(shop, { port: 0, sandbox: options(store) });
    try {
      const created = await fetch(`${first.url}/v1/order`, {
        method: "POST",
        headers: { authorization: "Bearer work-ahead", "content-type": "application/json" },
        body: JSON.stringify({ merchant_id: "m-paid-later", amount: { cur: "PHP", amt: "1.00" } }),
      });
      expect(created.status).toBe(200);
    } finally {
      await first.close();
    }
    const sandbox = await startSandbox(shop, options(store));
    try {
      expect(sandbox.made()).toBeDefined();
    } finally {
      await sandbox.close();
    }
  });
});

describe("a durable store of one process without work ahead", () => {
  it("waits for a request to make the engine, and is not looked at again", async () => {
    const { count } = looks();
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const sandbox = await startSandbox(shop, options(storeAt()));
    try {
      expect(count()).toBe(1);
      await vi.advanceTimersByTimeAsync(POLL_MS * 4);
      await turn();
      expect(count()).toBe(1);
    } finally {
      await sandbox.close();
    }
    expect(sandbox.made()).toBeUndefined();
  });
});

describe("a look for work ahead that fails at start", () => {
  it("fails the start with its error, the store given back", async () => {
    const { scheduled } = looks();
    scheduled.mockRejectedValueOnce(new Error("the store cannot be read"));
    const closed = vi.spyOn(FileBackend.prototype, "close");
    await expect(startSandbox(shop, options(storeAt()))).rejects.toThrow("the store cannot be read");
    expect(closed).toHaveBeenCalled();
  });
});

describe("a durable store shared with other instances (a stand-in)", () => {
  it("is looked at every interval until work is found, which makes the engine; then no more", async () => {
    sharedViews();
    const { scheduled, count } = looks();
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const none = () => Promise.resolve([] as string[]);
    scheduled.mockImplementationOnce(none); // at start
    const sandbox = await startSandbox(shop, options(storeAt()));
    const tick = async () => {
      await vi.advanceTimersByTimeAsync(POLL_MS);
      await turn();
    };
    let release: (keys: string[]) => void = () => {};
    try {
      expect(count()).toBe(1);
      // Nothing ahead: looked at again at the next interval.
      scheduled.mockImplementationOnce(none);
      await tick();
      expect(count()).toBe(2);
      // A look that fails is made again at the next interval.
      scheduled.mockImplementationOnce(() => Promise.reject(new Error("connection lost")));
      await tick();
      expect(count()).toBe(3);
      // A look that takes longer than the interval: no second look while it runs.
      scheduled.mockImplementationOnce(() => new Promise<string[]>((resolve) => (release = resolve)));
      await tick();
      expect(count()).toBe(4);
      await tick();
      await tick();
      expect(count()).toBe(4);
      release([]);
      await turn();
      scheduled.mockImplementationOnce(none);
      await tick();
      expect(count()).toBe(5);
      expect(sandbox.made()).toBeUndefined();
      // Another instance left work: the engine is made, and the store is not looked at again.
      scheduled.mockImplementationOnce(() => Promise.resolve(["credential-of-another-instance"]));
      await tick();
      expect(count()).toBe(6);
      await tick();
      await tick();
      expect(count()).toBe(6);
    } finally {
      release([]);
      vi.useRealTimers();
      await sandbox.close();
    }
    expect(sandbox.made()).toBeDefined();
  });

  it("is no longer looked at once it stops, and has made no engine when nothing was ahead", async () => {
    sharedViews();
    const { scheduled, count } = looks();
    scheduled.mockImplementation(() => Promise.resolve([]));
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const sandbox = await startSandbox(shop, options(storeAt()));
    await vi.advanceTimersByTimeAsync(POLL_MS);
    await turn();
    expect(count()).toBe(2);
    await sandbox.close();
    await vi.advanceTimersByTimeAsync(POLL_MS * 4);
    await turn();
    expect(count()).toBe(2);
    expect(sandbox.made()).toBeUndefined();
  });
});
