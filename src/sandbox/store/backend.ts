/**
 * The seam between the sandbox and where its state lives.
 *
 * The sandbox works on one credential's state at a time (a `CredentialState` in memory, which the
 * engine reads and changes synchronously). Where that state is kept is a store:
 *
 * - `memory` (the default): the in-memory states are the whole truth; nothing here is used, and a
 *   request costs what it cost before there were other stores.
 * - `file:<dir>`: an embedded durable store on one machine (one process). A state is read when it
 *   is first needed and kept in memory (./durable.ts); each request's changes are written, and the
 *   answer is sent only once they are durable.
 * - `postgres://...`: any number of sandbox processes on one database act as one. A request runs
 *   holding its credential (a lock every instance respects), on a copy brought up to date when
 *   another instance changed it, and its changes are committed before the answer is sent.
 *
 * One store holds the states of every API of a process (its mocks), each in a namespace of its own
 * (`scope`, named by the API's alias), on the store's one connection (one LMDB environment, one
 * Postgres pool).
 *
 * A credential's state is a set of rows: one `meta` row (clock offset, callback URLs, queued error
 * rules, id sequence, delayed moves...), one row per record, per event and per delivery (the log
 * entry and, while it is pending, its place in the queue with the due time of its next attempt).
 * Values are plain JSON (./codec.ts encodes what JSON cannot say, such as the sandbox's instants).
 * Each change of a state bumps its version; the store keeps the version with the rows.
 *
 * Work that falls due without a request (a delivery attempt, a delayed move, an expiry) is found
 * through each credential's `wakeAt`, which a change set carries when it moves: `claimDue` hands due
 * credentials to one instance at a time for a lease, so each attempt is made by one instance and a
 * dead instance's claims pass to the others when their lease ends.
 */

/**
 * The collections of a credential's rows, and their ids (./rows.ts writes and reads them): `meta`
 * (one row, id `meta`), `record` (`<resource>/<id>`), `event` (the event's id), `delivery` (the
 * delivery's id; the row stays while its delivery is queued, whether or not the log still shows it).
 */
export type Collection = "meta" | "record" | "event" | "delivery";

/**
 * One row of a credential's state. `value` is JSON (./codec.ts). A state's rows are
 * ./state.ts `CredentialState.rows()`; `CredentialState.load` rebuilds a state from them, and a
 * tracked state (`track`) hands the rows each change touched to `takeChanges`.
 */
export interface Row {
  collection: Collection;
  id: string;
  value: unknown;
}

export interface RowKey {
  collection: Collection;
  id: string;
}

/** A credential's rows as stored, with the version its last change gave it. */
export interface StoredCredential {
  /** The credential's key: SHA-256 of its value, hex (the value itself is never stored). */
  key: string;
  version: number;
  rows: Row[];
}

/** What one transaction changes of one credential's rows. */
export interface ChangeSet {
  puts: Row[];
  deletes: RowKey[];
  /**
   * When the credential next has work due (ms since the epoch, real clock); null when none; absent
   * when it is unchanged (a transaction that only reads then keeps the version).
   */
  wakeAt?: number | null;
}

/** A partner of a hosted sandbox: who the operator issued a credential to. Only a hash of the credential is kept. */
export interface PartnerRow {
  id: string;
  name: string;
  /** SHA-256 of the credential, hex: the same key its state is kept under. */
  credentialKey: string;
  createdAt: string;
  /** Bounds the operator set for this partner (records, bytes, events, queued callbacks, requests per second...); absent: the defaults. */
  quotas?: Record<string, number>;
}

