/**
 * The parts of the pinned Prism 5.12 (@stoplight/prism-http, @stoplight/prism-http-server) that the
 * mock calls one by one instead of through Prism's whole pipeline, and the libraries Prism itself
 * uses (Ajv, ajv-formats, uri-template-lite, type-is, json-schema-merge-allof), each resolved from
 * Prism's own package so that the versions are the ones Prism runs. The one place that reaches into
 * Prism's `dist/` files; their paths are those of the versions pinned in package.json (`overrides`).
 */
import { createRequire } from "node:module";
import type { IHttpRequest } from "@stoplight/prism-http";
import type { Diagnostic, Either, Operation, ProblemError } from "./types.js";

export type { Diagnostic, Either, ProblemError };

const require = createRequire(import.meta.url);
const fromPrism = createRequire(require.resolve("@stoplight/prism-http"));
const dist = (path: string) => fromPrism(`@stoplight/prism-http/dist/${path}`);
const server = (path: string) => require(`@stoplight/prism-http-server/dist/${path}`);

export const ERROR = 0;
export const WARNING = 1;
export const INFORMATION = 2;

/** A parameter as Prism's HTTP operation model (@stoplight/http-spec) gives it. */
export interface ParamSpec {
  name: string;
  style?: string;
  explode?: boolean;
  required?: boolean;
  deprecated?: boolean;
  schema?: Record<string, unknown>;
}

export interface MediaContent {
  mediaType: string;
  schema?: Record<string, unknown>;
  examples?: unknown[];
  encodings?: unknown[];
}

export type Deserializer = (name: string, parameters: Record<string, unknown>, schema: unknown, explode: boolean) => unknown;

/** Prism's router (scores every operation against the path). */
export const prismRoute = dist("router/index.js").default as (options: {
  resources: Operation[];
  input: IHttpRequest;
}) => Either<Error, Operation>;

/** Prism's path matcher: whether `requestPath` fits `operationPath` (a MatchType). */
export const matchPath = dist("router/matchPath.js").matchPath as (requestPath: string, operationPath: string) => Either<Error, string>;
export const MATCH_NONE = dist("router/types.js").MatchType.NOMATCH as string;
/** Prism's ValidationContext.Input. */
export const INPUT = dist("validator/validators/types.js").ValidationContext.Input as number;

/** Prism's parameter deserialisers by location and style. */
export const deserializers = dist("validator/deserializers/index.js") as Record<
  "header" | "query" | "path",
  Record<string, Deserializer | undefined>
>;

/** Prism's conversion of Ajv errors into findings (`Request body property x must be ...`). */
export const convertAjvErrors = dist("validator/validators/utils.js").convertAjvErrors as (
  errors: unknown[],
  severity: number,
  context: number,
  prefix: string,
) => Diagnostic[];

/** The request body's media-type check, schema choice and form-body deserialisation. */
export const validateBody = dist("validator/validators/body.js").validate as (
  target: unknown,
  specs: MediaContent[],
  context: number,
  mediaType: string | undefined,
  multipartBoundary: string | undefined,
  bundle: unknown,
) => Either<Diagnostic[], unknown>;

export const wildcardMediaTypeMatch = dist("validator/utils/wildcardMediaTypeMatch.js").wildcardMediaTypeMatch as (
  mediaType: string,
  declared: string,
) => boolean;

/** `[boundary, essence]` of a Content-Type value (whatwg-mimetype); throws on a malformed one. */
export const parseMIMEHeader = dist("validator/validators/headers.js").parseMIMEHeader as (value: string) => [string | undefined, string];

/** The readOnly-stripping normaliser Prism applies to request schemas (an fp-ts Option). */
export const stripReadOnlyProperties = dist("utils/filterRequiredProperties.js").stripReadOnlyProperties as (
  schema: unknown,
) => { _tag: "None" } | { _tag: "Some"; value: Record<string, unknown> };

export const mergeAllOf = fromPrism("@stoplight/json-schema-merge-allof") as (schema: unknown, options: unknown) => Record<string, unknown>;

