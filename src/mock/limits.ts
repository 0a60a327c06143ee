/**
 * The mock's bounds, in one place: every size and time a request can make the mock spend.
 */

/** As prism-http-server: larger request bodies get 413. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** After a 413, at most this many more bytes of the request are read (and dropped) before the connection is closed. */
export const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
/** ... or for at most this long. */
export const MAX_DRAIN_MS = 5000;

/**
 * A JSON body nested deeper than this (arrays and objects) is refused as unparseable (DEVIATIONS
 * jsonDepth): the same answer in static and sandbox mode, where the body is handed between threads
 * and kept as state.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * Bodies larger than this are decoded and judged by the worker (judge.ts), and validated up to
 * their first violation (validate.ts DEVIATIONS largeBody).
 */
export const LARGE_BODY_BYTES = 256 * 1024;

/** As prism-http-server: a longer sl-violations value is cut and prefixed "Too many violations! ". */
export const MAX_SAFE_HEADER_LENGTH = 8 * 1024 - 100;
/** A problem+json body lists at most this many violations, then a count of the others (DEVIATIONS violationCap). */
export const MAX_LISTED_VIOLATIONS = 100;

/**
 * A request body's members that its schema does not name are reported as warnings, at most this
 * many, then one finding saying there are more (DEVIATIONS unknownMember).
 */
export const MAX_UNKNOWN_MEMBERS = 10;

/** Prism's routing results kept (method, server URL and path). */
export const ROUTES_KEPT = 1000;
/** Answers kept by the response cache, and their bytes. */
export const CACHE_ENTRIES = 1000;
export const CACHE_BYTES = 16 * 1024 * 1024;
/** Requests with a larger body are answered by Prism every time (and not kept). */
export const CACHE_MAX_REQUEST_BYTES = 64 * 1024;
