/**
 * How long a shared sandbox holds an unanswered attempt before its next step
 * (src/sandbox/delivery/deliverer.ts: "on a shared sandbox ... the next step waits as if it had run
 * its whole timeout"): the next attempt is due the attempt's timeout after the attempt began, then
 * the backoff (policy.ts `backoff`: the base delay before the second attempt); an attempt that ran
 * longer than its timeout is not held at all. What the attempt took is set by the test: `fetch` fails
 * after moving the clock `performance.now` reads (the deliverer measures an attempt by it), so the
 * due time is read from the queue, not waited for.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { orderPaidEvent } from "../../../helpers/queued-delivery.js";
import { loadRegistry, repoRoot } from "../../../../src/registry.js";
import { Deliverer, type StateRunner } from "../../../../src/sandbox/delivery/deliverer.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";
import { TargetPolicy } from "../../../../src/sandbox/targets.js";

const registry = join(repoRoot, "tests/fixtures/mock/redocly.yaml");
const [shop] = loadRegistry(registry);
const TIMEOUT_MS = 30_000;
const BACKOFF_MS = 1_000;

const deliverers: Deliverer[] = [];
afterEach(() => {
  for (const d of deliverers.splice(0)) d.close();
  vi.restoreAllMocks();
});

/**
 * A shared sandbox's deliverer whose every attempt fails without an answer after `tookMs` on the
 * clock of `performance.now`; resolves with the credential's state once the first attempt's outcome
 * is recorded (its second run through the store's path: the lease, then the outcome).
 */
async function firstFailure(tookMs: number): Promise<{ state: CredentialState; before: number; after: number }> {
  const realNow = performance.now.bind(performance);
  let skew = 0;
  vi.spyOn(performance, "now").mockImplementation(() => realNow() + skew);
  let runs = 0;
  let recorded: () => void = () => undefined;
  const outcome = new Promise<void>((resolve) => (recorded = resolve));
  const run: StateRunner = (state, work) => {
    const result = work(state);
    if (++runs === 2) recorded();
    return result;
  };
  const d = new Deliverer({
    alias: shop.alias,
    registry,
    retry: { attempts: 3, baseDelayMs: BACKOFF_MS, maxDelayMs: BACKOFF_MS, timeoutMs: TIMEOUT_MS },
    targets: new TargetPolicy({ binding: "0.0.0.0", callbackAllow: ["127.0.0.1"] }),
    fetch: async () => {
      skew += tookMs;
      throw new TypeError("fetch failed");
    },
    run,
  });
  deliverers.push(d);
  const state = new CredentialState("k");
  const before = Date.now();
  d.enqueue(state, orderPaidEvent("http://127.0.0.1:9/hook"));
  await outcome;
  return { state, before, after: Date.now() };
}

describe("a shared sandbox's unanswered attempt", () => {
  it("that failed before its timeout: the next attempt is due the rest of the timeout, then the backoff, after it ended", async () => {
    const took = 10_000;
    const { state, before, after } = await firstFailure(took);
    const [pending] = state.queue;
    expect(pending).toMatchObject({ attempts: 1, next: "attempt" });
    expect(state.deliveries[0].attempts).toEqual([{ at: expect.any(String), status: 0 }]);
    // Ended at `now` (between before and after): due at now + (timeout - took) + backoff; the real
    // milliseconds the attempt took besides `took` come off the hold.
    const held = pending.dueAt - BACKOFF_MS - (TIMEOUT_MS - took);
    expect(held).toBeGreaterThanOrEqual(before - (after - before));
    expect(held).toBeLessThanOrEqual(after);
  });

  it("that ran past its timeout: not held, the next attempt is due the backoff after it ended", async () => {
    const { state, before, after } = await firstFailure(TIMEOUT_MS + 10_000);
    const [pending] = state.queue;
    expect(pending).toMatchObject({ attempts: 1, next: "attempt" });
    expect(pending.dueAt - BACKOFF_MS).toBeGreaterThanOrEqual(before);
    expect(pending.dueAt - BACKOFF_MS).toBeLessThanOrEqual(after);
  });
});
