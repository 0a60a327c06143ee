/**
 * The `file:<dir>` store: the sandbox's state in an embedded LMDB environment (the `lmdb` package,
 * whose prebuilt binaries install from the registry), for one process on one machine. Why LMDB:
 * docs/adr/0015-durable-store.md.
 *
 * One environment, `<dir>/sandbox.mdb` (and LMDB's `sandbox.mdb-lock` beside it), with one named
 * database per kind of entry, values kept as JSON text:
 *
 * - `credentials`: credential key -> `{ version, wakeAt }`; a reset keeps the entry (its version
 *   goes on) without rows or `wakeAt`.
 * - `rows`: `[credential key, collection, id]` -> the row's value.
 * - `wake`: `[wakeAt, credential key]` -> "", the index `claimDue` walks in time order.
 * - `leases`: credential key -> `{ owner, until }`.
 * - `partners`: id -> the partner; `partnerKeys`: credential key -> partner id (one partner a credential).
 * - `store`: `format` (the layout's version; a newer one is refused) and `owner`, the process using it.
 *
 * Every write runs in lmdb-js's asynchronous write transaction, which commits the writes of one event
 * turn together (many requests, one commit), each change set in a child transaction of its own, so
 * that one that fails (work that throws, a value JSON cannot write) leaves nothing. Those callbacks run
 * one at a time, which serialises every transaction on a key, and each reads what the ones before it
 * wrote. A transaction resolves only once its commit is flushed to disk (`flushed`: lmdb-js commits
 * with overlapping sync on Linux, resolving a write when it is visible, before it is on disk).
 *
 * One process at a time: LMDB itself lets processes share an environment, but the sandbox keeps each
 * credential's state in memory between requests, which another process would not see. `open` claims
 * the directory in a write transaction (LMDB's writer lock spans processes) by recording the process
 * (pid, host, boot id and start time, so that a reused pid is not taken for it) and refuses a
 * directory whose recorded process is alive. On this host that is checked at once; a process of
 * another host name (another container on a shared volume, or the same machine renamed) cannot be
 * checked, so the owner also records a sign of life every `HEARTBEAT_MS` and its claim lapses
 * `STALE_MS` after the last. Instances opened in one process on one directory share its
 * environment. Before LMDB opens it, the directory is checked (./file-checks.ts): a directory on a
 * network file system (NFS, SMB) is refused, LMDB's locks and memory map needing a local one; so are
 * a `sandbox.mdb` that is no LMDB file, a lock file LMDB cannot open (a link to nowhere, a file this
 * user may not write), and either file when it is a directory, a device, a pipe, a socket or a
 * kernel's file (a link into /proc), on which LMDB would crash the process.
 */
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { type Database, type Key, open as openLmdb, type RootDatabase } from "lmdb";
import {
  type ChangeSet,
  checkClaim,
  checkCredentialKey,
  checkLimit,
  checkNamespace,
  checkPartner,
  DuplicatePartnerCredential,
  type DurableBackend,
  keyInNamespace,
  namespacedKey,
  nextWake,
  type PartnerRow,
  partnerRow,
  prepareChanges,
  type Row,
  type StoredCredential,
} from "./backend.js";
import { describeError, FILE_NAME, prepareDirectory } from "./file-checks.js";

export { FILE_NAME, NETWORK_FILE_SYSTEMS, networkFileSystem } from "./file-checks.js";

/** The layout of the environment; a store written in a later layout is refused, never changed. */
export const FILE_FORMAT = 1;

interface CredentialEntry {
  version: number;
  wakeAt: number | null;
}

interface Lease {
  owner: string;
  until: number;
}

/** Who uses a store: enough to tell whether that process still runs (a pid alone may be reused). */
interface Owner {
  pid: number;
  host: string;
  /** /proc/sys/kernel/random/boot_id; "" off Linux. */
  boot: string;
  /** The process's start time in clock ticks since boot (/proc/<pid>/stat); "" off Linux. */
  start: string;
  /** Its last sign of life, ms since the epoch. */
  seen: number;
}

/** How often the process using a store records a sign of life. */
export const HEARTBEAT_MS = 10_000;
/** How long after its last sign of life a process of another host loses its claim on a store. */
export const STALE_MS = 3 * HEARTBEAT_MS;

/** One environment, shared by the instances of this process that opened its directory. */
interface Environment {
  root: RootDatabase<string, Key>;
  credentials: Database<string, string>;
  rows: Database<string, [string, string, string]>;
  wake: Database<string, [number, string]>;
  leases: Database<string, string>;
  partners: Database<string, string>;
  partnerKeys: Database<string, string>;
  store: Database<string, string>;
  users: number;
  heartbeat: NodeJS.Timeout | undefined;
}

const environments = new Map<string, Promise<Environment>>();

