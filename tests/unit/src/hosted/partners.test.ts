/**
 * The partners of a hosted sandbox (src/hosted/partners.ts): issuing a credential shown once, only
 * its SHA-256 kept (the key the sandbox keeps state under), listing without credentials, revoking at
 * once, a merge patch of a partner's name and quotas, the bounds of the operator's input (in the
 * control API's names); and the memory store against the partner methods of the durable stores'
 * contract.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CREDENTIAL_PATTERN, CREDENTIAL_PREFIX, MemoryPartnerStore, PartnerError, Partners } from "../../../../src/hosted/partners.js";
import { DEFAULT_QUOTAS, quotasView } from "../../../../src/hosted/quotas.js";
import { MemoryStore } from "../../../../src/sandbox/store/memory.js";

const DEFAULT_QUOTAS_VIEW = quotasView(DEFAULT_QUOTAS);
const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest("hex");

/** A store that records what it was given, over the memory one. */
function recording() {
  const store = new MemoryPartnerStore();
  const puts: unknown[] = [];
  const put = store.putPartner.bind(store);
  store.putPartner = async (row) => {
    puts.push(structuredClone(row));
    return put(row);
  };
  return { store, puts };
}

describe("issuing", () => {
  it("answers the id, the name, the time and, this once, a credential with the recognisable prefix", async () => {
    const partners = new Partners(new MemoryPartnerStore(), { now: () => new Date("2026-01-02T03:04:05.000Z") });
    const issued = await partners.issue({ name: "  Acme Ltd  " });
    expect(issued).toEqual({
      id: expect.stringMatching(/^ptn_[0-9a-f]{24}$/),
      name: "Acme Ltd",
      created_at: "2026-01-02T03:04:05.000Z",
      quotas: { records: 1000, bytes: 4194304, events: 200, queued_callbacks: 20, requests_per_second: 10, burst: 50 },
      overridden: [],
      credential: expect.any(String),
    });
    expect(issued.credential.startsWith(CREDENTIAL_PREFIX)).toBe(true);
    // 32 random bytes, base64url: 43 characters after the prefix.
    expect(issued.credential).toMatch(/^bacsbx_[A-Za-z0-9_-]{43}$/);
    expect(issued.credential.match(CREDENTIAL_PATTERN)).toEqual([issued.credential]);
  });

  it("keeps only the SHA-256 of the credential, the key the sandbox keeps its state under", async () => {
    const { store, puts } = recording();
    const issued = await new Partners(store).issue({ name: "Acme" });
    expect(puts).toHaveLength(1);
    expect(JSON.stringify(puts)).not.toContain(issued.credential);
    expect(JSON.stringify(puts)).not.toContain(issued.credential.slice(CREDENTIAL_PREFIX.length));
    expect(puts[0]).toMatchObject({ id: issued.id, name: "Acme", credentialKey: sha256(issued.credential) });
    // The sandbox's own key for the same value (src/sandbox/store/state.ts credentialKey, through its store).
    const sandbox = new MemoryStore();
    const state = sandbox.forCredential(issued.credential);
    expect(sandbox.forKey(sha256(issued.credential))).toBe(state);
  });

  it("gives every partner its own id and credential, from the random source", async () => {
    const partners = new Partners(new MemoryPartnerStore());
    const issued = await Promise.all(Array.from({ length: 20 }, (_, i) => partners.issue({ name: `P${i}` })));
    expect(new Set(issued.map((p) => p.id)).size).toBe(20);
    expect(new Set(issued.map((p) => p.credential)).size).toBe(20);
  });

  it("keeps quota overrides given with the name, checked", async () => {
    const partners = new Partners(new MemoryPartnerStore());
    const issued = await partners.issue({ name: "Acme", quotas: { records: 5, requests_per_second: 3 } });
    expect(issued.quotas).toMatchObject({ records: 5, requests_per_second: 3, burst: 50 });
    expect(issued.overridden).toEqual(["records", "requests_per_second"]);
    const row = await partners.byCredential(issued.credential);
    expect(partners.quotasOf(row!)).toEqual({ ...DEFAULT_QUOTAS, records: 5, requestsPerSecond: 3 });
  });

  it.each([
    ["no body", undefined, "body", 'must be a JSON object such as {"name": "Acme Ltd"}'],
    ["an array", [{ name: "x" }], "body", "must be a JSON object"],
    ["no name", {}, "name", "is required: a string naming the partner"],
    ["a name that is a number", { name: 5 }, "name", "is required"],
    ["a blank name", { name: "   " }, "name", "must not be empty"],
    ["a name of 101 characters", { name: "x".repeat(101) }, "name", "must have at most 100 characters"],
    ["a name with a line break", { name: "Acme\nLtd" }, "name", "must not hold control characters"],
    ["a name with a C1 control", { name: "Acme\u0085" }, "name", "must not hold control characters"],
    ["a name with a line separator", { name: "Acme\u2028Ltd" }, "name", "must not hold control characters"],
    ["another member", { name: "Acme", credential: "mine" }, "credential", "is not a member of a partner (name, quotas)"],
    ["a quota out of bounds", { name: "Acme", quotas: { records: 0 } }, "quotas.records", "must be an integer from 1 to 100000"],
    ["quotas that are not an object", { name: "Acme", quotas: "all" }, "quotas", "must be an object"],
  ])("refuses %s with a 400 naming the member", async (_, body, field, message) => {
    const { store, puts } = recording();
    const error = await new Partners(store).issue(body).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerError);
    expect(error).toMatchObject({ field, status: 400 });
    expect((error as Error).message).toContain(`${field}: ${message}`);
    expect(puts).toEqual([]);
  });

  it("takes a name of 100 characters, counted as characters, not UTF-16 units", async () => {
    const name = "é".repeat(50) + "😀".repeat(50);
    await expect(new Partners(new MemoryPartnerStore()).issue({ name })).resolves.toMatchObject({ name });
  });

  it("refuses a partner past the limit with a 409, even when asked at once", async () => {
    const partners = new Partners(new MemoryPartnerStore(), { maxPartners: 3 });
    const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => partners.issue({ name: `P${i}` })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason);
    expect(refused).toHaveLength(2);
    for (const error of refused) expect(error).toMatchObject({ field: "partners", status: 409 });
    expect(await partners.list()).toHaveLength(3);
  });
});

