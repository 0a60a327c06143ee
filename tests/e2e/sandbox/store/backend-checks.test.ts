/**
 * What every durable backend checks before it writes (src/sandbox/store/backend.ts), as pure
 * functions: credential keys (SHA-256, 64 lowercase hex digits), row and partner ids and lease owners
 * (non-empty Unicode without NUL, at most 512 UTF-8 bytes), change sets (collections, values JSON can
 * write, `wakeAt`, the last put of a row winning over earlier puts and over deletes), namespaces (an
 * API's alias, at most 100 characters) and how a namespace's keys are written and read back, the
 * bounds of `scheduled` and `claimDue`, and partners. Expectations are the interface's documented
 * contract and the hand-written tables below; the backends' own behaviour over them is
 * tests/unit/src/sandbox/store/conformance.ts.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type ChangeSet,
  checkClaim,
  checkCredentialKey,
  checkLimit,
  checkNamespace,
  checkPartner,
  DuplicatePartnerCredential,
  keyInNamespace,
  namespacedKey,
  nextWake,
  type PartnerRow,
  partnerRow,
  prepareChanges,
  type Row,
} from "../../../../src/sandbox/store/backend.js";

const KEY = createHash("sha256").update("a credential").digest("hex");
const ID_RULE = "expected a non-empty string of at most 512 bytes of Unicode without NUL";
const change = (puts: Row[], deletes: ChangeSet["deletes"] = [], wakeAt?: number | null): ChangeSet =>
  wakeAt === undefined ? { puts, deletes } : { puts, deletes, wakeAt };
const caught = (run: () => unknown): Error => {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a refusal");
};

describe("a credential key", () => {
  it("is 64 lowercase hex digits: anything else is a TypeError naming its length or type", () => {
    expect(() => checkCredentialKey(KEY)).not.toThrow();
    expect(() => checkCredentialKey("0".repeat(64))).not.toThrow();
    const refused: [unknown, string][] = [
      [KEY.slice(1), "credential key: expected 64 lowercase hex digits (a SHA-256), got 63 characters"],
      [`${KEY}0`, "credential key: expected 64 lowercase hex digits (a SHA-256), got 65 characters"],
      [KEY.toUpperCase(), "credential key: expected 64 lowercase hex digits (a SHA-256), got 64 characters"],
      [`g${KEY.slice(1)}`, "credential key: expected 64 lowercase hex digits (a SHA-256), got 64 characters"],
      [`${KEY.slice(1)}\n`, "credential key: expected 64 lowercase hex digits (a SHA-256), got 64 characters"],
      [`x${KEY}`, "credential key: expected 64 lowercase hex digits (a SHA-256), got 65 characters"],
      ["", "credential key: expected 64 lowercase hex digits (a SHA-256), got 0 characters"],
      [42, "credential key: expected 64 lowercase hex digits (a SHA-256), got number"],
      [undefined, "credential key: expected 64 lowercase hex digits (a SHA-256), got undefined"],
    ];
    for (const [key, message] of refused) {
      const error = caught(() => checkCredentialKey(key as string));
      expect(error, String(key)).toBeInstanceOf(TypeError);
      expect(error.message, String(key)).toBe(message);
    }
    expect(() => checkCredentialKey("abc", "partner x: credentialKey")).toThrow(
      "partner x: credentialKey: expected 64 lowercase hex digits (a SHA-256), got 3 characters",
    );
  });
});

describe("a change set", () => {
  it("is refused whole unless it has puts and deletes as lists", () => {
    const shape = "change set: expected { puts: Row[], deletes: RowKey[], wakeAt? }";
    for (const bad of [undefined, null, {}, { puts: [] }, { deletes: [] }, { puts: {}, deletes: [] }, { puts: [], deletes: "x" }]) {
      const error = caught(() => prepareChanges(bad as unknown as ChangeSet));
      expect(error, JSON.stringify(bad)).toBeInstanceOf(TypeError);
      expect(error.message, JSON.stringify(bad)).toBe(shape);
    }
  });

  it("takes a wakeAt that is absent, null or a non-negative safe integer, and nothing else", () => {
    expect(prepareChanges(change([])).wakeAt).toBeUndefined();
    expect(prepareChanges(change([], [], null)).wakeAt).toBeNull();
    expect(prepareChanges(change([], [], 0)).wakeAt).toBe(0);
    expect(prepareChanges(change([], [], Number.MAX_SAFE_INTEGER)).wakeAt).toBe(Number.MAX_SAFE_INTEGER);
    for (const wakeAt of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, "5", true]) {
      const error = caught(() => prepareChanges({ puts: [], deletes: [], wakeAt: wakeAt as number }));
      expect(error, String(wakeAt)).toBeInstanceOf(TypeError);
      expect(error.message).toBe(
        `change set: wakeAt must be absent, null or ms since the epoch (a non-negative integer), got ${String(wakeAt)}`,
      );
    }
  });

  it("names the row whose collection is not one of the four", () => {
    const collections = "meta, record, event, delivery";
    expect(caught(() => prepareChanges(change([{ collection: "records" as Row["collection"], id: "x", value: 1 }]))).message).toBe(
      `change set: puts[0].collection must be one of ${collections}`,
    );
    expect(caught(() => prepareChanges(change([{ collection: "meta", id: "meta", value: 1 }, null as unknown as Row]))).message).toBe(
      `change set: puts[1].collection must be one of ${collections}`,
    );
    const error = caught(() =>
      prepareChanges(
        change(
          [],
          [
            { collection: "event", id: "e" },
            { collection: "delivery", id: "d" },
            { collection: "Meta" as Row["collection"], id: "m" },
          ],
        ),
      ),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(`change set: deletes[2].collection must be one of ${collections}`);
    // Each of the four is one.
    for (const collection of ["meta", "record", "event", "delivery"] as const)
      expect(prepareChanges(change([{ collection, id: "x", value: 1 }])).puts).toHaveLength(1);
  });

  it("takes ids of 1 to 512 UTF-8 bytes of Unicode without NUL or a lone surrogate, and names the row of one it refuses", () => {
    const taken = ["x", "é".repeat(256), "x".repeat(512), "𝄞 a pair of surrogates", "ünïcödé id / with spaces", "€".repeat(170)];
    for (const id of taken) expect(prepareChanges(change([{ collection: "record", id, value: 1 }])).puts[0]!.id, id).toBe(id);
    const refused: unknown[] = [
      "",
      "x".repeat(513),
      // 171 characters, 513 bytes.
      "€".repeat(171),
      `${"é".repeat(256)}x`,
      "nul\0",
      "\0",
      "lone \ud800 high",
      "lone high at the end \ud800",
      "\udc00 lone low at the start",
      "low \udc00 then high \ud800",
      42,
      undefined,
    ];
    for (const id of refused) {
      const error = caught(() =>
        prepareChanges(
          change([
            { collection: "meta", id: "meta", value: 1 },
            { collection: "record", id: id as string, value: 1 },
          ]),
        ),
      );
      expect(error, JSON.stringify(id)).toBeInstanceOf(TypeError);
      expect(error.message, JSON.stringify(id)).toBe(`change set: puts[1].id: ${ID_RULE}`);
    }
    expect(caught(() => prepareChanges(change([], [{ collection: "record", id: "" }]))).message).toBe(
      `change set: deletes[0].id: ${ID_RULE}`,
    );
  });

  it("refuses a value JSON cannot write, naming the row and why", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const refusals: [unknown, string | RegExp][] = [
      [undefined, "change set: puts[1] (record r): the value cannot be written as JSON (undefined)"],
      [() => 1, "change set: puts[1] (record r): the value cannot be written as JSON (function)"],
      [Symbol("s"), "change set: puts[1] (record r): the value cannot be written as JSON (symbol)"],
      [1n, /^change set: puts\[1\] \(record r\): the value cannot be written as JSON \(.*BigInt.*\)$/],
      [circular, /^change set: puts\[1\] \(record r\): the value cannot be written as JSON \(.*circular.*\)$/is],
    ];
    for (const [value, message] of refusals) {
      const error = caught(() =>
        prepareChanges(
          change([
            { collection: "meta", id: "meta", value: 1 },
            { collection: "record", id: "r", value },
          ]),
        ),
      );
      expect(error, String(message)).toBeInstanceOf(TypeError);
      if (typeof message === "string") expect(error.message).toBe(message);
      else expect(error.message).toMatch(message);
    }
  });

  it("encodes each put as its JSON text, the last put of a row winning, and keeps a delete only of a row not put", () => {
    const prepared = prepareChanges(
      change(
        [
          { collection: "record", id: "a", value: { n: 1 } },
          { collection: "event", id: "a", value: "event a" },
          { collection: "record", id: "a", value: { n: 2, text: "é\n" } },
          { collection: "meta", id: "meta", value: null },
        ],
        [
          { collection: "record", id: "a" },
          { collection: "delivery", id: "a" },
          { collection: "delivery", id: "a" },
          { collection: "record", id: "gone", extra: true } as ChangeSet["deletes"][number],
        ],
        7,
      ),
    );
    const byName = Object.fromEntries(prepared.puts.map((put) => [`${put.collection} ${put.id}`, put]));
    expect(byName).toEqual({
      "record a": { collection: "record", id: "a", json: '{"n":2,"text":"é\\n"}' },
      "event a": { collection: "event", id: "a", json: '"event a"' },
      "meta meta": { collection: "meta", id: "meta", json: "null" },
    });
    expect(prepared.puts).toHaveLength(3);
    // The same id in two collections is two rows; a row deleted twice is one delete; members beyond the key are not kept.
    expect(prepared.deletes).toEqual([
      { collection: "delivery", id: "a" },
      { collection: "record", id: "gone" },
    ]);
    expect(prepared.wakeAt).toBe(7);
    expect(prepared.empty).toBe(false);
  });

  it("is empty only with no put and no delete, whatever its wakeAt", () => {
    expect(prepareChanges(change([], [], 5))).toEqual({ puts: [], deletes: [], wakeAt: 5, empty: true });
    expect(prepareChanges(change([], [{ collection: "record", id: "r" }])).empty).toBe(false);
    expect(prepareChanges(change([{ collection: "record", id: "r", value: 1 }])).empty).toBe(false);
    // A row both put and deleted is a put: not empty.
    expect(prepareChanges(change([{ collection: "record", id: "r", value: 1 }], [{ collection: "record", id: "r" }]))).toMatchObject({
      deletes: [],
      empty: false,
    });
  });

  it("leaves the stored wakeAt when it has none, and replaces it when it has one, null included", () => {
    const of = (wakeAt?: number | null) => prepareChanges(change([], [], wakeAt));
    expect(nextWake(of(), 1_000)).toBe(1_000);
    expect(nextWake(of(), null)).toBeNull();
    expect(nextWake(of(null), 1_000)).toBeNull();
    expect(nextWake(of(2_000), 1_000)).toBe(2_000);
    expect(nextWake(of(0), null)).toBe(0);
  });
});

describe("a namespace", () => {
  it("is 1 to 100 letters, digits, @, ., _ or -", () => {
    for (const name of ["pay@1.3.0", "a", "A-b_c.d@9", "x".repeat(100)]) expect(() => checkNamespace(name), name).not.toThrow();
    for (const name of ["", "x".repeat(101), "no/slash", "a b", "pay@1.3.0\n", "é", 7]) {
      const error = caught(() => checkNamespace(name as string));
      expect(error, String(name)).toBeInstanceOf(TypeError);
      expect(error.message).toBe(
        `store namespace: expected 1 to 100 letters, digits, "@", ".", "_" or "-" (an API's alias), got ${JSON.stringify(name)}`,
      );
    }
  });

  it("writes a key as <namespace>/<key>, the key alone without one, and reads back only its own", () => {
    expect(namespacedKey("pay@1.3.0", KEY)).toBe(`pay@1.3.0/${KEY}`);
    expect(namespacedKey(undefined, KEY)).toBe(KEY);
    expect(namespacedKey("", KEY)).toBe(KEY);
    expect(keyInNamespace("pay@1.3.0", `pay@1.3.0/${KEY}`)).toBe(KEY);
    expect(keyInNamespace("pay@1.3.0", KEY)).toBeUndefined();
    expect(keyInNamespace("pay@1.3.0", `pay@1.3.0x/${KEY}`)).toBeUndefined();
    expect(keyInNamespace("pay", `pay@1.3.0/${KEY}`)).toBeUndefined();
    expect(keyInNamespace("pay@1.3.0", `balance@1.0.0/${KEY}`)).toBeUndefined();
    expect(keyInNamespace(undefined, KEY)).toBe(KEY);
    expect(keyInNamespace("", KEY)).toBe(KEY);
    expect(keyInNamespace(undefined, `pay@1.3.0/${KEY}`)).toBeUndefined();
    expect(keyInNamespace("", `pay@1.3.0/${KEY}`)).toBeUndefined();
  });
});

describe("the bounds of scheduled and claimDue", () => {
  it("takes a limit from 1 to 1000, a RangeError naming the call otherwise", () => {
    for (const limit of [1, 2, 999, 1000]) expect(() => checkLimit(limit), String(limit)).not.toThrow();
    for (const limit of [0, -1, 1001, 1.5, Number.NaN, 2 ** 53]) {
      const error = caught(() => checkLimit(limit));
      expect(error, String(limit)).toBeInstanceOf(RangeError);
      expect(error.message).toBe(`scheduled: limit must be an integer from 1 to 1000, got ${limit}`);
    }
    expect(() => checkLimit(0, "claimDue")).toThrow("claimDue: limit must be an integer from 1 to 1000, got 0");
  });

  it("takes a time since the epoch, an owner named as an id, a lease of 1 ms to one hour, and a limit", () => {
    for (const [now, leaseMs, limit] of [
      [0, 1, 1],
      [1_800_000_000_000, 3_600_000, 1000],
    ] as const)
      expect(() => checkClaim(now, "owner", leaseMs, limit)).not.toThrow();
    for (const now of [-1, 1.5, Number.NaN]) {
      const error = caught(() => checkClaim(now, "owner", 1000, 1));
      expect(error, String(now)).toBeInstanceOf(TypeError);
      expect(error.message).toBe(`claimDue: now must be ms since the epoch, got ${now}`);
    }
    for (const owner of ["", "o\0", "x".repeat(513)]) expect(() => checkClaim(0, owner, 1000, 1)).toThrow(`claimDue: owner: ${ID_RULE}`);
    for (const leaseMs of [0, -5, 3_600_001, 2.5]) {
      const error = caught(() => checkClaim(0, "owner", leaseMs, 1));
      expect(error, String(leaseMs)).toBeInstanceOf(RangeError);
      expect(error.message).toBe(`claimDue: leaseMs must be an integer from 1 to 3600000, got ${leaseMs}`);
    }
    expect(() => checkClaim(0, "owner", 1000, 1001)).toThrow("claimDue: limit must be an integer from 1 to 1000, got 1001");
  });
});

describe("a partner", () => {
  const acme: PartnerRow = { id: "acme", name: "Acme Ltd", credentialKey: KEY, createdAt: "2026-11-01T00:00:00.000Z" };

  it("has an id and a name, a credential key, a time of creation, and quotas that are finite numbers if any", () => {
    expect(() => checkPartner(acme)).not.toThrow();
    expect(() => checkPartner({ ...acme, quotas: {} })).not.toThrow();
    expect(() => checkPartner({ ...acme, quotas: { records: 0, requestsPerSecond: 2.5, bytes: -1 } })).not.toThrow();
    const refused: [unknown, string][] = [
      [undefined, `partner id: ${ID_RULE}`],
      [{ ...acme, id: "" }, `partner id: ${ID_RULE}`],
      [{ ...acme, id: 5 }, `partner id: ${ID_RULE}`],
      [{ ...acme, name: "" }, `partner "acme": name: ${ID_RULE}`],
      [{ ...acme, name: "x".repeat(513) }, `partner "acme": name: ${ID_RULE}`],
      [
        { ...acme, credentialKey: "plain" },
        `partner "acme": credentialKey: expected 64 lowercase hex digits (a SHA-256), got 5 characters`,
      ],
      [{ ...acme, createdAt: "yesterday" }, `partner "acme": createdAt must be an ISO 8601 time`],
      [{ ...acme, createdAt: 1_800_000_000_000 }, `partner "acme": createdAt must be an ISO 8601 time`],
      // Not strings, though Date.parse would read them as times.
      [{ ...acme, createdAt: 2026 }, `partner "acme": createdAt must be an ISO 8601 time`],
      [{ ...acme, createdAt: new Date("2026-11-01T00:00:00.000Z") }, `partner "acme": createdAt must be an ISO 8601 time`],
      [{ ...acme, quotas: null }, `partner "acme": quotas must be an object of numbers`],
      [{ ...acme, quotas: [5] }, `partner "acme": quotas must be an object of numbers`],
      [{ ...acme, quotas: "records=5" }, `partner "acme": quotas must be an object of numbers`],
      [{ ...acme, quotas: { records: "5" } }, `partner "acme": quotas.records must be a finite number`],
      [{ ...acme, quotas: { records: 5, bytes: Number.NaN } }, `partner "acme": quotas.bytes must be a finite number`],
      [{ ...acme, quotas: { events: Number.POSITIVE_INFINITY } }, `partner "acme": quotas.events must be a finite number`],
    ];
    for (const [partner, message] of refused) {
      const error = caught(() => checkPartner(partner as PartnerRow));
      expect(error, message).toBeInstanceOf(TypeError);
      expect(error.message).toBe(message);
    }
  });

  it("is kept with its declared members only, its quotas a copy", () => {
    const quotas = { records: 10 };
    const row = partnerRow({ ...acme, quotas, extra: "not kept" } as PartnerRow);
    expect(row).toEqual({ ...acme, quotas: { records: 10 } });
    expect(Object.keys(row)).toEqual(["id", "name", "credentialKey", "createdAt", "quotas"]);
    quotas.records = 99;
    expect(row.quotas).toEqual({ records: 10 });
    expect(Object.keys(partnerRow(acme))).toEqual(["id", "name", "credentialKey", "createdAt"]);
  });

  it("is refused when another partner holds its credential, naming both", () => {
    const error = new DuplicatePartnerCredential("thief", "acme");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("DuplicatePartnerCredential");
    expect(error.message).toBe(`partner "thief": its credential is partner "acme"'s already`);
    expect([error.partnerId, error.otherPartnerId]).toEqual(["thief", "acme"]);
  });
});
