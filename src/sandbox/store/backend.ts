/**
 * The seam between the sandbox and where its state lives.
 *
 * The sandbox works on one credential's state at a time (a `CredentialState` in memory, which the
 * engine reads and changes synchronously). Where that state is kept is a store:
 *
 * - `memory` (the default): the in-memory states are the whole truth; nothing here is used, and a
 *   request costs what it cost before there were other stores.
 * - `file:<dir>`: an embedded durable store on one machine (one process). Every state is loaded at
 *   start; each request's changes are written, and the answer is sent only once they are durable.
 * - `postgres://...`: any number of sandbox processes on one database act as one. A request runs
 *   holding its credential (a lock every instance respects), on a copy brought up to date when
 *   another instance changed it, and its changes are committed before the answer is sent.
 *
 * A credential's state is a set of rows: one `meta` row (clock offset, callback URLs, queued error
 * rules, id sequence, delayed moves...), one row per record, per event and per delivery (the log
 * entry and, while it is pending, its place in the queue with the due time of its next attempt).
 * Values are plain JSON (./codec.ts encodes what JSON cannot say, such as the sandbox's instants).
 * Each change of a state bumps its version; the store keeps the version with the rows.
 *
 * Work that falls due without a request (a delivery attempt, a delayed move, an expiry) is found
 * through each credential's `wakeAt`, which every change set carries: `claimDue` hands due
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
  /** When the credential next has work due (ms since the epoch, real clock); null when none. */
  wakeAt: number | null;
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
  /** Every credential stored. */
  loadAll(): AsyncIterable<StoredCredential>;
  /**
   * Runs `work` holding credential `key` (on Postgres, serialised with every instance's
   * transactions on it), then makes the change set it returns durable, and resolves after that
   * (committed and flushed): only then may the answer be sent. `known` is the version of the
   * caller's copy; `work` receives the stored credential when its version is another (first use,
   * or another instance changed it), undefined when the copy is current. Nothing is written when
   * `work` throws or the write fails (the promise rejects).
   */
  transact<T>(
    key: string,
    known: number | undefined,
    work: (stored: StoredCredential | undefined) => { changes: ChangeSet; result: T },
  ): Promise<{ result: T; version: number }>;
  /** Removes a credential's rows (a reset); resolves once that is durable. */
  remove(key: string): Promise<void>;
  /**
   * Up to `limit` credentials whose `wakeAt` is at or before `now`, each leased to `owner` for
   * `leaseMs` (no other instance is handed it until then).
   */
  claimDue(now: number, owner: string, leaseMs: number, limit: number): Promise<string[]>;
  putPartner(partner: PartnerRow): Promise<void>;
  /** True when the partner existed. Its state stays until reset; its credential is refused at once. */
  deletePartner(id: string): Promise<boolean>;
  listPartners(): Promise<PartnerRow[]>;
  partnerByCredential(credentialKey: string): Promise<PartnerRow | undefined>;
}
