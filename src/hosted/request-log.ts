/**
 * The log of a hosted sandbox, with pino: one JSON line per request (the API's alias, the operation's
 * id, the method, the path, the names of the query's parameters, the status, the duration in
 * milliseconds and who asked: the partner's id, "operator" or "unissued"), a line per connection the
 * server's guards refused (grouped: the first of each reason and address at once, then a count per
 * window), and the sandbox's own events (starting, ready, draining, stopped).
 *
 * No credential, token or secret ever reaches a line, by four means, each of which alone covers the
 * usual mistakes:
 * 1. a request line is built from named fields only: never a header, never a query value (only the
 *    parameters' names), never a body;
 * 2. the values of the request's credential headers (Authorization, X-API-KEY, the operator's token,
 *    any header whose name says key, token, secret, auth, cookie or session) are cut out of the path
 *    and the parameter names before the line is built;
 * 3. pino's redaction replaces members named like secrets (`headers`, `authorization`, `credential`,
 *    `token`, `password`, `secret`, `x-api-key`...) wherever a careless change would add them, in
 *    every line but the requests' (built by 1 alone; redaction would be most of their cost);
 * 4. every line, just before it is written, has the operator's token, the request's credential
 *    values, any issued credential (its prefix: ./partners.ts), anything after `Bearer` or `Basic`
 *    and the value of any query parameter in a URL replaced by "[redacted]".
 *
 * Lines go to standard output by default, through sonic-boom without blocking, its buffer bounded
 * (MAX_BUFFERED_BYTES: past it lines are dropped, never memory); closing waits until every line is written.
 */
import { type DestinationStream, type Logger, pino } from "pino";
import { CREDENTIAL_PATTERN, CREDENTIAL_PREFIX } from "./partners.js";

/** Bytes of log lines waiting for the destination at most; past it, lines are dropped. */
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Characters of a logged path at most. */
export const MAX_LOGGED_PATH = 512;
/** Query parameter names logged at most. */
export const MAX_LOGGED_PARAMETERS = 20;
/** Window over which refused connections of one reason and address are counted into one line. */
export const REFUSAL_WINDOW_MS = 10_000;
/** Reasons and addresses counted apart within a window at most; the rest are counted as address "other". */
const MAX_REFUSAL_KEYS = 1000;
/** Credential values shorter than this are not searched for in whole lines (they would match ordinary text). */
const MIN_SCRUBBED_LENGTH = 6;

export const REDACTED = "[redacted]";
/** An authorization scheme that carries a credential, and the credential after it. */
const SCHEME = /\b(?:Bearer|Basic)\b/i;
const SCHEME_VALUE = /\b(Bearer|Basic)(\s+|%20|\+)[^\s"\\,;]+/gi;
/** A query parameter's value in any URL a line holds (`?name=value`, `&name=value`). */
const QUERY_VALUE = /([?&][^=&\s"\\?#]{1,200}=)[^&\s"\\#]+/g;
/** How long closing waits for the destination to take the last lines. */
const CLOSE_WAIT_MS = 2000;

/** Members removed wherever they appear (pino's redaction paths): a careless `log.info({ headers })` shows nothing. */
const REDACT_PATHS = [
  "headers",
  "*.headers",
  "*.*.headers",
  "authorization",
  "*.authorization",
  "credential",
  "*.credential",
  "credentials",
  "*.credentials",
  "token",
  "*.token",
  "operatorToken",
  "*.operatorToken",
  "password",
  "*.password",
  "secret",
  "*.secret",
  '["x-api-key"]',
  '*["x-api-key"]',
  '["x-sandbox-operator-token"]',
  '*["x-sandbox-operator-token"]',
  "cookie",
  "*.cookie",
];

/** Header names whose values are credentials: every API's key header is one of these by its name. */
const SECRET_HEADER = /auth|key|token|secret|cookie|session|signature|password/i;

/** Who asked: a partner's id, the operator, or a credential no one issued. */
export type Requester = string;
export const OPERATOR = "operator";
export const UNISSUED = "unissued";

/** One request, as the per-request hook reports it. */
export interface RequestEntry {
  api: string;
  operation: string | undefined;
  method: string;
  /** The request target as received (path and query). */
  target: string;
  status: number;
  ms: number;
  partner: Requester;
  /** The request's headers: only the values of credential headers are read, to cut them out. */
  headers: Record<string, string | string[] | undefined>;
  /** True when the client went away before the answer was sent whole. */
  aborted?: boolean;
}

export interface Refusal {
  reason: string;
  address: string;
}

/** The values of a request's credential headers (and, for `Authorization`, its credentials after the scheme). */
export function credentialValues(headers: Record<string, string | string[] | undefined>): string[] {
  const values: string[] = [];
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined || !SECRET_HEADER.test(name)) continue;
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      const trimmed = value.trim();
      if (trimmed === "") continue;
      values.push(trimmed);
      const space = trimmed.indexOf(" ");
      if (space > 0) values.push(trimmed.slice(space + 1).trim());
    }
  }
  return values.filter((v) => v !== "");
}

