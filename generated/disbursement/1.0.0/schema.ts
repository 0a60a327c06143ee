// Generated from specs/disbursement/1.0.0/openapi.yaml (disbursement@1.0.0) by `npm run generate` (scripts/generate.ts). Do not edit.
export interface paths {
    "/v1/disbursements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List disbursements
         * @description Returns disbursements, with or without filters: by disbursement id (`disbursement_ids`), by batch id (`disbursement_request_id`) and by creation-date range (`start_date.*` to `end_date.*`). Each carries the last status known to the service; destination account numbers are masked except their last digits.
         */
        get: operations["listDisbursements"];
        put?: never;
        /**
         * Create a disbursement order
         * @description Creates a disbursement order that moves funds from one corporate source bank account to one or more beneficiary accounts; a single order may hold several transfers from a single source. The body carries the client's bank credentials for the source bank (`credentials`). Each element of the answer's `result` holds the disbursement record and its result envelope: `success` or `error`. The status returned may be non-final; refresh it with `refreshDisbursementStatuses` (Philippine Union-bank family). Amounts are in minor units; `reference_id` is at most 40 characters and unique per merchant; the destination `address` is required in the Philippines.
         */
        post: operations["createDisbursements"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/disbursements/external-status-updates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refresh the status of disbursements (Philippine Union-bank family only)
         * @description Returns the latest status of a batch (`disbursement_request_id`: every disbursement of the batch) or of individual disbursements of one batch (`disbursement_ids`), for use when create returned a non-final status. **Only** for the Philippine market and for transactions whose `source_account.bank` is the corporate account of the Philippine Union-bank family (`UNIONBANK_CORPORATE`); the credentials are that family's two keys. The answer has the same envelope as create, with the most recent status; destination account numbers are masked except their last digits.
         */
        post: operations["refreshDisbursementStatuses"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/disbursements/account-inquiry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a beneficiary account (Indonesia only)
         * @description Looks up a beneficiary account before a disbursement and returns its holder name. **Only** for the Indonesian market and Indonesian destination banks. The endpoint is POST, although the source's request sample uses PUT. An invalid request gets an error body `{code, message}` (the source does not say with which status; it is declared on 400).
         */
        post: operations["inquireBankAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description Kind of disbursement: `ON_DEMAND` or `FUTURE`.
         * @enum {string}
         */
        DisbursementType: "ON_DEMAND" | "FUTURE";
        /**
         * @description Identifier of a source bank: the corporate account's bank. Values seen in the source: `BCA_CORPORATE` (Indonesian BCA family), `UNIONBANK_CORPORATE` (Philippine Union-bank family), `DUMMY_BANK_CORPORATE` (sandbox).
         * @example BCA_CORPORATE
         * @example UNIONBANK_CORPORATE
         * @example DUMMY_BANK_CORPORATE
         */
        SourceBank: string;
        /** @description The corporate source account the funds move from; every field is required. */
        SourceAccount: {
            /** @description Bank of the source account. */
            bank: components["schemas"]["SourceBank"];
            /** @description Account number of the source account. */
            number: string;
            /** @description Name of the holder of the source account. */
            holder_name: string;
        };
        /**
         * @description Identifier of a destination (beneficiary) bank. Values seen in the source: `DUMMY_DESTINATION_BANK` (sandbox), `ID_BCA` (Indonesia), `PH_UB` (the Philippines).
         * @example DUMMY_DESTINATION_BANK
         * @example ID_BCA
         * @example PH_UB
         */
        DestinationBank: string;
        /** @description Postal address of the beneficiary. Required in the Philippines, where interbank disbursement runs over two domestic rails. */
        Address: {
            /** @description First address line. */
            line1?: string;
            /** @description Second address line. */
            line2?: string;
            /** @description City. */
            city?: string;
            /** @description Province. */
            province?: string;
            /** @description Postal code. */
            zip_code?: string;
            /** @description Country. */
            country?: string;
        };
        /** @description The beneficiary account as echoed in a disbursement record. In list and status-refresh results the account number is masked except its last digits. The address appears when it was given. */
        DestinationAccountRecord: {
            /** @description Bank of the beneficiary account. */
            bank?: components["schemas"]["DestinationBank"];
            /** @description Account number of the beneficiary account: as given in a create result; masked except its last digits in list and status-refresh results. */
            number?: string;
            /** @description Name of the holder of the beneficiary account. */
            holder_name?: string;
            /** @description Address of the beneficiary, when it was given. */
            address?: components["schemas"]["Address"];
        };
        /** @description The source side of a disbursement amount. The source marks the object required, not its member. */
        SourceAmount: {
            /** @description Currency of the source account. */
            cur?: string;
        };
        /** @description The beneficiary amount as echoed in a disbursement record: minor units (cents) as a string of digits. One status-refresh payload of the source shows a decimal-point form of num, so a decimal form is accepted here too. Create, list and status refresh share this record schema, so the decimal form is accepted in all three, although the source shows it in status refresh only. */
        DestinationAmountRecord: {
            /** @description Amount, normally in minor units (an integer string); a decimal-point form appears in one status-refresh payload. */
            num?: string;
            /** @description Currency of the beneficiary account. */
            cur?: string;
        };
        /** @description One fee associated with a disbursement. */
        Fee: {
            /** @description Name of the fee. */
            name?: string;
            /** @description Amount of the fee. */
            amount?: string;
            /** @description Currency of the fee. */
            cur?: string;
        };
        /** @description Fees associated with a disbursement: an object whose entries are fees `{name, amount, cur}`; empty (`{}`) when there are none. */
        Fees: {
            [key: string]: components["schemas"]["Fee"];
        };
        /** @description External information about the disbursement from the bank. */
        ExternalInfo: {
            /** @description The bank's reference id of the transfer, or a link to a receipt. */
            reference_id?: string;
        };
        /**
         * @description Status of a disbursement. The values include `SUCCESS`. Creating a disbursement can return a non-final status; the status refresh (`POST /v1/disbursements/external-status-updates`) exists for that case. A listed disbursement carries the last status known to the service.
         * @example SUCCESS
         */
        DisbursementStatus: string;
        /**
         * Format: date-time
         * @description A point in time in GMT, as an ISO 8601 string (for example `2024-05-02T08:15:30Z`).
         */
        GmtTimestamp: string;
        /** @description A disbursement record, as returned by create, list and status refresh. The request fields are echoed; in list and status-refresh results the destination account number is masked except its last digits. */
        Disbursement: {
            /** @description Corporate id, as in the request. */
            corporate_id?: string;
            /** @description Merchant-generated id of the disbursement, as in the request. */
            reference_id?: string;
            /** @description Kind of disbursement, as in the request. */
            type?: components["schemas"]["DisbursementType"];
            /** @description The corporate source account, as in the request. */
            source_account?: components["schemas"]["SourceAccount"];
            /** @description The beneficiary account, as in the request; its number masked in list and status-refresh results. */
            destination_account?: components["schemas"]["DestinationAccountRecord"];
            /** @description The source side of the amount, as in the request. */
            source_amount?: components["schemas"]["SourceAmount"];
            /** @description The amount the beneficiary receives, as in the request. */
            destination_amount?: components["schemas"]["DestinationAmountRecord"];
            /** @description Merchant description, as in the request. */
            description?: string;
            /** @description Associated fees; empty when none. */
            fees?: components["schemas"]["Fees"];
            /** @description Unique id of the disbursement within its batch. */
            disbursement_id?: string;
            /** @description External information from the bank. */
            external?: components["schemas"]["ExternalInfo"];
            /** @description Disbursement status. */
            status?: components["schemas"]["DisbursementStatus"];
            /** @description Creation time, GMT, ISO 8601. */
            created?: components["schemas"]["GmtTimestamp"];
            /** @description Last update time, GMT. */
            updated?: string;
            /** @description Time the disbursement was sent to the bank, GMT. */
            processed?: string;
            /** @description Unique id of the batch (the disbursement order). */
            batch_id?: string;
        };
        /** @description Disbursements matching the filters, each with the last status known to the service. */
        ListDisbursementsResponse: {
            /** @description The disbursements. */
            disbursements?: components["schemas"]["Disbursement"][];
            /** @description Number of disbursements retrieved by the request. */
            total_record?: number | string;
        };
        /** @description One bank credential, the value of an entry of the `credentials` map. What `identifier`, `secret` and `corporate_id` hold depends on the credential key (see Credentials). The values are secrets the client obtains from its bank; never log them. */
        CredentialEntry: {
            /** @description Identifier part of the credential: a client id, an account id or an API key, depending on the key. */
            identifier?: string;
            /** @description Secret part of the credential: a client secret, an account password or an API secret, depending on the key. */
            secret?: string;
            /** @description Corporate or partner id, for the keys that carry one (UBP_PARTNER_ACCOUNT: the partner id; BCA_API). Required in the Philippine Union-bank family's partner entry; for status refresh the source also requires it for the BNI and Permata families. */
            corporate_id?: string;
        };
        /**
         * @description The client's bank credentials: a map from credential key name to a credential entry
         *     `{identifier, secret, corporate_id}`. The keys to send depend on the bank of the source account:
         *
         *     | Bank family | Keys and fields |
         *     |---|---|
         *     | Philippine Union-bank family (`UNIONBANK_CORPORATE`) | `UBP_CLIENT` {identifier: client id, secret: client secret}; `UBP_PARTNER_ACCOUNT` {identifier: account id, secret: account password, corporate_id: partner id} |
         *     | Indonesian BCA family (`BCA_CORPORATE`) | `BCA_CLIENT` {identifier, secret}; `BCA_API` {identifier: API key, secret: API secret, corporate_id} |
         *     | Indonesian BNI family | `BNI_CLIENT` {identifier, secret} |
         *     | Indonesian Permata family | `PERMATA_CLIENT` {identifier, secret}; `PERMATA_API` {identifier, secret} |
         *
         *     **Naming inconsistency of the source.** Its parameter table names the keys in a pair form
         *     CLIENT/PARTNER per bank (for example `UBP_CLIENT`/`UBP_PARTNER`), while its credential sample
         *     uses `UBP_PARTNER_ACCOUNT`. Both `UBP_PARTNER_ACCOUNT` and `UBP_PARTNER` are accepted here.
         *
         *     **corporate_id.** Required inside the Philippine family's partner entry (`UBP_PARTNER_ACCOUNT`,
         *     or `UBP_PARTNER` in the pair form). For status refresh the source also requires it for the BNI
         *     and Permata families (see StatusRefreshCredentials).
         *
         *     The sandbox uses test client and test partner keys whose names carry the provider's brand; the
         *     source omits those names, so any other key is accepted with a credential entry as its value.
         *     Which keys are required for a given source bank is not enforced by this schema (it depends on
         *     `source_account.bank` of the disbursements).
         */
        Credentials: {
            /** @description Philippine Union-bank family: identifier is the client id, secret the client secret. */
            UBP_CLIENT?: components["schemas"]["CredentialEntry"];
            /** @description Philippine Union-bank family partner account (the name used by the source's credential sample): identifier is the account id, secret the account password, corporate_id the partner id (required). */
            UBP_PARTNER_ACCOUNT?: WithRequired<components["schemas"]["CredentialEntry"], "corporate_id">;
            /** @description The pair-form name of the Philippine partner credential, as the source's parameter table writes it (UBP_CLIENT/UBP_PARTNER); same fields as UBP_PARTNER_ACCOUNT, corporate_id required. */
            UBP_PARTNER?: WithRequired<components["schemas"]["CredentialEntry"], "corporate_id">;
            /** @description Indonesian BCA family client credential: identifier and secret. */
            BCA_CLIENT?: components["schemas"]["CredentialEntry"];
            /** @description Indonesian BCA family API credential: identifier is the API key, secret the API secret, and corporate_id. */
            BCA_API?: components["schemas"]["CredentialEntry"];
            /** @description Indonesian BNI family client credential: identifier and secret (corporate_id too for status refresh). */
            BNI_CLIENT?: components["schemas"]["CredentialEntry"];
            /** @description Indonesian Permata family client credential: identifier and secret (corporate_id too for status refresh). */
            PERMATA_CLIENT?: components["schemas"]["CredentialEntry"];
            /** @description Indonesian Permata family API credential: identifier and secret (corporate_id too for status refresh). */
            PERMATA_API?: components["schemas"]["CredentialEntry"];
        } & {
            [key: string]: components["schemas"]["CredentialEntry"];
        };
        /**
         * @description The beneficiary account of a disbursement request. bank, number and holder_name are required.
         *
         *     `address` is required in the Philippines, where interbank disbursement runs over two domestic
         *     rails. The source does not say how a disbursement is known to be in the Philippines, so this
         *     schema states the rule and does not enforce it: send `address` for a Philippine disbursement.
         */
        DestinationAccount: {
            /** @description Bank of the beneficiary account. */
            bank: components["schemas"]["DestinationBank"];
            /** @description Account number of the beneficiary account. */
            number: string;
            /** @description Name of the holder of the beneficiary account. */
            holder_name: string;
            /** @description Address of the beneficiary; required in the Philippines. */
            address?: components["schemas"]["Address"];
        };
        /** @description The amount a beneficiary receives, in minor units (cents): `{num: "10000", cur: "PHP"}` is 100.00 PHP. The source marks the object required, not its members. */
        DestinationAmount: {
            /** @description Amount in minor units (cents), as a string of digits. */
            num?: string;
            /** @description Currency of the beneficiary account. */
            cur?: string;
        };
        /** @description One transfer of a disbursement order (an element of `disbursements`). */
        DisbursementItem: {
            /** @description Corporate id. For one bank family it is the merchant name, defined by the merchant; for the other bank families it is the unique organisation id given by the bank. */
            corporate_id: string;
            /** @description Merchant-generated id of the disbursement, at most 40 characters and unique per merchant. */
            reference_id: string;
            /** @description Kind of disbursement. */
            type: components["schemas"]["DisbursementType"];
            /** @description The corporate source account. */
            source_account: components["schemas"]["SourceAccount"];
            /** @description The source side of the amount (its currency). */
            source_amount: components["schemas"]["SourceAmount"];
            /** @description The beneficiary account; its address is required in the Philippines. */
            destination_account: components["schemas"]["DestinationAccount"];
            /** @description Merchant description of the disbursement. */
            description?: string;
            /** @description The amount the beneficiary receives, in minor units, and its currency. */
            destination_amount: components["schemas"]["DestinationAmount"];
        };
        /** @description A disbursement order: the bank credentials of the source bank and one or more transfers, all from a single source account (a rule this schema documents but cannot check: JSON Schema has no "all items equal" on a member). */
        CreateDisbursementsRequest: {
            /** @description The client's bank credentials; the keys depend on the source bank. */
            credentials: components["schemas"]["Credentials"];
            /** @description The transfers of the order; several may be given, all from the same source account. */
            disbursements: components["schemas"]["DisbursementItem"][];
        };
        /** @description The success form of an item result: `success` (true), optionally with a message. */
        ItemSuccess: {
            /** @description Success flag; the source shows it true in the success form. */
            success: boolean;
            /** @description Optional message. */
            message?: string;
        };
        /** @description One error of a disbursement item. */
        ErrorDetail: {
            /** @description Error code. */
            code: string;
            /** @description Error message. */
            message: string;
        };
        /** @description The error form of an item result: `error` lists the errors as `{code, message}`. */
        ItemFailure: {
            /** @description The errors of the item. */
            error: components["schemas"]["ErrorDetail"][];
        };
        /** @description The result envelope of one disbursement: either the success form (`success`, true, optionally with a `message`) or the error form (`error`, an array of `{code, message}`). Tell them apart with `"error" in result`. */
        ItemResult: components["schemas"]["ItemSuccess"] | components["schemas"]["ItemFailure"];
        /** @description One element of a `result` array: a disbursement record and its result envelope. */
        DisbursementOutcome: {
            /** @description The disbursement record. */
            disbursement?: components["schemas"]["Disbursement"];
            /** @description Success or errors of this disbursement. */
            result?: components["schemas"]["ItemResult"];
        };
        /** @description The created disbursements, each with its result envelope. */
        CreateDisbursementsResponse: {
            /** @description One element per disbursement of the order; the destination address appears in the record when it was given. */
            result?: components["schemas"]["DisbursementOutcome"][];
        };
        /**
         * @description The bank credentials of a status refresh. Status refresh applies to disbursements whose source
         *     bank is the corporate account of the Philippine Union-bank family, and the source says that only
         *     the two Philippine family keys apply: `UBP_CLIENT` and `UBP_PARTNER_ACCOUNT` (`UBP_PARTNER` in
         *     the pair form of the source's parameter table), whose corporate_id is required. Other keys are
         *     not accepted, and at least one entry must be sent.
         *
         *     The source also says that for status refresh corporate_id is required for the BNI and Permata
         *     families. That contradicts the operation applying to the Philippine family only; it is encoded
         *     as stated: a `BNI_CLIENT`, `PERMATA_CLIENT` or `PERMATA_API` entry is accepted and must carry a
         *     corporate_id.
         */
        StatusRefreshCredentials: {
            /** @description Philippine Union-bank family: identifier is the client id, secret the client secret. */
            UBP_CLIENT?: components["schemas"]["CredentialEntry"];
            /** @description Philippine Union-bank family partner account (the name used by the source's credential sample): identifier is the account id, secret the account password, corporate_id the partner id (required). */
            UBP_PARTNER_ACCOUNT?: WithRequired<components["schemas"]["CredentialEntry"], "corporate_id">;
            /** @description The pair-form name of the Philippine partner credential, as the source's parameter table writes it (UBP_CLIENT/UBP_PARTNER); same fields as UBP_PARTNER_ACCOUNT, corporate_id required. */
            UBP_PARTNER?: WithRequired<components["schemas"]["CredentialEntry"], "corporate_id">;
            /** @description Indonesian BNI family client credential; on status refresh corporate_id is required. */
            BNI_CLIENT?: WithRequired<components["schemas"]["CredentialEntry"], "corporate_id">;
            /** @description Indonesian Permata family client credential; on status refresh corporate_id is required. */
            PERMATA_CLIENT?: WithRequired<components["schemas"]["CredentialEntry"], "corporate_id">;
            /** @description Indonesian Permata family API credential; on status refresh corporate_id is required. */
            PERMATA_API?: WithRequired<components["schemas"]["CredentialEntry"], "corporate_id">;
        };
        /** @description Which disbursements to refresh: a whole batch (`disbursement_request_id`) and/or individual disbursements of one batch (`disbursement_ids`). The two parameters act independently. */
        RefreshDisbursementStatusesRequest: {
            /** @description The bank credentials of the source bank; only the two Philippine family keys apply. */
            credentials: components["schemas"]["StatusRefreshCredentials"];
            /** @description Id of a batch; every disbursement of the batch is returned. Acts independently of disbursement_ids. */
            disbursement_request_id?: string;
            /** @description Ids of disbursements within one batch. The source's parameter table names this parameter `disbursement_id`; its body uses `disbursement_ids`. */
            disbursement_ids?: string[];
        };
        /** @description The same envelope as create, with the most recent status of each disbursement. */
        RefreshDisbursementStatusesResponse: {
            /** @description One element per disbursement; the destination account number is masked except its last digits. */
            result?: components["schemas"]["DisbursementOutcome"][];
        };
        /** @description A beneficiary bank account for an account inquiry. The request gives bank and number; the response adds the holder name. */
        BankAccount: {
            /** @description Bank of the account (an Indonesian destination bank). */
            bank?: components["schemas"]["DestinationBank"];
            /** @description Account number. */
            number?: string;
            /** @description Name of the account holder; response only. */
            readonly holder_name?: string;
        };
        /** @description The beneficiary account to check. */
        InquireBankAccountRequest: {
            /** @description The account to check: bank and number. */
            bank_account?: components["schemas"]["BankAccount"];
        };
        /** @description Outcome of an account inquiry. */
        InquiryResult: {
            /** @description Whether the inquiry succeeded. */
            success?: boolean;
        };
        /** @description The outcome of the inquiry and the account with its holder name. */
        InquireBankAccountResponse: {
            /** @description Outcome of the inquiry. */
            result?: components["schemas"]["InquiryResult"];
            /** @description The account, with its holder name. */
            bank_account?: components["schemas"]["BankAccount"];
        };
        /** @description Error body of an invalid account-inquiry request. */
        AccountInquiryError: {
            /** @description Error code. */
            code?: string;
            /** @description Error message. */
            message?: string;
        };
    };
    responses: {
        /** @description The body is malformed or does not match the expected request. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The request lacks the user's credentials (`x-api-key: <API_KEY>`). */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The user lacks permission for the request. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The resource was not found. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description Unexpected server-side error. */
        InternalServerError: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The account-inquiry request is invalid; the body is an error object `{code, message}`. */
        AccountInquiryBadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AccountInquiryError"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listDisbursements: {
        parameters: {
            query?: {
                /**
                 * @description Unique id of the batch.
                 * @example batch_EXAMPLE_0001
                 */
                disbursement_request_id?: string;
                /**
                 * @description Ids of disbursements within a batch.
                 * @example [
                 *       "dsb_EXAMPLE_0001",
                 *       "dsb_EXAMPLE_0002"
                 *     ]
                 */
                disbursement_ids?: string[];
                /**
                 * @description Year of the start of the creation-date range.
                 * @example 2024
                 */
                "start_date.year"?: number;
                /**
                 * @description Month (1-12) of the start of the creation-date range.
                 * @example 5
                 */
                "start_date.month"?: number;
                /**
                 * @description Day of the month (1-31) of the start of the creation-date range.
                 * @example 1
                 */
                "start_date.day"?: number;
                /**
                 * @description Year of the end of the creation-date range.
                 * @example 2024
                 */
                "end_date.year"?: number;
                /**
                 * @description Month (1-12) of the end of the creation-date range.
                 * @example 5
                 */
                "end_date.month"?: number;
                /**
                 * @description Day of the month (1-31) of the end of the creation-date range.
                 * @example 31
                 */
                "end_date.day"?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The disbursements. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListDisbursementsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    createDisbursements: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDisbursementsRequest"];
            };
        };
        responses: {
            /** @description The order was accepted; each disbursement carries its own success or errors. No link leads to `refreshDisbursementStatuses`: it takes the Philippine Union-bank family's own credentials (StatusRefreshCredentials), which a create made with other keys (the sandbox's among them) does not carry, and a link's request body is one value, not credentials and ids put together. Refresh with those credentials and the batch id (`result[].disbursement.batch_id`) or the ids. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateDisbursementsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    refreshDisbursementStatuses: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefreshDisbursementStatusesRequest"];
            };
        };
        responses: {
            /** @description The disbursements with their most recent status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefreshDisbursementStatusesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    inquireBankAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InquireBankAccountRequest"];
            };
        };
        responses: {
            /** @description The inquiry outcome and the account with its holder name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InquireBankAccountResponse"];
                };
            };
            400: components["responses"]["AccountInquiryBadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
}
type WithRequired<T, K extends keyof T> = T & {
    [P in K]-?: T[P];
};
