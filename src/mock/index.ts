/**
 * Contract mocks: Prism, in-process, serving each API's bundled spec
 * (`generated/<service>/<release>/openapi.yaml`). Used by `npm run mock`, by the contract tests and,
 * re-exported as the package's testing entry, by partners. Free of test-framework imports. Prism's
 * reading of a registry API's bundle is kept between starts (operations-cache.ts); a `specPath` given
 * is read by Prism every time.
 *
 * What the mock does (Prism 5, mock mode, static examples):
 * - A valid request gets the lowest 2xx response of its operation with the first named example
 *   (choose another with the `Prefer: code=..., example=...` request header).
 * - Credentials are checked for presence only: a missing `Authorization: Bearer` or `x-api-key`
 *   gives 401 with an empty body.
 * - An invalid request (wrong types or enum values, missing required fields or parameters) gives the
 *   status the spec declares for it (422, else 400, else `default`), with that response's example or
 *   an empty body: the specs do not describe error bodies, so the mock does not invent one.
 *   Prism's findings travel in the `sl-violations` response header, a JSON array of
 *   `{ location: ["request", "body", "<field>"], severity, code, message }`; a wrong Content-Type
 *   is reported there with code 415. Unparseable JSON gives 400, an unknown path 404 and a method
 *   the path does not have 405.
 *
 * What it does not do: keep state (a created invoice is not listed afterwards), check that a token
 * or key is valid, send webhooks or callbacks, or honour the servers' path prefixes. The sandbox
 * mode (`sandbox: true`, src/sandbox/) does the first and the third: Prism still judges every
 * request, and a request it judged valid is answered from state kept per credential.
 */
import { existsSync } from "node:fs";
import { relative } from "node:path";
import { type ApiEntry, DEFAULT_PORT_BASE, defaultPort, findApi, loadRegistry, repoRoot } from "../registry.js";
import type { HostedOptions, HostedService } from "../hosted/index.js";
import type { SandboxOptions } from "../sandbox/options.js";
import { createPrismServer, loadOperations, type MockHooks, type Operation } from "./server.js";
import { listenOrExplain } from "./listen.js";
import { cachedOperations } from "./operations-cache.js";

export interface MockOptions {
  /** Port to listen on; 0 picks a free one. Default: the API's default port from the registry. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /** Spec to serve instead of the API's bundled spec. */
  specPath?: string;
  /**
   * Replay the answer to an identical earlier request (same method, URL, headers and body) instead
   * of running Prism again. Default true; the answers are the same either way.
   */
  cache?: boolean;
  /**
   * Sandbox mode: answers from state kept per credential, a control API under `/_sandbox/`,
   * callbacks (src/sandbox/). `true`, or options (a declaration file, callback retry policy, where
   * the state lives: `store: "file:<dir>"` or `"postgres://..."` keeps it between runs, opened at
   * start; default the BANK_API_CONTRACTS_SANDBOX_STORE environment variable, else memory).
   * Default false: the static contract mock.
   */
  sandbox?: boolean | MockSandboxOptions;
}

/**
 * The sandbox's options, and hosted mode: `hosted: true` (or its options, src/hosted/index.ts) runs
 * the sandbox for a provider's partners: it needs the operator's token (`operatorToken`, else the
 * BANK_API_CONTRACTS_OPERATOR_TOKEN environment variable) and fails to start without one, serves
 * only the credentials its operator issues (`POST /_sandbox/partners`), bounds each partner by its
 * quotas, applies the shared callback policy whatever the interface, guards the connections, and
 * logs and counts every request. Default: not hosted.
 */
export interface MockSandboxOptions extends Omit<SandboxOptions, "hosted"> {
  hosted?: boolean | HostedOptions;
}

export interface MockServer {
  alias: string;
  /** Base URL, e.g. `http://127.0.0.1:4010`; the spec's paths go right after it. */
  url: string;
  port: number;
  /** Number of operations served (paths x methods; webhooks are not served). */
  operations: number;
  /** How the API authenticates, from the spec's security schemes, e.g. `Authorization: Bearer`. */
  auth: string[];
  /** True in sandbox mode. */
  sandbox: boolean;
  /** Hosted mode's service (its partners, log, metrics, health), shared by the mocks started together. */
  hosted?: HostedService;
  /** In sandbox mode, where the state lives: `memory`, `file:<dir>`, or the Postgres URL without its password. */
  store?: string;
  /**
   * Stops accepting connections; in sandbox mode the requests in flight are answered first (within
   * a bound), then the sandbox stops (a durable store keeps queued callbacks and delayed moves for
   * the next start); resolves once the server is closed.
   */
  close(): Promise<void>;
}

export interface MocksOptions {
  /** First default port (registry order from there). Default 4010. */
  portBase?: number;
  /** Ignore the default ports and let the system pick free ones. */
  freePorts?: boolean;
  host?: string;
  /** See MockOptions.cache. */
  cache?: boolean;
  /** See MockOptions.sandbox; in hosted mode every mock started shares one service. */
  sandbox?: boolean | MockSandboxOptions;
}

function describeAuth(operations: Operation[]): string[] {
  const found = new Set<string>();
  for (const operation of operations) {
    for (const scheme of (operation.security ?? []).flat()) {
      if (scheme.type === "http") found.add(`Authorization: ${scheme.scheme === "bearer" ? "Bearer" : scheme.scheme}`);
      else if (scheme.type === "apiKey") found.add(`${scheme.name} (${scheme.in})`);
      else found.add(scheme.type);
    }
  }
  return [...found];
}

