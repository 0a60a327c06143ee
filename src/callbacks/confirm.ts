/**
 * Confirming a callback against the API itself. The sources do not show how callbacks are signed,
 * so anyone who can reach a receiver can post a plausible payload; where the sources say the
 * record a webhook announces can be fetched, the handler fetches it (with the partner's own
 * credential, through the API's generated client) and acts only when the API knows the record.
 * `event.record` is then the record as the API returned it: act on it, not on the payload.
 *
 * How each webhook is confirmed is data, one declaration per webhook (CONFIRMATIONS, keyed by the
 * service and the webhook's name, so that a later release of the service inherits it when its
 * operation is still there): which operation fetches the record, which payload member feeds which
 * of its parameters, where the records are in its answer, and which record members must equal
 * which payload members (the record's identity). A webhook without a declaration (Pay's
 * `invoicePaid`: the sources show no fetch by id) cannot be confirmed this way: its handler needs
 * a `verify` hook or an explicit opt-out.
 *
 * Outcomes: `confirmed` (a record matches), `refused` (the payload names no record, or the API
 * answered that there is none: a forged or foreign callback, answered 403), `unavailable` (the API
 * could not be asked now: a transport fault, a timeout, a 5xx, 401/403 for the partner's own
 * credential; answered 503, so that the provider retries).
 */
import type { ApiEntry } from "../registry.js";
import { findOperation, loadDocument, valueAt } from "../document/index.js";

/** How to confirm one webhook by fetching the record it announces. Pointers are JSON pointers (`/a/b`, `""` the whole value). */
export interface Confirmation {
  /** The operation that fetches the record. */
  operationId: string;
  /** Its parameters, each from a payload member: parameter name -> pointer into the payload. */
  parameters: Readonly<Record<string, string>>;
  /** Where the records are in the operation's 2xx answer: an array there is a list of records, an object one record. */
  records: string;
  /** Members that must be equal: pointer into the record -> pointer into the payload. At least one. */
  match: Readonly<Record<string, string>>;
  /** The source's words that allow it (the provider's document by title, and the line). */
  source: string;
  /** What the declaration assumes where the source shows nothing. */
  assumes?: string;
}

/** The declarations, by `<service> <webhook name>`. */
export const CONFIRMATIONS: Readonly<Record<string, Confirmation>> = {
  "payment-initiation transactionCompleted": {
    operationId: "listTransactions",
    parameters: { transaction_id: "/transaction_id" },
    records: "/transactions",
    match: { "/transaction_id": "/transaction_id" },
    source:
      "Payment Initiation, Statement Retrieval and Balance Retrieval Interface, line 251 (the full record can be fetched by its transaction id), line 198 (GET /v1/transaction with transaction_id returns only that record)",
    assumes:
      "the payload names the transaction in a transaction_id member, as the spec's placeholder example does (the payload shape is not shown); the record's status (FundTransferTaskStatus) and the callback's status codes are different lists whose mapping is not shown, so only the identity is compared",
  },
  "statement statementStatusChanged": {
    operationId: "listStatements",
    parameters: { statement_ids: "/statement_id" },
    records: "",
    match: { "/statement_id": "/statement_id" },
    source:
      "Payment Initiation, Statement Retrieval and Balance Retrieval Interface, line 215 (polling /v1/statements?statement_ids=<id> returns the latest status)",
    assumes:
      "the payload names the session in a statement_id member, as the spec's placeholder example does (the payload shape is not shown); the status is not compared, since polling returns the latest status, which may have moved on",
  },
};

/** The declaration for a webhook of an API, if there is one. */
export function confirmationOf(entry: ApiEntry, webhook: string): Confirmation | undefined {
  return CONFIRMATIONS[`${entry.service} ${webhook}`];
}

/** What confirming needs from a client: the `request` method of the API's generated client. */
export interface ConfirmClient {
  request(method: any, path: any, init?: any): Promise<{ data?: unknown; error?: unknown; fault?: unknown; response: Response }>;
}

