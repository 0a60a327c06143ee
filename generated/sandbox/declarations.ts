// Generated from the sandbox declarations (specs/*/*/sandbox.yaml) by `npm run generate` (scripts/generate.ts). Do not edit.

/** Each API's sandbox resources, by alias: the statuses its lifecycle names and its actions. */
export interface SandboxDeclarations {
  "pay@1.3.0": {
    merchant: { statuses: never; actions: never };
    depositAccount: { statuses: never; actions: never };
    template: { statuses: never; actions: never };
    invoice: { statuses: "Created" | "Expired" | "Failed" | "Flagged" | "Success"; actions: "expire" | "fail" | "flag" | "pay" | "reopen" };
    signupRequest: { statuses: "APPROVED" | "DENIED" | "PENDING" | "UNLINKED"; actions: "approve" | "deny" | "unlink" };
  };
  "pay@1.2.0": {
    merchant: { statuses: never; actions: never };
    depositAccount: { statuses: never; actions: never };
    invoice: { statuses: "CREATED" | "EXPIRED" | "FAILED" | "SUCCESS"; actions: "expire" | "fail" | "pay" };
  };
  "payment-initiation@1.0.0": {
    transaction: { statuses: "TransferStatus_AWAITING_ACCOUNT_SELECT" | "TransferStatus_AWAITING_LOGIN" | "TransferStatus_AWAITING_LOGIN_TFA" | "TransferStatus_AWAITING_TRANSFER_TFA" | "TransferStatus_CANCELLED" | "TransferStatus_COMPLETED" | "TransferStatus_CREATED" | "TransferStatus_DENIED" | "TransferStatus_ERROR" | "TransferStatus_EXPIRED" | "TransferStatus_FAILED" | "TransferStatus_FLAGGED" | "TransferStatus_INVOICE_CREATED" | "TransferStatus_IN_PROGRESS" | "TransferStatus_LOGIN_ERROR" | "TransferStatus_TFA_AWAIT"; actions: "await_account_select" | "await_login" | "await_login_tfa" | "await_tfa" | "await_transfer_tfa" | "cancel" | "complete" | "deny" | "error" | "expire" | "fail" | "flag" | "login_error" | "settle" | "start" | "submit_tfa" };
  };
  "statement@1.0.0": {
    statement: { statuses: "COMPLETED" | "INITIATED" | "LOGIN" | "LOGIN_ERROR" | "PENDING" | "RECEIVED" | "RECORDS_AVAILABLE" | "TFA_AWAIT"; actions: "await_tfa" | "complete" | "complete_direct" | "connect" | "login" | "login_error" | "receive" | "records_available" };
  };
  "balance@1.0.0": {
    balanceRequest: { statuses: "AUTH_FAILED" | "AUTH_IN_PROGRESS" | "AWAITING_TFA" | "CANCELLED" | "CONSENT_GRANTED" | "FAILED" | "INACTIVATED" | "INITIATED" | "PURGED" | "RETRIEVAL_IN_PROGRESS" | "SUCCESS" | "TFA_IN_PROGRESS"; actions: "auth_fail" | "authenticate" | "await_tfa" | "cancel" | "consent" | "fail" | "inactivate" | "purge" | "retrieve" | "submit_tfa" | "succeed" };
    balanceSession: { statuses: never; actions: never };
  };
  "disbursement@1.0.0": {
    disbursement: { statuses: "FAILED" | "PENDING" | "SUCCESS"; actions: "complete" | "fail" };
  };
  "account-opening@1.0.0": {
    application: { statuses: "CREATED" | "PENDING" | "PROCESSING" | "REJECTED" | "SENT"; actions: "approve" | "process" | "reject" | "send" };
  };
}
