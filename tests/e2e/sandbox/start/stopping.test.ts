/**
 * Stopping a started sandbox (src/sandbox/start.ts `close`): the requests it is answering are
 * answered first, every one of them, and then at once; one that never ends is waited for DRAIN_MS at
 * most; a request whose answer was already written when the sandbox was asked about it is not
 * waited for. An engine still being made when stopping begins serves the request making it first
 * (on a durable store, its store is not closed under it), and is stopped once made; one a request
 * makes after stopping is stopped as soon as it is made. Requests here are the control API's,
 * through the `intercept` hook, each with a response of its own that says when its answer is
 * written (its `close` event), so each end is chosen.
 */
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { EngineContext } from "../../../../src/sandbox/engine/context.js";
import { DRAIN_MS, type StartedSandbox, startSandbox } from "../../../../src/sandbox/start.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const declarationPath = join(repoRoot, "tests/fixtures/sandbox/shop.sandbox.yaml");
const work = mkdtempSync(join(repoRoot, ".tmp", "sandbox-stopping-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A control request and a response that records its answer and closes when told to. */
function controlRequest(finished = false) {
  const written: { status?: number } = {};
  const response = Object.assign(new EventEmitter(), {
    writableFinished: finished,
    setHeader() {},
    writeHead(status: number) {
      written.status = status;
    },
    end() {},
  });
  const request = { method: "GET", url: "/_sandbox", headers: {} } as unknown as IncomingMessage;
  return { request, response, written, done: () => response.emit("close") };
}

/** One turn of the event loop: whatever follows an event through promises has run by then. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A sandbox with its engine made by a first control request, answered and closed. */
async function started(): Promise<{ sandbox: StartedSandbox; engineClose: ReturnType<typeof vi.fn> }> {
  const sandbox = await startSandbox(shop, { declarationPath, registry });
  const first = controlRequest();
  await sandbox.hooks.intercept!(first.request, first.response as unknown as ServerResponse, Buffer.alloc(0));
  first.done();
  expect(first.written.status).toBe(200);
  const made = sandbox.made()!;
  const engineClose = vi.spyOn(made, "close") as unknown as ReturnType<typeof vi.fn>;
  return { sandbox, engineClose };
}

/** Sends `call` to the started sandbox: answered, its response not closed yet. */
async function inFlight(sandbox: StartedSandbox, call = controlRequest()) {
  await sandbox.hooks.intercept!(call.request, call.response as unknown as ServerResponse, Buffer.alloc(0));
  expect(call.written.status).toBe(200);
  return call;
}

describe("stopping a started sandbox", () => {
  it("waits for every request in flight, then stops at once", async () => {
    const { sandbox, engineClose } = await started();
    const one = await inFlight(sandbox);
    const two = await inFlight(sandbox);
    const closing = sandbox.close();
    try {
      await turn();
      one.done();
      await turn();
      expect(engineClose).not.toHaveBeenCalled();
      two.done();
      await turn();
      expect(engineClose).toHaveBeenCalledTimes(1);
    } finally {
      one.done();
      two.done();
      await closing;
    }
  });

  it(`waits ${DRAIN_MS} ms at most for a request that never ends`, async () => {
    const { sandbox, engineClose } = await started();
    const never = await inFlight(sandbox);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const closing = sandbox.close();
    try {
      await vi.advanceTimersByTimeAsync(DRAIN_MS - 1);
      await turn();
      expect(engineClose).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      await turn();
      expect(engineClose).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
      // Its end, after stopping, changes nothing.
      never.done();
      await closing;
    }
    await turn();
    expect(engineClose).toHaveBeenCalledTimes(1);
  });

  it("does not wait for a request whose answer was written before the sandbox was asked about it", async () => {
    const { sandbox, engineClose } = await started();
    const written = await inFlight(sandbox, controlRequest(true));
    const closing = sandbox.close();
    try {
      await turn();
      expect(engineClose).toHaveBeenCalledTimes(1);
    } finally {
      written.done();
      await closing;
    }
  });
});

describe("stopping while the engine is being made", () => {
  /** A request for the credential's state, whose response closes once its answer is written. */
  const stateRequest = () => {
    const written: { status?: number; body?: string } = {};
    const response = Object.assign(new EventEmitter(), {
      writableFinished: false,
      setHeader() {},
      writeHead(status: number) {
        written.status = status;
      },
      end(body: string) {
        written.body = body;
        response.emit("close");
      },
    });
    const request = { method: "GET", url: "/_sandbox/state", headers: { authorization: "Bearer stopping" } } as unknown as IncomingMessage;
    return { request, response: response as unknown as ServerResponse, written };
  };

  it("answers the request that is making it, on a durable store, before stopping", async () => {
    const store = `file:${mkdtempSync(join(work, "store-"))}`;
    const sandbox = await startSandbox(shop, { declarationPath, registry, store });
    const first = stateRequest();
    const answered = sandbox.hooks.intercept!(first.request, first.response, Buffer.alloc(0));
    const closing = sandbox.close();
    await answered;
    await closing;
    expect(first.written.status).toBe(200);
    expect(JSON.parse(first.written.body!).resources).toEqual({});
  });

  it("is waited for and stopped, when the request making it is not waited for", async () => {
    const contextClose = vi.spyOn(EngineContext.prototype, "close");
    const sandbox = await startSandbox(shop, { declarationPath, registry });
    const written = controlRequest(true);
    const answered = sandbox.hooks.intercept!(written.request, written.response as unknown as ServerResponse, Buffer.alloc(0));
    await sandbox.close();
    expect(sandbox.made()).toBeDefined();
    expect(contextClose).toHaveBeenCalled();
    await answered;
  });

  it("is stopped at once when a request comes after stopping", async () => {
    const sandbox = await startSandbox(shop, { declarationPath, registry });
    await sandbox.close();
    const contextClose = vi.spyOn(EngineContext.prototype, "close");
    const late = controlRequest();
    await sandbox.hooks.intercept!(late.request, late.response as unknown as ServerResponse, Buffer.alloc(0));
    expect(sandbox.made()).toBeDefined();
    expect(contextClose).toHaveBeenCalledTimes(1);
  });
});