/** A durable store: `file:<dir>` or `postgres://...`. */
export interface DurableBackend {
  readonly kind: "file" | "postgres";
  /** True when several sandbox processes may share it (then every request goes through `transact`'s lock). */
  readonly shared: boolean;
  /** Opens (and on Postgres creates or migrates the versioned schema); fails naming what is wrong. */
  open(): Promise<void>;
  /** Waits for writes in flight, then closes. */
  close(): Promise<void>;
  /**
   * A view of this store for one namespace (one API's sandbox, named by its alias): its credentials,
   * versions, `wakeAt`s and leases apart from every other namespace's, the partners shared. It uses
   * this store's connection (opened and closed with it: its own `open` only checks that this one is
   * open, its `close` waits for its own writes). A store used without a namespace holds the
   * credentials of none.
   */
  scope(namespace: string): DurableBackend;
  /** Every credential stored. */
  loadAll(): AsyncIterable<StoredCredential>;
  /**
   * Runs `work` holding credential `key` (on Postgres, serialised with every instance's
   * transactions on it), then makes the change set it returns durable, and resolves after that
   * (committed and flushed): only then may the answer be sent. `known` is the version of the
   * caller's copy; `work` receives the stored credential when its version is another (first use,
   * or another instance changed it), undefined when the copy is current. A credential never stored
   * is version 0 with no rows, so a caller without a copy (`known` undefined) always gets one. A
   * change set that changes nothing (no puts, no deletes, no `wakeAt` or the same one) keeps the version.
   * Nothing is written when `work` throws or the write fails (the promise rejects); a change set
   * that `prepareChanges` refuses is refused whole.
   */
  transact<T>(
    key: string,
    known: number | undefined,
    work: (stored: StoredCredential | undefined) => { changes: ChangeSet; result: T },
  ): Promise<{ result: T; version: number }>;
  /**
   * Removes a credential's rows, its `wakeAt` and its lease (a reset); resolves once that is durable.
   * Its version goes on from where it was (never back to one a caller may hold a copy of).
   */
  remove(key: string): Promise<void>;
  /**
   * Up to `limit` credentials whose `wakeAt` is at or before `now`, each leased to `owner` for
   * `leaseMs` (no other instance is handed it until then; `owner` itself may be handed it again,
   * which renews its lease), earliest `wakeAt` first.
   */
  claimDue(now: number, owner: string, leaseMs: number, limit: number): Promise<string[]>;
  /**
   * Up to `limit` credentials that have a `wakeAt` at all (work ahead, due or not), earliest first,
   * leases ignored and none taken: what a store used by one process at a time takes in at start.
   */
  scheduled(limit: number): Promise<string[]>;
  /** Adds or replaces (by id) a partner; rejects with `DuplicatePartnerCredential` when another partner has its credential. */
  putPartner(partner: PartnerRow): Promise<void>;
  /** True when the partner existed. Its state stays until reset; its credential is refused at once. */
  deletePartner(id: string): Promise<boolean>;
  /** Every partner, by `createdAt` then `id`. */
  listPartners(): Promise<PartnerRow[]>;
  partnerByCredential(credentialKey: string): Promise<PartnerRow | undefined>;
}

/** Bounds of what a backend is given; beyond them it refuses, before anything is written. */
export const STORE_LIMITS = {
  /** Characters of a namespace (an API's alias: letters, digits, `@`, `.`, `_`, `-`). */
  namespace: 100,
  /** UTF-8 bytes of a row's id, a partner's id and name, and a lease owner's name (an LMDB key holds at most 1978 bytes). */
  idBytes: 512,
  /** Credentials one `claimDue` hands out. */
  claim: 1000,
  /** A lease, in ms (one hour). */
  leaseMs: 3_600_000,
} as const;

const COLLECTIONS: ReadonlySet<string> = new Set<Collection>(["meta", "record", "event", "delivery"]);
const HEX_KEY = /^[0-9a-f]{64}$/;

/** The other partner a credential belongs to already (`putPartner`). */
export class DuplicatePartnerCredential extends Error {
  constructor(
    readonly partnerId: string,
    readonly otherPartnerId: string,
  ) {
    super(`partner ${JSON.stringify(partnerId)}: its credential is partner ${JSON.stringify(otherPartnerId)}'s already`);
    this.name = "DuplicatePartnerCredential";
  }
}

/** Throws a TypeError unless `key` is a credential key: SHA-256, 64 lowercase hex digits. */
export function checkCredentialKey(key: string, what = "credential key"): void {
  if (typeof key !== "string" || !HEX_KEY.test(key))
    throw new TypeError(
      `${what}: expected 64 lowercase hex digits (a SHA-256), got ${typeof key === "string" ? `${key.length} characters` : typeof key}`,
    );
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Ids are written as UTF-8 (LMDB keys, Postgres text): a lone surrogate would come back as U+FFFD, a NUL not at all. */
function checkName(value: unknown, what: string): void {
  if (
    typeof value !== "string" ||
    value === "" ||
    value.includes("\0") ||
    LONE_SURROGATE.test(value) ||
    Buffer.byteLength(value) > STORE_LIMITS.idBytes
  )
    throw new TypeError(`${what}: expected a non-empty string of at most ${STORE_LIMITS.idBytes} bytes of Unicode without NUL`);
}

/** A row's value as stored: its JSON text. */
function encodeValue(value: unknown, what: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`${what}: the value cannot be written as JSON (${(error as Error).message})`);
  }
  if (text === undefined) throw new TypeError(`${what}: the value cannot be written as JSON (${typeof value})`);
  return text;
}

/** A change set checked and encoded: puts with their JSON text (the last put of a row wins), deletes of rows not put. */
export interface PreparedChanges {
  puts: { collection: Collection; id: string; json: string }[];
  deletes: RowKey[];
  /** Undefined: unchanged. */
  wakeAt: number | null | undefined;
  /** True when there is no put and no delete (then only `wakeAt` may change the version). */
  empty: boolean;
}

/**
 * Checks a change set (collections, ids, values that JSON can write, `wakeAt`) and encodes its
 * values, so that a backend writes all of it or, throwing here, none. A row both deleted and put is
 * put.
 */
