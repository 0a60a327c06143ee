/**
 * The Postgres store (src/sandbox/store/postgres.ts) on a private cluster this file starts
 * (tests/helpers/postgres.ts; a missing Postgres fails naming `apt-get install -y postgresql`): the
 * DurableBackend contract (./conformance.ts) with one database per test, then what is Postgres's
 * own: the versioned schema migrated once by instances opening together, a later schema refused,
 * the pool's bounds, the password kept out of every error and log line, and an instance killed
 * inside a transaction (./child.ts) leaving its credential and, once its lease ends, its due work to
 * the others.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../../../../src/registry.js";
import type { ChangeSet, DurableBackend, StoredCredential } from "../../../../../src/sandbox/store/backend.js";
import { MIGRATIONS, type PostgresOptions, PostgresBackend } from "../../../../../src/sandbox/store/postgres.js";
import { occupyPort } from "../../../../helpers/ports.js";
import { type PostgresCluster, postgresBinDir, startPostgres } from "../../../../helpers/postgres.js";
import { capture, waitForOutput, waitUntil } from "../../../../helpers/processes.js";
import { credentialKey, describeConformance } from "./conformance.js";

const PASSWORD = "S3cret/p@ss:word%";
let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await startPostgres({ passwords: { secretive: PASSWORD } });
});
afterAll(async () => {
  await cluster?.stop();
});

let database = "";
describeConformance("postgres", {
  async fresh() {
    database = await cluster.createDatabase();
  },
  make: () => new PostgresBackend(database),
});

describe("the tests' Postgres", () => {
  it("fails naming the command that installs Postgres when its binaries are missing", () => {
    const empty = mkdtempSync(join(repoRoot, ".tmp", "no-postgres-"));
    try {
      expect(() => postgresBinDir({ pgConfig: join(empty, "pg_config"), root: empty })).toThrow(
        `Postgres's server binaries (initdb, pg_ctl) are not installed (not in pg_config --bindir nor ${empty}/<version>/bin): apt-get install -y postgresql`,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("postgres store: its own", () => {
  const opened: DurableBackend[] = [];
  const open = async (url: string, options?: PostgresOptions) => {
    const backend = new PostgresBackend(url, options);
    opened.push(backend);
    await backend.open();
    return backend;
  };
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await Promise.all(opened.splice(0).map((backend) => backend.close()));
  });
  const dbName = (url: string) => new URL(url).pathname.slice(1);
  const put = (wakeAt: number | null = null): { changes: ChangeSet; result: undefined } => ({
    changes: { puts: [{ collection: "meta", id: "meta", value: { n: 1 } }], deletes: [], wakeAt },
    result: undefined,
  });

  it("creates its versioned schema once when several instances open a new database at once", async () => {
    const url = await cluster.createDatabase();
    await Promise.all(Array.from({ length: 4 }, () => open(url)));
    const versions = await cluster.query("SELECT version FROM sandbox_schema_version ORDER BY version", [], dbName(url));
    expect(versions).toEqual([{ version: 1 }]);
    expect(MIGRATIONS).toHaveLength(1);
    const tables = await cluster.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename", [], dbName(url));
    expect(tables.map((row) => row.tablename)).toEqual([
      "sandbox_credentials",
      "sandbox_partners",
      "sandbox_rows",
      "sandbox_schema_version",
    ]);
    // Opening again migrates nothing.
    await open(url);
    expect(await cluster.query("SELECT count(*)::int AS n FROM sandbox_schema_version", [], dbName(url))).toEqual([{ n: 1 }]);
  });

  it("refuses a database whose schema is later than it knows, and changes nothing in it", async () => {
    const url = await cluster.createDatabase();
    const first = await open(url);
    await first.transact(credentialKey("later"), undefined, () => put());
    await cluster.query("INSERT INTO sandbox_schema_version (version) VALUES (2)", [], dbName(url));
    await expect(open(url)).rejects.toThrow(
      `postgres store ${url}: its schema is at version 2, later than this sandbox knows (1): upgrade bank-api-contracts (a sandbox never changes a later schema)`,
    );
    expect(await cluster.query("SELECT version FROM sandbox_schema_version ORDER BY version", [], dbName(url))).toEqual([
      { version: 1 },
      { version: 2 },
    ]);
    expect(await cluster.query("SELECT count(*)::int AS n FROM sandbox_rows", [], dbName(url))).toEqual([{ n: 1 }]);
  });

  it("never shows the URL's password: a wrong one, a refused connection, an idle connection ended", async () => {
    const url = await cluster.createDatabase("secretive");
    const secrets = [PASSWORD, encodeURIComponent(PASSWORD)];
    const wrong = cluster.url(dbName(url), "secretive", `${PASSWORD}x`);
    const refusal = await open(wrong).catch((error: Error & { code?: string }) => error);
    expect(refusal).toBeInstanceOf(Error);
    expect((refusal as Error).message).toBe(
      `postgres store postgres://secretive:***@127.0.0.1:${cluster.port}/${dbName(url)}: open: cannot connect: 28P01: password authentication failed for user "secretive"`,
    );
    expect((refusal as { code?: string }).code).toBe("28P01");
    for (const secret of [...secrets, `${PASSWORD}x`, encodeURIComponent(`${PASSWORD}x`)])
      expect((refusal as Error).message).not.toContain(secret);

    // The same, the password given as a parameter (pg reads ?password=).
    const asParameter = `postgres://secretive@127.0.0.1:${cluster.port}/${dbName(url)}?password=${encodeURIComponent(`${PASSWORD}x`)}`;
    const parameterRefusal = await open(asParameter).catch((error: Error) => error);
    expect((parameterRefusal as Error).message).toBe(
      `postgres store postgres://secretive@127.0.0.1:${cluster.port}/${dbName(url)}?password=***: open: cannot connect: 28P01: password authentication failed for user "secretive"`,
    );

    const closed = await occupyPort();
    await closed.close();
    const nowhere = `postgres://secretive:${encodeURIComponent(PASSWORD)}@127.0.0.1:${closed.port}/db`;
    const unreachable = await open(nowhere).catch((error: Error) => error);
    expect((unreachable as Error).message).toMatch(
      new RegExp(`^postgres store postgres://secretive:\\*\\*\\*@127\\.0\\.0\\.1:${closed.port}/db: open: cannot connect: .*ECONNREFUSED`),
    );
    for (const secret of secrets) expect((unreachable as Error).message).not.toContain(secret);

    // The right password: it works; an idle connection ended by the server is logged, one line, without it.
    const logged: string[] = [];
    let told!: () => void;
    const tellingLine = new Promise<void>((resolve) => {
      told = resolve;
    });
    const store = await open(cluster.url(dbName(url), "secretive", PASSWORD), {
      log: (line) => {
        logged.push(line);
        told();
      },
    });
    await store.transact(credentialKey("secret"), undefined, () => put());
    await cluster.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'secretive'");
    await tellingLine;
    expect(logged[0]).toMatch(
      new RegExp(
        `^postgres store postgres://secretive:\\*\\*\\*@127\\.0\\.0\\.1:${cluster.port}/${dbName(url)}: an idle connection failed: `,
      ),
    );
    expect(logged[0]).not.toContain("\n");
    for (const secret of secrets) expect(logged.join("\n")).not.toContain(secret);
    // The pool makes a new connection for the next transaction.
    expect((await store.transact(credentialKey("secret"), 1, () => ({ ...put(null), result: 2 }))).result).toBe(2);
  });

  it("keeps to its pool size, and bounds a statement's wait for a lock and a wait for a pooled connection", async () => {
    const url = await cluster.createDatabase();
    const store = await open(url, { poolSize: 2, statementTimeoutMs: 500 });
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.transact(credentialKey(`pool ${i}`), undefined, () => put())));
    const connections = await cluster.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [dbName(url)]);
    expect(connections[0]!.n).toBeGreaterThanOrEqual(1);
    expect(connections[0]!.n).toBeLessThanOrEqual(2);

    // Another session holds a credential's row.
    const key = credentialKey("pool 0");
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM sandbox_credentials WHERE key = $1 FOR UPDATE", [key]);
      // A transaction on it gives up at the statement timeout.
      const blocked = await store.transact(key, undefined, () => put()).catch((error: Error) => error);
      expect((blocked as Error).message).toBe(
        `postgres store ${url}: transact on credential ${key.slice(0, 12)}: 57014: canceling statement due to statement timeout`,
      );
      expect((blocked as { code?: string }).code).toBe("57014");
      // With its one connection waiting for that lock, a pool of one makes the next transaction wait no longer than the bound.
      const single = await open(url, { poolSize: 1, connectTimeoutMs: 300 });
      const waiting = single.transact(key, undefined, () => ({ ...put(), result: "after the lock" }));
      const next = await single.transact(credentialKey("pool 1"), undefined, () => put()).catch((error: Error) => error);
      expect((next as Error).message).toBe(
        `postgres store ${url}: transact on credential ${credentialKey("pool 1").slice(0, 12)}: cannot connect: timeout exceeded when trying to connect`,
      );
      await holder.query("ROLLBACK");
      expect((await waiting).result).toBe("after the lock");
    } finally {
      await holder.end();
    }
  });

  it("reads every credential with loadAll, page after page", async () => {
    const url = await cluster.createDatabase();
    const store = await open(url);
    const keys = Array.from({ length: 250 }, (_, i) => credentialKey(`page ${i}`));
    await Promise.all(keys.map((key) => store.transact(key, undefined, () => put())));
    const loaded: StoredCredential[] = [];
    for await (const stored of store.loadAll()) loaded.push(stored);
    expect(loaded.map((stored) => stored.key).sort()).toEqual([...keys].sort());
    expect(new Set(loaded.map((stored) => stored.key)).size).toBe(250);
  });

  it("leaves the credential of an instance killed inside a transaction to the others at once, and its claims once their lease ends", async () => {
    const url = await cluster.createDatabase();
    const store = await open(url);
    const T = 1_800_000_000_000;
    const key = credentialKey("killed");
    await store.transact(key, undefined, () => put(T));
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(repoRoot, "tests/unit/src/sandbox/store/child.ts"), "postgres-hold", url, key, String(T)],
      {
        cwd: repoRoot,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    children.push(child);
    const run = capture(child);
    await waitForOutput(child, run.stdout, "in work\n", "the instance holding the credential");
    expect(run.stdout()).toBe(`claimed ${key}\nin work\n`);

    // Leased to the child for a minute from T: not handed to another owner.
    expect(await store.claimDue(T, "parent", 1000, 10)).toEqual([]);
    let done = false;
    const waiting = store
      .transact(key, 1, (stored) => ({ changes: { puts: [], deletes: [], wakeAt: T }, result: stored }))
      .then((outcome) => {
        done = true;
        return outcome;
      });
    // The child holds the credential: this transaction waits for its lock (its statement timeout is 10 s).
    await waitUntil(async () => {
      const rows = await cluster.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [
        dbName(url),
      ]);
      return rows[0]!.n === 1;
    }, "a transaction waiting for the killed instance's lock");
    expect(done).toBe(false);
    child.kill("SIGKILL");
    await run.exit;
    // Its transaction is rolled back when its connection goes: nothing of it was written, the version is the same.
    expect(await waiting).toEqual({ result: undefined, version: 1 });
    expect(await store.claimDue(T + 59_999, "parent", 1000, 10)).toEqual([]);
    expect(await store.claimDue(T + 60_000, "parent", 1000, 10)).toEqual([key]);
  });
});
