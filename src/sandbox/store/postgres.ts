/**
 * The `postgres://...` store: the sandbox's state in Postgres, through `pg`, so that any number of
 * sandbox processes on one database act as one. Why: docs/adr/0015-durable-store.md.
 *
 * Tables (all named `sandbox_*`, in the connection's default schema):
 *
 * - `sandbox_schema_version`: one row per migration applied. `open` takes a transaction-scoped
 *   advisory lock, reads the version and applies the migrations after it, in that one transaction:
 *   instances opening at once migrate once (the others wait, then find it done). A database whose
 *   schema is newer than this code knows is refused, never changed: migrations only add, so that
 *   instances of the previous release keep working during a rolling upgrade.
 * - `sandbox_credentials`: one row per credential key: its version, `wake_at` (when it next has work
 *   due) and its lease (`lease_owner`, `lease_until`). A transaction holds its credential by this
 *   row (`SELECT ... FOR UPDATE`, the row made on first use): every instance's transactions on one
 *   credential run one after the other, each reading what the one before committed. A reset keeps
 *   the row, its version going on.
 * - `sandbox_rows`: the credential's rows (`key`, `collection`, `id`), values as JSON text.
 * - `sandbox_partners`: the hosted sandbox's partners, with a unique `credential_key`.
 *
 * `claimDue` takes due credentials with `FOR UPDATE SKIP LOCKED` (one being changed is skipped, not
 * waited for) and sets their lease; an instance that dies leaves its leases to run out, and its
 * open transaction to be rolled back when its connection goes (or when it has been idle in a
 * transaction for the statement timeout). A commit returns once Postgres has made it durable (its
 * default, `synchronous_commit = on`).
 *
 * Bounds: a pool of at most `poolSize` connections; connecting, and waiting for a pooled connection,
 * time out; so does each statement (lock waits included), a connection idle inside a transaction,
 * and an answer that never comes. The URL's password never appears in an error or a log line.
 */
import pg from "pg";
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
import { redactUrl, urlSecrets } from "./url.js";

export interface PostgresOptions {
  /** Connections at most (1-100; default 10). */
  poolSize?: number;
  /** Connecting, or waiting for a pooled connection, in ms (100-60,000; default 10,000). */
  connectTimeoutMs?: number;
  /** One statement, lock waits included, and a connection idle inside a transaction, in ms (100-300,000; default 10,000). */
  statementTimeoutMs?: number;
  /** A pooled connection unused this long is closed, in ms (1,000-600,000; default 30,000). */
  idleTimeoutMs?: number;
  /** Where failures of idle connections are told (one line each); default: standard error. */
  log?: (line: string) => void;
  /** The namespace of the credentials (./backend.ts `scope`); none: the credentials of no namespace. */
  namespace?: string;
}

const BOUNDS: Record<keyof Omit<PostgresOptions, "log" | "namespace">, [min: number, max: number, fallback: number]> = {
  poolSize: [1, 100, 10],
  connectTimeoutMs: [100, 60_000, 10_000],
  statementTimeoutMs: [100, 300_000, 10_000],
  idleTimeoutMs: [1_000, 600_000, 30_000],
};

function bounded(options: PostgresOptions, name: keyof typeof BOUNDS): number {
  const [min, max, fallback] = BOUNDS[name];
  const value = options[name] ?? fallback;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`postgres store: ${name} must be an integer from ${min} to ${max}, got ${value}`);
  return value;
}

