/**
 * The credential's clock at its exact instants (src/sandbox/engine/clock.ts), through a sandbox mock
 * of Pay 1.3.0, whose declaration expires an invoice `expiry` hours after its creation and pays one
 * whose `item_id` is `sandbox_paid` 5 seconds after it (docs/guides/sandbox-test-values.md). The
 * process's clock is held still and moved by the test (only `Date` is faked: timers and sockets
 * run), so the sandbox clock can be put exactly on an instant: a millisecond before it nothing has
 * happened; at it, the move is made. The control API's advance (whole seconds) adds to it.
 */
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type MockServer, startMock } from "../../../../../src/mock/index.js";
import { findApi } from "../../../../../src/registry.js";
import { sandboxControl } from "../../../../../src/testing/index.js";
import { call } from "../../../../helpers/sandbox.js";

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock(findApi("pay@1.3.0"), { port: 0, sandbox: true });
});
afterAll(() => mock.close());
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-03-01T10:00:00.000Z"));
});
afterEach(() => vi.useRealTimers());

function partner() {
  const credential = `clock-${randomUUID()}`;
  const control = sandboxControl(mock.url, credential);
  const create = async (body: Record<string, unknown>) => {
    const created = await call(mock.url, "POST", "/v1/invoice", {
      headers: { authorization: `Bearer ${credential}` },
      body: { amount: { cur: "IDR", amt: "150000" }, ...body },
    });
    expect(created.status).toBe(200);
    return created.body.invoice_id as string;
  };
  const status = async (id: string) => (await control.record("invoice", id)).status;
  /** Moves time on by `ms` milliseconds: the process's clock, which the credential's follows. */
  const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);
  return { create, status, advance, control };
}

describe("expiry", () => {
  it("an invoice of expiry 1 (hour) is Created a millisecond before the hour, Expired at it", async () => {
    const { create, status, advance } = partner();
    const id = await create({ item_id: "SKU-1", expiry: 1 });
    await advance(3600_000 - 1);
    expect(await status(id)).toBe("Created");
    await advance(1);
    expect(await status(id)).toBe("Expired");
  });

  it("of two invoices, the one due expires and the other waits for its own time; the control API's advance counts", async () => {
    const { create, status, advance, control } = partner();
    const soon = await create({ item_id: "SKU-1", expiry: 1 });
    const later = await create({ item_id: "SKU-2", expiry: 2 });
    await control.advanceClock(3600);
    expect([await status(soon), await status(later)]).toEqual(["Expired", "Created"]);
    await advance(3600_000 - 1);
    expect(await status(later)).toBe("Created");
    await advance(1);
    expect(await status(later)).toBe("Expired");
  });
});

describe("a test value's delayed move", () => {
  it("item_id sandbox_paid: Created until 5 seconds, Success at 5 seconds", async () => {
    const { create, status, advance, control } = partner();
    const id = await create({ item_id: "sandbox_paid" });
    await advance(5000 - 1);
    expect(await status(id)).toBe("Created");
    await advance(1);
    expect(await status(id)).toBe("Success");
    expect((await control.events({ resourceId: id })).map((e) => e.to)).toEqual(["Success"]);
  });

  it("a move made by hand first leaves the scheduled one nothing to do", async () => {
    const { create, status, advance, control } = partner();
    const id = await create({ item_id: "sandbox_paid" });
    await control.act("invoice", id, "fail");
    await advance(5000);
    expect(await status(id)).toBe("Failed");
    expect((await control.events({ resourceId: id })).map((e) => e.to)).toEqual(["Failed"]);
  });
});