describe("listing", () => {
  it("shows every partner, oldest first, never a credential nor its hash", async () => {
    let t = 0;
    const partners = new Partners(new MemoryPartnerStore(), { now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, t++)) });
    const b = await partners.issue({ name: "B" });
    const a = await partners.issue({ name: "A", quotas: { burst: 0 } });
    const listed = await partners.list();
    expect(listed).toEqual([
      { id: b.id, name: "B", created_at: "2026-01-01T00:00:00.000Z", quotas: b.quotas, overridden: [] },
      { id: a.id, name: "A", created_at: "2026-01-01T00:00:01.000Z", quotas: { ...b.quotas, burst: 0 }, overridden: ["burst"] },
    ]);
    expect(await partners.get(a.id)).toEqual(listed[1]);
    expect(await partners.get("ptn_nobody")).toBeUndefined();
    const text = JSON.stringify(listed);
    for (const issued of [a, b]) {
      expect(text).not.toContain(issued.credential);
      expect(text).not.toContain(sha256(issued.credential));
    }
  });
});

describe("a credential", () => {
  it("finds its partner by its value or by the sandbox's key of it; an unissued one finds none", async () => {
    const partners = new Partners(new MemoryPartnerStore());
    const issued = await partners.issue({ name: "Acme" });
    expect(await partners.byCredential(issued.credential)).toMatchObject({ id: issued.id });
    expect(await partners.byKey(sha256(issued.credential))).toMatchObject({ id: issued.id });
    expect(await partners.byCredential(`${issued.credential}x`)).toBeUndefined();
    expect(await partners.byCredential("any-token")).toBeUndefined();
    expect(await partners.byCredential("")).toBeUndefined();
  });

  it("is refused from the moment its partner is revoked; the others still work", async () => {
    const partners = new Partners(new MemoryPartnerStore());
    const [kept, revoked] = [await partners.issue({ name: "Kept" }), await partners.issue({ name: "Revoked" })];
    expect(await partners.revoke(revoked.id)).toBe(true);
    expect(await partners.byCredential(revoked.credential)).toBeUndefined();
    expect(await partners.byCredential(kept.credential)).toMatchObject({ id: kept.id });
    expect(await partners.revoke(revoked.id)).toBe(false);
    expect((await partners.list()).map((p) => p.id)).toEqual([kept.id]);
  });
});

