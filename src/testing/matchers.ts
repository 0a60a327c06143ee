/**
 * `toMatchContract(alias, operationId, status?)`: a matcher for vitest and jest (`expect.extend`).
 * It takes a response body, or an openapi-fetch result (`await client.GET(...)`), whose status it
 * then checks too. The alias and the operationId are literal types of the registry (ApiAlias,
 * OperationId<A>): a typo fails to compile; one that gets through (a cast, JavaScript) fails the
 * call, naming the known ones.
 */
import type { ApiAlias, OperationId } from "../../generated/registry-types.js";
import { ApiError } from "../client/errors.js";
import { createValidator, formatViolations } from "../validation/contract.js";

/** What `this` holds when vitest or jest calls a matcher (only `isNot` is read). */
export interface MatcherContext {
  isNot?: boolean;
}

export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

interface FetchResultLike {
  data?: unknown;
  error?: unknown;
  response: Response;
}

function isFetchResult(value: unknown): value is FetchResultLike {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof Response !== "undefined" &&
    (value as FetchResultLike).response instanceof Response
  );
}

/**
 * Passes when `received` is what operation `operationId` of API `alias` answers with `status`.
 * `received` is a body (parsed JSON), or an openapi-fetch result, whose response status must equal
 * `status` when given (and is used when not).
 */
export function toMatchContract<A extends ApiAlias>(
  this: MatcherContext | undefined,
  received: unknown,
  alias: A,
  operationId: OperationId<A>,
  status?: number,
): MatcherResult {
  let body = received;
  let code = status;
  const what = () => `${alias} ${operationId}${code === undefined ? "" : ` ${code}`}`;
  if (isFetchResult(received)) {
    const actual = received.response.status;
    // A non-2xx answer without a body has an ApiError as error: no body to validate.
    body = received.response.ok ? received.data : received.error instanceof ApiError ? undefined : received.error;
    if (code !== undefined && code !== actual) {
      return { pass: false, message: () => `expected the ${what()} response, but the status is ${actual}` };
    }
    code = actual;
  }
  if (code === undefined) {
    throw new TypeError("toMatchContract(alias, operationId, status): status is required unless the value is an openapi-fetch result");
  }
  const { valid, violations } = createValidator(alias).validateResponse({ operationId, status: code, body });
  return {
    pass: valid,
    message: () =>
      valid
        ? `expected the body not to match the ${what()} response, but it does`
        : `expected the body to match the ${what()} response; ${violations.length} violation(s):\n${formatViolations(violations)}`,
  };
}

/** `expect.extend(contractMatchers)` */
export const contractMatchers = { toMatchContract };

/**
 * The matcher's type, for your test framework's declarations:
 *
 *     // vitest
 *     declare module "vitest" { interface Matchers<T = any> extends ContractMatchers<T> {} }
 *     // jest (with @types/jest)
 *     declare global { namespace jest { interface Matchers<R> extends ContractMatchers<R> {} } }
 */
export interface ContractMatchers<R = unknown> {
  /** The value (a body, or an openapi-fetch result) is what `operationId` of `alias` answers with `status`. */
  toMatchContract<A extends ApiAlias>(alias: A, operationId: OperationId<A>, status?: number): R;
}
