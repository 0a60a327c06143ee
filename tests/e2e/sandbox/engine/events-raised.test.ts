/**
 * The event a status change raises and its keeping (src/sandbox/engine/events.ts), on hand-written
 * resources without callbacks, so no engine is needed: its id (`evt_` and 16 base32 characters, as the
 * control document's example `evt_3K7Q1M9D2X8C4V6B`), its type (`<resource>.<action>`, and
 * `<resource>.status` for a resource without lifecycle: src/sandbox/openapi.yaml `Event`), its change,
 * and the event kept in the credential's state, counted by the bytes of its JSON form in the
 * credential's bound and the memory budget.
 */
import { describe, expect, it } from "vitest";
import type { ResourceDeclaration } from "../../../../src/sandbox/declaration.js";
import type { CallbackEvent } from "../../../../src/sandbox/delivery/deliverer.js";
import type { EngineContext } from "../../../../src/sandbox/engine/context.js";
import { type Change, eventOf, keep } from "../../../../src/sandbox/engine/events.js";
import { SandboxBudget } from "../../../../src/sandbox/store/limits.js";
import { CredentialState, credentialKey } from "../../../../src/sandbox/store/state.js";
import type { StoredRecord } from "../../../../src/sandbox/store/types.js";
import { freshModule } from "../../../helpers/fresh-module.js";

const base: ResourceDeclaration = {
  name: "mandate",
  source: "test",
  schema: "#/components/schemas/Mandate",
  singleton: false,
  id: { field: "mandate_id", prefix: "mdt_", digits: false },
  callbacks: [],
  testValues: [],
  status: { field: "status", initial: "PENDING", source: "test" },
};
const revoke = { name: "revoke", from: ["ACTIVE"], to: "REVOKED" };
const withLifecycle: ResourceDeclaration = { ...base, status: { ...base.status!, moves: { revoke } } };

/** No callbacks: the event is built and kept without the engine's document or deliverer. */
const noEngine = {} as EngineContext;
const record: StoredRecord = {
  resource: "mandate",
  id: "mdt_1",
  data: { mandate_id: "mdt_1", status: "ACTIVE" },
  seq: 1,
  bytes: 0,
  members: 0,
};
const change = (resource: ResourceDeclaration, move: Change["move"], to = "REVOKED"): Change => ({
  resource,
  record,
  data: { ...record.data, status: to },
  from: "ACTIVE",
  to,
  move,
  cause: "control",
  ctx: {},
});

describe("an event", () => {
  it("of a resource without lifecycle is `<resource>.status`, with the change and no action", () => {
    const state = new CredentialState(credentialKey("token-of-a-status-event"));
    const event = eventOf(noEngine, state, change(base, undefined, "SUSPENDED"));
    expect(event).toMatchObject({ type: "mandate.status", resource: "mandate", resourceId: "mdt_1", from: "ACTIVE", to: "SUSPENDED" });
    expect(event).not.toHaveProperty("action");
  });

  it("of a lifecycle's move is `<resource>.<action>`, with its action", () => {
    const state = new CredentialState(credentialKey("token-of-an-action-event"));
    const event = eventOf(noEngine, state, change(withLifecycle, revoke));
    expect(event).toMatchObject({ type: "mandate.revoke", action: "revoke", from: "ACTIVE", to: "REVOKED", cause: "control" });
  });

  it("has an id of evt_ and 16 base32 characters, and an Idempotency-Key of its own", () => {
    const state = new CredentialState(credentialKey("token-of-event-ids"));
    const [a, b] = [eventOf(noEngine, state, change(base, undefined)), eventOf(noEngine, state, change(base, undefined))];
    for (const event of [a, b]) {
      expect(event.id).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{16}$/);
      expect(event.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(a.id).not.toBe(b.id);
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
  });
});

describe("keeping an event", () => {
  it("keeps it in the credential's state, counted by the bytes of its JSON form", async () => {
    // A new instance of the module: what it makes as it loads (eventBytes) is then made in this test.
    const events = await freshModule<typeof import("../../../../src/sandbox/engine/events.js")>("src/sandbox/engine/events.ts");
    const budget = new SandboxBudget(1024 * 1024);
    const state = new CredentialState(credentialKey("token-of-a-kept-event"), budget);
    const event = events.eventOf(noEngine, state, change(withLifecycle, revoke));
    const bytes = Buffer.byteLength(JSON.stringify(event));
    expect(events.keep(noEngine, state, event)).toEqual([]);
    expect(state.events.map((kept) => kept.event.id)).toEqual([event.id]);
    expect(state.eventBytes).toBe(bytes);
    expect(budget.used).toBe(bytes);
  });

  it("queues each of its callbacks once, or twice when asked, with the event's Idempotency-Key", () => {
    const queued: CallbackEvent[] = [];
    const recorder = {
      deliverer: {
        enqueue: (_state: CredentialState, callback: CallbackEvent) => {
          queued.push(callback);
          return { id: `dlv_${queued.length}` };
        },
      },
    } as unknown as EngineContext;
    const state = new CredentialState(credentialKey("token-of-queued-callbacks"));
    const raise = () => {
      const event = eventOf(noEngine, state, change(withLifecycle, revoke));
      event.callbacks.push({ webhook: "mandateRevoked", url: "http://127.0.0.1:9/hook", payload: { mandate_id: "mdt_1" } });
      return event;
    };
    const once = raise();
    expect(keep(recorder, state, once).map((entry) => entry.id)).toEqual(["dlv_1"]);
    const twice = raise();
    keep(recorder, state, twice, true);
    expect(queued.map((q) => [q.webhook, q.times, q.idempotencyKey])).toEqual([
      ["mandateRevoked", 1, once.idempotencyKey],
      ["mandateRevoked", 2, twice.idempotencyKey],
    ]);
    expect(queued[0]).toMatchObject({
      resource: "mandate",
      resourceId: "mdt_1",
      event: { from: "ACTIVE", to: "REVOKED", cause: "control" },
    });
    expect([once.deliveries, twice.deliveries]).toEqual([["dlv_1"], ["dlv_2"]]);
  });
});
