// Generated from the registry (redocly.yaml `apis:`) and each API's bundled spec by `npm run generate` (scripts/lib/field-tests.ts). Do not edit.
/**
 * Every operation of every API: a call that compiles, and the same call with one misspelt field, which
 * must not (the init's own field, a body field, a nested body field, a path and a query parameter, each
 * where the operation has one). Checked by `npm run typecheck`: a `@ts-expect-error` line that compiles fails it.
 */
import type { FetchOptions } from "openapi-fetch";
import type { PayV130Client, operations as PayV130Operations } from "../../generated/pay/1.3.0/client.js";
import type { PayV120Client, operations as PayV120Operations } from "../../generated/pay/1.2.0/client.js";
import type { PaymentInitiationV100Client, operations as PaymentInitiationV100Operations } from "../../generated/payment-initiation/1.0.0/client.js";
import type { StatementV100Client, operations as StatementV100Operations } from "../../generated/statement/1.0.0/client.js";
import type { BalanceV100Client, operations as BalanceV100Operations } from "../../generated/balance/1.0.0/client.js";
import type { DisbursementV100Client, operations as DisbursementV100Operations } from "../../generated/disbursement/1.0.0/client.js";
import type { AccountOpeningV100Client, operations as AccountOpeningV100Operations } from "../../generated/account-opening/1.0.0/client.js";

/** The JSON request body of an operation, as the client takes it. */
type JsonBody<O> = NonNullable<FetchOptions<O>["body"]>;

/* pay@1.3.0 */

