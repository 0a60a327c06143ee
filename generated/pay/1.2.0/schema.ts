// Generated from specs/pay/1.2.0/openapi.yaml (pay@1.2.0) by `npm run generate` (scripts/generate.ts). Do not edit.
export interface paths {
    "/v1/deposit-account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register a destination account
         * @description Registers a bank account that receives the merchant's funds. With `set_default: true` it becomes the merchant's default destination account. `biller_id` is optional and for Thailand only. The holder name fields carry the `account_` prefix of the release 1.2.0 request sample; the field table spells the first and middle name `account_number_first_name` and `account_number_middle_name` (recorded on each field as `x-field-table-name`).
         */
        post: operations["createDepositAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/deposit-account/{account_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Destination account id.
                 * @example acc_01HZX3K9Q
                 */
                account_id: string;
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Update a destination account
         * @description Replaces the details of a destination account. The body carries the create fields (with the `account_` holder name prefix of the request sample) and the account id. Release 1.2.0 lists only the status 200 for this call (401 and 403 come from the Authentication section).
         */
        put: operations["updateDepositAccount"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/supported-banks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List supported banks
         * @description Lists the banks that can hold a destination account, as `banks`: a map from bank code to bank name. The release 1.2.0 sample of this call shows only `Content-Type: application/json`, without the `Authorization` header; every request carries the bearer token all the same.
         */
        get: operations["listSupportedBanks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchant": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a merchant
         * @description Returns a merchant's profile with its destination accounts (`destination_accounts`, a map from account id to account) and the amounts it earned. `url_expiry` comes as an integer or as a string: release 1.2.0 types it both ways. The release 1.2.0 sample of this call shows only `Content-Type: application/json`, without the `Authorization` header; every request carries the bearer token all the same.
         */
        get: operations["getMerchant"];
        put?: never;
        /**
         * Register a merchant
         * @description Registers the merchant's business information. Release 1.2.0 does not show the body of the response.
         */
        post: operations["createMerchant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/merchant/{merchant_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Merchant id.
                 * @example mer_01HZX2M7T
                 */
                merchant_id: string;
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Update a merchant
         * @description Updates the merchant's default invoice expiry, name, e-mail address and mobile contact. The release 1.2.0 field table of this request has no `mobile_number`, but its request sample carries one; it is accepted. Release 1.2.0 lists only the status 200 for this call (401 and 403 come from the Authentication section).
         */
        put: operations["updateMerchant"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List invoices
         * @description Lists the merchant's invoices for the period from `start` to `end` with their payment status, to reconcile payments; at most `limit` of them. When the limit was reached, `next` names the invoice id of the next batch. An invoice's `amount` comes as a PayAmount object or as a bare string, and its `status` as one of the listed PayPaymentStatus values or as `Created`: release 1.2.0 sends both forms. The release 1.2.0 sample of this call shows only `Content-Type: application/json`, without the `Authorization` header; every request carries the bearer token all the same.
         */
        get: operations["listInvoices"];
        put?: never;
        /**
         * Create an invoice
         * @description Creates an invoice and returns its single-use payment URL, which the end user opens to pay. The method is POST: one release 1.2.0 sample of this call uses PUT, but its request line says POST, and POST applies.
         */
        post: operations["createInvoice"];
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
        /** @description Fields of a destination bank account, as sent to create or update it (release 1.2.0). The field table names the holder's first and middle name fields with an `account_number_` prefix (`account_number_first_name`, `account_number_middle_name`); the request sample uses the `account_` prefix, which is used here. Each such field records the table's spelling in `x-field-table-name`. */
        DepositAccountFields: {
            /** @description Bank code (see `listSupportedBanks`). */
            bank_code?: number;
            /** @description Account number. */
            account_number?: string;
            /** @description Account holder first name. The release 1.2.0 field table spells it `account_number_first_name`; the request sample sends `account_first_name`. */
            account_first_name?: string;
            /** @description Account holder middle name. The release 1.2.0 field table spells it `account_number_middle_name`; the request sample sends `account_middle_name`. */
            account_middle_name?: string;
            /** @description Account holder last name. */
            account_last_name?: string;
            /** @description `true` makes this account the merchant's default destination account. */
            set_default?: boolean;
            /** @description Biller id; Thailand only, optional. */
            biller_id?: string;
        };
        /** @description Request to register a destination bank account (release 1.2.0). */
        CreateDepositAccountRequest: components["schemas"]["DepositAccountFields"];
        /** @description The registered destination account. */
        CreateDepositAccountResponse: {
            /** @description Id of the new destination account. */
            account_id?: string;
        };
        /** @description Request to update a destination bank account; the create fields plus the account id (release 1.2.0). */
        UpdateDepositAccountRequest: {
            /** @description Id of the account to update (the same as the path parameter). */
            account_id?: string;
        } & components["schemas"]["DepositAccountFields"];
        /** @description The banks that can hold a destination account (release 1.2.0). */
        SupportedBanks: {
            /** @description Map from bank code (an integer, written as a JSON object key) to bank name. */
            banks?: {
                [key: string]: string;
            };
        };
        /**
         * @description A destination bank account of the merchant (release 1.2.0).
         * @example {
         *       "id": "acc_01HZX3K9Q",
         *       "bank": "Example Bank",
         *       "account_number": "0001234567",
         *       "first_name": "Siti",
         *       "last_name": "Rahma"
         *     }
         */
        PayAccount: {
            /** @description Account id. */
            id?: string;
            /** @description Bank type (the destination bank). */
            bank?: string;
            /** @description Account number. */
            account_number?: string;
            /** @description Biller id; Thailand only, optional. */
            biller_id?: string;
            /** @description Account holder first name. */
            first_name?: string;
            /** @description Account holder last name. */
            last_name?: string;
        };
        /**
         * @description A money amount as a currency code and a value, both strings (release 1.2.0 name of Amount).
         * @example {
         *       "cur": "IDR",
         *       "amt": "150000"
         *     }
         */
        PayAmount: {
            /** @description Currency code. */
            cur?: string;
            /** @description Amount value, as a string. */
            amt?: string;
        };
        /** @description Amounts earned by the merchant, one entry per currency (release 1.2.0 name of ValueSummary). */
        PayValueSummary: {
            /** @description Amounts earned in the current year to date. */
            year?: components["schemas"]["PayAmount"][];
            /** @description Amounts earned in the previous year. */
            prev_year?: components["schemas"]["PayAmount"][];
            /** @description Amounts earned in the current month to date. */
            month?: components["schemas"]["PayAmount"][];
        };
        /** @description The merchant's profile (the "Merchant response" of `GET /v1/merchant` in release 1.2.0). */
        Merchant: {
            /** @description Business name. */
            business_name?: string;
            /** @description Count of active URLs; currently unused (release 1.3.0 deprecates it). */
            active_url_count?: number;
            /**
             * @deprecated
             * @description Deprecated list of destination accounts; the source names no replacement.
             */
            accounts?: components["schemas"]["PayAccount"][];
            /** @description Amounts earned (current year to date, previous year, current month to date). */
            summary?: components["schemas"]["PayValueSummary"];
            /** @description Merchant id. */
            merchant_id?: string;
            /** @description Id of the default destination account, used for fund transfers unless overridden. */
            default_account_id?: string;
            /** @description Destination accounts keyed by account id. */
            destination_accounts?: {
                [key: string]: components["schemas"]["PayAccount"];
            };
            /** @description Merchant country. */
            country?: string;
            /** @description Business e-mail address. */
            business_email?: string;
            /** @description Mobile country code. */
            mobile_country_code?: string;
            /** @description Mobile number. */
            mobile_number?: string;
            /** @description Default invoice expiry, in hours. Release 1.2.0 types it inconsistently, as a string or as an integer: both forms are accepted. */
            url_expiry?: number | string;
        };
        /** @description Request to register a merchant (release 1.2.0). */
        CreateMerchantRequest: {
            /** @description Business name. */
            name?: string;
            /** @description Address, first line. */
            address_line1?: string;
            /** @description Address, second line. */
            address_line2?: string;
            /** @description City. */
            city?: string;
            /** @description State or province. */
            state_province?: string;
            /** @description Country. */
            country?: string;
            /** @description E-mail address. */
            email_address?: string;
            /** @description Mobile country code. */
            mobile_country_code?: string;
            /** @description Mobile number. */
            mobile_number?: string;
            /** @description Default invoice expiry, in hours. */
            url_expiry?: number;
        };
        /** @description Request to update a merchant (release 1.2.0). The field table lists url_expiry, merchant_id, name, email and mobile_country_code; the request sample also carries `mobile_number`, which is accepted. */
        UpdateMerchantRequest: {
            /** @description Default invoice expiry, in hours. */
            url_expiry?: number;
            /** @description Id of the merchant to update (the same as the path parameter). */
            merchant_id?: string;
            /** @description Business name. */
            name?: string;
            /** @description E-mail address. */
            email?: string;
            /** @description Mobile country code. */
            mobile_country_code?: string;
            /** @description Mobile number. Not in the release 1.2.0 field table of this request, but carried by its request sample, so accepted. */
            mobile_number?: string;
        };
        /**
         * Format: date-time
         * @description A point in time as an ISO 8601 string in UTC with milliseconds, e.g. `2025-11-21T10:00:00.000Z` (release 1.2.0; release 1.3.0 uses `{seconds, nanos}` objects).
         * @example 2025-11-21T10:00:00.000Z
         */
        PayTimestamp: string;
        /**
         * @description Payment status of an invoice, as the release 1.2.0 enumeration lists it.
         *
         *     - `CREATED`: the payment URL is created.
         *     - `FAILED`: the URL was accessed by the customer and the payment did not complete.
         *     - `SUCCESS`: the URL was accessed by the customer and the payment completed.
         *     - `EXPIRED`: the URL expired and the payment was not completed.
         *
         *     The release 1.2.0 payload sample shows the capitalised form `Created`; an invoice's `status`
         *     (PayURLStatus) therefore accepts `Created` besides these four values.
         * @enum {string}
         */
        PayPaymentStatus: "CREATED" | "FAILED" | "SUCCESS" | "EXPIRED";
        /** @description An invoice and its payment status (release 1.2.0; the source names this resource PayURLStatus). */
        PayURLStatus: {
            /** @description Invoice id. */
            invoice_id?: string;
            /** @description Single-use payment URL. */
            url?: string;
            /** @description Payment status. The release 1.2.0 enumeration (PayPaymentStatus) lists `CREATED`, `FAILED`, `SUCCESS` and `EXPIRED`, while the release 1.2.0 payload sample shows `Created`: both forms are accepted. */
            status?: components["schemas"]["PayPaymentStatus"] | "Created";
            /** @description Amount of the invoice. Release 1.2.0 types it inconsistently, as a string or as a PayAmount object: both forms are accepted. */
            amount?: string | components["schemas"]["PayAmount"];
            /** @description Ordered item. */
            item_id?: string;
            /** @description Description. */
            description?: string;
            /** @description Additional remarks. */
            remarks?: string;
            /** @description Creation time. */
            created?: components["schemas"]["PayTimestamp"];
            /** @description Payment time. */
            paid_date?: components["schemas"]["PayTimestamp"];
            /** @description Customer name. */
            customer_name?: string;
        };
        /** @description The merchant's invoices for a period (the invoice list envelope of release 1.2.0). */
        InvoiceList: {
            /** @description Start of the period. */
            start?: components["schemas"]["PayTimestamp"];
            /** @description End of the period. */
            end?: components["schemas"]["PayTimestamp"];
            /** @description Invoice id of the next batch, when a limit was reached. */
            next?: string;
            /** @description Invoices. */
            urls?: components["schemas"]["PayURLStatus"][];
        };
        /** @description Request to create an invoice with a single-use payment URL (release 1.2.0). */
        CreateInvoiceRequest: {
            /** @description Merchant id. */
            merchant_id?: string;
            /** @description Destination account id. */
            account_id?: string;
            /** @description Amount. */
            amount?: components["schemas"]["PayAmount"];
            /** @description Ordered item. */
            item_id?: string;
            /** @description Description. */
            description?: string;
            /** @description Remarks. */
            remarks?: string;
            /** @description Customer name. */
            customer_name?: string;
            /** @description Expiry of the requested URL, in hours. */
            expiry?: number;
        };
        /** @description The created invoice's payment URL (release 1.2.0). */
        CreateInvoiceResponse: {
            /** @description Single-use payment URL. */
            url?: string;
            /** @description Expiry time of the URL. */
            expiry?: components["schemas"]["PayTimestamp"];
            /** @description Message (release 1.3.0 deprecates it). */
            message?: string;
            /** @description Invoice id. */
            invoice_id?: string;
        };
    };
    responses: {
        /** @description The request lacks valid credentials (`Authorization: Bearer <ACCESS_TOKEN>`). */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The caller lacks permission for the resource. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    createDepositAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDepositAccountRequest"];
            };
        };
        responses: {
            /** @description The account is registered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateDepositAccountResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    updateDepositAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Destination account id.
                 * @example acc_01HZX3K9Q
                 */
                account_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateDepositAccountRequest"];
            };
        };
        responses: {
            /** @description The account is updated. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    listSupportedBanks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Bank code to bank name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SupportedBanks"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    getMerchant: {
        parameters: {
            query?: {
                /** @description Merchant id; depending on the merchant's type, a merchant account id, a profile id or a bank account number. */
                merchant_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The merchant. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Merchant"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    createMerchant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMerchantRequest"];
            };
        };
        responses: {
            /** @description The merchant is registered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    updateMerchant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Merchant id.
                 * @example mer_01HZX2M7T
                 */
                merchant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMerchantRequest"];
            };
        };
        responses: {
            /** @description The merchant is updated. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    listInvoices: {
        parameters: {
            query?: {
                /** @description Merchant id. */
                merchant_id?: string;
                /** @description Start of the period, an ISO 8601 UTC timestamp with milliseconds. */
                start?: components["schemas"]["PayTimestamp"];
                /** @description End of the period, an ISO 8601 UTC timestamp with milliseconds. */
                end?: components["schemas"]["PayTimestamp"];
                /** @description Maximum number of invoices returned. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invoices. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvoiceList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
    createInvoice: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateInvoiceRequest"];
            };
        };
        responses: {
            /** @description The invoice is created. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateInvoiceResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
        };
    };
}
