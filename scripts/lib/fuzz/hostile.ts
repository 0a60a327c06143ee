/**
 * Hostile requests, built from an operation's valid request, that once made the mock answer 500 or
 * not at all: a path parameter that is not valid percent-encoding,
 * an empty `Accept` entry, a map key a header cannot carry, a declared `Content-Length` over the
 * limit with no body, JSON nested 50,000 deep (small, and over the worker's threshold), and an array
 * of many wrong items. Each has the answer the contract and the mock's DEVIATIONS give it; none may
 * be a 5xx or go unanswered. Used by tests/e2e/fuzz/mock.fuzz.test.ts (both modes) and
 * scripts/fuzz.ts. Generic over the registry.
 */
import { connect } from "node:net";
import { type Doc, jsonRequest, type Json, type Operation } from "../../../src/document/index.js";
import { LARGE_BODY_BYTES, MAX_BODY_BYTES, MAX_JSON_DEPTH } from "../../../src/mock/limits.js";
import { credentialHeaders, declaredErrorStatus, requestParams, requestUrl } from "../../../src/testing/requests.js";

/** A key no header can carry as it is (above U+00FF, and DEL). */
export const HOSTILE_KEY = "Ā\u007fé";

export interface HostileCase {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Sent over a raw socket: the head only, declaring a length whose bytes never come. */
  declaredLength?: number;
  /** What the answer must be, beyond "not a 5xx": undefined when it is. */
  check(status: number, headers: Headers | Record<string, string>, text: string): string | undefined;
}

export interface HostileOutcome {
  name: string;
  /** Undefined when the answer was as expected. */
  failure?: string;
}

const header = (headers: Headers | Record<string, string>, name: string) =>
  headers instanceof Headers ? (headers.get(name) ?? undefined) : headers[name];

/** The sl-violations header parses as JSON (a cut value, "Too many violations! ...", is left alone). */
function violationsParse(headers: Headers | Record<string, string>): string | undefined {
  const value = header(headers, "sl-violations");
  if (value === undefined || value.startsWith("Too many violations! ")) return undefined;
  try {
    JSON.parse(value);
    return undefined;
  } catch {
    return `sl-violations is not JSON: ${value.slice(0, 200)}`;
  }
}

/** The example body with HOSTILE_KEY added to each object in it (holding a value of no schema's type), one body per object. */
function withHostileKey(value: Json): Json[] {
  const bodies: Json[] = [];
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    bodies.push({ ...value, [HOSTILE_KEY]: [[{}]] });
    for (const key of Object.keys(value)) for (const inner of withHostileKey(value[key])) bodies.push({ ...value, [key]: inner });
  } else if (Array.isArray(value) && value.length > 0) {
    for (const inner of withHostileKey(value[0])) bodies.push([inner, ...value.slice(1)]);
  }
  return bodies;
}

const nested = (depth: number, pad: number) => `{"pad":"${" ".repeat(pad)}","deep":${"[".repeat(depth)}${"]".repeat(depth)}}`;

