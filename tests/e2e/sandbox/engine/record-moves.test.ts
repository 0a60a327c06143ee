/**
 * Records found, made and moved, alone (src/sandbox/engine/records.ts, src/sandbox/engine/move.ts
 * `moveStatus`), on an in-memory credential state and a hand-written declaration: reminders with a
 * lifecycle whose `remind` move leads from Sent back to Sent (a move to the status the record has
 * "changes nothing and raises nothing", move.ts), `settle` from Sent to Settled (which sets
 * `settled_by`), and two singletons, an account and a profile.
 *
 * `freshId` draws an id none of the credential's records has. `findRecord` takes the id a template
 * gives: a string, or a number (a JSON body's numeric id names the record whose id is its digits);
 * anything else names no record. A singleton is found by no id, an empty one, or its own, and by no
 * other; it is made on first use from its `initial` template. `$resource.<name>` reads the singleton
 * of the credential whose request runs, as it is now; a name that is no singleton reads as nothing.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ResourceDeclaration } from "../../../../src/sandbox/declaration.js";
import type { EngineContext } from "../../../../src/sandbox/engine/context.js";
import { moveStatus } from "../../../../src/sandbox/engine/move.js";
import { findRecord, freshId, singleton, templateContext } from "../../../../src/sandbox/engine/records.js";
import { CredentialState } from "../../../../src/sandbox/store/state.js";
import type { StoredRecord } from "../../../../src/sandbox/store/types.js";
import { evaluate } from "../../../../src/sandbox/template/index.js";
import { Instant, type Json } from "../../../../src/sandbox/values.js";

const reminder: ResourceDeclaration = {
  name: "reminder",
  source: "Pay Service Interface, line 10",
  schema: "#/components/schemas/Reminder",
  singleton: false,
  id: { field: "reminder_id", prefix: "", digits: true },
  callbacks: [],
  testValues: [],
  status: {
    field: "status",
    initial: "Sent",
    source: "Pay Service Interface, line 11",
    final: ["Settled"],
    moves: {
      remind: { name: "remind", from: ["Sent"], to: "Sent", set: { reminded: true } },
      settle: { name: "settle", from: ["Sent"], to: "Settled", set: { settled_by: "$event.cause" } },
    },
  },
  on: { "*": { set: { changed: "$status" } } },
};
const account: ResourceDeclaration = {
  name: "account",
  source: "Pay Service Interface, line 20",
  schema: "#/components/schemas/Account",
  singleton: true,
  id: { field: "account_id", prefix: "acc_", digits: false },
  initial: { name: "Sandbox account", own_id: "$id", opened: "$now" },
  callbacks: [],
  testValues: [],
};
const profile: ResourceDeclaration = {
  ...account,
  name: "profile",
  id: { field: "profile_id", prefix: "prf_", digits: false },
  initial: { name: "Sandbox profile" },
};
const resources: Record<string, ResourceDeclaration> = { reminder, account, profile };
/** The part of the engine's context these read: the declaration's resources; events kept at once. */
const engine = {
  declaration: { resources, operations: {} },
  resource: (name: string) => resources[name],
  deferred: undefined,
} as unknown as EngineContext;

function stateWithReminder() {
  const state = new CredentialState("record-moves");
  const record = state.add("reminder", "42", { reminder_id: "42", status: "Sent" });
  return { state, record };
}
const find = (state: CredentialState, resource: ResourceDeclaration, request: Json) =>
  findRecord(engine, state, resource, "$request.id", templateContext(engine, state, request, {}));

describe("findRecord", () => {
  it("finds a record by its id given as a string or as a number, and by nothing else", () => {
    const { state, record } = stateWithReminder();
    expect(find(state, reminder, { id: "42" })).toBe(record);
    expect(find(state, reminder, { id: 42 })).toBe(record);
    expect(find(state, reminder, { id: 43 })).toBeUndefined();
    for (const id of [true, ["42"], { id: "42" }, null, undefined])
      expect(find(state, reminder, { id }), JSON.stringify(id)).toBeUndefined();
  });

  it("finds a singleton by no id, an empty one or its own, and by no other", () => {
    const { state } = stateWithReminder();
    const own = singleton(engine, state, "account");
    for (const id of [undefined, null, ""]) expect(find(state, account, { id }), String(id)).toBe(own);
    expect(find(state, account, { id: own.id })).toBe(own);
    expect(find(state, account, { id: "acc_other" })).toBeUndefined();
  });
});