export function prepareChanges(changes: ChangeSet): PreparedChanges {
  if (!changes || !Array.isArray(changes.puts) || !Array.isArray(changes.deletes))
    throw new TypeError("change set: expected { puts: Row[], deletes: RowKey[], wakeAt? }");
  const { wakeAt } = changes;
  if (wakeAt !== undefined && wakeAt !== null && (typeof wakeAt !== "number" || !Number.isSafeInteger(wakeAt) || wakeAt < 0))
    throw new TypeError(`change set: wakeAt must be absent, null or ms since the epoch (a non-negative integer), got ${String(wakeAt)}`);
  const puts = new Map<string, { collection: Collection; id: string; json: string }>();
  const rowName = (row: RowKey, i: number, list: string) => {
    if (!row || !COLLECTIONS.has(row.collection))
      throw new TypeError(`change set: ${list}[${i}].collection must be one of ${[...COLLECTIONS].join(", ")}`);
    checkName(row.id, `change set: ${list}[${i}].id`);
    return `${row.collection}\0${row.id}`;
  };
  changes.puts.forEach((row, i) => {
    const name = rowName(row, i, "puts");
    puts.delete(name);
    puts.set(name, {
      collection: row.collection,
      id: row.id,
      json: encodeValue(row.value, `change set: puts[${i}] (${row.collection} ${row.id})`),
    });
  });
  const deletes = new Map<string, RowKey>();
  changes.deletes.forEach((row, i) => {
    const name = rowName(row, i, "deletes");
    if (!puts.has(name)) deletes.set(name, { collection: row.collection, id: row.id });
  });
  return { puts: [...puts.values()], deletes: [...deletes.values()], wakeAt, empty: puts.size === 0 && deletes.size === 0 };
}

/** The `wakeAt` a change set leaves: its own, or the one stored when it has none. */
export const nextWake = (prepared: PreparedChanges, stored: number | null): number | null =>
  prepared.wakeAt === undefined ? stored : prepared.wakeAt;

const NAMESPACE = /^[A-Za-z0-9@._-]+$/;

/** Throws a TypeError unless `namespace` is one (an API's alias: letters, digits, `@`, `.`, `_`, `-`). */
export function checkNamespace(namespace: string): void {
  if (typeof namespace !== "string" || !NAMESPACE.test(namespace) || namespace.length > STORE_LIMITS.namespace)
    throw new TypeError(
      `store namespace: expected 1 to ${STORE_LIMITS.namespace} letters, digits, "@", ".", "_" or "-" (an API's alias), got ${JSON.stringify(namespace)}`,
    );
}

/**
 * How a namespace's credential keys are written in a store: `<namespace>/<key>` (no namespace: the
 * key alone, which holds no `/`), and read back (undefined: another namespace's).
 */
export const namespacedKey = (namespace: string | undefined, key: string): string => (namespace ? `${namespace}/${key}` : key);

export function keyInNamespace(namespace: string | undefined, stored: string): string | undefined {
  if (!namespace) return stored.includes("/") ? undefined : stored;
  return stored.startsWith(`${namespace}/`) ? stored.slice(namespace.length + 1) : undefined;
}

/** Checks `scheduled`'s limit. */
export function checkLimit(limit: number, what = "scheduled"): void {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > STORE_LIMITS.claim)
    throw new RangeError(`${what}: limit must be an integer from 1 to ${STORE_LIMITS.claim}, got ${limit}`);
}

/** Checks `claimDue`'s arguments. */
export function checkClaim(now: number, owner: string, leaseMs: number, limit: number): void {
  if (!Number.isSafeInteger(now) || now < 0) throw new TypeError(`claimDue: now must be ms since the epoch, got ${now}`);
  checkName(owner, "claimDue: owner");
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 1 || leaseMs > STORE_LIMITS.leaseMs)
    throw new RangeError(`claimDue: leaseMs must be an integer from 1 to ${STORE_LIMITS.leaseMs}, got ${leaseMs}`);
  checkLimit(limit, "claimDue");
}

/** Checks a partner's members. */
export function checkPartner(partner: PartnerRow): void {
  checkName(partner?.id, "partner id");
  checkName(partner.name, `partner ${JSON.stringify(partner.id)}: name`);
  checkCredentialKey(partner.credentialKey, `partner ${JSON.stringify(partner.id)}: credentialKey`);
  if (typeof partner.createdAt !== "string" || Number.isNaN(Date.parse(partner.createdAt)))
    throw new TypeError(`partner ${JSON.stringify(partner.id)}: createdAt must be an ISO 8601 time`);
  if (partner.quotas !== undefined) {
    if (typeof partner.quotas !== "object" || partner.quotas === null || Array.isArray(partner.quotas))
      throw new TypeError(`partner ${JSON.stringify(partner.id)}: quotas must be an object of numbers`);
    for (const [name, value] of Object.entries(partner.quotas))
      if (typeof value !== "number" || !Number.isFinite(value))
        throw new TypeError(`partner ${JSON.stringify(partner.id)}: quotas.${name} must be a finite number`);
  }
}

/** The partner as stored and read back: only its declared members. */
export function partnerRow(partner: PartnerRow): PartnerRow {
  const row: PartnerRow = { id: partner.id, name: partner.name, credentialKey: partner.credentialKey, createdAt: partner.createdAt };
  if (partner.quotas !== undefined) row.quotas = { ...partner.quotas };
  return row;
}