/** The hostile cases of one operation. */
export function hostileCases(doc: Doc, op: Operation): HostileCase[] {
  const method = op.method.toUpperCase();
  const path = requestUrl(op, requestParams(doc, op));
  const auth = credentialHeaders(doc, op);
  const json = jsonRequest(doc, op);
  const example = json?.examples[0]?.value;
  const jsonHeaders = { ...auth, "content-type": json?.mediaType ?? "application/json" };
  const invalidStatus = declaredErrorStatus(op, [422, 400], 422);
  const notServerError = () => undefined;
  const cases: HostileCase[] = [
    { name: "empty Accept entry", method, path, headers: { ...auth, accept: "," }, check: notServerError },
    {
      name: "declared Content-Length over the limit, no body",
      method: method === "GET" || method === "DELETE" ? "POST" : method,
      path,
      headers: jsonHeaders,
      declaredLength: MAX_BODY_BYTES + 1,
      check: (status) => (status === 413 ? undefined : `expected 413, got ${status}`),
    },
  ];
  const templated = op.path.match(/\{[^}]+\}/g);
  if (templated) {
    cases.push({
      name: "path parameter not valid percent-encoding",
      method,
      path: op.path.replace(/\{[^}]+\}/g, "%"),
      headers: example === undefined ? auth : jsonHeaders,
      body: example === undefined ? undefined : JSON.stringify(example),
      check: (status) => (status >= 400 && status < 500 ? undefined : `expected a 4xx, got ${status}`),
    });
  }
  if (json) {
    const deep = (pad: number) => ({
      name: `JSON nested 50,000 deep (${pad > 0 ? "over" : "under"} ${LARGE_BODY_BYTES} bytes)`,
      method,
      path,
      headers: jsonHeaders,
      body: nested(50_000, pad),
      // The operation's 400 with the finding in sl-violations, or (no 400 declared) micri's body naming it.
      check: (status: number, headers: Headers | Record<string, string>, text: string) => {
        const violations = (headers instanceof Headers ? headers.get("sl-violations") : headers["sl-violations"]) ?? "";
        const said = `nested deeper than ${MAX_JSON_DEPTH} levels`;
        return status === 400 && (text.includes(said) || violations.includes(said))
          ? undefined
          : `expected the 400 of deep JSON, got ${status}`;
      },
    });
    cases.push(deep(0), deep(LARGE_BODY_BYTES));
    withHostileKey(example ?? {}).forEach((body, i) =>
      cases.push({
        name: `map key above U+00FF (${i + 1})`,
        method,
        path,
        headers: jsonHeaders,
        body: JSON.stringify(body),
        check: (_, headers) => violationsParse(headers),
      }),
    );
    // An array member of many wrong items, under the worker's threshold (validated with every error listed).
    const arrayKey =
      example !== null && typeof example === "object" && !Array.isArray(example)
        ? Object.keys(example).find((key) => Array.isArray(example[key]))
        : undefined;
    if (arrayKey) {
      const sample = (example as Record<string, Json[]>)[arrayKey][0];
      const item = typeof sample === "number" || typeof sample === "boolean" ? '"x"' : "1";
      const room = LARGE_BODY_BYTES - JSON.stringify(example).length - 64;
      const count = Math.floor(room / (item.length + 1));
      const body = JSON.stringify({ ...(example as object), [arrayKey]: [] }).replace(
        `"${arrayKey}":[]`,
        `"${arrayKey}":[${`${item},`.repeat(count - 1)}${item}]`,
      );
      cases.push({
        name: `array member of ${count.toLocaleString("en-US")} wrong items`,
        method,
        path,
        headers: jsonHeaders,
        body,
        check: (status, headers) =>
          violationsParse(headers) ?? (status === invalidStatus ? undefined : `expected ${invalidStatus}, got ${status}`),
      });
    }
  }
  return cases;
}

/** The status line and headers of an answer to a request head that declares `length` bytes and sends none. */
function declaredOnly(base: string, c: HostileCase, timeoutMs: number): Promise<{ status: number; headers: Record<string, string> }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) return;
      clearTimeout(timer);
      socket.destroy();
      const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) headers[line.slice(0, line.indexOf(":")).toLowerCase()] = line.slice(line.indexOf(":") + 1).trim();
      resolve({ status: Number(statusLine.split(" ")[1]), headers });
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    const head = Object.entries({ ...c.headers, "content-length": String(c.declaredLength) })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.write(`${c.method} ${c.path} HTTP/1.1\r\nhost: ${url.host}\r\n${head}\r\n`);
  });
}

/** Sends a hostile case to the mock at `base`; its failure, if any (a 5xx, no answer in `timeoutMs`, or not the answer expected). */
export async function runHostile(base: string, c: HostileCase, timeoutMs: number): Promise<HostileOutcome> {
  const where = `${c.method} ${c.path}`;
  try {
    if (c.declaredLength !== undefined) {
      const { status, headers } = await declaredOnly(base, c, timeoutMs);
      const failure = status >= 500 ? `${status}` : c.check(status, headers, "");
      return { name: c.name, failure: failure && `${where}: ${failure}` };
    }
    const response = await fetch(base + c.path, {
      method: c.method,
      headers: c.headers,
      body: c.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    const failure = response.status >= 500 ? `${response.status} ${text.slice(0, 300)}` : c.check(response.status, response.headers, text);
    return { name: c.name, failure: failure && `${where}: ${failure}` };
  } catch (error) {
    return { name: c.name, failure: `${where}: ${(error as Error).message}` };
  }
}
