/** Shared runtime of the generated clients (generated/<service>/<release>/client.ts). */
export {
  baseUrlOf,
  createApiClient,
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
  ApiError,
  parseViolations,
  responseViolations,
  unwrap,
  type DataOf,
  type FaultKind,
  type FetchResult,
  type Operation,
  type Violation,
} from "./errors.js";
