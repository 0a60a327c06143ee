/**
 * Where the sandbox keeps its state: a store's address, read from the `--sandbox-store` option,
 * `startMock`'s options or the environment variable `BANK_API_CONTRACTS_SANDBOX_STORE` (in that
 * order; none: `memory`), and the durable store it names, opened.
 *
 * - `memory`: the state in this process's memory only (no backend).
 * - `file:<dir>` (or a `file://` URL): the embedded LMDB store in `<dir>` (./file.ts), relative to the
 *   working directory.
 * - `postgres://...` or `postgresql://...`: the Postgres store (./postgres.ts), for several instances.
 *
 * A bad address is one line naming its origin, the part that is wrong and the forms accepted; a
 * Postgres password is never repeated. The stores' libraries (`lmdb`, `pg`) are optional peer
 * dependencies loaded only when a store needs them, so that `memory` loads neither.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { packageRoot } from "../../registry.js";
import type { DurableBackend } from "./backend.js";
import type { PostgresOptions } from "./postgres.js";
import { redactUrl } from "./url.js";

export { redactUrl, urlSecrets } from "./url.js";

export const STORE_ENV = "BANK_API_CONTRACTS_SANDBOX_STORE";
export const STORE_FORMS = "memory, file:<dir>, postgres://user:password@host:port/database";

export type StoreAddress = { kind: "memory" } | { kind: "file"; dir: string } | { kind: "postgres"; url: string };

/** A store address that cannot be used; its message is one line. */
export class StoreAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreAddressError";
  }
}

/** Query parameters `pg` reads as secrets (`?password=`, `?sslpassword=`). */
/** How a message names an address: `memory`, `file:<dir>`, the Postgres URL without its password. */
export function describeStoreAddress(address: StoreAddress): string {
  if (address.kind === "memory") return "memory";
  if (address.kind === "file") return `file:${address.dir}`;
  return redactUrl(address.url);
}

/**
 * Reads a store address. `origin` names where it came from in an error (`--sandbox-store`, the
 * environment variable...); `cwd` resolves a relative `file:` directory.
 */
export function parseStoreAddress(text: string, origin = "sandbox store", cwd = process.cwd()): StoreAddress {
  const fail = (shown: string, problem: string): never => {
    throw new StoreAddressError(`${origin} ${JSON.stringify(shown)}: ${problem}; accepted: ${STORE_FORMS}`);
  };
  if (typeof text !== "string" || text.trim() === "") return fail(String(text ?? ""), "empty");
  const value = text.trim();
  if (value === "memory") return { kind: "memory" };
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(value)?.[1]?.toLowerCase();
  if (scheme === "file") {
    let dir: string;
    if (value.slice(0, 7).toLowerCase() === "file://") {
      try {
        dir = fileURLToPath(value);
      } catch (error) {
        return fail(value, `not a file URL with an absolute path (${(error as Error).message})`);
      }
    } else dir = value.slice("file:".length);
    if (dir === "") return fail(value, 'no directory after "file:"');
    if (dir.includes("\0")) return fail(value, "the directory holds a NUL character");
    return { kind: "file", dir: resolve(cwd, dir) };
  }
  if (scheme === "postgres" || scheme === "postgresql") {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return fail(redactUrl(value), "not a valid URL (postgres://user:password@host:port/database)");
    }
    const shown = redactUrl(value);
    if (url.hostname === "" && !url.searchParams.has("host")) return fail(shown, "no host (postgres://user:password@host:port/database)");
    if (url.hash) return fail(shown, 'a "#" part means nothing here');
    return { kind: "postgres", url: value };
  }
  // No scheme, or a drive letter (C:\\data): a path.
  if (scheme === undefined || scheme.length === 1) return fail(value, `not a store address (a directory is written file:${value})`);
  return fail(redactUrl(value), `unknown kind of store "${scheme}:"`);
}

/**
 * The store address in force: `option` (the `--sandbox-store` option, `startMock`'s option) when
 * given, else the environment variable `BANK_API_CONTRACTS_SANDBOX_STORE` when set, else `memory`.
 */
