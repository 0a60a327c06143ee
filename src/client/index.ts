/** Shared runtime of the generated clients (generated/<service>/<release>/client.ts). */
export {
  baseUrlOf,
  createApiClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  type ApiClient,
  type ApiDefinition,
  type ApiResult,
  type AuthDefinition,
  type ClientOptions,
  type ClientTarget,
  type CommonOptions,
  type Credential,
  type CredentialOptions,
  type FaultResult,
  type ServerDefinition,
  type ServerVariable,
  type ServerVariables,
} from "./factory.js";
export {
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  type CallOptions,
  type RetryEvent,
  type RetryOptions,
} from "./retry.js";
export {
  ApiError,
  CallTimeoutError,
  parseViolations,
  responseViolations,
  ResponseTooLargeError,
  unwrap,
  type DataOf,
  type FaultKind,
  type FetchResult,
  type Operation,
  type Violation,
} from "./errors.js";
