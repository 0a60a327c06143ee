/**
 * A sandbox mock's start-up (src/mock/index.ts `startMock` with `sandbox`): what must fail at start
 * fails at start, and nothing else is done until a request needs it.
 *
 * - At start: the options are checked (./shared.ts), and the API's declaration is checked against
 *   its bundled document (./declaration.ts: the declaration's schema, its statuses against the
 *   document's schemas, its templates); a problem fails the start naming the file, line and member.
 *   That check (YAML, the document, Ajv compiling the schemas) was most of a sandbox's start-up: a
 *   declaration that passed it is remembered between starts (a mark in src/mock/operations-cache.ts's
 *   folder) for the exact bytes checked: the declaration's, the bundled document's, and the code
 *   that checks (its source files and the versions of Ajv and yaml). Any change checks it again.
 * - On the first request that needs it (one the sandbox answers, or one under `/_sandbox/`): the
 *   document (its parsing kept between starts too), the engine and the control API (./index.ts
 *   `createSandbox`), loaded with their modules then. The declaration is then read without checking it again when its bytes and the document's
 *   are those that passed.
 * - With a durable store (`file:<dir>`, `postgres://...`: the `store` option, else the environment
 *   variable BANK_API_CONTRACTS_SANDBOX_STORE; ./store/open.ts): the store is opened at start (a
 *   store that cannot be opened fails the start, naming it), shared by the process's sandboxes on
 *   the same address, each API in its own namespace. When the store holds work ahead (queued
 *   callbacks, delayed moves) the engine is made at start, so that it is carried out without
 *   waiting for a request; on a shared store (Postgres), where another instance may leave some, the
 *   store is looked at every DURABLE_DEFAULTS.pollMs until a request or such work makes the engine.
 * - Stopping (`close`): requests the sandbox is answering finish first (at most DRAIN_MS), then the
 *   engine stops (./engine/context.ts `close`: a durable store keeps what waits) and the store is
 *   given back.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MockHooks } from "../mock/types.js";
import { cachedDocument, mark, marked, versionAbove } from "../mock/operations-cache.js";
import type { ApiEntry } from "../registry.js";
import { bytesHash, declarationPath } from "./declaration-file.js";
import { hostedService } from "./hosting.js";
import type { Sandbox } from "./index.js";
import type { SandboxOptions } from "./options.js";
import { sharedSettings } from "./shared.js";
import { LIMITS } from "./store/limits.js";
import type { DurableBackend } from "./store/backend.js";
import type { BackendLease } from "./store/open.js";
import type { StateStore, StateStoreOptions } from "./store/store.js";

/** How often a shared durable store is looked at for work ahead before the engine is made (./store/durable.ts DURABLE_DEFAULTS.pollMs). */
const LOOK_MS = 250;

/** How long stopping waits for the requests the sandbox is answering. */
export const DRAIN_MS = 10_000;

export { bytesHash, declarationPath };

/**
 * The modules whose code decides whether a declaration passes its check (beside this one, without
 * extension): ./declaration.ts and every module of the sandbox it imports, this one, and those of
 * the package it checks with.
 */
export const CHECKER_MODULES = [
  "./declaration",
  "./declaration-file",
  "./declaration-schema",
  "./template/check",
  "./template/names",
  "./values",
  "./start",
  "../validation/spec",
  "../document/index",
  "../document/pointer",
  "../document/media",
];
/** The packages the modules of CHECKER_MODULES import: their versions decide too. */
export const CHECKER_PACKAGES = ["ajv", "ajv-formats", "yaml"];

let checker: string | null | undefined;
/** A hash of the code that checks a declaration; null when a file of it cannot be read (nothing is then remembered). */
function checkerHash(): string | null {
  if (checker === undefined) {
    try {
      const here = fileURLToPath(import.meta.url);
      const extension = here.endsWith(".ts") ? ".ts" : ".js";
      const hash = createHash("sha256");
      for (const module of CHECKER_MODULES) hash.update(readFileSync(join(dirname(here), `${module}${extension}`)));
      const require = createRequire(import.meta.url);
      for (const name of CHECKER_PACKAGES) hash.update(versionAbove(name, require.resolve(name)));
      checker = hash.digest("hex");
    } catch {
      checker = null;
    }
  }
  return checker;
}