export function storeAddressFrom(
  option: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  optionName = "--sandbox-store",
): StoreAddress {
  if (option !== undefined) return parseStoreAddress(option, optionName);
  const fromEnv = env[STORE_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return parseStoreAddress(fromEnv, STORE_ENV);
  return { kind: "memory" };
}

export interface OpenOptions {
  /** Postgres: the pool's size and time bounds, the log of connection failures. */
  postgres?: PostgresOptions;
}

/** The library each durable store's module (`./<kind>.ts`) imports: an optional peer dependency. */
export const STORE_LIBRARIES = { file: "lmdb", postgres: "pg" } as const;
type StoreLibrary = (typeof STORE_LIBRARIES)[keyof typeof STORE_LIBRARIES];

/** The line that installs `library`, an optional peer dependency, at the version package.json asks for. */
export function installLine(library: StoreLibrary): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as { peerDependencies?: Record<string, string> };
  return `npm install --save-dev ${library}@${pkg.peerDependencies?.[library] ?? "latest"}`;
}

/** Loads a store's module, telling what to install when its library is missing (exported for its tests). */
export async function loadStoreModule<T>(importer: () => Promise<T>, library: StoreLibrary, address: string): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === "ERR_MODULE_NOT_FOUND" && e.message.includes(`'${library}'`))
      throw new Error(
        `${address}: this store needs ${library} (an optional peer dependency of bank-api-contracts), which is not installed: ${installLine(library)}`,
      );
    throw error;
  }
}

/** A durable store opened for a process's sandboxes, shared by those on the same address. */
export interface BackendLease {
  backend: DurableBackend;
  /** Gives it back: the last user closes it. */
  release(): Promise<void>;
}

const leases = new Map<string, { users: number; opened: Promise<DurableBackend> }>();

/**
 * The durable store `address` names, opened once per process and shared (the mocks of one command:
 * one LMDB environment, one Postgres pool, each API in a namespace of its own, `scope`), until
 * every user has released it. Undefined for `memory`. Fails naming the store and what is wrong.
 */
export async function acquireBackend(address: StoreAddress, options: OpenOptions = {}): Promise<BackendLease | undefined> {
  if (address.kind === "memory") return undefined;
  const id = address.kind === "file" ? `file:${address.dir}` : address.url;
  let lease = leases.get(id);
  if (!lease) {
    lease = { users: 0, opened: openBackend(address, options) as Promise<DurableBackend> };
    leases.set(id, lease);
    const failed = lease;
    lease.opened.catch(() => {
      if (leases.get(id) === failed) leases.delete(id);
    });
  }
  const held = lease;
  held.users++; // before waiting: a user releasing meanwhile does not close it under this one
  let backend: DurableBackend;
  try {
    backend = await held.opened;
  } catch (error) {
    held.users--;
    throw error;
  }
  let released = false;
  return {
    backend,
    release: async () => {
      if (released) return;
      released = true;
      if (--held.users > 0) return;
      if (leases.get(id) === held) leases.delete(id);
      await backend.close();
    },
  };
}

/**
 * The durable store `address` names, opened (on Postgres: its schema created or migrated), or
 * undefined for `memory`. Fails naming the store and what is wrong.
 */
export async function openBackend(address: StoreAddress | string, options: OpenOptions = {}): Promise<DurableBackend | undefined> {
  const parsed = typeof address === "string" ? parseStoreAddress(address) : address;
  let backend: DurableBackend;
  if (parsed.kind === "memory") return undefined;
  if (parsed.kind === "file") {
    const { FileBackend } = await loadStoreModule(() => import("./file.js"), STORE_LIBRARIES.file, describeStoreAddress(parsed));
    backend = new FileBackend(parsed.dir);
  } else {
    const { PostgresBackend } = await loadStoreModule(
      () => import("./postgres.js"),
      STORE_LIBRARIES.postgres,
      describeStoreAddress(parsed),
    );
    backend = new PostgresBackend(parsed.url, options.postgres);
  }
  await backend.open();
  return backend;
}
