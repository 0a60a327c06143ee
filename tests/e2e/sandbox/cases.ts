/**
 * What the sandbox does for each API of the registry, written by hand from the provider's documents
 * (cited by title and line, as the declarations' `source` cites them) and the sandbox's documented conventions: the
 * resource a test creates and how it is read back, its first status, a status to move it to, the
 * callback that move sends (and where its URL comes from), the expiry rule, and an error status to
 * force. The suites in this folder run these against every API; a test checks that the table
 * covers the registry exactly.
 */
import { type Doc, findOperation, jsonRequest, loadDocument, type Operation } from "../../../src/document/index.js";
import { findApi } from "../../../src/registry.js";
import { credentialHeaders, requestParams, requestUrl } from "../../../src/testing/requests.js";
import { type Answer, call } from "../../helpers/sandbox.js";

type Json = any;

export interface ReadBack {
  operationId: string;
  params?: (id: string) => { path?: Record<string, string>; query?: Record<string, string | string[]> };
  body?: (id: string) => Json;
  /** The record in the answer, or undefined when it is not there. */
  find: (answer: Answer, id: string) => Json;
}

export interface ApiCase {
  alias: string;
  /** The create: its operation, body (the spec's first example when undefined) and the new id in its answer. */
  create: { operationId: string; body?: (example: Json) => Json; id: (answer: Answer) => string };
  /** A member of the created record read back, and its expected value (from the create's request). */
  echo: (record: Json, request: Json) => void;
  readBack: ReadBack;
  /** The declaration's resource (the control API's name for it). */
  resource: string;
  initialStatus: string;
  moveTo: string;
  /** The callback a move to `moveTo` sends, and how its URL is set; none where the sources show no event. */
  callback?: {
    webhook: string;
    register: "control" | { operationId: string; body: (url: string) => Json };
    payload: (id: string) => Json;
  };
  /** Expiry rules: the clock advance (seconds) that expires a record created with `body`, its new status and callback payload. */
  expiry: Array<{
    name: string;
    /** A call made first (with the same credential), e.g. setting the merchant's default expiry. */
    setup?: { operationId: string; body: Json };
    body?: (example: Json) => Json;
    seconds: number;
    to: string;
    payload?: (id: string) => Json;
  }>;
  /** An error status the operation declares, to force on it. */
  error: { operationId: string; status: number };
}

const list = (member: string, idField: string) => (answer: Answer, id: string) =>
  (answer.body?.[member] as Json[] | undefined)?.find((r) => r[idField] === id);