/** The bundled document at `specPath`, its parsing kept between starts (src/mock/operations-cache.ts `cachedDocument`). */
async function loadKept(specPath: string, dir?: string) {
  const { loadDocument, parseDocument } = await import("../document/index.js");
  return loadDocument(specPath, (text) => cachedDocument(specPath, text, () => parseDocument(text, specPath), dir));
}

/** The hashes of a declaration and of the document it passed its check against. */
interface Passed {
  declaration: string;
  document: string;
}

/**
 * Checks the declaration at `path` against the document at `specPath`, unless a mark says these
 * bytes passed already; throws the DeclarationError naming the file, line and member of each
 * problem. Undefined when there is no declaration (the sandbox then keeps no resources).
 */
export async function checkDeclaration(path: string, specPath: string, dir?: string): Promise<Passed | undefined> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    if (failure.code === "ENOENT") return undefined;
    // The system's message names no file (EISDIR, EACCES): say which one.
    throw Object.assign(new Error(`${path}: the sandbox declaration cannot be read (${failure.message})`, { cause: error }), {
      code: failure.code,
    });
  }
  const passed = { declaration: bytesHash(bytes), document: bytesHash(readFileSync(specPath)) };
  const code = checkerHash();
  // One mark per declaration and per place of the checking code (the sources under tsx, a build, an
  // installed package), which each check with code of their own: they do not replace each other's.
  const name = `sandbox declaration\n${path}\n${specPath}\n${import.meta.url}`;
  const key = code === null ? undefined : `${code}\n${passed.declaration}\n${passed.document}`;
  if (key !== undefined && marked(name, key, dir)) return passed;
  const [{ loadDeclaration }, { sharedSpecValidator }] = await Promise.all([import("./declaration.js"), import("../validation/spec.js")]);
  const doc = await loadKept(specPath, dir);
  // The engine's validator over the same document object: what the check compiles serves it later.
  loadDeclaration(path, doc, sharedSpecValidator(doc));
  if (key !== undefined) mark(name, key, dir);
  return passed;
}

export interface StartedSandbox {
  hooks: MockHooks;
  /**
   * Stops, once the requests in flight are answered (at most DRAIN_MS): waiting callback retries and
   * delayed moves (kept by a durable store for its next start), and the engine made later, if a
   * request is still making it.
   */
  close(): Promise<void>;
  /** The engine and control API once a request made them (tests). */
  made(): Sandbox | undefined;
  /** Where the states live: `memory`, `file:<dir>`, or the Postgres URL without its password. */
  store: string;
}

/** Counts the hooks' calls in flight (the requests the sandbox is answering), to wait for them when stopping. */
function inFlight() {
  let running = 0;
  let waiting: Array<() => void> = [];
  return {
    /** `value` (a promise: counted until it settles). */
    track<T>(value: T): T {
      if (!(value instanceof Promise)) return value;
      running++;
      const done = () => {
        if (--running === 0) for (const resolve of waiting.splice(0)) resolve();
      };
      value.then(done, done);
      return value;
    },
    /** Resolves when none is in flight, or after `ms`. */
    async idle(ms: number): Promise<void> {
      if (running === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => waiting.push(resolve)),
        new Promise((resolve) => (timer = setTimeout(resolve, ms))),
      ]);
      clearTimeout(timer);
      waiting = [];
    },
  };
}

/** The store option's maker: a durable store's opened (shared per process), or the option as it is. */
async function openStore(
  entry: ApiEntry,
  options: SandboxOptions,
): Promise<{
  store: SandboxOptions["store"];
  shown: string;
  lease?: BackendLease;
  backend?: DurableBackend;
}> {
  if (typeof options.store === "function") return { store: options.store, shown: "memory" };
  const { acquireBackend, describeStoreAddress, storeAddressFrom } = await import("./store/open.js");
  const address = storeAddressFrom(options.store, process.env, "the sandbox's store option");
  const lease = await acquireBackend(address);
  if (!lease) return { store: undefined, shown: "memory" };
  try {
    const backend = lease.backend.scope(entry.alias);
    await backend.open();
    const { DurableStore } = await import("./store/durable.js");
    const store = (storeOptions: StateStoreOptions): StateStore => new DurableStore(backend, storeOptions);
    return { store, shown: describeStoreAddress(address), lease, backend };
  } catch (error) {
    await lease.release();
    throw error;
  }
}