describe("freshId", () => {
  it("draws again while the id drawn is one of the credential's records (ids are random: the state reports the collision here)", () => {
    const state = new CredentialState("fresh-id");
    const asked: string[] = [];
    const get = state.get.bind(state);
    // The first two ids drawn are reported taken, as a record of that id would be.
    state.get = (resource: string, id: string) => {
      asked.push(id);
      return asked.length <= 2 ? ({ resource, id } as StoredRecord) : get(resource, id);
    };
    const id = freshId(state, reminder);
    expect(asked).toHaveLength(3);
    expect(id).toBe(asked[2]);
    expect(id).toMatch(/^\d{16}$/);
    expect(new Set(asked).size).toBe(3);
  });
});

describe("a singleton", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is made on first use from its initial template, which reads its new id and the credential's clock", () => {
    // The credential's clock is real time plus its offset: held still, so "now" is one instant.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.UTC(2026, 0, 2, 3, 4, 5) });
    const state = new CredentialState("singleton-initial");
    state.advanceClock(3_600_000);
    const made = singleton(engine, state, "account");
    const opened = new Instant(Date.UTC(2026, 0, 2, 4, 4, 5));
    expect(made.data).toEqual({ name: "Sandbox account", own_id: made.id, opened, account_id: made.id });
    expect(made.id).toMatch(/^acc_/);
    expect(singleton(engine, state, "account")).toBe(made);
  });
});

describe("what templates read of the state", () => {
  const read = (state: CredentialState, template: Json) => evaluate(template, templateContext(engine, state, undefined, {}));

  it("$resource.<name>: each singleton its own, of the credential whose request runs, as it is now", () => {
    const a = new CredentialState("reader-a");
    const b = new CredentialState("reader-b");
    for (const [state, name] of [
      [a, "A"],
      [b, "B"],
    ] as const) {
      singleton(engine, state, "profile");
      state.replace(singleton(engine, state, "account"), { account_id: "acc_1", name });
    }
    expect(a.changes).toBe(b.changes);
    const both = { account: "$resource.account.name", profile: "$resource.profile.name" };
    expect(read(a, both)).toEqual({ account: "A", profile: "Sandbox profile" });
    expect(read(b, both)).toEqual({ account: "B", profile: "Sandbox profile" });
    // One credential after the other, their states alike in all but the data.
    expect(read(a, "$resource.account.name")).toBe("A");
    expect(read(b, "$resource.account.name")).toBe("B");
    const account = singleton(engine, a, "account");
    a.replace(account, { ...account.data, name: "A2" });
    expect(read(a, "$resource.account.name")).toBe("A2");
  });

  it("a name the declaration does not have, or that is no singleton, reads as nothing", () => {
    const state = new CredentialState("reader-unknown");
    state.add("reminder", "42", { reminder_id: "42", status: "Sent" });
    expect(read(state, { a: "$resource.nosuch", b: "$resource.reminder", c: "$all.nosuch", d: "$all.reminder" })).toEqual({
      d: [{ reminder_id: "42", status: "Sent" }],
    });
  });
});

describe("moveStatus to the status the record has", () => {
  it("by a named move that leads back to it: changes nothing, sets nothing, raises no event", () => {
    const { state, record } = stateWithReminder();
    const before = structuredClone(record.data);
    expect(moveStatus(engine, state, record, { action: "remind" }, { cause: "remindPayment" })).toEqual({
      record,
      from: "Sent",
      to: "Sent",
      changed: false,
      deliveries: [],
    });
    expect(record.data).toEqual(before);
    expect(state.events).toEqual([]);
  });

  it("by the status itself: the same", () => {
    const { state, record } = stateWithReminder();
    expect(moveStatus(engine, state, record, "Sent", { cause: "control" })).toEqual({
      record,
      from: "Sent",
      to: "Sent",
      changed: false,
      deliveries: [],
    });
    expect(state.events).toEqual([]);
  });

  it("while a move to another status sets its members and raises its event", () => {
    const { state, record } = stateWithReminder();
    const moved = moveStatus(engine, state, record, { action: "settle" }, { cause: "settleReminder" });
    expect(moved).toMatchObject({ from: "Sent", to: "Settled", changed: true, deliveries: [] });
    expect(record.data).toEqual({ reminder_id: "42", status: "Settled", changed: "Settled", settled_by: "settleReminder" });
    expect(state.events.map((e) => [e.event.type, e.event.from, e.event.to, e.event.cause])).toEqual([
      ["reminder.settle", "Sent", "Settled", "settleReminder"],
    ]);
  });
});

describe("moveStatus of a record that carries an expiry", () => {
  it("on a resource that no longer declares one (a durable store's record, its declaration changed): moved, no wake set", () => {
    const state = new CredentialState("expiry-dropped");
    const record = state.add("reminder", "7", { reminder_id: "7", status: "Sent" }, state.now() + 60_000);
    expect(moveStatus(engine, state, record, { action: "settle" }, { cause: "settleReminder" })).toMatchObject({
      to: "Settled",
      changed: true,
    });
    expect(state.wake).toBeUndefined();
  });
});
