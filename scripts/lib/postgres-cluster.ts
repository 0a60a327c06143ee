/**
 * A private, throwaway Postgres cluster (the Postgres store's tests through tests/helpers/postgres.ts,
 * and bench:store): Debian's Postgres binaries (`apt-get install -y postgresql`; .ci/run installs
 * them), a cluster made with initdb in a temporary directory, listening on a free loopback port and
 * on a Unix socket in that directory, never the system's cluster. Each user takes a database of its
 * own (`createDatabase`). `stop()` stops the cluster and removes its directory.
 *
 * initdb refuses to run as root: as root, the directory is given to the `postgres` user and the
 * binaries run through `runuser -u postgres`.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:net";
import pg from "pg";

export const INSTALL_HINT = "apt-get install -y postgresql";

/**
 * The directory of Postgres's server binaries (initdb, pg_ctl): pg_config's, else the newest
 * <root>/<n>/bin (Debian's layout); throws naming the install command when there is none.
 */
export function postgresBinDir({ pgConfig = "pg_config", root = "/usr/lib/postgresql" } = {}): string {
  const has = (dir: string) => existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"));
  try {
    const dir = execFileSync(pgConfig, ["--bindir"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 10_000 }).trim();
    if (has(dir)) return dir;
  } catch {}
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name) && has(join(root, name, "bin")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error(
      `Postgres's server binaries (initdb, pg_ctl) are not installed (not in pg_config --bindir nor ${root}/<version>/bin): ${INSTALL_HINT}`,
    );
  return join(root, versions[0]!, "bin");
}

/** The uid and gid of the `postgres` user (/etc/passwd). */
function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("postgres:"));
  if (!line) throw new Error(`running as root, the tests need the postgres user that Debian's package makes: ${INSTALL_HINT}`);
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

export interface PostgresCluster {
  port: number;
  /** The cluster's directory (data, socket, log). */
  dir: string;
  /** A URL to `database` on the loopback port (user `postgres`, no password: the cluster trusts loopback). */
  url(database?: string, user?: string, password?: string): string;
  /** A new, empty database (owned by `owner`, default `postgres`); resolves to its URL for `postgres`. */
  createDatabase(owner?: string): Promise<string>;
  /** Runs SQL as `postgres` on database `database` (default `postgres`). */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values?: unknown[], database?: string): Promise<R[]>;
  /** Stops the cluster (immediate shutdown: it is thrown away) and removes its directory. */
  stop(): Promise<void>;
}

let databases = 0;

/** A port free on 127.0.0.1 now (the server binds it next; a race lost is retried). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ClusterOptions {
  /** Users made at start who log in with their password only (scram-sha-256 on loopback); every other user is trusted. */
  passwords?: Record<string, string>;
}

/** Starts a private cluster; throws naming the install command when Postgres is missing. */
export async function startPostgres({ passwords = {} }: ClusterOptions = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "bank-api-contracts-pg-"));
  const data = join(dir, "data");
  const log = join(dir, "log");
  if (root) {
    const { uid, gid } = postgresUser();
    chownSync(dir, uid, gid);
  }
  const run = (command: string, args: string[], timeout = 120_000) => {
    const [file, argv] = root ? ["runuser", ["-u", "postgres", "--", join(bin, command), ...args]] : [join(bin, command), args];
    try {
      return execFileSync(file, argv, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout });
    } catch (error) {
      const e = error as { stderr?: string; stdout?: string; message: string };
      const logged = existsSync(log) ? readFileSync(log, "utf8").slice(-2000) : "";
      throw new Error(`${command} ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}${e.stderr ?? ""}${logged}`);
    }
  };
  let started = false;
  // Immediate: no shutdown checkpoint (a flush of every database the tests made, slow on a busy disk); the directory is removed next.
  const stopServer = () => run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "-t", "60", "stop"]);
  try {
    // --no-sync: a throwaway cluster's files need not reach the disk at initdb (the server itself syncs as usual).
    run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"]);
    const hba = join(data, "pg_hba.conf");
    const lines = Object.keys(passwords).map((user) => `host all ${user} 127.0.0.1/32 scram-sha-256\n`);
    // The first line that matches decides: these come before initdb's "trust" lines.
    writeFileSync(hba, `${lines.join("")}${readFileSync(hba, "utf8")}`);
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        run("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, "start"]);
        started = true;
        break;
      } catch (error) {
        // The port was taken between finding it free and the server binding it: another one.
        if (attempt === 3 || !readFileSync(log, "utf8").includes("could not bind")) throw error;
      }
    }
    const url = (database = "postgres", user = "postgres", password?: string) =>
      `postgres://${encodeURIComponent(user)}${password === undefined ? "" : `:${encodeURIComponent(password)}`}@127.0.0.1:${port}/${database}`;
    const query = async <R extends pg.QueryResultRow>(sql: string, values: unknown[] = [], database = "postgres") => {
      const client = new pg.Client({ connectionString: url(database), connectionTimeoutMillis: 30_000 });
      await client.connect();
      try {
        return (await client.query<R>(sql, values)).rows;
      } finally {
        await client.end();
      }
    };
    for (const [user, password] of Object.entries(passwords))
      await query(`CREATE ROLE ${user} LOGIN PASSWORD '${password.replaceAll("'", "''")}'`);
    return {
      port,
      dir,
      url,
      query,
      async createDatabase(owner = "postgres") {
        const name = `test_${process.pid}_${++databases}`;
        await query(`CREATE DATABASE ${name} OWNER ${owner}`);
        return url(name);
      },
      async stop() {
        try {
          stopServer();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    try {
      if (started) stopServer();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    throw error;
  }
}