/** The control API's first path segment, as it may appear in a request's target. */
const CONTROL_NAME = "_sandbox";

/**
 * The sandbox of one API over the bundled document at `specPath`: checked now, made on first use.
 * The hooks are those of ./index.ts `createSandbox`, which they call once it is made.
 */
export async function startSandbox(
  entry: ApiEntry,
  options: SandboxOptions,
  specPath = entry.bundlePath,
  cacheDir?: string,
): Promise<StartedSandbox> {
  sharedSettings(options); // bad options fail the start, as they did when the engine was made then
  const hosted = hostedService(options.hosted, entry.alias) !== undefined; // hosted mode comes with its service
  const path = options.declarationPath ?? declarationPath(entry);
  const passed = await checkDeclaration(path, specPath, cacheDir);
  const opened = await openStore(entry, options);
  let sandbox: Sandbox | undefined;
  let making: Promise<Sandbox> | undefined;
  let closed = false;
  const make = async (): Promise<Sandbox> => {
    const [{ createSandbox }, { trustDeclaration }] = await Promise.all([import("./index.js"), import("./declaration.js")]);
    const doc = await loadKept(specPath, cacheDir);
    if (passed && bytesHash(readFileSync(specPath)) === passed.document) trustDeclaration(doc, path, passed.declaration);
    const made = createSandbox(entry, doc, { ...options, store: opened.store }, specPath);
    if (closed) await made.close();
    sandbox = made;
    return made;
  };
  const ready = () => (making ??= make());
  const calls = inFlight();
  const durable = opened.lease !== undefined;
  const hooks: MockHooks = {
    intercept: (request, response, body) => {
      // Counted until its answer is written: a request the hook passes on goes through Prism, then `answer`.
      if (typeof response.once === "function" && !response.writableFinished)
        calls.track(new Promise<void>((resolve) => response.once("close", () => resolve())));
      return ready().then((made) => made.hooks.intercept!(request, response, body));
    },
    // As createSandbox's: the control API's paths, and every request once a latency or drop rule was
    // queued; with a durable store every request, so that stopping waits for each whole; in hosted mode
    // every request (the credential gate).
    mayIntercept: (request) => hosted || durable || sandbox?.engine.transportArmed === true || (request.url ?? "").includes(CONTROL_NAME),
    answer: (judged) => calls.track(sandbox ? sandbox.hooks.answer!(judged) : ready().then((made) => made.hooks.answer!(judged))),
    // Asked only of an answer the `answer` hook gave: the sandbox is made by then.
    validateAnswer: (operation, answer) => sandbox!.hooks.validateAnswer!(operation, answer),
    maxBodyBytes: LIMITS.recordBytes,
  };
  // A durable store with work ahead: the engine at once, which carries it out without waiting for a request.
  let looking: NodeJS.Timeout | undefined;
  if (opened.backend && opened.lease) {
    const backend = opened.backend;
    const workAhead = async () => (await backend.scheduled(1)).length > 0;
    try {
      if (await workAhead()) await ready();
    } catch (error) {
      await opened.lease.release();
      throw error;
    }
    if (!making && backend.shared) {
      let busy = false;
      looking = setInterval(async () => {
        if (making || closed) return clearInterval(looking);
        if (busy) return;
        busy = true;
        try {
          if (await workAhead()) ready().catch(() => {}); // a request that needs it meets the failure
        } catch {
          // Looked at again at the next tick (the engine's store logs what fails once it runs).
        } finally {
          busy = false;
        }
      }, LOOK_MS);
      looking.unref();
    }
  }
  return {
    hooks,
    close: async () => {
      clearInterval(looking);
      await calls.idle(DRAIN_MS);
      // Only now: an engine a request in flight is still making serves that request first; one made
      // later (a request after stopping) is stopped as soon as it is made.
      closed = true;
      const made = sandbox ?? (await making?.catch(() => undefined));
      await made?.close();
      await opened.lease?.release();
    },
    made: () => sandbox,
    store: opened.shown,
  };
}
