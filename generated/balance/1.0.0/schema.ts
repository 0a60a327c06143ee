// Generated from specs/balance/1.0.0/openapi.yaml (balance@1.0.0) by `npm run generate` (scripts/generate.ts). Do not edit.
export interface paths {
    "/v1/balance-init": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a retrieval in the hosted flow
         * @description Starts a balance retrieval in the hosted flow and returns the `redirect_uri` to send the end user to. `bank_codes` chooses the banks shown to the end user; `auto_consent` skips the consent step (disabled by default); `link_id` maps to a bank once a credential is stored in the browser.
         */
        post: operations["initBalance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a retrieval with the end user's credentials
         * @description Submits a balance retrieval directly: the bank, the end user's credentials (or a token id) or the bank API's credentials, and optional filters (`period_days`, whose behaviour depends on the bank's site, or `start_date` and `end_date` as YYYY-MM-DD, and `account_number`). With `client_key_id` empty the credentials are sent in plain text; with a value they are encrypted with that key. Bank-specific fields travel as a map from string to string under a member whose name the source does not show. The answer's `request_id` identifies the retrieval for later lookup; a `challenge` asks for the next two-factor step.
         */
        post: operations["retrieveBalance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/get_balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List balances
         * @description Lists the balance retrievals with their accounts, running balances and monthly balances, one page at a time: `next_page_token` names the next page (empty when there are no more) and `previous_page_token` the previous one; `total_count` is the total number of retrievals.
         */
        get: operations["listBalances"];
        put?: never;
        post?: never;
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
         * @description A bank supported by balance retrieval.
         *
         *     - `DUMMY_BANK_PERSONAL`: the sandbox test bank.
         * @enum {string}
         */
        BankCode: "UNKNOWN_BANK" | "MANDIRI_PERSONAL" | "BCA_PERSONAL" | "BNI_PERSONAL" | "BRI_PERSONAL" | "BCA_CORPORATE" | "DUMMY_BANK_PERSONAL" | "BDO_PERSONAL" | "BPI_PERSONAL" | "KASIKORNBANK_PERSONAL" | "PNB_PERSONAL" | "UNIONBANK_PERSONAL" | "UNIONBANK_CORPORATE" | "METROBANK_PERSONAL" | "RCBC_PERSONAL";
        /** @description Request to start a balance retrieval in the hosted flow. */
        InitBalanceRequest: {
            /**
             * @description Country of the end user's bank.
             * @enum {string}
             */
            country?: "ID" | "PH" | "TH";
            /** @description The banks shown to the end user. */
            bank_codes?: components["schemas"]["BankCode"][];
            /** @description The client's own reference. */
            external_id?: string;
            /** @description Where the hosted page redirects the end user after success. */
            app_redirect_uri?: string;
            /** @description The client's name as shown to the end user on the hosted pages. */
            organization_display_name?: string;
            /** @description Where the hosted page redirects the end user after a failure. */
            app_redirect_error_uri?: string;
            /** @description Seconds before the hosted page redirects the end user, as a string. */
            app_redirect_duration?: string;
            /** @description When true, the hosted page shows the remember-me option. */
            remember_me?: boolean;
            /** @description Maps to a bank; generated after a credential is stored in the browser. */
            link_id?: string;
            /**
             * @description When true, the hosted flow skips the consent step; disabled (false) by default.
             * @default false
             */
            auto_consent?: boolean;
        };
        /** @description A started hosted-flow retrieval. */
        InitBalanceResponse: {
            /** @description Id of the balance retrieval. */
            balance_id?: string;
            /** @description URL of the hosted flow; redirect the end user to it. */
            redirect_uri?: string;
        };
        /** @description Bank-specific fields, as a map from field name to string value. */
        BankSpecificFields: {
            [key: string]: string;
        };
        /**
         * @description Kind of credential the end user logs in with.
         * @enum {string}
         */
        CredentialType: "EMAIL" | "Type_MSISDN" | "TOKEN" | "CLIENT_CREDENTIAL";
        /** @description The end user's credentials, or a token id. */
        Credential: {
            /** @description Kind of credential. */
            credential_type?: components["schemas"]["CredentialType"];
            /** @description The login identifier; a phone number, an e-mail address or a token. */
            identifier?: string;
            /** @description The secret that goes with the identifier; may be empty when `credential_type` is `TOKEN`. */
            secret?: string;
        };
        /** @description Credentials for a bank's API (for example a corporate banking API). */
        APICredential: {
            /** @description Corporate id at the bank; use the partner id when the bank provides one. */
            corporate_id?: string;
            /** @description The API login identifier. */
            identifier?: string;
            /** @description The secret that goes with the identifier. */
            secret?: string;
        };
        /** @description Direct submission of a balance retrieval. Besides the listed members, the request carries a map from string to string of bank-specific fields under a member whose name the source does not show; any member not listed here is accepted as that map (or as a single bank-specific string field). */
        RetrieveBalanceRequest: {
            /** @description The end user's bank. */
            bank_code?: components["schemas"]["BankCode"];
            /** @description The end user's credentials, or a token id. */
            credential?: components["schemas"]["Credential"];
            /**
             * Format: int32
             * @description Filters the balances over a period of this many days; the behaviour depends on the bank's site.
             */
            period_days?: number;
            /**
             * Format: date
             * @description First day of the period (YYYY-MM-DD).
             */
            start_date?: string;
            /**
             * Format: date
             * @description Last day of the period (YYYY-MM-DD).
             */
            end_date?: string;
            /** @description The account to retrieve. */
            account_number?: string;
            /** @description Credentials for the bank's API. */
            api_credential?: components["schemas"]["APICredential"];
            /** @description Optional unique value from the client. */
            external_id?: string;
            /**
             * @description Optional channel of the bank to use.
             * @enum {string}
             */
            channel?: "WEB" | "MOBILE";
            /** @description Identifies the key that decrypts the credentials: empty means the credentials are sent in plain text, a value means they are encrypted with that key. */
            client_key_id?: string;
        };
        /**
         * @description Status of a balance retrieval. The source gives a meaning for two values only:
         *
         *     - `INACTIVATED`: waiting for user input.
         *     - `PURGED`: the balance data was purged.
         *
         *     Its error section also names `AUTH_FAILED` and `FAILED` among the error conditions reported as a
         *     status. The other values (`UNKNOWN_Status`, `INITIATED`, `CONSENT_GRANTED`, `AUTH_IN_PROGRESS`,
         *     `AWAITING_TFA`, `TFA_IN_PROGRESS`, `RETRIEVAL_IN_PROGRESS`, `SUCCESS`, `CANCELLED`) come with
         *     their names only.
         * @enum {string}
         */
        Status: "UNKNOWN_Status" | "INITIATED" | "CONSENT_GRANTED" | "AUTH_IN_PROGRESS" | "AWAITING_TFA" | "TFA_IN_PROGRESS" | "RETRIEVAL_IN_PROGRESS" | "AUTH_FAILED" | "FAILED" | "SUCCESS" | "CANCELLED" | "INACTIVATED" | "PURGED";
        /**
         * @description Kind of two-factor challenge.
         *
         *     - `TEXT`: a text challenge.
         *     - `IMAGE`: an image challenge.
         *     - `IN_APP`: asynchronous and outside the service's control, for example an approval on a mobile device.
         *     - `SMS`: a code sent by SMS.
         *     - `MGENCODE`: a code generated by a bank app.
         *     - `HYBRID`: a bank-specific mix.
         *     - `PIN`: a PIN.
         * @enum {string}
         */
        ChallengeType: "TEXT" | "IMAGE" | "IN_APP" | "SMS" | "MGENCODE" | "HYBRID" | "PIN";
        /**
         * Format: byte
         * @description Binary content (the source types it `bytes`).
         */
        Bytes: string;
        /** @description The next two-factor step of a retrieval. */
        Challenge: {
            /** @description Kind of challenge. */
            type?: components["schemas"]["ChallengeType"];
            /** @description Challenge data (for example the image of an image challenge). */
            data?: components["schemas"]["Bytes"];
        };
        /** @description The submitted retrieval and its status. */
        RetrieveBalanceResponse: {
            /** @description Id of the retrieval, for later lookup (`GET /v1/get_balance`). */
            request_id?: string;
            /** @description Status of the retrieval. */
            status?: components["schemas"]["Status"];
            /** @description Text from the bank's site. */
            site_response?: string;
            /** @description Optional; the next two-factor step. */
            challenge?: components["schemas"]["Challenge"];
        };
        /**
         * @description A point in time as whole seconds and nanoseconds.
         * @example {
         *       "seconds": 1717200000,
         *       "nanos": 0
         *     }
         */
        Timestamp: {
            /**
             * Format: int64
             * @description Seconds of the timestamp. An int64: from -2^63 up to 2^63 - 1 (the bound is written as an exclusive 2^63, because a JSON number read as a double cannot tell 2^63 - 1 from 2^63).
             */
            seconds?: number;
            /**
             * Format: int32
             * @description Nanoseconds of the timestamp, added to `seconds`.
             */
            nanos?: number;
        };
        /**
         * @description Kind of bank account.
         * @enum {string}
         */
        AccountType: "UNKNOWN_AccountType" | "CHECKING" | "SAVINGS";
        /** @description A bank account whose balance was retrieved. */
        BalanceListDataAccount: {
            /** @description Kind of account. */
            type?: components["schemas"]["AccountType"];
            /** @description Account number. */
            account_number?: string;
            /** @description Name of the account holder. */
            holder_name?: string;
        };
        /**
         * @description Currency: a three-letter code, or `UNKNOWN_CURRENCY`. The values are kept exactly as the source lists them (the list is shared with payment initiation).
         * @enum {string}
         */
        CurrencyISO4217: "UNKNOWN_CURRENCY" | "AFN" | "EUR" | "ALL" | "DZD" | "USD" | "AOA" | "XCD" | "ARS" | "AMD" | "AWG" | "AUD" | "AZN" | "BSD" | "BHD" | "BDT" | "BYR" | "BZD" | "XOF" | "BMD" | "BTN" | "BOV" | "BAM" | "BWP" | "NOK" | "BRL" | "SGD" | "BGN" | "BIF" | "KHR" | "XAF" | "CAD" | "CVE" | "KYD" | "CLP" | "CNY" | "COP" | "KMF" | "CDF" | "NZD" | "CRC" | "HRK" | "CUC" | "CZK" | "DKK" | "DJF" | "DOP" | "EGP" | "ERN" | "ETB" | "FKP" | "FJD" | "XPF" | "GMD" | "GEL" | "GHS" | "GIP" | "GTQ" | "GBP" | "GNF" | "GYD" | "HNL" | "HKD" | "HUF" | "ISK" | "INR" | "IDR" | "IRR" | "IQD" | "IMP" | "ILS" | "JMD" | "JPY" | "JEP" | "JOD" | "KZT" | "KES" | "KPW" | "KRW" | "KWD" | "KGS" | "LAK" | "LBP" | "LSL" | "LRD" | "LYD" | "CHF" | "MKD" | "MGA" | "MWK" | "MYR" | "MVR" | "MRO" | "MUR" | "MXN" | "MDL" | "MNT" | "MAD" | "MZN" | "MMK" | "NAD" | "NPR" | "ANG" | "NIO" | "NGN" | "OMR" | "PKR" | "PGK" | "PYG" | "PEN" | "PHP" | "PLN" | "QAR" | "RON" | "RUB" | "RWF" | "WST" | "STD" | "SAR" | "RSD" | "SCR" | "SLL" | "SBD" | "SOS" | "ZAR" | "SSP" | "LKR" | "SHP" | "SDG" | "SRD" | "SZL" | "SEK" | "SYP" | "TWD" | "TJS" | "TZS" | "THB" | "TOP" | "TTD" | "TND" | "TRY" | "TMT" | "UGX" | "UAH" | "ARE" | "UYU" | "UZS" | "VUV" | "VEF" | "VND" | "YER" | "ZRN" | "ZMW";
        /**
         * @description A money amount in minor currency units.
         * @example {
         *       "cur": "IDR",
         *       "num": "10000"
         *     }
         */
        Amount: {
            /** @description Currency. */
            cur?: components["schemas"]["CurrencyISO4217"];
            /** @description Amount in minor currency units, without separator (`10000` for 100.00 in a two-decimal currency). */
            num?: string;
        };
        /** @description The balances of one month. */
        PeriodicBalance: {
            /** @description Month of the balances. */
            month?: string;
            /** @description Year of the balances. */
            year?: string;
            /** @description Balance at the start of the month. */
            start_balance?: components["schemas"]["Amount"];
            /** @description Balance at the end of the month. */
            end_balance?: components["schemas"]["Amount"];
            /** @description Average balance over the month. */
            average_monthly_balance?: components["schemas"]["Amount"];
        };
        /** @description The period the periodic balances cover. */
        PeriodicBalanceRange: {
            /**
             * Format: int32
             * @description Number of months covered.
             */
            total_months?: number;
            /** @description The period covered, for example a month-to-month span. */
            range?: string;
        };
        /** @description The balances of one account. */
        BalanceListDataBalance: {
            /** @description The running (current) balance. */
            current?: components["schemas"]["Amount"];
            /** @description Monthly balances. */
            periodic_balance?: components["schemas"]["PeriodicBalance"][];
            /** @description The period the monthly balances cover. The field name is spelled `peridic_balance_range` by the API. */
            peridic_balance_range?: components["schemas"]["PeriodicBalanceRange"];
        };
        /** @description One account and its balances. */
        BalanceListData: {
            /** @description The account. */
            account?: components["schemas"]["BalanceListDataAccount"];
            /** @description The account's balances. */
            balance?: components["schemas"]["BalanceListDataBalance"];
        };
        /** @description One balance retrieval and its result. */
        BalanceResponse: {
            /** @description Status of the retrieval; `AUTH_FAILED` and `FAILED` report errors. */
            status?: components["schemas"]["Status"];
            /** @description Id of the retrieval (as returned by `POST /v1/balance`). */
            request_id?: string;
            /** @description When the retrieval was created. */
            created_at?: components["schemas"]["Timestamp"];
            /** @description The bank. */
            bank_code?: components["schemas"]["BankCode"];
            /** @description The accounts found and their balances. */
            accounts?: components["schemas"]["BalanceListData"][];
            /** @description Error text, when the retrieval hit an error. */
            error?: string;
            /** @description When the retrieval was last updated. */
            update?: components["schemas"]["Timestamp"];
            /** @description Text from the bank's site. */
            site_response?: string;
        };
        /** @description One page of balance retrievals. */
        ListBalancesResponse: {
            /** @description The balance retrievals on this page. */
            balances?: components["schemas"]["BalanceResponse"][];
            /** @description Token of the next page; empty when there are no more pages. */
            next_page_token?: string;
            /** @description A message from the service. */
            message?: string;
            /**
             * Format: int32
             * @description Total number of balance retrievals.
             */
            total_count?: number;
            /** @description Token of the previous page. */
            previous_page_token?: string;
        };
    };
    responses: {
        /** @description The resource was not found (the only non-200 status the source lists for balance retrieval). */
        NotFound: {
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
    initBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InitBalanceRequest"];
            };
        };
        responses: {
            /** @description The retrieval is started. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InitBalanceResponse"];
                };
            };
            404: components["responses"]["NotFound"];
        };
    };
    retrieveBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RetrieveBalanceRequest"];
            };
        };
        responses: {
            /** @description The retrieval and its status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetrieveBalanceResponse"];
                };
            };
            404: components["responses"]["NotFound"];
        };
    };
    listBalances: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of balance retrievals. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListBalancesResponse"];
                };
            };
            404: components["responses"]["NotFound"];
        };
    };
}
