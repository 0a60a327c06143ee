// Generated from specs/payment-initiation/1.0.0/openapi.yaml (payment-initiation@1.0.0) by `npm run generate` (scripts/generate.ts). Do not edit.
export interface paths {
    "/v1/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a checkout
         * @description Creates a fund-transfer request for a predetermined amount (an invoice or a cart) to a registered destination account. The service creates a session keyed to the transfer's internal id and returns `redirect_uri`, the authorization URL to which the client redirects the end user (and `short_redirect_uri`, its shortened form, which `client.short_redirect_uri` asks for). The client appends its own `redirect_uri` query parameter to the returned URL to say where the end user goes afterwards. The end user authorizes the transfer on the hosted page by logging in to their bank. `from.bank_code` is optional: when it is set, the hosted page shows the bank selector page; when it is not set, it does not. Without `expiry_date_time` the checkout expires 24 hours after it was created successfully. Completion is announced by the `transactionCompleted` webhook.
         */
        post: operations["createCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transaction": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List transactions, or get one by id
         * @description With `transaction_id`, returns only that transaction record. Without it, returns all the transaction records, most recent first, one page at a time: `next_page` is the number of the next page (0 when there are no more pages) and `total_count` the number of records. The full record of a transaction announced by the `transactionCompleted` webhook is fetched here by its id.
         */
        get: operations["listTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List transfers, or get one by id
         * @description With `transfer_id`, returns only that transfer record. Without it, returns all the transfer records, most recent first, one page at a time: `next_page` is the number of the next page (0 when there are no more pages) and `total_count` the number of records. Transfer timestamps may render as ISO 8601 strings instead of `{seconds, nanos}` objects.
         */
        get: operations["listTransfers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tfa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a two-factor token
         * @description Sends the two-factor token the end user entered, for a bank login (`BankCredentialLogin`, with the bank credential id as `purpose_id`) or a fund transfer (`FundTransferAuthentication`). `option` switches the one-time-password generator (for example to SMS or MGENCODE); `multiple` carries several codes when the challenge needs more than one. The answer says whether the token reached the bank (`status`) and whether the challenge succeeded (`auth_status`); a failed challenge (`auth_status` INCOMPLETE, or `status` ERROR) comes with the bank's reason in `status_msg`.
         */
        post: operations["submitTfaToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    transactionCompleted: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Transaction completed
         * @description The service processes transactions asynchronously. When a transaction operation completes, it
         *     sends an HTTP POST to the callback URL registered in the dashboard. The full record is fetched
         *     by its transaction id with `listTransactions` (`GET /v1/transaction?transaction_id=...`).
         *
         *     The listener must be idempotent: each delivery carries an `Idempotency-Key` header, and a
         *     delivery whose key equals the previous one is not processed again.
         *
         *     Status codes sent:
         *
         *     | Code | Status | Meaning |
         *     |---|---|---|
         *     | 2 | SUCCESS | Transfer completed and settled |
         *     | 3 | ERROR | Error state (bank, service or user) |
         *     | 11 | EXPIRED | Transfer expired, by default 24 hours after checkout creation |
         *     | 12 | FLAGGED | Result neither success nor failed; the merchant checks the account statement |
         *     | 13 | CANCELLED | The end user chose Cancel |
         *     | 14 | DENIED | The end user chose Deny on the consent page |
         *     | 15 | FAILED | Marked FAILED by the merchant via the settle operation (`v1/checkout/settle`) |
         *
         *     The payload's shape is not shown by the source: the schema accepts any JSON value, and the
         *     example is a placeholder, not the provider's format.
         */
        post: operations["notifyTransactionCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * @description A postal address.
         * @example {
         *       "line1": "Jl. Sudirman No. 1",
         *       "line2": "Tower A, floor 12",
         *       "city": "Jakarta",
         *       "province": "DKI Jakarta",
         *       "zip_code": "10220",
         *       "country": "ID"
         *     }
         */
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
        /**
         * @description The end user's identifying information.
         * @example {
         *       "fname": "Budi",
         *       "lname": "Santoso",
         *       "email": "budi@example.com",
         *       "mobile": "+6281234567890",
         *       "customer_id": "cust-1001"
         *     }
         */
        Customer: {
            /** @description First name. When set, a shortened redirect URI (Client.short_redirect_uri) includes it. */
            fname?: string;
            /** @description Last name. */
            lname?: string;
            /** @description Middle name. */
            mname?: string;
            /** @description E-mail address. */
            email?: string;
            /** @description Mobile number. */
            mobile?: string;
            /** @description Landline number. */
            phone?: string;
            /** @description Optional id of the customer, chosen by the client. */
            customer_id?: string;
            /** @description Address. */
            address?: components["schemas"]["Address"];
        };
        /**
         * @description Currency: a three-letter code, or `UNKNOWN_CURRENCY` (the same list is used by balance retrieval). The values are kept exactly as the source lists them.
         * @enum {string}
         */
        CurrencyISO4217: "UNKNOWN_CURRENCY" | "AFN" | "EUR" | "ALL" | "DZD" | "USD" | "AOA" | "XCD" | "ARS" | "AMD" | "AWG" | "AUD" | "AZN" | "BSD" | "BHD" | "BDT" | "BYR" | "BZD" | "XOF" | "BMD" | "BTN" | "BOV" | "BAM" | "BWP" | "NOK" | "BRL" | "SGD" | "BGN" | "BIF" | "KHR" | "XAF" | "CAD" | "CVE" | "KYD" | "CLP" | "CNY" | "COP" | "KMF" | "CDF" | "NZD" | "CRC" | "HRK" | "CUC" | "CZK" | "DKK" | "DJF" | "DOP" | "EGP" | "ERN" | "ETB" | "FKP" | "FJD" | "XPF" | "GMD" | "GEL" | "GHS" | "GIP" | "GTQ" | "GBP" | "GNF" | "GYD" | "HNL" | "HKD" | "HUF" | "ISK" | "INR" | "IDR" | "IRR" | "IQD" | "IMP" | "ILS" | "JMD" | "JPY" | "JEP" | "JOD" | "KZT" | "KES" | "KPW" | "KRW" | "KWD" | "KGS" | "LAK" | "LBP" | "LSL" | "LRD" | "LYD" | "CHF" | "MKD" | "MGA" | "MWK" | "MYR" | "MVR" | "MRO" | "MUR" | "MXN" | "MDL" | "MNT" | "MAD" | "MZN" | "MMK" | "NAD" | "NPR" | "ANG" | "NIO" | "NGN" | "OMR" | "PKR" | "PGK" | "PYG" | "PEN" | "PHP" | "PLN" | "QAR" | "RON" | "RUB" | "RWF" | "WST" | "STD" | "SAR" | "RSD" | "SCR" | "SLL" | "SBD" | "SOS" | "ZAR" | "SSP" | "LKR" | "SHP" | "SDG" | "SRD" | "SZL" | "SEK" | "SYP" | "TWD" | "TJS" | "TZS" | "THB" | "TOP" | "TTD" | "TND" | "TRY" | "TMT" | "UGX" | "UAH" | "ARE" | "UYU" | "UZS" | "VUV" | "VEF" | "VND" | "YER" | "ZRN" | "ZMW";
        /**
         * @description A money amount: a currency and a value in minor currency units, as a string, to avoid floating-point error (100.00 in a two-decimal currency is carried as "10000").
         * @example {
         *       "cur": "IDR",
         *       "num": "15000000"
         *     }
         */
        Amount: {
            /** @description Currency. */
            cur?: components["schemas"]["CurrencyISO4217"];
            /** @description Value in minor currency units, as a string of digits without a decimal separator (100.00 in a two-decimal currency is "10000"). */
            num?: string;
        };
        /**
         * @description Kind of account an AccountInfo or DestinationAccountInfo names. For the source account of a checkout use `BANK`.
         * @enum {string}
         */
        AccountInfoType: "AccountInfoTypeUNKNOWN" | "ACCOUNT" | "PROFILE" | "BANK" | "MSISDN";
        /**
         * @description Source bank: the bank the end user pays from. Source codes follow another convention than
         *     destination codes (DestinationBankCode). A checkout accepts the 14 values of CheckoutBankCode;
         *     the other 7 occur only in transaction and transfer records.
         *
         *     - `DUMMY_BANK_PERSONAL`: the sandbox test bank.
         *     - `DUMMY_BANK_BCA_PERSONAL`: deprecated; the source names no replacement.
         * @enum {string}
         */
        BankCode: "DUMMY_BANK_PERSONAL" | "MANDIRI_PERSONAL" | "BCA_PERSONAL" | "BNI_PERSONAL" | "BRI_PERSONAL" | "CIMB_PERSONAL" | "BDO_PERSONAL" | "BPI_PERSONAL" | "PNB_PERSONAL" | "UNIONBANK_PERSONAL" | "METROBANK_PERSONAL" | "RCBC_PERSONAL" | "SCB_PERSONAL" | "KASIKORNBANK_PERSONAL" | "UNKNOWN_BANK" | "DUMMY_BANK_BCA_PERSONAL" | "BCA_CORPORATE" | "UNIONBANK_CORPORATE" | "CLRB_PERSONAL" | "KOMO_PERSONAL" | "EASTWEST_PERSONAL";
        /**
         * @description Country, as an ISO 3166 two-letter code.
         *
         *     - `ID`: Indonesia.
         *     - `PH`: the Philippines.
         *     - `TH`: Thailand.
         * @enum {string}
         */
        CountryISO3166: "ID" | "PH" | "TH";
        /**
         * @description The end user's source account.
         * @example {
         *       "type": "BANK",
         *       "bank_code": "BCA_PERSONAL",
         *       "country": "ID"
         *     }
         */
        AccountInfo: {
            /** @description Kind of account; use `BANK`. */
            type?: components["schemas"]["AccountInfoType"];
            /** @description Source bank; present when `type` is `BANK`. In a transaction record, the bank used to initiate the transfer. */
            bank_code?: components["schemas"]["BankCode"];
            /** @description Country of the end user's bank. */
            country?: components["schemas"]["CountryISO3166"];
        };
        /**
         * @description Source bank values a checkout accepts in `from.bank_code` (a subset of BankCode).
         *
         *     - `DUMMY_BANK_PERSONAL`: the sandbox test bank.
         * @enum {string}
         */
        CheckoutBankCode: "DUMMY_BANK_PERSONAL" | "MANDIRI_PERSONAL" | "BCA_PERSONAL" | "BNI_PERSONAL" | "BRI_PERSONAL" | "CIMB_PERSONAL" | "BDO_PERSONAL" | "BPI_PERSONAL" | "PNB_PERSONAL" | "UNIONBANK_PERSONAL" | "METROBANK_PERSONAL" | "RCBC_PERSONAL" | "SCB_PERSONAL" | "KASIKORNBANK_PERSONAL";
        /**
         * @description Payment channel of a transfer; used with a settlement partner.
         *
         *     - `PH_PAYNAMICS`: inter-bank transfer via a settlement partner.
         *     - `ID_BANK_MEGA_IPG`: inter-bank transfer via a bank's payment gateway.
         *     - `ID_SHOPEE`: intra- or inter-bank transfer via a QR payment acquirer.
         * @enum {string}
         */
        PaymentChannelType: "PH_PAYNAMICS" | "ID_BANK_MEGA_IPG" | "ID_SHOPEE";
        /**
         * @description The merchant's display information and the redirects of the hosted pages.
         * @example {
         *       "display_name": "Toko Budi",
         *       "logo_url": "https://merchant.example.com/logo.png",
         *       "return_url": "https://merchant.example.com/checkout/done",
         *       "fail_url": "https://merchant.example.com/checkout/failed",
         *       "deep_link": false,
         *       "short_redirect_uri": true
         *     }
         */
        Client: {
            /** @description Merchant name shown on the hosted pages. */
            display_name?: string;
            /** @description URL of the merchant logo shown on the hosted pages. */
            logo_url?: string;
            /** @description Where the end user is redirected after completion. */
            return_url?: string;
            /** @description Where the end user is redirected after a failure or an error. */
            fail_url?: string;
            /** @description True shows the remember-me feature in the bank login form. */
            deep_link?: boolean;
            /** @description True asks for a shortened redirect URI (returned as `short_redirect_uri`); when the customer's `fname` is set, the short link includes the first name. */
            short_redirect_uri?: boolean;
        };
        /**
         * @description A point in time (UTC) as whole seconds since the Unix epoch and nanoseconds.
         * @example {
         *       "seconds": 1767225600,
         *       "nanos": 0
         *     }
         */
        Timestamp: {
            /**
             * Format: int64
             * @description Seconds since the Unix epoch. An int64: from -2^63 up to 2^63 - 1 (the bound is written as an exclusive 2^63, because a JSON number read as a double cannot tell 2^63 - 1 from 2^63).
             */
            seconds?: number;
            /**
             * Format: int32
             * @description Nanoseconds, added to `seconds`.
             */
            nanos?: number;
        };
        /**
         * @description Cents reconciliation option: a workaround that makes the amount unique for the period, so that a
         *     payment can be matched to its checkout by amount.
         *
         *     - `NONE`: no change to the amount.
         *     - `ADD`: adds centavos to the amount.
         *     - `SUBTRACT`: deducts centavos from the amount.
         * @enum {string}
         */
        UniqueAmountType: "NONE" | "ADD" | "SUBTRACT";
        /** @description A fund-transfer request for a predetermined amount (an invoice or a cart). `payment_channel` and `from.bank_code` are optional; `expiry_date_time` defaults to 24 hours after a successful checkout. */
        CreateCheckoutRequest: {
            /** @description The end user's identifying information. */
            customer?: components["schemas"]["Customer"];
            /** @description The client's identifier of the invoice, cart or transaction. */
            reference_id?: string;
            /** @description Amount to transfer. */
            amount?: components["schemas"]["Amount"];
            /** @description Source account. `bank_code` is optional: when it is set, the hosted page shows the bank selector page; when it is not set, it does not. Only the CheckoutBankCode values are accepted. */
            from?: components["schemas"]["AccountInfo"] & {
                /** @description Source bank (optional); one of the values a checkout accepts. */
                bank_code?: components["schemas"]["CheckoutBankCode"];
            };
            /** @description Optional; used with a settlement partner (the source's request sample sends a placeholder). */
            payment_channel?: components["schemas"]["PaymentChannelType"];
            /** @description The client's memo, shown on the transfer's memo line. */
            memo?: string;
            /** @description The destination account, registered beforehand in the dashboard (settings for payment initiation), which yields this id. */
            destination_account_id?: string;
            /** @description The merchant's display information and redirects. */
            client?: components["schemas"]["Client"];
            /** @description UTC expiry of the invoice. When omitted, the checkout expires 24 hours after a successful checkout (default). */
            expiry_date_time?: components["schemas"]["Timestamp"];
            /** @description Cents reconciliation option. */
            unique_amount?: components["schemas"]["UniqueAmountType"];
        };
        /** @description The created checkout and the URL to redirect the end user to. */
        CreateCheckoutResponse: {
            /** @description Id of the transaction created for the checkout. */
            transaction_id?: string;
            /** @description Authorization URL to redirect the end user to. The client appends its own `redirect_uri` query parameter to say where the end user goes afterwards. */
            redirect_uri?: string;
            /** @description Shortened form of `redirect_uri` (a checkout asks for it with `client.short_redirect_uri`). */
            short_redirect_uri?: string;
        };
        /**
         * @description Bank of a destination account (the receiving bank). Destination codes follow another convention than the source BankCode values (a country prefix such as `ID_`, `PH_` or `TH_` and a bank abbreviation). The values are kept exactly as the source lists them.
         * @enum {string}
         */
        DestinationBankCode: "DUMMY_BANK_DESTINATION" | "ID_BCA" | "ID_BCA_SYR" | "ID_BNI" | "ID_BNI_SYR" | "ID_BRI" | "ID_BRI_SYR" | "ID_MANDIRI" | "ID_MANDIRI_SYR" | "ID_BTN" | "ID_BTN_SYR" | "ID_PERMATA" | "ID_PERMATA_SYR" | "ID_DNMN" | "ID_DNMN_SYR" | "ID_BTPN" | "ID_BTPN_SYR" | "ID_OCBC" | "ID_OCBC_SYR" | "ID_MAYBANK" | "ID_MAYBANK_SYR" | "ID_CIMB" | "ID_CIMB_SYR" | "ID_PAN" | "ID_PAN_SYR" | "ID_MEGA" | "ID_MEGA_SYR" | "ID_BKP" | "ID_BKP_SYR" | "ID_DKI" | "ID_DKI_SYR" | "ID_BJB" | "ID_BJB_SYR" | "ID_JATIM" | "ID_JATIM_SYR" | "ID_HSBC" | "ID_DBS" | "ID_STAN" | "ID_UOB" | "ID_CITI" | "PH_BDO" | "PH_BPI" | "PH_BPIF" | "PH_METRO" | "PH_PNB" | "PH_PNBS" | "PH_RCBC" | "PH_RCBCS" | "PH_SB" | "PH_SBS" | "PH_UB" | "PH_CLRB" | "PH_GXI" | "PH_GBY" | "PH_LBP" | "PH_PMP" | "PH_PSB" | "PH_RSB" | "PH_CB" | "PH_CBS" | "TH_KBANK" | "PH_ALLBANK" | "PH_SUNSB" | "PH_STERLING" | "PH_MBSMB" | "PH_AUB" | "PH_BOC" | "PH_MAYBANK" | "PH_PBCOM" | "PH_CTBC" | "PH_EWB" | "PH_EQB" | "PH_OMNIPAY" | "PH_UCPB" | "PH_PHILTRUST" | "PH_WDB" | "PH_DUNGGANUN" | "PH_UCPBSB" | "PH_ISLA" | "PH_PRBC" | "PH_PBB" | "PH_PVB" | "PH_YSBP" | "PH_MABUHAY" | "PH_CTBCPH" | "PH_ING" | "PH_QCRB" | "PH_BDONB" | "PH_EWBRB" | "TH_SCB" | "PH_STAN" | "PH_HSBC" | "PH_CITI" | "PH_BOA" | "PH_UOB" | "PH_TOKYO" | "PH_MICB" | "PH_DBP" | "PH_ANZ" | "PH_KEB_HANA" | "PH_CHASE" | "PH_FCB" | "PH_MIZUHO" | "PH_DBS" | "PH_BBL" | "PH_CHINA" | "PH_SUMITOMO_MITSUI" | "PH_SHINHAN" | "PH_IBK" | "PH_STARPAY" | "PH_QUEENBANK" | "PH_INNOVATIVE_BANK" | "PH_AAIIB" | "PH_PRODUCERSSBC" | "PH_BPI_BANKO" | "PH_CIMB" | "PH_BANKFLORIDAPH" | "PH_GUINOBATAN" | "PH_HSBCSB" | "PH_CAMALIG" | "PH_COUNTRY_BUILDERS" | "PH_RANGAY_BANK" | "PH_COINSPH" | "PH_CARDBANK";
        /**
         * @description The destination account that receives the funds (registered beforehand in the dashboard).
         * @example {
         *       "type": "BANK",
         *       "bank_code": "ID_BCA",
         *       "identifier": "******7890",
         *       "holder_first_name": "Toko",
         *       "holder_last_name": "Budi",
         *       "country": "ID"
         *     }
         */
        DestinationAccountInfo: {
            /** @description Kind of account. */
            type?: components["schemas"]["AccountInfoType"];
            /** @description Destination bank. */
            bank_code?: components["schemas"]["DestinationBankCode"];
            /** @description Account number. */
            account_number?: string;
            /** @description Account id, profile id or account number, depending on `type`; shown partly masked. */
            identifier?: string;
            /**
             * @deprecated
             * @description Deprecated account holder name; replaced by `holder_first_name`, `holder_middle_name` and `holder_last_name`.
             */
            holder_name?: string;
            /** @description Account holder's first name. */
            holder_first_name?: string;
            /** @description Account holder's middle name. */
            holder_middle_name?: string;
            /** @description Account holder's last name. */
            holder_last_name?: string;
            /** @description Account holder's e-mail address. */
            email_address?: string;
            /** @description Country code of the account holder's mobile number. */
            mobile_country_code?: string;
            /** @description Account holder's mobile number. */
            mobile_number?: string;
            /** @description First address line. */
            address_line1?: string;
            /** @description Second address line. */
            address_line2?: string;
            /** @description City. */
            city?: string;
            /** @description State or province. */
            state?: string;
            /** @description Country. */
            country?: string;
        };
        /**
         * @description The `via` value of a transfer's additional details. The source lists the values without saying what they mean.
         * @enum {string}
         */
        Via: "UNKNOWN_Via" | "INTRABANK" | "IDONLINE" | "IDLLG" | "IDRTGS" | "PHINSTAPAY" | "PHPESONET";
        /**
         * @description Further details of a transaction or transfer.
         * @example {
         *       "via": "INTRABANK",
         *       "bank_fee": {
         *         "cur": "IDR",
         *         "num": "0"
         *       }
         *     }
         */
        AdditionalDetails: {
            /** @description Raw text from which the QR code can be rebuilt. */
            qr_code?: string;
            /** @description Account alias id. */
            account_alias_id?: string;
            /** @description First address line of the recipient. */
            to_address_line1?: string;
            /** @description Second address line of the recipient. */
            to_address_line2?: string;
            /** @description City of the recipient. */
            to_city?: string;
            /** @description State of the recipient. */
            to_state?: string;
            /** @description Country of the recipient. */
            to_country?: string;
            /** @description Version of the terms of use. */
            terms_of_use_version?: string;
            /** @description Version of the privacy policy. */
            privacy_policy_version?: string;
            /** @description Hash of the bank code and the end user's online-banking username. */
            user_id_hash?: string;
            /** @description Hash of the bank code and the end user's credentials. */
            user_access_hash?: string;
            /** @description Hash of the bank code and the specific account. */
            user_account_hash?: string;
            /** @description One of the Via values (their meanings are not shown). */
            via?: components["schemas"]["Via"];
            /** @description Fee deducted from the end user's account. */
            bank_fee?: components["schemas"]["Amount"];
            /** @description Settlement identifier. */
            settlement_identifier?: string;
            /** @description Alias of the settlement identifier. */
            settlement_identifier_alias?: string;
        };
        /**
         * @description Status of a transaction record (`Transaction.status`). The source gives meanings for the transfer Status enumeration (see TransferStatus), not for these values.
         * @enum {string}
         */
        FundTransferTaskStatus: "TransferStatus_CREATED" | "TransferStatus_TFA_AWAIT" | "TransferStatus_COMPLETED" | "TransferStatus_ERROR" | "TransferStatus_LOGIN_ERROR" | "TransferStatus_INVOICE_CREATED" | "TransferStatus_AWAITING_LOGIN" | "TransferStatus_AWAITING_LOGIN_TFA" | "TransferStatus_AWAITING_ACCOUNT_SELECT" | "TransferStatus_AWAITING_TRANSFER_TFA" | "TransferStatus_IN_PROGRESS" | "TransferStatus_EXPIRED" | "TransferStatus_FLAGGED" | "TransferStatus_CANCELLED" | "TransferStatus_DENIED" | "TransferStatus_FAILED";
        /** @description A transaction record (returned by `GET /v1/transaction`). */
        Transaction: {
            /** @description Document identifier of the transaction. */
            transaction_id?: string;
            /** @description Organisation id. */
            org_id?: string;
            /** @description Registered destination account. */
            destination_account_id?: string;
            /** @description Id of the business information registered in the dashboard. */
            business_info_id?: string;
            /** @description Source account; its bank code is the bank used to initiate the transfer. */
            from?: components["schemas"]["AccountInfo"];
            /** @description Destination account. */
            to?: components["schemas"]["DestinationAccountInfo"];
            /** @description Amount of the transfer. */
            amount?: components["schemas"]["Amount"];
            /** @description The end user. */
            customer?: components["schemas"]["Customer"];
            /** @description Whether the end user granted consent. */
            consent_granted?: boolean;
            /** @description Further details. */
            additional_details?: components["schemas"]["AdditionalDetails"];
            /** @description Payment channel, when a settlement partner is used. */
            payment_channel?: components["schemas"]["PaymentChannelType"];
            /** @description Settlement id. */
            settlement_id?: string;
            /** @description The client's invoice identifier. */
            reference_id?: string;
            /** @description The client's memo (for example a retrieval reference number). */
            user_memo?: string;
            /** @description Memo supplied by the bank (for example a confirmation number). */
            bank_memo?: string;
            /**
             * Format: int32
             * @description Number of attempts.
             */
            attempts?: number;
            /** @description Error text, when the transfer hit an error. */
            error?: string;
            /** @description Status of the transaction. */
            status?: components["schemas"]["FundTransferTaskStatus"];
            /** @description Description of the status. */
            status_desc?: string;
            /** @description Status code. */
            status_code?: string;
            /** @description When the transaction finished. */
            finish?: components["schemas"]["Timestamp"];
            /** @description When the transaction was created. */
            created?: components["schemas"]["Timestamp"];
            /** @description When the transaction was last updated. */
            updated?: components["schemas"]["Timestamp"];
        };
        /** @description Transaction records, most recent first, one page at a time. */
        ListTransactionsResponse: {
            /** @description The transactions (only the requested one when `transaction_id` was given). */
            transactions?: components["schemas"]["Transaction"][];
            /**
             * Format: int32
             * @description Number of the next page; 0 means there are no more pages.
             */
            next_page?: number;
            /**
             * Format: int32
             * @description Total number of records.
             */
            total_count?: number;
        };
        /**
         * @description Status of a transfer (the source names this enumeration `Status`).
         *
         *     - `PENDING`: pending operation.
         *     - `AWAITING_TFA`: awaiting two-factor authentication.
         *     - `SUCCESS`: successful operation.
         *     - `ERROR`: error during the operation.
         *     - `LOGIN_ERROR`: login error.
         *     - `INVOICE_CREATED`: checkout invoice created.
         *     - `AWAITING_LOGIN`: login in progress.
         *     - `AWAITING_LOGIN_TFA`: awaiting login two-factor authentication.
         *     - `AWAITING_ACCOUNT_SELECT`: awaiting account selection.
         *     - `AWAITING_TRANSFER_TFA`: awaiting transfer two-factor authentication.
         *     - `IN_PROGRESS`: transfer in progress.
         *     - `EXPIRED`: transaction expired; by default 24 hours after checkout when the end user did not finish.
         *     - `FLAGGED`: the bank result is neither success nor failed; the receiver must verify and settle manually.
         *     - `CANCELLED`: the sender cancelled (pressed Cancel on the hosted pages).
         *     - `DENIED`: the sender denied consent (pressed Deny on the consent page).
         *     - `FAILED`: the receiver was not able to receive the funds; set by the merchant through the settle
         *       operation (`v1/checkout/settle`) after checking the beneficiary statement.
         * @enum {string}
         */
        TransferStatus: "PENDING" | "AWAITING_TFA" | "SUCCESS" | "ERROR" | "LOGIN_ERROR" | "INVOICE_CREATED" | "AWAITING_LOGIN" | "AWAITING_LOGIN_TFA" | "AWAITING_ACCOUNT_SELECT" | "AWAITING_TRANSFER_TFA" | "IN_PROGRESS" | "EXPIRED" | "FLAGGED" | "CANCELLED" | "DENIED" | "FAILED";
        /**
         * @description A Timestamp that may also render as an ISO 8601 string: the `{seconds, nanos}` object or a date-time string are both accepted (the source says the Transfer timestamps may render as ISO 8601 strings).
         * @example 2026-01-01T00:00:00Z
         */
        TimestampOrString: components["schemas"]["Timestamp"] | string;
        /**
         * @description Settlement of a transfer; appears in payloads when a settlement channel is used.
         * @example {
         *       "settlement_id": "stl-20260101-0001",
         *       "settlement_response_id": "rsp-88120",
         *       "num": "15000000",
         *       "settlement_timestamp": "2026-01-01T00:10:00Z"
         *     }
         */
        Settlement: {
            /** @description Settlement id. */
            settlement_id?: string;
            /** @description Settlement response id. */
            settlement_response_id?: string;
            /** @description Amount value of the settlement, as a string. */
            num?: string;
            /** @description Settlement status. */
            settlement_status?: string;
            /** @description Time of the settlement, as a string. */
            settlement_timestamp?: string;
        };
        /** @description A transfer record (returned by `GET /v1/transfer`). Its timestamps may render as ISO 8601 strings instead of `{seconds, nanos}` objects; both forms are accepted. */
        Transfer: {
            /** @description Internal id of the transfer. */
            transfer_id?: string;
            /** @description Status of the transfer. */
            status?: components["schemas"]["TransferStatus"];
            /** @description Source account. */
            from?: components["schemas"]["AccountInfo"];
            /** @description Destination account. */
            to?: components["schemas"]["DestinationAccountInfo"];
            /** @description Amount, as given in the checkout. */
            amount?: components["schemas"]["Amount"];
            /** @description Original amount. */
            orig_amount?: components["schemas"]["Amount"];
            /** @description The client's memo, from the checkout's `memo`. */
            user_memo?: string;
            /** @description Memo supplied by the bank. */
            bank_memo?: string;
            /** @description When the transfer was created (a Timestamp, or an ISO 8601 string). */
            created?: components["schemas"]["TimestampOrString"];
            /** @description When the transfer completed (a Timestamp, or an ISO 8601 string). */
            completed?: components["schemas"]["TimestampOrString"];
            /** @description When the transfer was last updated (a Timestamp, or an ISO 8601 string). */
            updated?: components["schemas"]["TimestampOrString"];
            /** @description When the checkout expires (a Timestamp, or an ISO 8601 string). */
            expiry_date_time?: components["schemas"]["TimestampOrString"];
            /** @description Payment channel, as a string (the transaction record types it PaymentChannelType). */
            payment_channel?: string;
            /** @description The end user. */
            customer?: components["schemas"]["Customer"];
            /** @description The client's identifier of the invoice, cart or transaction. */
            reference_id?: string;
            /** @description Organisation id. */
            org_id?: string;
            /** @description Whether the end user granted consent. */
            consent_granted?: boolean;
            /** @description Further details. */
            additional_details?: components["schemas"]["AdditionalDetails"];
            /** @description Status code. */
            status_code?: string;
            /** @description Description of the status. */
            status_desc?: string;
            /** @description Settlement; appears in payloads when a settlement channel is used. */
            settlement?: components["schemas"]["Settlement"];
            /** @description Bank reference code; appears in payloads. */
            bank_ref_code?: string;
        };
        /** @description Transfer records, most recent first, one page at a time. */
        ListTransfersResponse: {
            /** @description The transfers (only the requested one when `transfer_id` was given). */
            transfers?: components["schemas"]["Transfer"][];
            /**
             * Format: int32
             * @description Number of the next page; 0 means there are no more pages.
             */
            next_page?: number;
            /**
             * Format: int32
             * @description Total number of records.
             */
            total_count?: number;
        };
        /**
         * @description What a two-factor token is for.
         *
         *     - `UnknownPurpose`: the purpose is not known.
         *     - `BankCredentialLogin`: log in to a bank account (`purpose_id` is then a bank credential id).
         *     - `FundTransferAuthentication`: login for a fund transfer.
         * @enum {string}
         */
        TFAPurpose: "UnknownPurpose" | "BankCredentialLogin" | "FundTransferAuthentication";
        /**
         * @description One-time-password generator of a two-factor challenge; sent as `option` to switch the generator (for example to SMS or MGENCODE) and as the `type` of each code in `multiple`.
         * @enum {string}
         */
        OptionalChallengeType: "OPTION_UNKNOWN" | "OPTION_SMS" | "OPTION_MGENCODE" | "OPTION_PIN";
        /**
         * @description One of several two-factor codes, for a challenge that needs more than one.
         * @example {
         *       "type": "OPTION_SMS",
         *       "code": "123456"
         *     }
         */
        MultipleCode: {
            /** @description Generator of this code. */
            type?: components["schemas"]["OptionalChallengeType"];
            /** @description The code the end user entered. */
            code?: string;
        };
        /** @description A two-factor token (or several codes) entered by the end user. */
        SubmitTfaTokenRequest: {
            /** @description What the token is for. */
            purpose?: components["schemas"]["TFAPurpose"];
            /** @description The object the token is for; a bank credential id when `purpose` is `BankCredentialLogin`. */
            purpose_id?: string;
            /** @description The code entered by the end user. */
            token?: string;
            /** @description The transfer the token belongs to. */
            transfer_id?: string;
            /** @description Switches the one-time-password generator (for example to SMS or MGENCODE). */
            option?: components["schemas"]["OptionalChallengeType"];
            /** @description Several codes, when the challenge needs more than one. */
            multiple?: components["schemas"]["MultipleCode"][];
        };
        /**
         * @description Whether the two-factor token reached the bank (the source names this enumeration `Status` of the TFA response). `ERROR` comes with `status_msg`.
         * @enum {string}
         */
        TFAStatus: "UNKNOWN_Status" | "ERROR" | "SUCCESS";
        /**
         * @description Whether the two-factor challenge succeeded.
         * @enum {string}
         */
        AuthStatus: "UNKNOWN_AuthStatus" | "INCOMPLETE" | "COMPLETE";
        /** @description Whether the token reached the bank and whether the challenge succeeded. */
        SubmitTfaTokenResponse: {
            /** @description Whether the token reached the bank. */
            status?: components["schemas"]["TFAStatus"];
            /** @description Whether the challenge succeeded. */
            auth_status?: components["schemas"]["AuthStatus"];
            /** @description Bank-specific reason of a failed challenge. */
            status_msg?: string;
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
        /** @description The request lacks the caller's credentials (the `x-api-key: <API_KEY>` header). */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The caller lacks permission. */
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
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    createCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCheckoutRequest"];
            };
        };
        responses: {
            /** @description The checkout is created; redirect the end user to `redirect_uri`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateCheckoutResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    listTransactions: {
        parameters: {
            query?: {
                /**
                 * @description Id of the transaction to return; without it, all transactions are returned.
                 * @example txn_01J1C5A7HD
                 */
                transaction_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transaction records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListTransactionsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    listTransfers: {
        parameters: {
            query?: {
                /**
                 * @description Internal id of the transfer to return; without it, all transfers are returned.
                 * @example trf_01J1C5A7HE
                 */
                transfer_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transfer records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListTransfersResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    submitTfaToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubmitTfaTokenRequest"];
            };
        };
        responses: {
            /** @description Whether the token reached the bank and whether the challenge succeeded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubmitTfaTokenResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    notifyTransactionCompleted: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description Identifies the delivery; when it equals the previous delivery's key, the listener does not process the callback again.
                 * @example 7d4e2c9a-5b1f-4c8e-9a3d-2f6b8e1c0a47
                 */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The callback. */
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description The listener received the callback. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