export const CASES: ApiCase[] = [
  {
    alias: "pay@1.3.0",
    // 000:196 create, 000:197 list, 000:147 Created, 000:236 webhook when paid, 000:254 expiry in hours.
    create: { operationId: "createInvoice", id: (a) => a.body.invoice_id },
    echo: (record, request) => {
      if (JSON.stringify(record.amount) !== JSON.stringify(request.amount) || record.item_id !== request.item_id)
        throw new Error("not echoed");
    },
    readBack: { operationId: "listInvoices", find: list("urls", "invoice_id") },
    resource: "invoice",
    initialStatus: "Created",
    moveTo: "Success",
    callback: {
      webhook: "invoicePaid",
      register: { operationId: "createMerchant", body: (url) => ({ name: "Sandbox Shop", webhook_url: url }) },
      payload: (id) => ({ invoice_id: id, status: "Success" }),
    },
    expiry: [
      { name: "after its expiry hours", body: (example) => ({ ...example, expiry: 24 }), seconds: 24 * 3600, to: "Expired" },
      {
        name: "after the merchant's url_expiry when it gives none",
        setup: { operationId: "createMerchant", body: { name: "Shop", url_expiry: 3 } },
        body: ({ expiry: _, ...example }) => example,
        seconds: 3 * 3600,
        to: "Expired",
      },
    ],
    error: { operationId: "createInvoice", status: 500 },
  },
  {
    alias: "pay@1.2.0",
    // 000:219 create, 000:220 list, 000:138 CREATED; release 1.2.0 has no webhook; 000:250 only 200 listed.
    create: { operationId: "createInvoice", id: (a) => a.body.invoice_id },
    echo: (record, request) => {
      if (record.item_id !== request.item_id || record.customer_name !== request.customer_name) throw new Error("not echoed");
    },
    readBack: { operationId: "listInvoices", find: list("urls", "invoice_id") },
    resource: "invoice",
    initialStatus: "CREATED",
    moveTo: "SUCCESS",
    expiry: [
      { name: "after its expiry hours", body: (example) => ({ ...example, expiry: 2 }), seconds: 2 * 3600, to: "EXPIRED" },
      {
        name: "after the merchant's url_expiry when it gives none",
        setup: { operationId: "createMerchant", body: { name: "Shop", url_expiry: 5 } },
        body: ({ expiry: _, ...example }) => example,
        seconds: 5 * 3600,
        to: "EXPIRED",
      },
    ],
    error: { operationId: "createInvoice", status: 403 },
  },
  {
    alias: "payment-initiation@1.0.0",
    // 001:179 checkout, 001:197 fetched by id, 001:237 callback, 001:241 codes, 001:192/001:274 expiry.
    create: {
      operationId: "createCheckout",
      body: ({ expiry_date_time: _, ...example }) => example,
      id: (a) => a.body.transaction_id,
    },
    echo: (record, request) => {
      if (record.reference_id !== request.reference_id || record.user_memo !== request.memo) throw new Error("not echoed");
    },
    readBack: {
      operationId: "listTransactions",
      params: (id) => ({ query: { transaction_id: id } }),
      find: (answer, id) => (answer.status === 200 ? list("transactions", "transaction_id")(answer, id) : undefined),
    },
    resource: "transaction",
    initialStatus: "TransferStatus_INVOICE_CREATED",
    moveTo: "TransferStatus_COMPLETED",
    callback: {
      webhook: "transactionCompleted",
      register: "control",
      payload: (id) => ({ transaction_id: id, status_code: 2, status: "SUCCESS" }),
    },
    expiry: [
      {
        name: "24 hours after the checkout by default",
        seconds: 24 * 3600,
        to: "TransferStatus_EXPIRED",
        payload: (id) => ({ transaction_id: id, status_code: 11, status: "EXPIRED" }),
      },
      {
        name: "at its expiry_date_time",
        body: (example) => ({ ...example, expiry_date_time: { seconds: Math.floor(Date.now() / 1000) + 3600, nanos: 0 } }),
        seconds: 3600,
        to: "TransferStatus_EXPIRED",
        payload: (id) => ({ transaction_id: id, status_code: 11, status: "EXPIRED" }),
      },
    ],
    error: { operationId: "createCheckout", status: 500 },
  },
  {
    alias: "statement@1.0.0",
    // 001:210 init, 001:215 polled by statement_ids, 001:168 statuses, 001:254 status updates to the dashboard URL.
    create: { operationId: "initStatement", id: (a) => a.body.statement_id },
    echo: (record, request) => {
      if (record.external_id !== request.external_id) throw new Error("not echoed");
    },
    readBack: {
      operationId: "listStatements",
      params: (id) => ({ query: { statement_ids: id } }),
      find: (answer, id) =>
        answer.status === 200 && Array.isArray(answer.body) ? answer.body.find((r: Json) => r.statement_id === id) : undefined,
    },
    resource: "statement",
    initialStatus: "INITIATED",
    moveTo: "TFA_AWAIT",
    callback: { webhook: "statementStatusChanged", register: "control", payload: (id) => ({ statement_id: id, status: "TFA_AWAIT" }) },
    expiry: [],
    error: { operationId: "initStatement", status: 400 },
  },
  {
    alias: "balance@1.0.0",
    // 001:222 direct retrieval, 001:223 list; 001:257 events not shown; 001:267 404 the only error listed.
    create: { operationId: "retrieveBalance", id: (a) => a.body.request_id },
    echo: (record, request) => {
      if (record.bank_code !== request.bank_code) throw new Error("not echoed");
    },
    readBack: { operationId: "listBalances", find: list("balances", "request_id") },
    resource: "balanceRequest",
    initialStatus: "INITIATED",
    moveTo: "SUCCESS",
    expiry: [],
    error: { operationId: "retrieveBalance", status: 404 },
  },
  {
    alias: "disbursement@1.0.0",
    // Disbursement and Account Opening Interface: line 104 create, 108 list (41 masked numbers), 83
    // SUCCESS; 145 events not shown. The sandbox's test value sandbox_pending: a create answers the
    // non-final PENDING (line 83).
    create: {
      operationId: "createDisbursements",
      body: (example) => ({
        ...example,
        disbursements: example.disbursements.map((d: Json) => ({ ...d, description: "sandbox_pending" })),
      }),
      id: (a) => a.body.result[0].disbursement.disbursement_id,
    },
    echo: (record, request) => {
      const item = request.disbursements[0];
      const number: string = item.destination_account.number;
      if (record.reference_id !== item.reference_id) throw new Error("not echoed");
      if (record.destination_account.number !== `${"*".repeat(number.length - 4)}${number.slice(-4)}`) throw new Error("not masked");
    },
    readBack: {
      operationId: "listDisbursements",
      params: (id) => ({ query: { disbursement_ids: [id] } }),
      find: list("disbursements", "disbursement_id"),
    },
    resource: "disbursement",
    initialStatus: "PENDING",
    moveTo: "SUCCESS",
    expiry: [],
    error: { operationId: "createDisbursements", status: 500 },
  },
  {
    alias: "account-opening@1.0.0",
    // 002:134 open, 002:135 status inquiry by application_id, 002:90 PENDING; 002:145 events not shown.
    create: { operationId: "openAccount", id: (a) => a.body.application_id },
    echo: (record, request) => {
      if (record.reference_id !== request.reference_id) throw new Error("not echoed");
    },
    readBack: {
      operationId: "inquireApplicationStatus",
      body: (id) => ({ application_id: id }),
      find: (answer) => (answer.status === 200 ? answer.body : undefined),
    },
    resource: "application",
    initialStatus: "PENDING",
    moveTo: "CREATED",
    expiry: [],
    error: { operationId: "openAccount", status: 500 },
  },
];