describe("a merge patch", () => {
  it("sets the quotas given, puts a null one back to its default, keeps the rest; null puts them all back", async () => {
    const partners = new Partners(new MemoryPartnerStore());
    const issued = await partners.issue({ name: "Acme", quotas: { records: 5, burst: 0 } });
    expect(await partners.update(issued.id, { quotas: { requests_per_second: 2, burst: null } })).toMatchObject({
      quotas: { records: 5, requests_per_second: 2, burst: 50 },
      overridden: ["records", "requests_per_second"],
    });
    const row = await partners.byCredential(issued.credential);
    expect(partners.quotasOf(row!)).toEqual({ ...DEFAULT_QUOTAS, records: 5, requestsPerSecond: 2 });
    const reset = await partners.update(issued.id, { quotas: null });
    expect(reset).toMatchObject({ quotas: DEFAULT_QUOTAS_VIEW, overridden: [] });
    expect(partners.quotasOf((await partners.byCredential(issued.credential))!)).toEqual(DEFAULT_QUOTAS);
    expect(row!.quotas).toEqual({ records: 5, requestsPerSecond: 2 });
    expect((await partners.byCredential(issued.credential))!).not.toHaveProperty("quotas");
  });

  it("renames, keeping the quotas and the credential", async () => {
    const partners = new Partners(new MemoryPartnerStore());
    const issued = await partners.issue({ name: "Acme", quotas: { records: 5 } });
    expect(await partners.update(issued.id, { name: " Acme Group " })).toMatchObject({ name: "Acme Group", overridden: ["records"] });
    expect(await partners.byCredential(issued.credential)).toMatchObject({ name: "Acme Group", quotas: { records: 5 } });
  });

  it("for no such partner: undefined; bad ones are refused naming the member, nothing changed", async () => {
    const partners = new Partners(new MemoryPartnerStore());
    const issued = await partners.issue({ name: "Acme", quotas: { records: 5 } });
    expect(await partners.update("ptn_nobody", { quotas: { records: 1 } })).toBeUndefined();
    await expect(partners.update(issued.id, { quotas: { records: -1 } })).rejects.toMatchObject({ field: "quotas.records", status: 400 });
    await expect(partners.update(issued.id, { name: "" })).rejects.toMatchObject({ field: "name", status: 400 });
    await expect(partners.update(issued.id, { credential: "x" })).rejects.toMatchObject({ field: "credential", status: 400 });
    await expect(partners.update(issued.id, "records")).rejects.toMatchObject({ field: "body", status: 400 });
    expect((await partners.list())[0]).toMatchObject({ name: "Acme", overridden: ["records"] });
  });

  it("two at once both hold: neither undoes the other", async () => {
    const partners = new Partners(new MemoryPartnerStore());
    const issued = await partners.issue({ name: "Acme" });
    await Promise.all([partners.update(issued.id, { quotas: { records: 7 } }), partners.update(issued.id, { quotas: { events: 9 } })]);
    expect((await partners.get(issued.id))!.overridden).toEqual(["records", "events"]);
  });
});

describe("the memory store", () => {
  it("keeps its own frozen copy: neither the row put nor a row handed out can change what it keeps", async () => {
    const store = new MemoryPartnerStore();
    const put = { id: "p1", name: "A", credentialKey: "k1", createdAt: "t", quotas: { records: 1 } };
    await store.putPartner(put);
    put.name = "changed after put";
    put.quotas.records = 42;
    const [listed] = await store.listPartners();
    expect(() => {
      listed.name = "changed";
    }).toThrow(TypeError);
    expect(() => {
      listed.quotas!.records = 99;
    }).toThrow(TypeError);
    const found = await store.partnerByCredential("k1");
    expect(found).toEqual({ id: "p1", name: "A", credentialKey: "k1", createdAt: "t", quotas: { records: 1 } });
  });

  it("moves a partner to its new key when put again, and refuses a key that is another partner's", async () => {
    const store = new MemoryPartnerStore();
    await store.putPartner({ id: "p1", name: "A", credentialKey: "k1", createdAt: "t" });
    await store.putPartner({ id: "p1", name: "A", credentialKey: "k2", createdAt: "t" });
    expect(await store.partnerByCredential("k1")).toBeUndefined();
    expect(await store.partnerByCredential("k2")).toMatchObject({ id: "p1" });
    await store.putPartner({ id: "p2", name: "B", credentialKey: "k3", createdAt: "t" });
    await expect(store.putPartner({ id: "p3", name: "C", credentialKey: "k3", createdAt: "t" })).rejects.toThrow("another partner's");
    expect(await store.deletePartner("p1")).toBe(true);
    expect(await store.deletePartner("p1")).toBe(false);
    expect(await store.partnerByCredential("k2")).toBeUndefined();
    expect((await store.listPartners()).map((p) => p.id)).toEqual(["p2"]);
  });
});