export interface ConfirmOptions {
  /** The API's generated client, created with your credential (e.g. `createPaymentInitiationClient({ environment, apiKey })`). */
  client: ConfirmClient;
  /** Your own declaration, instead of (or where there is no) built-in one. */
  how?: Confirmation;
}

export type ConfirmOutcome =
  | { kind: "confirmed"; record: unknown }
  | { kind: "refused"; reason: string }
  | { kind: "unavailable"; reason: string };

/** A declaration checked against the bundled spec: the operation's method, path and parameter locations. */
export interface ResolvedConfirmation {
  confirmation: Confirmation;
  method: string;
  path: string;
  parameters: Array<{ name: string; in: "path" | "query" | "header"; from: string }>;
}

/** The value at a JSON pointer (`""` is the value itself); undefined when a step is missing or the pointer is malformed. */
export function atPointer(value: unknown, at: string): unknown {
  try {
    return valueAt(value, at);
  } catch {
    return undefined;
  }
}

/** Checks a declaration against the API's bundled spec; the error names the webhook and what is wrong. */
export function resolveConfirmation(entry: ApiEntry, webhook: string, confirmation: Confirmation): ResolvedConfirmation {
  const label = `${entry.alias} ${webhook}: confirmation`;
  const doc = loadDocument(entry.bundlePath);
  const op = findOperation(doc, confirmation.operationId);
  if (op && op.section === "paths") {
    const parameters = Object.entries(confirmation.parameters).map(([name, from]) => {
      const param = op.parameters.find((p) => p.value.name === name && p.value.in !== "cookie");
      if (!param) throw new Error(`${label}: ${confirmation.operationId} has no parameter "${name}"`);
      return { name, in: param.value.in as "path" | "query" | "header", from };
    });
    if (Object.keys(confirmation.match).length === 0) throw new Error(`${label}: "match" names no member to compare`);
    return { confirmation, method: op.method.toUpperCase(), path: op.path, parameters };
  }
  throw new Error(`${label}: ${entry.alias} has no operation "${confirmation.operationId}"`);
}

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/** Fetches the record a callback announces and compares it; never throws. */
export async function confirmEvent(
  resolved: ResolvedConfirmation,
  client: ConfirmClient,
  payload: unknown,
  timeoutMs: number,
): Promise<ConfirmOutcome> {
  const { confirmation: how, method, path } = resolved;
  const params: Record<"path" | "query" | "header", Record<string, string>> = { path: {}, query: {}, header: {} };
  for (const p of resolved.parameters) {
    const value = atPointer(payload, p.from);
    if (!isScalar(value) || String(value) === "") {
      return { kind: "refused", reason: `the payload has no ${p.from.slice(1) || "value"} to look the record up with` };
    }
    params[p.in][p.name] = String(value);
  }
  let result: Awaited<ReturnType<ConfirmClient["request"]>>;
  try {
    result = await client.request(method, path, { params, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    return { kind: "unavailable", reason: `${how.operationId} failed: ${(error as Error).message}` };
  }
  if (result.fault) return { kind: "unavailable", reason: `${how.operationId}: ${(result.fault as Error).message}` };
  const { status } = result.response;
  if (status === 404 || (status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 408 && status !== 429)) {
    return { kind: "refused", reason: `${how.operationId} answered ${status}: the API knows no such record` };
  }
  if (status < 200 || status >= 300) {
    return { kind: "unavailable", reason: `${how.operationId} answered ${status}` };
  }
  const found = atPointer(result.data, how.records);
  const records = Array.isArray(found) ? found : found !== null && typeof found === "object" ? [found] : [];
  const matches = (record: unknown) =>
    Object.entries(how.match).every(([inRecord, inPayload]) => {
      const expected = atPointer(payload, inPayload);
      return isScalar(expected) && atPointer(record, inRecord) === expected;
    });
  const record = records.find(matches);
  if (record === undefined) {
    const wanted = Object.values(how.match)
      .map((p) => `${p.slice(1)} ${JSON.stringify(atPointer(payload, p))}`)
      .join(", ");
    return { kind: "refused", reason: `${how.operationId} returned no record with ${wanted}` };
  }
  return { kind: "confirmed", record };
}