/** createDepositAccount: POST /v1/deposit-account */
export async function PayV130_createDepositAccount(client: PayV130Client) {
  const body = {} as JsonBody<PayV130Operations["createDepositAccount"]>;
  await client.POST("/v1/deposit-account", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/deposit-account", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "bankcode" for "bank_code"
  await client.POST("/v1/deposit-account", { body: { ...body, bankcode: body.bank_code } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/** updateDepositAccount: PUT /v1/deposit-account/{account_id} */
export async function PayV130_updateDepositAccount(client: PayV130Client) {
  const path = {} as NonNullable<PayV130Operations["updateDepositAccount"]["parameters"]["path"]>;
  const body = {} as JsonBody<PayV130Operations["updateDepositAccount"]>;
  await client.PUT("/v1/deposit-account/{account_id}", { params: { path: { ...path } }, body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.PUT("/v1/deposit-account/{account_id}", { params: { path: { ...path } }, body: { ...body }, parms: {} });
  // @ts-expect-error: path parameter "accountid" for "account_id"
  await client.PUT("/v1/deposit-account/{account_id}", { params: { path: { ...path, accountid: path.account_id } }, body: { ...body } });
  // @ts-expect-error: body field "accountid" for "account_id"
  await client.PUT("/v1/deposit-account/{account_id}", { params: { path: { ...path } }, body: { ...body, accountid: body.account_id } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/** deleteDepositAccount: DELETE /v1/deposit-account/{account_id} */
export async function PayV130_deleteDepositAccount(client: PayV130Client) {
  const path = {} as NonNullable<PayV130Operations["deleteDepositAccount"]["parameters"]["path"]>;
  await client.DELETE("/v1/deposit-account/{account_id}", { params: { path: { ...path } } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.DELETE("/v1/deposit-account/{account_id}", { params: { path: { ...path } }, parms: {} });
  // @ts-expect-error: path parameter "accountid" for "account_id"
  await client.DELETE("/v1/deposit-account/{account_id}", { params: { path: { ...path, accountid: path.account_id } } });
}

/** listSupportedBanks: GET /v1/supported-banks */
export async function PayV130_listSupportedBanks(client: PayV130Client) {
  await client.GET("/v1/supported-banks", {});
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/supported-banks", { parms: {} });
}

/** getMerchant: GET /v1/merchant */
export async function PayV130_getMerchant(client: PayV130Client) {
  await client.GET("/v1/merchant", {});
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/merchant", { parms: {} });
}

/** createMerchant: POST /v1/merchant */
export async function PayV130_createMerchant(client: PayV130Client) {
  const body = {} as JsonBody<PayV130Operations["createMerchant"]>;
  await client.POST("/v1/merchant", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/merchant", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "Name" for "name"
  await client.POST("/v1/merchant", { body: { ...body, Name: body.name } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/** updateMerchant: PUT /v1/merchant/{merchant_id} */
export async function PayV130_updateMerchant(client: PayV130Client) {
  const path = {} as NonNullable<PayV130Operations["updateMerchant"]["parameters"]["path"]>;
  const body = {} as JsonBody<PayV130Operations["updateMerchant"]>;
  const nested = {} as NonNullable<JsonBody<PayV130Operations["updateMerchant"]>["merchant_fee"]>;
  await client.PUT("/v1/merchant/{merchant_id}", { params: { path: { ...path } }, body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.PUT("/v1/merchant/{merchant_id}", { params: { path: { ...path } }, body: { ...body }, parms: {} });
  // @ts-expect-error: path parameter "merchantid" for "merchant_id"
  await client.PUT("/v1/merchant/{merchant_id}", { params: { path: { ...path, merchantid: path.merchant_id } }, body: { ...body } });
  // @ts-expect-error: body field "urlexpiry" for "url_expiry"
  await client.PUT("/v1/merchant/{merchant_id}", { params: { path: { ...path } }, body: { ...body, urlexpiry: body.url_expiry } });
  await client.PUT("/v1/merchant/{merchant_id}", { params: { path: { ...path } }, body: { ...body, merchant_fee: { ...nested } } });
  // @ts-expect-error: nested field merchant_fee.feetype for fee_type
  await client.PUT("/v1/merchant/{merchant_id}", { params: { path: { ...path } }, body: { ...body, merchant_fee: { ...nested, feetype: nested.fee_type } } });
}

/** listTemplates: GET /v1/template */
export async function PayV130_listTemplates(client: PayV130Client) {
  await client.GET("/v1/template", {});
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/template", { parms: {} });
}

/** createTemplate: POST /v1/template */
export async function PayV130_createTemplate(client: PayV130Client) {
  const body = {} as JsonBody<PayV130Operations["createTemplate"]>;
  const nested = {} as NonNullable<JsonBody<PayV130Operations["createTemplate"]>["amount"]>;
  await client.POST("/v1/template", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/template", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "templatename" for "template_name"
  await client.POST("/v1/template", { body: { ...body, templatename: body.template_name } });
  await client.POST("/v1/template", { body: { ...body, amount: { ...nested } } });
  // @ts-expect-error: nested field amount.Cur for cur
  await client.POST("/v1/template", { body: { ...body, amount: { ...nested, Cur: nested.cur } } });
}

/** updateTemplate: PUT /v1/template/{template_id} */
export async function PayV130_updateTemplate(client: PayV130Client) {
  const path = {} as NonNullable<PayV130Operations["updateTemplate"]["parameters"]["path"]>;
  const body = {} as JsonBody<PayV130Operations["updateTemplate"]>;
  const nested = {} as NonNullable<JsonBody<PayV130Operations["updateTemplate"]>["amount"]>;
  await client.PUT("/v1/template/{template_id}", { params: { path: { ...path } }, body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.PUT("/v1/template/{template_id}", { params: { path: { ...path } }, body: { ...body }, parms: {} });
  // @ts-expect-error: path parameter "templateid" for "template_id"
  await client.PUT("/v1/template/{template_id}", { params: { path: { ...path, templateid: path.template_id } }, body: { ...body } });
  // @ts-expect-error: body field "templateid" for "template_id"
  await client.PUT("/v1/template/{template_id}", { params: { path: { ...path } }, body: { ...body, templateid: body.template_id } });
  await client.PUT("/v1/template/{template_id}", { params: { path: { ...path } }, body: { ...body, amount: { ...nested } } });
  // @ts-expect-error: nested field amount.Cur for cur
  await client.PUT("/v1/template/{template_id}", { params: { path: { ...path } }, body: { ...body, amount: { ...nested, Cur: nested.cur } } });
}

/** listInvoices: GET /v1/invoice */
export async function PayV130_listInvoices(client: PayV130Client) {
  await client.GET("/v1/invoice", {});
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/invoice", { parms: {} });
}

/** createInvoice: POST /v1/invoice */
export async function PayV130_createInvoice(client: PayV130Client) {
  const body = {} as JsonBody<PayV130Operations["createInvoice"]>;
  const nested = {} as NonNullable<JsonBody<PayV130Operations["createInvoice"]>["amount"]>;
  await client.POST("/v1/invoice", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/invoice", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "merchantid" for "merchant_id"
  await client.POST("/v1/invoice", { body: { ...body, merchantid: body.merchant_id } });
  await client.POST("/v1/invoice", { body: { ...body, amount: { ...nested } } });
  // @ts-expect-error: nested field amount.Cur for cur
  await client.POST("/v1/invoice", { body: { ...body, amount: { ...nested, Cur: nested.cur } } });
}

/** updateInvoiceStatus: PUT /v1/invoice/{invoice_id} */
export async function PayV130_updateInvoiceStatus(client: PayV130Client) {
  const path = {} as NonNullable<PayV130Operations["updateInvoiceStatus"]["parameters"]["path"]>;
  const body = {} as JsonBody<PayV130Operations["updateInvoiceStatus"]>;
  await client.PUT("/v1/invoice/{invoice_id}", { params: { path: { ...path } }, body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.PUT("/v1/invoice/{invoice_id}", { params: { path: { ...path } }, body: { ...body }, parms: {} });
  // @ts-expect-error: path parameter "invoiceid" for "invoice_id"
  await client.PUT("/v1/invoice/{invoice_id}", { params: { path: { ...path, invoiceid: path.invoice_id } }, body: { ...body } });
  // @ts-expect-error: body field "invoiceid" for "invoice_id"
  await client.PUT("/v1/invoice/{invoice_id}", { params: { path: { ...path } }, body: { ...body, invoiceid: body.invoice_id } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/** reportInvoice: PUT /v1/invoice/{invoice_id}/report */
export async function PayV130_reportInvoice(client: PayV130Client) {
  const path = {} as NonNullable<PayV130Operations["reportInvoice"]["parameters"]["path"]>;
  const body = {} as JsonBody<PayV130Operations["reportInvoice"]>;
  await client.PUT("/v1/invoice/{invoice_id}/report", { params: { path: { ...path } }, body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.PUT("/v1/invoice/{invoice_id}/report", { params: { path: { ...path } }, body: { ...body }, parms: {} });
  // @ts-expect-error: path parameter "invoiceid" for "invoice_id"
  await client.PUT("/v1/invoice/{invoice_id}/report", { params: { path: { ...path, invoiceid: path.invoice_id } }, body: { ...body } });
  // @ts-expect-error: body field "invoiceid" for "invoice_id"
  await client.PUT("/v1/invoice/{invoice_id}/report", { params: { path: { ...path } }, body: { ...body, invoiceid: body.invoice_id } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/** approveSignupRequest: PUT /v1/platform-merchant/approve */
export async function PayV130_approveSignupRequest(client: PayV130Client) {
  const body = {} as JsonBody<PayV130Operations["approveSignupRequest"]>;
  await client.PUT("/v1/platform-merchant/approve", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.PUT("/v1/platform-merchant/approve", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "requestid" for "request_id"
  await client.PUT("/v1/platform-merchant/approve", { body: { ...body, requestid: body.request_id } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/** denySignupRequest: PUT /v1/platform-merchant/deny */
export async function PayV130_denySignupRequest(client: PayV130Client) {
  const body = {} as JsonBody<PayV130Operations["denySignupRequest"]>;
  await client.PUT("/v1/platform-merchant/deny", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.PUT("/v1/platform-merchant/deny", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "requestid" for "request_id"
  await client.PUT("/v1/platform-merchant/deny", { body: { ...body, requestid: body.request_id } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/** listSignupRequests: GET /v1/platform-merchant/request */
export async function PayV130_listSignupRequests(client: PayV130Client) {
  await client.GET("/v1/platform-merchant/request", {});
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/platform-merchant/request", { parms: {} });
}

/** listSubMerchants: GET /v1/platform-merchant/sub-list */
export async function PayV130_listSubMerchants(client: PayV130Client) {
  await client.GET("/v1/platform-merchant/sub-list", {});
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/platform-merchant/sub-list", { parms: {} });
}

/** unlinkSubMerchant: PUT /v1/platform-merchant/unlink */
export async function PayV130_unlinkSubMerchant(client: PayV130Client) {
  const body = {} as JsonBody<PayV130Operations["unlinkSubMerchant"]>;
  await client.PUT("/v1/platform-merchant/unlink", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.PUT("/v1/platform-merchant/unlink", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "submerchantid" for "sub_merchant_id"
  await client.PUT("/v1/platform-merchant/unlink", { body: { ...body, submerchantid: body.sub_merchant_id } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/** createSubMerchantSignup: POST /v1/sub-merchant */
export async function PayV130_createSubMerchantSignup(client: PayV130Client) {
  const body = {} as JsonBody<PayV130Operations["createSubMerchantSignup"]>;
  await client.POST("/v1/sub-merchant", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/sub-merchant", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "platformmerchantid" for "platform_merchant_id"
  await client.POST("/v1/sub-merchant", { body: { ...body, platformmerchantid: body.platform_merchant_id } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/* pay@1.2.0 */

/** createDepositAccount: POST /v1/deposit-account */
export async function PayV120_createDepositAccount(client: PayV120Client) {
  const body = {} as JsonBody<PayV120Operations["createDepositAccount"]>;
  await client.POST("/v1/deposit-account", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/deposit-account", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "bankcode" for "bank_code"
  await client.POST("/v1/deposit-account", { body: { ...body, bankcode: body.bank_code } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/** updateDepositAccount: PUT /v1/deposit-account/{account_id} */
export async function PayV120_updateDepositAccount(client: PayV120Client) {
  const path = {} as NonNullable<PayV120Operations["updateDepositAccount"]["parameters"]["path"]>;
  const body = {} as JsonBody<PayV120Operations["updateDepositAccount"]>;
  await client.PUT("/v1/deposit-account/{account_id}", { params: { path: { ...path } }, body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.PUT("/v1/deposit-account/{account_id}", { params: { path: { ...path } }, body: { ...body }, parms: {} });
  // @ts-expect-error: path parameter "accountid" for "account_id"
  await client.PUT("/v1/deposit-account/{account_id}", { params: { path: { ...path, accountid: path.account_id } }, body: { ...body } });
  // @ts-expect-error: body field "accountid" for "account_id"
  await client.PUT("/v1/deposit-account/{account_id}", { params: { path: { ...path } }, body: { ...body, accountid: body.account_id } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/** listSupportedBanks: GET /v1/supported-banks */
export async function PayV120_listSupportedBanks(client: PayV120Client) {
  await client.GET("/v1/supported-banks", {});
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/supported-banks", { parms: {} });
}

/** getMerchant: GET /v1/merchant */
export async function PayV120_getMerchant(client: PayV120Client) {
  const query = {} as NonNullable<PayV120Operations["getMerchant"]["parameters"]["query"]>;
  await client.GET("/v1/merchant", { params: { query: { ...query } } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/merchant", { params: { query: { ...query } }, parms: {} });
  // @ts-expect-error: query parameter "merchantid" for "merchant_id"
  await client.GET("/v1/merchant", { params: { query: { ...query, merchantid: query.merchant_id } } });
}

/** createMerchant: POST /v1/merchant */
export async function PayV120_createMerchant(client: PayV120Client) {
  const body = {} as JsonBody<PayV120Operations["createMerchant"]>;
  await client.POST("/v1/merchant", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/merchant", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "Name" for "name"
  await client.POST("/v1/merchant", { body: { ...body, Name: body.name } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/** updateMerchant: PUT /v1/merchant/{merchant_id} */
export async function PayV120_updateMerchant(client: PayV120Client) {
  const path = {} as NonNullable<PayV120Operations["updateMerchant"]["parameters"]["path"]>;
  const body = {} as JsonBody<PayV120Operations["updateMerchant"]>;
  await client.PUT("/v1/merchant/{merchant_id}", { params: { path: { ...path } }, body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.PUT("/v1/merchant/{merchant_id}", { params: { path: { ...path } }, body: { ...body }, parms: {} });
  // @ts-expect-error: path parameter "merchantid" for "merchant_id"
  await client.PUT("/v1/merchant/{merchant_id}", { params: { path: { ...path, merchantid: path.merchant_id } }, body: { ...body } });
  // @ts-expect-error: body field "urlexpiry" for "url_expiry"
  await client.PUT("/v1/merchant/{merchant_id}", { params: { path: { ...path } }, body: { ...body, urlexpiry: body.url_expiry } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/** listInvoices: GET /v1/invoice */
export async function PayV120_listInvoices(client: PayV120Client) {
  const query = {} as NonNullable<PayV120Operations["listInvoices"]["parameters"]["query"]>;
  await client.GET("/v1/invoice", { params: { query: { ...query } } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/invoice", { params: { query: { ...query } }, parms: {} });
  // @ts-expect-error: query parameter "merchantid" for "merchant_id"
  await client.GET("/v1/invoice", { params: { query: { ...query, merchantid: query.merchant_id } } });
}

/** createInvoice: POST /v1/invoice */
export async function PayV120_createInvoice(client: PayV120Client) {
  const body = {} as JsonBody<PayV120Operations["createInvoice"]>;
  const nested = {} as NonNullable<JsonBody<PayV120Operations["createInvoice"]>["amount"]>;
  await client.POST("/v1/invoice", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/invoice", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "merchantid" for "merchant_id"
  await client.POST("/v1/invoice", { body: { ...body, merchantid: body.merchant_id } });
  await client.POST("/v1/invoice", { body: { ...body, amount: { ...nested } } });
  // @ts-expect-error: nested field amount.Cur for cur
  await client.POST("/v1/invoice", { body: { ...body, amount: { ...nested, Cur: nested.cur } } });
}

/* payment-initiation@1.0.0 */

/** createCheckout: POST /v1/checkout */
export async function PaymentInitiationV100_createCheckout(client: PaymentInitiationV100Client) {
  const body = {} as JsonBody<PaymentInitiationV100Operations["createCheckout"]>;
  const nested = {} as NonNullable<JsonBody<PaymentInitiationV100Operations["createCheckout"]>["customer"]>;
  await client.POST("/v1/checkout", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/checkout", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "Customer" for "customer"
  await client.POST("/v1/checkout", { body: { ...body, Customer: body.customer } });
  await client.POST("/v1/checkout", { body: { ...body, customer: { ...nested } } });
  // @ts-expect-error: nested field customer.Fname for fname
  await client.POST("/v1/checkout", { body: { ...body, customer: { ...nested, Fname: nested.fname } } });
}

/** listTransactions: GET /v1/transaction */
export async function PaymentInitiationV100_listTransactions(client: PaymentInitiationV100Client) {
  const query = {} as NonNullable<PaymentInitiationV100Operations["listTransactions"]["parameters"]["query"]>;
  await client.GET("/v1/transaction", { params: { query: { ...query } } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/transaction", { params: { query: { ...query } }, parms: {} });
  // @ts-expect-error: query parameter "transactionid" for "transaction_id"
  await client.GET("/v1/transaction", { params: { query: { ...query, transactionid: query.transaction_id } } });
}

/** listTransfers: GET /v1/transfer */
export async function PaymentInitiationV100_listTransfers(client: PaymentInitiationV100Client) {
  const query = {} as NonNullable<PaymentInitiationV100Operations["listTransfers"]["parameters"]["query"]>;
  await client.GET("/v1/transfer", { params: { query: { ...query } } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/transfer", { params: { query: { ...query } }, parms: {} });
  // @ts-expect-error: query parameter "transferid" for "transfer_id"
  await client.GET("/v1/transfer", { params: { query: { ...query, transferid: query.transfer_id } } });
}

/** submitTfaToken: POST /v1/tfa */
export async function PaymentInitiationV100_submitTfaToken(client: PaymentInitiationV100Client) {
  const body = {} as JsonBody<PaymentInitiationV100Operations["submitTfaToken"]>;
  const nested = {} as NonNullable<JsonBody<PaymentInitiationV100Operations["submitTfaToken"]>["multiple"]>[number];
  await client.POST("/v1/tfa", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/tfa", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "Purpose" for "purpose"
  await client.POST("/v1/tfa", { body: { ...body, Purpose: body.purpose } });
  await client.POST("/v1/tfa", { body: { ...body, multiple: [{ ...nested }] } });
  // @ts-expect-error: nested field multiple[].Type for type
  await client.POST("/v1/tfa", { body: { ...body, multiple: [{ ...nested, Type: nested.type }] } });
}

/* statement@1.0.0 */

/** initStatement: POST /v1/statement-init */
export async function StatementV100_initStatement(client: StatementV100Client) {
  const body = {} as JsonBody<StatementV100Operations["initStatement"]>;
  await client.POST("/v1/statement-init", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/statement-init", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "Country" for "country"
  await client.POST("/v1/statement-init", { body: { ...body, Country: body.country } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/** retrieveStatement: POST /v1/statement-retrieval */
export async function StatementV100_retrieveStatement(client: StatementV100Client) {
  const body = {} as JsonBody<StatementV100Operations["retrieveStatement"]>;
  const nested = {} as NonNullable<JsonBody<StatementV100Operations["retrieveStatement"]>["credential"]>;
  await client.POST("/v1/statement-retrieval", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/statement-retrieval", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "bankcode" for "bank_code"
  await client.POST("/v1/statement-retrieval", { body: { ...body, bankcode: body.bank_code } });
  await client.POST("/v1/statement-retrieval", { body: { ...body, credential: { ...nested } } });
  // @ts-expect-error: nested field credential.credentialtype for credential_type
  await client.POST("/v1/statement-retrieval", { body: { ...body, credential: { ...nested, credentialtype: nested.credential_type } } });
}

/** listStatements: GET /v1/statements */
export async function StatementV100_listStatements(client: StatementV100Client) {
  const query = {} as NonNullable<StatementV100Operations["listStatements"]["parameters"]["query"]>;
  await client.GET("/v1/statements", { params: { query: { ...query } } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/statements", { params: { query: { ...query } }, parms: {} });
  // @ts-expect-error: query parameter "statementids" for "statement_ids"
  await client.GET("/v1/statements", { params: { query: { ...query, statementids: query.statement_ids } } });
}

/** submitStatementTfa: POST /v1/tfa */
export async function StatementV100_submitStatementTfa(client: StatementV100Client) {
  const body = {} as JsonBody<StatementV100Operations["submitStatementTfa"]>;
  await client.POST("/v1/tfa", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/tfa", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "Purpose" for "purpose"
  await client.POST("/v1/tfa", { body: { ...body, Purpose: body.purpose } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/* balance@1.0.0 */

/** initBalance: POST /v1/balance-init */
export async function BalanceV100_initBalance(client: BalanceV100Client) {
  const body = {} as JsonBody<BalanceV100Operations["initBalance"]>;
  await client.POST("/v1/balance-init", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/balance-init", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "Country" for "country"
  await client.POST("/v1/balance-init", { body: { ...body, Country: body.country } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}

/** retrieveBalance: POST /v1/balance */
export async function BalanceV100_retrieveBalance(client: BalanceV100Client) {
  const body = {} as JsonBody<BalanceV100Operations["retrieveBalance"]>;
  const nested = {} as NonNullable<JsonBody<BalanceV100Operations["retrieveBalance"]>["credential"]>;
  await client.POST("/v1/balance", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/balance", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "bankcode" for "bank_code"
  await client.POST("/v1/balance", { body: { ...body, bankcode: body.bank_code } });
  await client.POST("/v1/balance", { body: { ...body, credential: { ...nested } } });
  // @ts-expect-error: nested field credential.credentialtype for credential_type
  await client.POST("/v1/balance", { body: { ...body, credential: { ...nested, credentialtype: nested.credential_type } } });
}

/** listBalances: GET /v1/get_balance */
export async function BalanceV100_listBalances(client: BalanceV100Client) {
  await client.GET("/v1/get_balance", {});
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/get_balance", { parms: {} });
}

/* disbursement@1.0.0 */

/** listDisbursements: GET /v1/disbursements */
export async function DisbursementV100_listDisbursements(client: DisbursementV100Client) {
  const query = {} as NonNullable<DisbursementV100Operations["listDisbursements"]["parameters"]["query"]>;
  await client.GET("/v1/disbursements", { params: { query: { ...query } } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/disbursements", { params: { query: { ...query } }, parms: {} });
  // @ts-expect-error: query parameter "disbursementrequestid" for "disbursement_request_id"
  await client.GET("/v1/disbursements", { params: { query: { ...query, disbursementrequestid: query.disbursement_request_id } } });
}

/** createDisbursements: POST /v1/disbursements */
export async function DisbursementV100_createDisbursements(client: DisbursementV100Client) {
  const body = {} as JsonBody<DisbursementV100Operations["createDisbursements"]>;
  const nested = {} as NonNullable<JsonBody<DisbursementV100Operations["createDisbursements"]>["disbursements"]>[number];
  await client.POST("/v1/disbursements", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/disbursements", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "Credentials" for "credentials"
  await client.POST("/v1/disbursements", { body: { ...body, Credentials: body.credentials } });
  await client.POST("/v1/disbursements", { body: { ...body, disbursements: [{ ...nested }] } });
  // @ts-expect-error: nested field disbursements[].corporateid for corporate_id
  await client.POST("/v1/disbursements", { body: { ...body, disbursements: [{ ...nested, corporateid: nested.corporate_id }] } });
}

/** refreshDisbursementStatuses: POST /v1/disbursements/external-status-updates */
export async function DisbursementV100_refreshDisbursementStatuses(client: DisbursementV100Client) {
  const body = {} as JsonBody<DisbursementV100Operations["refreshDisbursementStatuses"]>;
  const nested = {} as NonNullable<JsonBody<DisbursementV100Operations["refreshDisbursementStatuses"]>["credentials"]>;
  await client.POST("/v1/disbursements/external-status-updates", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/disbursements/external-status-updates", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "Credentials" for "credentials"
  await client.POST("/v1/disbursements/external-status-updates", { body: { ...body, Credentials: body.credentials } });
  await client.POST("/v1/disbursements/external-status-updates", { body: { ...body, credentials: { ...nested } } });
  // @ts-expect-error: nested field credentials.UBPCLIENT for UBP_CLIENT
  await client.POST("/v1/disbursements/external-status-updates", { body: { ...body, credentials: { ...nested, UBPCLIENT: nested.UBP_CLIENT } } });
}

/** inquireBankAccount: POST /v1/disbursements/account-inquiry */
export async function DisbursementV100_inquireBankAccount(client: DisbursementV100Client) {
  const body = {} as JsonBody<DisbursementV100Operations["inquireBankAccount"]>;
  const nested = {} as NonNullable<JsonBody<DisbursementV100Operations["inquireBankAccount"]>["bank_account"]>;
  await client.POST("/v1/disbursements/account-inquiry", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/disbursements/account-inquiry", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "bankaccount" for "bank_account"
  await client.POST("/v1/disbursements/account-inquiry", { body: { ...body, bankaccount: body.bank_account } });
  await client.POST("/v1/disbursements/account-inquiry", { body: { ...body, bank_account: { ...nested } } });
  // @ts-expect-error: nested field bank_account.Bank for bank
  await client.POST("/v1/disbursements/account-inquiry", { body: { ...body, bank_account: { ...nested, Bank: nested.bank } } });
}

/* account-opening@1.0.0 */

/** listBankProducts: GET /v1/product-list */
export async function AccountOpeningV100_listBankProducts(client: AccountOpeningV100Client) {
  await client.GET("/v1/product-list", {});
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.GET("/v1/product-list", { parms: {} });
}

/** openAccount: POST /v1/open-account */
export async function AccountOpeningV100_openAccount(client: AccountOpeningV100Client) {
  const body = {} as JsonBody<AccountOpeningV100Operations["openAccount"]>;
  const nested = {} as NonNullable<JsonBody<AccountOpeningV100Operations["openAccount"]>["user_detail"]>;
  await client.POST("/v1/open-account", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/open-account", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "referenceid" for "reference_id"
  await client.POST("/v1/open-account", { body: { ...body, referenceid: body.reference_id } });
  await client.POST("/v1/open-account", { body: { ...body, user_detail: { ...nested } } });
  // @ts-expect-error: nested field user_detail.username for user_name
  await client.POST("/v1/open-account", { body: { ...body, user_detail: { ...nested, username: nested.user_name } } });
}

/** inquireApplicationStatus: POST /v1/status-inquiry */
export async function AccountOpeningV100_inquireApplicationStatus(client: AccountOpeningV100Client) {
  const body = {} as JsonBody<AccountOpeningV100Operations["inquireApplicationStatus"]>;
  await client.POST("/v1/status-inquiry", { body: { ...body } });
  // @ts-expect-error: "parms" for "params" (the init's own fields are checked too)
  await client.POST("/v1/status-inquiry", { body: { ...body }, parms: {} });
  // @ts-expect-error: body field "applicationid" for "application_id"
  await client.POST("/v1/status-inquiry", { body: { ...body, applicationid: body.application_id } });
  // No member of the body is an object with listed members (closed): no nested field to misspell.
}