/** The parsed bundle and the operation of an alias. */
export function api(alias: string): { doc: Doc; op: (operationId: string) => Operation } {
  const doc = loadDocument(findApi(alias).bundlePath);
  return {
    doc,
    op: (operationId) => {
      const found = findOperation(doc, operationId);
      if (found?.section !== "paths") throw new Error(`${alias}: no operation ${operationId}`);
      return found;
    },
  };
}

/** The first named example of an operation's JSON request body. */
export function exampleBody(doc: Doc, op: Operation): Json {
  return structuredClone(jsonRequest(doc, op)?.examples[0]?.value);
}

export interface Send {
  credential: string;
  path?: Record<string, string>;
  query?: Record<string, string | string[]>;
  body?: Json;
  headers?: Record<string, string>;
}

/** Calls an operation of `alias` on `base`: required parameters from the spec's examples unless given, the credential in the API's own header. */
export function send(
  base: string,
  alias: string,
  operationId: string,
  { credential, path = {}, query = {}, body, headers = {} }: Send,
): Promise<Answer> {
  const { doc, op } = api(alias);
  const operation = op(operationId);
  const params = requestParams(doc, operation);
  const filled = { path: { ...params.path, ...path }, query: {} as Record<string, unknown>, header: params.header };
  let url = requestUrl(operation, { ...filled, query: {} });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...params.query, ...query })) for (const v of [value].flat()) search.append(name, String(v));
  if (search.size > 0) url += `?${search}`;
  return call(base, operation.method.toUpperCase(), url, {
    body,
    headers: { ...credentialHeaders(doc, operation, { token: credential, apiKey: credential }), ...params.header, ...headers },
  });
}

/** A request body whose top-level times (`{seconds, nanos}`, as the examples give them, in the past) lie a day ahead. */
export function future(body: any): any {
  if (!body || typeof body !== "object") return body;
  const out = { ...body };
  for (const [key, value] of Object.entries(out))
    if (value && typeof value === "object" && "seconds" in value) out[key] = { seconds: Math.floor(Date.now() / 1000) + 86_400, nanos: 0 };
  return out;
}