/** Prism's security scheme handlers: `(input, name) => Either<Diagnostic, unknown>`. */
const handlers = dist("validator/validators/security/handlers/index.js");
export type SecurityHandler = (input: unknown, name: string) => Either<Diagnostic, unknown>;
export const findSecurityHandler = handlers.findSecurityHandler as (scheme: unknown) => Either<Diagnostic, SecurityHandler>;
export const noneSecurityHandler = handlers.noneSecurityHandler as (input: unknown) => Either<Diagnostic, unknown>;
/** Prism's handler of an API key in a header. */
export const apiKeyInHeader = dist("validator/validators/security/handlers/apiKey.js").apiKeyInHeader as unknown;
/** The handlers of the schemes that want `Authorization: Bearer <token>` (http bearer, oauth2, openIdConnect). */
const bearer = dist("validator/validators/security/handlers/bearer.js");
export const bearerHandlers: ReadonlySet<unknown> = new Set([bearer.bearer, bearer.oauth2, bearer.openIdConnect]);

/** Prism's own request validation and security check (the components the mock replaces). */
const validator = dist("validator/index.js");
export const prismValidateInput = validator.validateInput as (options: {
  resource: Operation;
  element: unknown;
}) => Either<Diagnostic[], unknown>;
export const prismValidateSecurity = validator.validateSecurity as (options: {
  resource: Operation;
  element: unknown;
}) => Either<Diagnostic[], unknown>;

/** Prism's 422 problem for violations it answers itself (no 422, 400 or default response declared). */
export const createUnprocessableEntityResponse = dist("mocker/index.js").createUnprocessableEntityResponse as (
  validations: Diagnostic[],
) => ProblemError;

const types = dist("types.js");
const mockerErrors = dist("mocker/errors.js");
export const ProblemJsonError = types.ProblemJsonError as {
  fromTemplate(template: unknown, detail?: string, additional?: unknown): ProblemError;
  toProblemJson(error: ProblemError): Record<string, unknown>;
};
export const NOT_ACCEPTABLE = mockerErrors.NOT_ACCEPTABLE as unknown;
/** The `name` of Prism's 422 problem (whose body lists the violations). */
export const UNPROCESSABLE_ENTITY_NAME = `https://stoplight.io/prism/errors#${mockerErrors.UNPROCESSABLE_ENTITY.type}`;

/** prism-http-server's reading of `Prefer` (or `__code`, `__example`, ... query parameters). */
export const getHttpConfigFromRequest = server("getHttpConfigFromRequest.js").getHttpConfigFromRequest as (
  input: Pick<IHttpRequest, "headers" | "url">,
) => Either<Error, Record<string, unknown>>;

/** prism-http-server's serialisation of a body by its Content-Type. */
export const serialize = server("serialize.js").serialize as (payload: unknown, contentType?: string) => string | undefined;

/** The Ajv classes (draft-07 default, 2019-09, 2020-12), ajv-formats and the date-time format Prism installs. */
export const ajvClasses = {
  default: fromPrism("ajv").default,
  draft2019_09: fromPrism("ajv/dist/2019").default,
  draft2020_12: fromPrism("ajv/dist/2020").default,
} as Record<"default" | "draft2019_09" | "draft2020_12", new (options: object) => AjvInstance>;
export const addFormats = fromPrism("ajv-formats").default as (ajv: AjvInstance) => void;
const dateTime = dist("validator/validators/dateTime.js");
export const dateTimeFormat = dateTime.fmtDef(dateTime.date_time, dateTime.compareDateTime) as unknown;

export interface AjvInstance {
  compile(schema: object): ValidateFunction;
  addFormat(name: string, format: unknown): void;
}
export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: unknown[] | null;
}

/** uri-template-lite, which Prism uses to read path parameters. */
export const UriTemplate = fromPrism("uri-template-lite").URI.Template as new (
  template: string,
) => { match(path: string): Record<string, unknown> | null };

/** type-is's `is(mediaType, types)`. */
export const typeIs = fromPrism("type-is").is as (mediaType: string, types: string[]) => string | false;
