/**
 * Where the mock deliberately answers differently from stock Prism, each applied in
 * validate.ts or in server.ts' stages, and stated in the equivalence test:
 * - `emptyQueryValue`: `?start=` is validated as the empty string (Prism drops empty values and
 *   treats the parameter as absent);
 * - `bearerCase`: the `Bearer` scheme name is case-insensitive (RFC 9110 §11.1; Prism wants `Bearer`);
 * - `malformedContentType`: a Content-Type that is not a media type (`a`, `/`, `;`, `application/json; x`)
 *   on a request with a body is a 415 violation like any unsupported one, and is ignored on a request
 *   without a body (Prism throws and answers 500 "Could not parse MIME type string");
 * - `pathEncoding`: a path parameter that is not valid percent-encoding (`/v1/merchant/%`) is an
 *   invalid parameter (code `encoding`), answered as any invalid request (Prism throws "URI
 *   malformed" and answers 500);
 * - `largeBody`: a body over LARGE_BODY_BYTES is validated up to its first violation, followed by an
 *   Information finding saying so (Prism collects every violation: for 450,000 bad array items that
 *   took seconds and gigabytes);
 * - in the server's stages: `malformedAccept` (an Accept entry that is not a media type, such as
 *   `text/csv;x`, or an empty one as in `Accept: ,`: 406, not 500; answer.ts), `cors` (no Origin echoed with
 *   credentials), `allow` (405 names the allowed methods), `bodyLimit` (413 sent, then the
 *   connection closed; a declared Content-Length over the limit gets it at once, before any byte of
 *   the body; receive.ts), `jsonDepth` (a JSON body nested deeper than MAX_JSON_DEPTH levels is
 *   refused with the 400 of unparseable JSON, in both modes; Prism parses it, and its worker reply
 *   or state would overflow the stack; receive.ts), `headerEscape` (a character a header cannot
 *   carry, above U+00FF or DEL, in a violation, e.g. a rejected map key, is written in
 *   `sl-violations` as its JSON escape `\uXXXX`, which parses back to the same string; Prism writes
 *   it as it is and Node refuses the header: a 500; write.ts), `violationCap` (at most
 *   MAX_LISTED_VIOLATIONS listed, then a count), `dynamicFallback` (a generated answer,
 *   `Prefer: dynamic=true`, that fails the response's own schema is replaced by the static answer,
 *   the example; Prism sends it with its violations);
 * - `unknownMember`: a member of a request body that its schema does not name, where the schema
 *   names its members and says nothing of others (no `additionalProperties` but `true`, no
 *   `patternProperties`, `propertyNames` or `unevaluatedProperties`), is reported as a Warning
 *   (code `unknown-member`), at most MAX_UNKNOWN_MEMBERS of them, on a request that is otherwise
 *   valid: the request is answered as before, with the warnings in `sl-violations` (Prism accepts
 *   such a member silently, and a misspelt optional member goes unseen);
 * - `invalidJson` (judge.ts): a body that is not JSON (or nested deeper than MAX_JSON_DEPTH), on an
 *   operation that declares a 400 and no 422, is an invalid request of that operation (one finding,
 *   code `invalid_json`): it gets the operation's 400 as any invalid request does, its example or no
 *   body, the finding in `sl-violations` (prism-http-server answers its own `{"error": ...}` body,
 *   which the operation's 400 does not declare); elsewhere, the stock answer;
 * - in hosted mode only (`mock --sandbox --hosted`, src/hosted/; shown against stock Prism by
 *   tests/unit/src/hosted/deviations.slow.test.ts): `rateLimit` (a partner over its request rate is
 *   answered 429 problem+json with `Retry-After`, named in `sl-violations` with code
 *   `sandbox-rate-limit` where the operation does not declare 429, before Prism judges the request;
 *   stock Prism answers every request), `hostedTimeouts` (a request's headers must arrive within
 *   10 s and the whole request within 30 s, else 408 and the connection closed; an idle kept-alive
 *   connection is closed after 5 s; at most 64 connections per client address and 4096 in all, past
 *   which a connection is closed at once: src/hosted/connections.ts; stock Prism keeps Node's
 *   defaults, 60 s and 300 s, and no cap).
 */
export const DEVIATIONS = [
  "emptyQueryValue",
  "bearerCase",
  "malformedContentType",
  "largeBody",
  "pathEncoding",
  "malformedAccept",
  "cors",
  "allow",
  "bodyLimit",
  "jsonDepth",
  "headerEscape",
  "violationCap",
  "dynamicFallback",
  "unknownMember",
  "invalidJson",
  "rateLimit",
  "hostedTimeouts",
] as const;
