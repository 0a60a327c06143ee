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
 *
 * Aliases and operationIds are literal types (ApiAlias, OperationId<A>, from the registry through
 * generated/registry-types.ts): a misspelt `"pay@1.3"` or `"getMerchnt"` fails to compile. Plain
 * strings are accepted in one place only: `createValidator(alias, { registry })`, for a registry of
 * your own, whose names these types cannot know. A name that is not in the registry still fails at
 * run time too, naming the known ones (for JavaScript callers and casts).
 */
import type { ApiAlias, OperationId, RegistryOperations } from "../../generated/registry-types.js";
import { DEFAULT_PORT_BASE, defaultPort, loadRegistry } from "../registry.js";
import {
  type ContractValidator as AnyContractValidator,
  type CreateValidatorOptions,
  createValidator as createAnyValidator,
  type RequestInput,
  type ResponseInput,
  type ValidationResult,
} from "../validation/contract.js";

export {
  formatViolations,
  OperationNotFoundError,
  type ContractViolation,
  type CreateValidatorOptions,
  type RequestInput,
  type RequestParams,
  type ResponseInput,
  type ValidationResult,
} from "../validation/contract.js";
export type { AnyContractValidator, ApiAlias, OperationId, RegistryOperations };

/** The validator of API `A`: its operationIds are literal types. */
export interface ContractValidator<A extends ApiAlias = ApiAlias> {
  readonly alias: A;
  /** Every operationId of the API, webhooks included, in document order. */
  readonly operationIds: readonly OperationId<A>[];
  /** Checks a response body against the operation's response for `status`. */
  validateResponse(input: ResponseInput & { operationId: OperationId<A> }): ValidationResult;
  /** Checks a request's body and parameters against the operation (also: a webhook's payload). */
  validateRequest(input: RequestInput & { operationId: OperationId<A> }): ValidationResult;
}

/**
 * The validator of one API of the package, by alias (`pay@1.3.0`); created once per API. With
 * `{ registry }` (the path of a redocly.yaml of your own) the alias is looked up there, and alias
 * and operationIds are plain strings.
 */
export function createValidator<A extends ApiAlias>(alias: A): ContractValidator<A>;
export function createValidator(alias: string, options: CreateValidatorOptions & { registry: string }): AnyContractValidator;
export function createValidator(alias: string, options?: CreateValidatorOptions): AnyContractValidator {
  return createAnyValidator(alias, options);
}
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
export interface ContractMock<A extends ApiAlias = ApiAlias> {
  alias: A;
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
export async function startMock<A extends ApiAlias>(alias: A, options: StartMockOptions = {}): Promise<ContractMock<A>> {
  const { startMock: start } = await import("../mock/index.js");
  const mock = await start(alias, { port: options.port ?? 0, host: options.host, sandbox: options.sandbox === true });
  return {
    alias: mock.alias as A,
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
  alias: ApiAlias;
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
    alias: entry.alias as ApiAlias,
    service: entry.service,
    release: entry.release,
    latest: entry.latest,
    defaultPort: defaultPort(entry, DEFAULT_PORT_BASE),
    specPath: entry.bundlePath,
  }));
}