/** The migrations, in order: migration n (1-based) takes the schema from version n - 1 to n. Only ever append. */
export const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE sandbox_credentials (
       key text PRIMARY KEY,
       version bigint NOT NULL,
       wake_at bigint,
       lease_owner text,
       lease_until bigint)`,
    "CREATE INDEX sandbox_credentials_wake ON sandbox_credentials (wake_at) WHERE wake_at IS NOT NULL",
    `CREATE TABLE sandbox_rows (
       key text NOT NULL REFERENCES sandbox_credentials (key),
       collection text NOT NULL,
       id text NOT NULL,
       value text NOT NULL,
       PRIMARY KEY (key, collection, id))`,
    `CREATE TABLE sandbox_partners (
       id text PRIMARY KEY,
       name text NOT NULL,
       credential_key text NOT NULL UNIQUE,
       created_at text NOT NULL,
       quotas text)`,
  ],
];

/** The advisory lock `open` migrates under (a constant of this package: "bank-api" in ASCII). */
const MIGRATION_LOCK = "7089068695059787881";

const LOCK_CREDENTIAL = "SELECT version, wake_at FROM sandbox_credentials WHERE key = $1 FOR UPDATE";

const WRITE_CHANGES = `
  WITH gone AS (
    DELETE FROM sandbox_rows r USING unnest($2::text[], $3::text[]) AS d (collection, id)
    WHERE r.key = $1 AND r.collection = d.collection AND r.id = d.id
  ), kept AS (
    INSERT INTO sandbox_rows (key, collection, id, value)
    SELECT $1, p.collection, p.id, p.value FROM unnest($4::text[], $5::text[], $6::text[]) AS p (collection, id, value)
    ON CONFLICT (key, collection, id) DO UPDATE SET value = EXCLUDED.value
  )
  UPDATE sandbox_credentials SET version = $7, wake_at = $8 WHERE key = $1`;

/** The credentials of namespace $N ('': of none, whose keys hold no "/"; else its keys start with "<namespace>/"). */
const IN_NAMESPACE = (n: number) => `(CASE WHEN $${n}::text = '' THEN strpos(key, '/') = 0 ELSE starts_with(key, $${n}::text || '/') END)`;

const CLAIM_DUE = `
  UPDATE sandbox_credentials c SET lease_owner = $2, lease_until = $1::bigint + $3::bigint
  FROM (
    SELECT key FROM sandbox_credentials
    WHERE wake_at <= $1 AND (lease_until IS NULL OR lease_until <= $1 OR lease_owner = $2) AND ${IN_NAMESPACE(5)}
    ORDER BY wake_at LIMIT $4
    FOR UPDATE SKIP LOCKED
  ) due
  WHERE c.key = due.key
  RETURNING c.key, c.wake_at`;

const SCHEDULED = `
  SELECT key FROM sandbox_credentials WHERE wake_at IS NOT NULL AND ${IN_NAMESPACE(2)}
  ORDER BY wake_at, key COLLATE "C" LIMIT $1`;

/** Credentials `loadAll` reads at a time. */
const LOAD_PAGE = 100;

interface PartnerRecord {
  id: string;
  name: string;
  credential_key: string;
  created_at: string;
  quotas: string | null;
}

function fromRecord(record: PartnerRecord): PartnerRow {
  const partner: PartnerRow = { id: record.id, name: record.name, credentialKey: record.credential_key, createdAt: record.created_at };
  if (record.quotas !== null) partner.quotas = JSON.parse(record.quotas) as Record<string, number>;
  return partner;
}

/** An error's code and message, the messages of an AggregateError's errors included (a refused connection to each address of a host). */
function describe(error: unknown): string {
  const e = error as NodeJS.ErrnoException & { errors?: unknown[] };
  if (Array.isArray(e?.errors) && e.errors.length > 0 && !e.message) return e.errors.map(describe).join("; ");
  const message = String(e?.message ?? error);
  return e?.code && !message.includes(e.code) ? `${e.code}: ${message}` : message;
}

export class PostgresBackend implements DurableBackend {
  readonly kind = "postgres" as const;
  readonly shared = true;
  /** How errors and logs name this store: the URL without its password. */
  readonly name: string;
  readonly #url: string;
  readonly #secrets: string[];
  readonly #options: Required<Omit<PostgresOptions, "log" | "namespace">> & Pick<PostgresOptions, "log">;
  readonly namespace: string | undefined;
  #pool: pg.Pool | undefined;
  #state: "new" | "opening" | "open" | "closed" = "new";
  readonly #pending = new Set<Promise<unknown>>();
  /** A view's store (`scope`), whose pool it uses. */
  #root: PostgresBackend | undefined;

  constructor(url: string, options: PostgresOptions = {}) {
    if (!URL.canParse(url)) throw new TypeError("postgres store: the address is not a valid URL");
    if (options.namespace !== undefined) checkNamespace(options.namespace);
    this.namespace = options.namespace;
    this.name = `postgres store ${redactUrl(url)}`;
    this.#url = url;
    // Longest first: a secret that holds another is replaced whole.
    this.#secrets = urlSecrets(url).sort((a, b) => b.length - a.length);
    this.#options = {
      poolSize: bounded(options, "poolSize"),
      connectTimeoutMs: bounded(options, "connectTimeoutMs"),
      statementTimeoutMs: bounded(options, "statementTimeoutMs"),
      idleTimeoutMs: bounded(options, "idleTimeoutMs"),
      log: options.log,
    };
  }

  /** `text` with the password, in any of its spellings, replaced by `***`. */
  #scrub(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join("***");
    return out;
  }

  /** A one-line error naming the store and what failed; the SQLSTATE or system code kept as `code`. */
  #error(what: string, error: unknown): Error {
    const failure = new Error(this.#scrub(`${this.name}: ${what}: ${describe(error)}`));
    const code = (error as { code?: unknown })?.code;
    if (typeof code === "string") Object.assign(failure, { code });
    return failure;
  }

  #log(line: string): void {
    const text = this.#scrub(line);
    if (this.#options.log) this.#options.log(text);
    else process.stderr.write(`${text}\n`);
  }

  scope(namespace: string): PostgresBackend {
    const view = new PostgresBackend(this.#url, { ...this.#options, namespace });
    view.#root = this.#root ?? this;
    return view;
  }

  /** A credential key as this namespace writes it. */
  #key(key: string): string {
    return namespacedKey(this.namespace, key);
  }

  async open(): Promise<void> {
    if (this.#state !== "new") throw new Error(`${this.name}: open() was called already`);
    if (this.#root) {
      this.#root.#use();
      this.#state = "open";
      return;
    }
    this.#state = "opening";
    const { poolSize, connectTimeoutMs, statementTimeoutMs, idleTimeoutMs } = this.#options;
    const pool = new pg.Pool({
      connectionString: this.#url,
      max: poolSize,
      connectionTimeoutMillis: connectTimeoutMs,
      idleTimeoutMillis: idleTimeoutMs,
      statement_timeout: statementTimeoutMs,
      idle_in_transaction_session_timeout: statementTimeoutMs,
      query_timeout: statementTimeoutMs + connectTimeoutMs,
      keepAlive: true,
      application_name: "bank-api-contracts sandbox",
    });
    pool.on("error", (error) => this.#log(`${this.name}: an idle connection failed: ${describe(error)}`));
    this.#pool = pool;
    try {
      await this.#migrate();
    } catch (error) {
      this.#pool = undefined;
      this.#state = "new";
      await pool.end().catch(() => {});
      throw error;
    }
    this.#state = "open";
  }

  async #migrate(): Promise<void> {
    await this.#transaction("open", async (client) => {
      await client.query("SELECT pg_advisory_xact_lock($1::bigint)", [MIGRATION_LOCK]);
      await client.query(
        "CREATE TABLE IF NOT EXISTS sandbox_schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
      );
      const { rows } = await client.query<{ version: number | null }>("SELECT max(version) AS version FROM sandbox_schema_version");
      const current = rows[0]?.version ?? 0;
      if (current > MIGRATIONS.length)
        throw new OwnError(
          new Error(
            `${this.name}: its schema is at version ${current}, later than this sandbox knows (${MIGRATIONS.length}): upgrade bank-api-contracts (a sandbox never changes a later schema)`,
          ),
        );
      for (let version = current + 1; version <= MIGRATIONS.length; version++) {
        for (const statement of MIGRATIONS[version - 1]!) await client.query(statement);
        await client.query("INSERT INTO sandbox_schema_version (version) VALUES ($1)", [version]);
      }
    });
  }

  async close(): Promise<void> {
    const pool = this.#pool;
    const wasOpen = this.#state === "open";
    this.#state = "closed";
    this.#pool = undefined;
    if (this.#root) {
      if (wasOpen) await Promise.allSettled([...this.#pending]);
      return;
    }
    if (!pool) return;
    await Promise.allSettled([...this.#pending]);
    await pool.end();
  }

  #use(): pg.Pool {
    if (this.#state === "closed") throw new Error(`${this.name}: closed`);
    if (this.#root) {
      if (this.#state !== "open") throw new Error(`${this.name}: not open`);
      return this.#root.#use();
    }
    if (!this.#pool) throw new Error(`${this.name}: not open`);
    return this.#pool;
  }

  /**
   * Runs `body` in one transaction on a pooled connection: committed when it returns, rolled back
   * when it throws. An error of `body`'s own (not the database's) is thrown as it is; a database or
   * connection error is named with `what`.
   */
  #transaction<T>(what: string, body: (client: pg.PoolClient) => Promise<T>, isolation = ""): Promise<T> {
    const pool = this.#use();
    return this.#track(async () => {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw this.#error(`${what}: cannot connect`, error);
      }
      let broken: Error | undefined;
      // The pool listens for a connection's errors only while it is idle: a failure between two statements must not go unheard.
      const failed = (error: Error) => {
        broken = error;
      };
      client.on("error", failed);
      try {
        await client.query(`BEGIN${isolation}`);
        const value = await body(client);
        await client.query("COMMIT");
        return value;
      } catch (error) {
        await client.query("ROLLBACK").catch((rollback: Error) => {
          broken = rollback;
        });
        if (error instanceof OwnError) throw error.error;
        throw this.#error(what, error);
      } finally {
        client.off("error", failed);
        client.release(broken);
      }
    });
  }

  /** One statement on its own (autocommit); an error is named with `what`. */
  #query<R extends pg.QueryResultRow>(what: string, text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    const pool = this.#use();
    return this.#track(async () => {
      try {
        return await pool.query<R>(text, values);
      } catch (error) {
        throw this.#error(what, error);
      }
    });
  }

  /** Runs `body`, which `close` waits for. */
  #track<T>(body: () => Promise<T>): Promise<T> {
    const run = body();
    this.#pending.add(run);
    run.then(
      () => this.#pending.delete(run),
      () => this.#pending.delete(run),
    );
    return run;
  }

  async *loadAll(): AsyncIterable<StoredCredential> {
    let after = "";
    for (;;) {
      const page = await this.#transaction(
        "loadAll",
        async (client) => {
          const credentials = await client.query<{ key: string; version: string }>(
            `SELECT key, version FROM sandbox_credentials c
             WHERE key COLLATE "C" > $1 AND ${IN_NAMESPACE(2)} AND EXISTS (SELECT 1 FROM sandbox_rows r WHERE r.key = c.key)
             ORDER BY key COLLATE "C" LIMIT ${LOAD_PAGE}`,
            [after, this.namespace ?? ""],
          );
          const keys = credentials.rows.map((row) => row.key);
          const rows = await client.query<{ key: string; collection: Row["collection"]; id: string; value: string }>(
            "SELECT key, collection, id, value FROM sandbox_rows WHERE key = ANY($1::text[])",
            [keys],
          );
          const byKey = new Map<string, StoredCredential>(
            credentials.rows.map((row) => [
              row.key,
              { key: keyInNamespace(this.namespace, row.key)!, version: Number(row.version), rows: [] },
            ]),
          );
          for (const row of rows.rows)
            byKey.get(row.key)?.rows.push({ collection: row.collection, id: row.id, value: JSON.parse(row.value) });
          return { stored: [...byKey.values()], last: keys[keys.length - 1] };
        },
        " ISOLATION LEVEL REPEATABLE READ READ ONLY",
      );
      for (const stored of page.stored) yield stored;
      if (page.stored.length < LOAD_PAGE || page.last === undefined) return;
      after = page.last;
    }
  }

  async transact<T>(
    key: string,
    known: number | undefined,
    work: (stored: StoredCredential | undefined) => { changes: ChangeSet; result: T },
  ): Promise<{ result: T; version: number }> {
    checkCredentialKey(key);
    const at = this.#key(key);
    return this.#transaction(`transact on credential ${key.slice(0, 12)}`, async (client) => {
      let locked = await client.query<{ version: string; wake_at: string | null }>(LOCK_CREDENTIAL, [at]);
      if (locked.rows.length === 0) {
        await client.query("INSERT INTO sandbox_credentials (key, version) VALUES ($1, 0) ON CONFLICT (key) DO NOTHING", [at]);
        locked = await client.query(LOCK_CREDENTIAL, [at]);
      }
      const version = Number(locked.rows[0]!.version);
      const wakeAt = locked.rows[0]!.wake_at === null ? null : Number(locked.rows[0]!.wake_at);
      let stored: StoredCredential | undefined;
      if (known !== version) {
        const rows = await client.query<{ collection: Row["collection"]; id: string; value: string }>(
          "SELECT collection, id, value FROM sandbox_rows WHERE key = $1",
          [at],
        );
        stored = { key, version, rows: rows.rows.map((row) => ({ collection: row.collection, id: row.id, value: JSON.parse(row.value) })) };
      }
      let outcome: { changes: ChangeSet; result: T };
      let prepared: ReturnType<typeof prepareChanges>;
      try {
        outcome = work(stored);
        prepared = prepareChanges(outcome.changes);
      } catch (error) {
        throw new OwnError(error);
      }
      const nextWakeAt = nextWake(prepared, wakeAt);
      if (prepared.empty && nextWakeAt === wakeAt) return { result: outcome.result, version };
      await client.query(WRITE_CHANGES, [
        at,
        prepared.deletes.map((row) => row.collection),
        prepared.deletes.map((row) => row.id),
        prepared.puts.map((row) => row.collection),
        prepared.puts.map((row) => row.id),
        prepared.puts.map((row) => row.json),
        version + 1,
        nextWakeAt,
      ]);
      return { result: outcome.result, version: version + 1 };
    });
  }

  async remove(key: string): Promise<void> {
    checkCredentialKey(key);
    const at = this.#key(key);
    await this.#transaction(`remove credential ${key.slice(0, 12)}`, async (client) => {
      const locked = await client.query(LOCK_CREDENTIAL, [at]);
      if (locked.rows.length === 0) return;
      await client.query("DELETE FROM sandbox_rows WHERE key = $1", [at]);
      await client.query(
        "UPDATE sandbox_credentials SET version = version + 1, wake_at = NULL, lease_owner = NULL, lease_until = NULL WHERE key = $1",
        [at],
      );
    });
  }

  async claimDue(now: number, owner: string, leaseMs: number, limit: number): Promise<string[]> {
    checkClaim(now, owner, leaseMs, limit);
    const { rows } = await this.#query<{ key: string; wake_at: string }>("claimDue", CLAIM_DUE, [
      now,
      owner,
      leaseMs,
      limit,
      this.namespace ?? "",
    ]);
    return rows
      .sort((a, b) => Number(a.wake_at) - Number(b.wake_at) || (a.key < b.key ? -1 : 1))
      .map((row) => keyInNamespace(this.namespace, row.key)!);
  }

  async scheduled(limit: number): Promise<string[]> {
    checkLimit(limit);
    const { rows } = await this.#query<{ key: string }>("scheduled", SCHEDULED, [limit, this.namespace ?? ""]);
    return rows.map((row) => keyInNamespace(this.namespace, row.key)!);
  }

  async putPartner(partner: PartnerRow): Promise<void> {
    checkPartner(partner);
    const row = partnerRow(partner);
    const what = `putPartner ${JSON.stringify(row.id)}`;
    try {
      await this.#query(
        what,
        `INSERT INTO sandbox_partners (id, name, credential_key, created_at, quotas) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, credential_key = EXCLUDED.credential_key,
           created_at = EXCLUDED.created_at, quotas = EXCLUDED.quotas`,
        [row.id, row.name, row.credentialKey, row.createdAt, row.quotas === undefined ? null : JSON.stringify(row.quotas)],
      );
    } catch (error) {
      if ((error as { code?: string }).code !== "23505") throw error;
      // The unique credential key: the partner holding it, named.
      const { rows } = await this.#query<{ id: string }>(what, "SELECT id FROM sandbox_partners WHERE credential_key = $1", [
        row.credentialKey,
      ]);
      throw new DuplicatePartnerCredential(row.id, rows[0]?.id ?? "(removed since)");
    }
  }

  async deletePartner(id: string): Promise<boolean> {
    const { rowCount } = await this.#query(`deletePartner ${JSON.stringify(id)}`, "DELETE FROM sandbox_partners WHERE id = $1", [id]);
    return (rowCount ?? 0) > 0;
  }

  async listPartners(): Promise<PartnerRow[]> {
    const { rows } = await this.#query<PartnerRecord>(
      "listPartners",
      `SELECT id, name, credential_key, created_at, quotas FROM sandbox_partners ORDER BY created_at COLLATE "C", id COLLATE "C"`,
    );
    return rows.map(fromRecord);
  }

  async partnerByCredential(credentialKey: string): Promise<PartnerRow | undefined> {
    const { rows } = await this.#query<PartnerRecord>(
      "partnerByCredential",
      "SELECT id, name, credential_key, created_at, quotas FROM sandbox_partners WHERE credential_key = $1",
      [credentialKey],
    );
    return rows[0] && fromRecord(rows[0]);
  }
}

/** An error of the caller's (its `work`, a refused change set or partner), carried through the rollback unchanged. */
class OwnError {
  constructor(readonly error: unknown) {}
}
