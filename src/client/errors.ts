/**
 * Typed error surfacing for the generated clients: `unwrap(result)` returns the success data of an
 * openapi-fetch result or throws an `ApiError` carrying the status, the operation (method and spec
 * path) and the parsed body. Request headers, and so credentials, are never part of an ApiError.
 */

/** One validation finding, as Prism reports it in the `sl-violations` header or a problem body. */
export interface Violation {
  /** Where the finding is, e.g. `["request", "body", "amount"]`. */
  location: string[];
  severity: string;
  code: string | number;
  message: string;
}

/** The operation a response answered: the HTTP method and the path template from the spec. */
export interface Operation {
  method: string;
  path: string;
}

/** Filled by the client's response middleware, so that `unwrap` can name the operation. */
const operations = new WeakMap<Response, Operation>();

export function recordOperation(response: Response, operation: Operation): void {
  operations.set(response, operation);
}

function isViolation(value: unknown): value is Violation {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    Array.isArray(v.location) &&
    v.location.every((part) => typeof part === "string") &&
    typeof v.message === "string"
  );
}

function violationList(value: unknown): Violation[] {
  return Array.isArray(value) ? value.filter(isViolation) : [];
}

/** Parses Prism's `sl-violations` header (a JSON array); anything unparseable gives `[]`. */
export function parseViolations(header: string | null | undefined): Violation[] {
  if (!header) return [];
  try {
    return violationList(JSON.parse(header));
  } catch {
    return [];
  }
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  /** HTTP status of the response. */
  readonly status: number;
  /** HTTP method of the request, e.g. `POST`. */
  readonly method: string;
  /** Path template from the spec, e.g. `/v1/invoice/{invoice_id}`. */
  readonly path: string;
  /** The parsed response body (JSON when the server sent JSON, otherwise text; undefined when empty). */
  readonly body: unknown;
  /** Findings from `sl-violations`, else from a problem body's `validation` array (both Prism). */
  readonly violations: Violation[];
  readonly response: Response;

  constructor(response: Response, body: unknown, operation: Operation = recalledOperation(response)) {
    const headerViolations = parseViolations(response.headers.get("sl-violations"));
    const violations =
      headerViolations.length > 0
        ? headerViolations
        : violationList((body as { validation?: unknown } | null | undefined)?.validation);
    const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
    const findings = violations.map((v) => `${v.location.join(".")}: ${v.message}`).join("; ");
    super(`${operation.method} ${operation.path} responded ${status}${findings ? ` (${findings})` : ""}`);
    this.status = response.status;
    this.method = operation.method;
    this.path = operation.path;
    this.body = body;
    this.violations = violations;
    this.response = response;
  }
}

function recalledOperation(response: Response): Operation {
  return operations.get(response) ?? { method: "?", path: response.url ? new URL(response.url).pathname : "?" };
}

/** What `unwrap` accepts: the result of any openapi-fetch call. */
export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The success data type of an openapi-fetch result. */
export type DataOf<R extends FetchResult> = Exclude<R["data"], undefined>;

/**
 * Returns the data of a successful response, or throws an ApiError for a non-2xx one.
 * `const merchant = unwrap(await client.GET("/v1/merchant"));`
 */
export function unwrap<R extends FetchResult>(result: R): DataOf<R> {
  if (!result.response.ok) throw new ApiError(result.response, result.error);
  return result.data as DataOf<R>;
}