/** `value` with every occurrence of each secret (as given and percent-encoded) replaced. */
function cut(value: string, secrets: readonly string[]): string {
  let result = value;
  for (const secret of secrets) {
    if (secret === "") continue;
    if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret && result.includes(encoded)) result = result.split(encoded).join(REDACTED);
  }
  return result;
}

/**
 * The path of a request target and the names of its query's parameters (never their values), each
 * with the request's credential values cut out, bounded in length.
 */
export function loggedTarget(target: string, secrets: readonly string[]): { path: string; query?: string[] } {
  const q = target.indexOf("?");
  const rawPath = q < 0 ? target : target.slice(0, q);
  const path = cut(rawPath.split("#")[0], secrets).slice(0, MAX_LOGGED_PATH);
  if (q < 0) return { path };
  const names = new Set<string>();
  for (const pair of target.slice(q + 1).split("&")) {
    if (names.size >= MAX_LOGGED_PARAMETERS) break;
    const name = pair.split("=")[0];
    if (name === "") continue;
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, " "));
    } catch {
      // a malformed escape: the name as sent
    }
    names.add(cut(decoded, secrets).slice(0, 100));
  }
  return names.size > 0 ? { path, query: [...names] } : { path };
}

/** The JSON form of a string inside a line (without its quotes). */
const inJson = (value: string) => JSON.stringify(value).slice(1, -1);

export interface RequestLogOptions {
  /** Where lines go (default: standard output, not blocking, bounded). */
  destination?: DestinationStream;
  /** Values never to appear in a line (the operator's token). */
  secrets?: string[];
  /** Window of the refusals' count, ms (default REFUSAL_WINDOW_MS). */
  refusalWindowMs?: number;
}

export class RequestLog {
  /** Every line but the requests' (the sandbox's events, refusals, anything added later): redacted. */
  readonly logger: Logger;
  private readonly requests: Logger;
  private readonly destination: DestinationStream;
  private readonly fixed: string[];
  /** The credential values of the request being written (the hook of the line's last step reads them). */
  private current: string[] = [];
  private readonly refusals = new Map<string, Refusal & { count: number }>();
  private refusalTimer: NodeJS.Timeout | undefined;
  /** Bytes handed to a sonic-boom destination and not yet written or dropped (undefined: another destination). */
  private unwritten: number | undefined;
  /** Called once nothing handed to the destination is left unwritten, while closing. */
  private allWritten: (() => void) | undefined;
  private readonly refusalWindowMs: number;