/** Starts the mock of one API (alias or registry entry). */
export async function startMock(api: string | ApiEntry, options: MockOptions = {}): Promise<MockServer> {
  const entry = typeof api === "string" ? findApi(api) : api;
  const specPath = options.specPath ?? entry.bundlePath;
  const port = options.port ?? defaultPort(entry);
  const host = options.host ?? "127.0.0.1";
  if (!existsSync(specPath)) {
    throw new Error(`${entry.alias}: bundled spec ${relative(repoRoot, specPath)} not found; run \`npm run generate\` first`);
  }
  const { hosted: hostedOption, ...given } = options.sandbox === true || !options.sandbox ? ({} as MockSandboxOptions) : options.sandbox;
  // Hosted mode first: without its operator token it fails before anything is loaded.
  const { service: hosted, owned } = hostedOption ? await hostedService(hostedOption, given) : { owned: false };
  const release = hosted?.attach();
  try {
    // The registry's bundle: Prism's reading of it is kept between starts (operations-cache.ts).
    const operations = options.specPath === undefined ? await cachedOperations(specPath, loadOperations) : await loadOperations(specPath);
    let hooks: MockHooks | undefined;
    let closeSandbox = async () => {};
    let store: string | undefined;
    if (options.sandbox) {
      // Its declaration is checked now (and a durable store opened); its engine and control API are
      // made on first use, or now with a durable store (src/sandbox/start.ts).
      const { startSandbox } = await import("../sandbox/start.js");
      // Hosted mode: the sandbox is given the service (its gate, quotas, metrics), and is shared whatever the interface.
      const sandboxOptions = { binding: host, ...given, ...(hosted ? { hosted: { service: hosted } } : {}) };
      const sandbox = await startSandbox(entry, sandboxOptions, specPath);
      hooks = sandbox.hooks;
      closeSandbox = sandbox.close;
      store = sandbox.store;
    }
    const server = createPrismServer(operations, {
      cache: options.cache,
      hooks,
      guards: hosted?.guards(),
      observe: hosted?.observe(entry.alias),
    });
    let address: string;
    try {
      address = await listenOrExplain(server, entry.alias, port, host);
    } catch (error) {
      await closeSandbox();
      throw error;
    }
    // A service of this mock's own is ready now; one shared by several, once they all listen (startMocks).
    if (owned) hosted?.health.ready();
    const url = new URL(address);
    return {
      alias: entry.alias,
      url: address,
      port: Number(url.port),
      operations: operations.length,
      auth: describeAuth(operations),
      sandbox: Boolean(options.sandbox),
      ...(hosted ? { hosted } : {}),
      ...(store === undefined ? {} : { store }),
      close: async () => {
        hosted?.health.drain();
        // No new connection; the sandbox's requests in flight are answered before it stops.
        const closed = server.close();
        closed.catch(() => {}); // seen below, once the sandbox has stopped
        try {
          await closeSandbox();
          await closed;
        } finally {
          await release?.();
        }
      },
    };
  } catch (error) {
    await release?.();
    throw error;
  }
}

/**
 * Hosted mode's service: the one given to share, else a new one (`owned`) that closes with the mocks
 * attached to it, over the sandbox's store (its partners kept where the states are).
 */
async function hostedService(
  option: true | HostedOptions,
  sandbox: Pick<MockSandboxOptions, "operatorToken" | "store">,
): Promise<{ service: HostedService; owned: boolean }> {
  if (option !== true && option.service) return { service: option.service, owned: false };
  const { openHostedService } = await import("../hosted/index.js");
  const store = typeof sandbox.store === "string" ? sandbox.store : sandbox.store === undefined ? undefined : "memory";
  const options = { ...(option === true ? {} : option), operatorToken: sandbox.operatorToken };
  return { service: await openHostedService(options, store, process.env, true), owned: true };
}

/**
 * Starts several mocks in parallel: the given aliases or entries, or `"all"` for the whole registry,
 * each on its default port (`portBase` + registry index) or on free ports. If one fails to start,
 * the others are closed and the first error is thrown.
 */
export async function startMocks(apis: "all" | Array<string | ApiEntry>, options: MocksOptions = {}): Promise<MockServer[]> {
  const registry = apis === "all" || apis.some((api) => typeof api === "string") ? loadRegistry() : [];
  const entries = apis === "all" ? registry : apis.map((api) => (typeof api === "string" ? findApi(api, registry) : api));
  // Hosted mode: one service for every mock started, ready once they all listen.
  let sandbox = options.sandbox;
  let shared: HostedService | undefined;
  if (typeof sandbox === "object" && sandbox.hosted) {
    shared = (await hostedService(sandbox.hosted, sandbox)).service;
    sandbox = { ...sandbox, hosted: { ...(sandbox.hosted === true ? {} : sandbox.hosted), service: shared } };
  }
  const hold = shared?.attach(); // the service lives until every mock started closes, even if one fails now
  const results = await Promise.allSettled(
    entries.map((entry) =>
      startMock(entry, {
        host: options.host,
        cache: options.cache,
        sandbox,
        port: options.freePorts ? 0 : defaultPort(entry, options.portBase ?? DEFAULT_PORT_BASE),
      }),
    ),
  );
  const started = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) {
    await Promise.allSettled(started.map((m) => m.close()));
    await hold?.();
    throw failed.reason;
  }
  shared?.health.ready();
  await hold?.();
  return started;
}

/** Closes every mock given; resolves when all are closed. */
export async function closeMocks(mocks: MockServer[]): Promise<void> {
  await Promise.all(mocks.map((m) => m.close()));
}
