/**
 * `bank-api-contracts/testing`: contract mocks and a contract validator for your tests.
 *
 *     const mock = await startMock("pay@1.3.0");             // Prism on a free port
 *     const pay = createPayClient({ baseUrl: mock.url, accessToken: "test" });
 *     expect(await pay.GET("/v1/merchant")).toMatchContract("pay@1.3.0", "getMerchant", 200);
 *     await mock.close();
 *
 *     const sandbox = await startMock("pay@1.3.0", { sandbox: true });   // state, callbacks, /_sandbox/
 *     const control = sandboxControl(sandbox.url, "test");                // the same credential as the client's
 *     await control.setStatus("invoice", invoiceId, "Success");
 *
 * The mock needs the optional peer dependencies @stoplight/prism-http and
 * @stoplight/prism-http-server; the validator and the matcher need ajv and ajv-formats. Prism is
 * loaded when the first mock starts, so validating alone works without it.
 */
import { DEFAULT_PORT_BASE, defaultPort, loadRegistry } from "../registry.js";

export {
  createValidator,
  formatViolations,
  OperationNotFoundError,
  type ContractValidator,
  type ContractViolation,
  type CreateValidatorOptions,
  type RequestInput,
  type RequestParams,
  type ResponseInput,
  type ValidationResult,
} from "../validation/contract.js";
export { contractMatchers, toMatchContract, type ContractMatchers, type MatcherContext, type MatcherResult } from "./matchers.js";
export { type SandboxControl, SandboxControlError, type SandboxSchemas, sandboxControl } from "../sandbox/client.js";

export interface StartMockOptions {
  /** Port to listen on. Default 0: a free port, so that parallel test runs do not collide. */
  port?: number;
  /** Interface to bind. Default 127.0.0.1. */
  host?: string;
  /**
   * Sandbox mode: what each credential creates is kept and read back, statuses move through the
   * control API under `/_sandbox/` (see `sandboxControl`), callbacks are delivered, a clock runs.
   * Default false: the static contract mock (the spec's examples).
   */
  sandbox?: boolean;
}

/** A running contract mock. */
export interface ContractMock {
  alias: string;
  /** Base URL, e.g. `http://127.0.0.1:39215`; give it to a client as `baseUrl`. */
  url: string;
  port: number;
  /** Number of operations served. */
  operations: number;
  /** True in sandbox mode. */
  sandbox: boolean;
  /** Stops the server; resolves when it is closed. */
  close(): Promise<void>;
}

/**
 * Starts the Prism contract mock of one API (by alias, e.g. `pay@1.3.0`): it answers valid
 * requests with the spec's examples (in sandbox mode: from the state the requests built) and
 * invalid ones with 4xx and an `sl-violations` header.
 */
export async function startMock(alias: string, options: StartMockOptions = {}): Promise<ContractMock> {
  const { startMock: start } = await import("../mock/index.js");
  const mock = await start(alias, { port: options.port ?? 0, host: options.host, sandbox: options.sandbox === true });
  return {
    alias: mock.alias,
    url: mock.url,
    port: mock.port,
    operations: mock.operations,
    sandbox: mock.sandbox,
    close: () => mock.close(),
  };
}

/** One API of the package. */
export interface ApiInfo {
  /** `<service>@<release>`, e.g. `pay@1.3.0`. */
  alias: string;
  service: string;
  release: string;
  /** True for the newest release of its service (the one `bank-api-contracts/<service>` exports). */
  latest: boolean;
  /** The port `bank-api-contracts mock` serves it on by default. */
  defaultPort: number;
  /** Absolute path of the bundled OpenAPI document. */
  specPath: string;
}

/** Every API in the package, in registry order. */
export function listApis(): ApiInfo[] {
  return loadRegistry().map((entry) => ({
    alias: entry.alias,
    service: entry.service,
    release: entry.release,
    latest: entry.latest,
    defaultPort: defaultPort(entry, DEFAULT_PORT_BASE),
    specPath: entry.bundlePath,
  }));
}