/** Past the last collection name and credential key (both ASCII) in a key's last part. */
const HIGH = "\uffff";

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** The start time of process `pid` (field 22 of /proc/<pid>/stat), "" when it does not run or this is not Linux. */
function processStart(pid: number): string {
  const stat = readText(`/proc/${pid}/stat`);
  // The command (field 2) is in parentheses and may hold spaces: count from the last ")".
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
}

function thisProcess(now = Date.now()): Owner {
  return {
    pid: process.pid,
    host: hostname(),
    boot: readText("/proc/sys/kernel/random/boot_id").trim(),
    start: processStart(process.pid),
    seen: now,
  };
}

function alive(owner: Owner, me: Owner): boolean {
  // Another host's process cannot be looked up from here: its signs of life tell.
  if (owner.host !== me.host) return me.seen - owner.seen < STALE_MS;
  if (me.boot !== "") return owner.boot === me.boot && owner.start !== "" && processStart(owner.pid) === owner.start;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const sameProcess = (a: Owner, b: Owner) => a.pid === b.pid && a.host === b.host && a.boot === b.boot && a.start === b.start;

async function openEnvironment(dir: string, name: string): Promise<Environment> {
  prepareDirectory(dir, name);
  let root: RootDatabase<string, Key>;
  try {
    root = openLmdb({ path: join(dir, FILE_NAME), encoding: "string", maxDbs: 12 });
  } catch (error) {
    throw new Error(`${name}: cannot open ${FILE_NAME} (${describeError(error)})`);
  }
  const db = <K extends Key>(dbName: string) => root.openDB<string, K>({ name: dbName, encoding: "string" });
  const env: Environment = {
    root,
    credentials: db("credentials"),
    rows: db("rows"),
    wake: db("wake"),
    leases: db("leases"),
    partners: db("partners"),
    partnerKeys: db("partnerKeys"),
    store: db("store"),
    users: 0,
    heartbeat: undefined,
  };
  const me = thisProcess();
  try {
    root.transactionSync(() => {
      const format = env.store.get("format");
      if (format !== undefined && Number(format) > FILE_FORMAT)
        throw new Error(`${name}: written by a later version of the sandbox (store format ${format}; this one reads ${FILE_FORMAT})`);
      const owner = env.store.get("owner");
      const held = owner === undefined ? undefined : (JSON.parse(owner) as Owner);
      if (held && !sameProcess(held, me) && alive(held, me))
        throw new Error(
          `${name}: in use by process ${held.pid} on ${held.host}${held.host === me.host ? "" : ` (last sign of life ${Math.max(0, Math.round((me.seen - held.seen) / 1000))} s ago; its claim lapses ${STALE_MS / 1000} s after that)`}; one process at a time may use a file: store (stop that one, or choose another directory)`,
        );
      if (format === undefined) env.store.putSync("format", String(FILE_FORMAT));
      env.store.putSync("owner", JSON.stringify(me));
    });
  } catch (error) {
    await root.close();
    throw error;
  }
  env.heartbeat = setInterval(() => {
    env.root
      .transaction(() => {
        const owner = env.store.get("owner");
        if (owner !== undefined && sameProcess(JSON.parse(owner) as Owner, me))
          env.store.putSync("owner", JSON.stringify({ ...me, seen: Date.now() }));
      })
      .catch(() => {}); // a sign of life missed; the next one comes
  }, HEARTBEAT_MS);
  env.heartbeat.unref();
  return env;
}

function readCredential(env: Environment, key: string): CredentialEntry {
  const text = env.credentials.get(key);
  return text === undefined ? { version: 0, wakeAt: null } : (JSON.parse(text) as CredentialEntry);
}

function readRows(env: Environment, key: string): Row[] {
  const rows: Row[] = [];
  for (const { key: rowKey, value } of env.rows.getRange({ start: [key], end: [key, HIGH] }))
    rows.push({ collection: rowKey[1] as Row["collection"], id: rowKey[2], value: JSON.parse(value) });
  return rows;
}

function setWake(env: Environment, key: string, from: number | null, to: number | null): void {
  if (from === to) return;
  if (from !== null) env.wake.removeSync([from, key]);
  if (to !== null) env.wake.putSync([to, key], "");
}

export interface FileOptions {
  /** The namespace of the credentials (./backend.ts `scope`); none: the credentials of no namespace. */
  namespace?: string;
}

export class FileBackend implements DurableBackend {
  readonly kind = "file" as const;
  readonly shared = false;
  /** The store's directory, absolute. */
  readonly dir: string;
  readonly namespace: string | undefined;
  #env: Environment | undefined;
  #state: "new" | "opening" | "open" | "closed" = "new";
  /** The open in progress or done (a close during it waits for it). */
  #opening: Promise<void> | undefined;
  readonly #pending = new Set<Promise<unknown>>();
  /** A view's store (`scope`), whose environment it uses. */
  #root: FileBackend | undefined;

  constructor(dir: string, options: FileOptions = {}) {
    this.dir = resolve(dir);
    if (options.namespace !== undefined) checkNamespace(options.namespace);
    this.namespace = options.namespace;
  }

  /** How errors name this store. */
  get name(): string {
    return `file store ${this.dir}`;
  }

  scope(namespace: string): FileBackend {
    const view = new FileBackend(this.dir, { namespace });
    view.#root = this.#root ?? this;
    return view;
  }

  async open(): Promise<void> {
    if (this.#state !== "new") throw new Error(`${this.name}: open() was called already`);
    if (this.#root) {
      this.#root.#use();
      this.#state = "open";
      return;
    }
    this.#state = "opening";
    this.#opening = this.#attach();
    return this.#opening;
  }

  /** Opens (or shares) the directory's environment; released at once when close() came meanwhile. */
  async #attach(): Promise<void> {
    let opening = environments.get(this.dir);
    if (!opening) {
      opening = openEnvironment(this.dir, this.name);
      environments.set(this.dir, opening);
      opening.catch(() => environments.delete(this.dir));
    }
    let env: Environment;
    try {
      env = await opening;
    } catch (error) {
      if (this.#state === "opening") this.#state = "new";
      throw error;
    }
    env.users++;
    this.#env = env;
    const closedMeanwhile = this.#state === "closed";
    this.#state = "open";
    if (closedMeanwhile) {
      await this.close();
      throw new Error(`${this.name}: closed before it was open`);
    }
  }

  async close(): Promise<void> {
    if (this.#state === "opening") {
      // What the open takes is released when it has it (#attach); closed once that is done.
      this.#state = "closed";
      await this.#opening?.catch(() => undefined);
      return;
    }
    if (this.#state !== "open") {
      this.#state = "closed";
      return;
    }
    this.#state = "closed";
    await Promise.allSettled([...this.#pending]);
    if (this.#root) return;
    const env = this.#env!;
    this.#env = undefined;
    if (--env.users > 0) return;
    environments.delete(this.dir);
    clearInterval(env.heartbeat);
    await env.root.transaction(() => {
      const owner = env.store.get("owner");
      if (owner !== undefined && sameProcess(JSON.parse(owner) as Owner, thisProcess())) env.store.removeSync("owner");
    });
    await env.root.flushed;
    await env.root.close();
  }

  /** A credential key as this namespace writes it. */
  #key(key: string): string {
    return namespacedKey(this.namespace, key);
  }

  #use(): Environment {
    if (this.#state !== "open") throw new Error(`${this.name}: ${this.#state === "closed" ? "closed" : "not open"}`);
    return this.#root ? this.#root.#use() : this.#env!;
  }

  /**
   * Runs `change` in a child transaction of the next batched write transaction (all of its writes or,
   * when it throws, none), then waits until the commit is on disk.
   */
  #write<T>(env: Environment, change: () => T): Promise<T> {
    const run = (async () => {
      const outcome: { value?: T; error?: unknown; done: boolean } = { done: false };
      await env.root.transaction(() => {
        try {
          let value!: T;
          env.root.childTransaction(() => {
            value = change();
          });
          outcome.value = value;
          outcome.done = true;
        } catch (error) {
          outcome.error = error;
        }
      });
      if (!outcome.done) throw outcome.error ?? new Error(`${this.name}: the write did not run`);
      await env.root.flushed;
      return outcome.value as T;
    })();
    this.#pending.add(run);
    run.then(
      () => this.#pending.delete(run),
      () => this.#pending.delete(run),
    );
    return run;
  }

  async *loadAll(): AsyncIterable<StoredCredential> {
    const env = this.#use();
    const range = this.namespace ? { start: `${this.namespace}/`, end: `${this.namespace}/${HIGH}` } : {};
    const keys = Array.from(env.credentials.getKeys(range));
    for (const stored of keys) {
      const key = keyInNamespace(this.namespace, stored);
      if (key === undefined) continue;
      // One credential read whole between two awaits: one snapshot.
      const entry = env.credentials.get(stored);
      if (entry === undefined) continue;
      const rows = readRows(env, stored);
      if (rows.length === 0) continue;
      yield { key, version: (JSON.parse(entry) as CredentialEntry).version, rows };
      await undefined;
    }
  }

  async transact<T>(
    key: string,
    known: number | undefined,
    work: (stored: StoredCredential | undefined) => { changes: ChangeSet; result: T },
  ): Promise<{ result: T; version: number }> {
    checkCredentialKey(key);
    const env = this.#use();
    const at = this.#key(key);
    return this.#write(env, () => {
      const current = readCredential(env, at);
      const stored = known === current.version ? undefined : { key, version: current.version, rows: readRows(env, at) };
      const { changes, result } = work(stored);
      const prepared = prepareChanges(changes);
      const wakeAt = nextWake(prepared, current.wakeAt);
      if (prepared.empty && wakeAt === current.wakeAt) return { result, version: current.version };
      const version = current.version + 1;
      for (const row of prepared.deletes) env.rows.removeSync([at, row.collection, row.id]);
      for (const row of prepared.puts) env.rows.putSync([at, row.collection, row.id], row.json);
      setWake(env, at, current.wakeAt, wakeAt);
      env.credentials.putSync(at, JSON.stringify({ version, wakeAt } satisfies CredentialEntry));
      return { result, version };
    });
  }

  async remove(key: string): Promise<void> {
    checkCredentialKey(key);
    const env = this.#use();
    const at = this.#key(key);
    return this.#write(env, () => {
      const current = readCredential(env, at);
      if (current.version === 0) return;
      const rowKeys = Array.from(env.rows.getKeys({ start: [at], end: [at, HIGH] }));
      for (const rowKey of rowKeys) env.rows.removeSync(rowKey);
      setWake(env, at, current.wakeAt, null);
      env.leases.removeSync(at);
      env.credentials.putSync(at, JSON.stringify({ version: current.version + 1, wakeAt: null } satisfies CredentialEntry));
    });
  }

  async claimDue(now: number, owner: string, leaseMs: number, limit: number): Promise<string[]> {
    checkClaim(now, owner, leaseMs, limit);
    const env = this.#use();
    // Nothing due (what a poll finds most of the time): no write transaction, no flush.
    if (this.#due(env, now, owner, limit).length === 0) return [];
    return this.#write(env, () => {
      const claimed = this.#due(env, now, owner, limit);
      for (const at of claimed) env.leases.putSync(at, JSON.stringify({ owner, until: now + leaseMs } satisfies Lease));
      return claimed.map((at) => keyInNamespace(this.namespace, at)!);
    });
  }

  /** This namespace's credentials (as written) due at `now` and not leased to another owner, earliest first. */
  #due(env: Environment, now: number, owner: string, limit: number): string[] {
    const due: string[] = [];
    // Read first, write after: no write while a cursor is open on the index.
    for (const [, at] of env.wake.getKeys({ start: [0], end: [now, HIGH] })) {
      if (keyInNamespace(this.namespace, at) === undefined) continue;
      const leased = env.leases.get(at);
      const lease = leased === undefined ? undefined : (JSON.parse(leased) as Lease);
      if (lease && lease.until > now && lease.owner !== owner) continue;
      due.push(at);
      if (due.length === limit) break;
    }
    return due;
  }

  async scheduled(limit: number): Promise<string[]> {
    checkLimit(limit);
    const env = this.#use();
    const keys: string[] = [];
    for (const [, at] of env.wake.getKeys({ start: [0] })) {
      const key = keyInNamespace(this.namespace, at);
      if (key === undefined) continue;
      keys.push(key);
      if (keys.length === limit) break;
    }
    return keys;
  }

  async putPartner(partner: PartnerRow): Promise<void> {
    checkPartner(partner);
    const row = partnerRow(partner);
    const env = this.#use();
    return this.#write(env, () => {
      const holder = env.partnerKeys.get(row.credentialKey);
      if (holder !== undefined && holder !== row.id) throw new DuplicatePartnerCredential(row.id, holder);
      const before = env.partners.get(row.id);
      if (before !== undefined) env.partnerKeys.removeSync((JSON.parse(before) as PartnerRow).credentialKey);
      env.partners.putSync(row.id, JSON.stringify(row));
      env.partnerKeys.putSync(row.credentialKey, row.id);
    });
  }

  async deletePartner(id: string): Promise<boolean> {
    const env = this.#use();
    return this.#write(env, () => {
      const before = env.partners.get(id);
      if (before === undefined) return false;
      env.partners.removeSync(id);
      env.partnerKeys.removeSync((JSON.parse(before) as PartnerRow).credentialKey);
      return true;
    });
  }

  async listPartners(): Promise<PartnerRow[]> {
    const env = this.#use();
    // In id order as the database keeps it (UTF-8 bytes, as Postgres's COLLATE "C"); the sort is
    // stable, so partners of one createdAt stay in it.
    const partners = Array.from(env.partners.getRange(), ({ value }) => JSON.parse(value) as PartnerRow);
    return partners.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  async partnerByCredential(credentialKey: string): Promise<PartnerRow | undefined> {
    const env = this.#use();
    const id = env.partnerKeys.get(credentialKey);
    const text = id === undefined ? undefined : env.partners.get(id);
    return text === undefined ? undefined : (JSON.parse(text) as PartnerRow);
  }
}