  constructor(options: RequestLogOptions = {}) {
    this.fixed = (options.secrets ?? []).filter((s) => s.length > 0).map(inJson);
    this.refusalWindowMs = options.refusalWindowMs ?? REFUSAL_WINDOW_MS;
    this.destination = options.destination ?? pino.destination({ dest: 1, sync: false, maxLength: MAX_BUFFERED_BYTES });
    const common = {
      base: undefined,
      messageKey: "msg",
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label: string) => ({ level: label }) },
      hooks: { streamWrite: (line: string) => this.handed(this.scrub(line)) },
    };
    // sonic-boom (pino.destination) says what it wrote and what it dropped: closing waits for the
    // lines still being written, so that its exit-time flush never writes a later line first.
    const boom = this.destination as { flushSync?: unknown; on?: (event: string, listener: (value: never) => void) => void };
    if (typeof boom.flushSync === "function" && typeof boom.on === "function") {
      this.unwritten = 0;
      boom.on("write", (bytes: number) => this.written(bytes));
      boom.on("drop", (line: string) => this.written(Buffer.byteLength(line)));
    }
    this.logger = pino({ ...common, redact: { paths: REDACT_PATHS, censor: REDACTED } }, this.destination);
    // Request lines hold named fields only (step 1), which no redaction path names: pino's redaction,
    // most of a line's cost, is left out of them; steps 2 and 4 apply as to every line.
    this.requests = pino(common, this.destination);
  }

  /** A line handed to the destination: counted while it is not written (a sonic-boom destination). */
  private handed(line: string): string {
    if (this.unwritten !== undefined) this.unwritten += Buffer.byteLength(line);
    return line;
  }

  /** Bytes the destination wrote or dropped; when none is left, whoever waits to close goes on. */
  private written(bytes: number): void {
    this.unwritten! -= bytes;
    if (this.unwritten! <= 0) this.allWritten?.();
  }

  /** Step 4: the line with every known secret and credential-shaped value replaced. */
  private scrub(line: string): string {
    // Each pattern is looked for first (a plain search), replaced only where found: most lines hold none.
    let result = line;
    if (result.includes(CREDENTIAL_PREFIX)) result = result.replace(CREDENTIAL_PATTERN, REDACTED);
    if (SCHEME.test(result)) result = result.replace(SCHEME_VALUE, `$1$2${REDACTED}`);
    if (result.includes("=")) result = result.replace(QUERY_VALUE, `$1${REDACTED}`);
    for (const secret of this.fixed) if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    for (const secret of this.current) {
      if (secret.length < MIN_SCRUBBED_LENGTH) continue;
      const inLine = inJson(secret);
      if (result.includes(inLine)) result = result.split(inLine).join(REDACTED);
    }
    return result;
  }

  /** Writes `write`'s lines with `secrets` searched for in them too. */
  private withSecrets(secrets: string[], write: () => void): void {
    this.current = secrets;
    try {
      write();
    } finally {
      this.current = [];
    }
  }

  /** One request's line. */
  request(entry: RequestEntry): void {
    const secrets = credentialValues(entry.headers);
    const { path, query } = loggedTarget(entry.target, secrets);
    this.withSecrets(secrets, () =>
      this.requests.info(
        {
          api: entry.api,
          operation: entry.operation ?? null,
          method: entry.method,
          path,
          ...(query ? { query } : {}),
          status: entry.status,
          ms: Math.round(entry.ms * 1000) / 1000,
          partner: entry.partner,
          ...(entry.aborted ? { aborted: true } : {}),
        },
        "request",
      ),
    );
  }

  /**
   * A connection the guards refused: the first of its reason and address in a window is written at
   * once, the others counted into one line when the window ends.
   */
  refused({ reason, address }: Refusal): void {
    let key = `${reason} ${address}`;
    let entry = this.refusals.get(key);
    if (!entry && this.refusals.size >= MAX_REFUSAL_KEYS) {
      key = `${reason} other`;
      entry = this.refusals.get(key);
      address = "other";
    }
    if (entry) {
      entry.count++;
      return;
    }
    this.refusals.set(key, { reason, address, count: 0 });
    this.logger.warn({ reason, address }, "connection refused");
    this.refusalTimer ??= setTimeout(() => this.flushRefusals(), this.refusalWindowMs).unref();
  }

  /** Writes the refusals counted since each was first written, and starts a new window. */
  flushRefusals(): void {
    clearTimeout(this.refusalTimer);
    this.refusalTimer = undefined;
    for (const { reason, address, count } of this.refusals.values()) {
      if (count > 0) this.logger.warn({ reason, address, count, windowSeconds: this.refusalWindowMs / 1000 }, "connections refused");
    }
    this.refusals.clear();
  }

  /** One of the sandbox's own events (starting, ready, draining, stopped), with its fields. */
  event(msg: string, fields: Record<string, unknown> = {}): void {
    this.logger.info(fields, msg);
  }

  /**
   * Writes what is counted, then waits (at most CLOSE_WAIT_MS) until the destination has written
   * every line handed to it: after this no line is lost on exit, and none is written out of order.
   */
  async close(): Promise<void> {
    this.flushRefusals();
    if (!this.unwritten) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, CLOSE_WAIT_MS).unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.allWritten = done;
    });
    this.allWritten = undefined;
  }
}
