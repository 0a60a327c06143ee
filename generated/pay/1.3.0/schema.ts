// Generated from specs/pay/1.3.0/openapi.yaml (pay@1.3.0) by `npm run generate` (scripts/generate.ts). Do not edit.
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
         * @description Registers a bank account that receives the merchant's funds. With `set_default: true` it becomes the merchant's default destination account. `biller_id` is needed for Thai banks.
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
         * @description Replaces the details of a destination account. The body carries the create fields and the account id.
         */
        put: operations["updateDepositAccount"];
        post?: never;
        /**
         * Delete a destination account
         * @description Deletes a destination account of the merchant (release 1.3.0).
         */
        delete: operations["deleteDepositAccount"];
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
         * @description Lists the banks of the merchant's country that can hold a destination account, as a map from integer bank code to bank name.
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
         * Get the merchant
         * @description Returns the caller's merchant profile, its fee setting and its destination accounts. The destination accounts come as a map from account id to account under a member whose name the source does not show.
         */
        get: operations["getMerchant"];
        put?: never;
        /**
         * Register a merchant
         * @description Registers the merchant's business information. `webhook_url`, when set, is called whenever an invoice is paid.
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
         * Update the merchant
         * @description Updates the merchant's profile, notifications and fee setting. `remove_logo: true` removes the logo.
         */
        put: operations["updateMerchant"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/template": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List invoice templates
         * @description Lists the merchant's invoice templates (release 1.3.0).
         */
        get: operations["listTemplates"];
        put?: never;
        /**
         * Create an invoice template
         * @description Saves customer, description, destination account and amount as a template for later invoices (release 1.3.0).
         */
        post: operations["createTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/template/{template_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Template id.
                 * @example tpl_01HZX4A2B
                 */
                template_id: string;
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Update an invoice template
         * @description Replaces a template's fields. The body carries the template id and the create fields.
         */
        put: operations["updateTemplate"];
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
         * @description Lists the merchant's invoices with their payment status, to reconcile payments, together with a CSV file of them. `next` names the invoice id of the next batch when a limit was reached.
         */
        get: operations["listInvoices"];
        put?: never;
        /**
         * Create an invoice
         * @description Creates an invoice and returns its single-use payment URL, which the end user opens to pay. `child_amounts` splits the invoice into child invoices (returned in `children`); `payment_method` chooses another payment method (release 1.3.0); `sub_merchant_id` lets a platform merchant invoice for a sub-merchant. The response member `message` is deprecated.
         */
        post: operations["createInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoice/{invoice_id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Invoice id.
                 * @example inv_01HZX8F6M
                 */
                invoice_id: string;
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Update the status of a flagged invoice
         * @description Moves a flagged invoice to the status requested in the body. `notes` and `attachments` accompany the update. Returns the updated invoice. Only a flagged invoice can be updated.
         */
        put: operations["updateInvoiceStatus"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoice/{invoice_id}/report": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Invoice id.
                 * @example inv_01HZX6D4E
                 */
                invoice_id: string;
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Report a problem with an invoice
         * @description Reports the invoice as problematic, with evidence and optionally the status the merchant expected. The service operator verifies the report.
         */
        put: operations["reportInvoice"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/platform-merchant/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Approve a signup request
         * @description Approves a merchant's request to join the platform merchant as a sub-merchant.
         */
        put: operations["approveSignupRequest"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/platform-merchant/deny": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Deny a signup request
         * @description Denies a merchant's request to join the platform merchant, with a note giving the reason.
         */
        put: operations["denySignupRequest"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/platform-merchant/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List signup requests
         * @description Lists the signup requests sent to the platform merchant, with the number matching the filter.
         */
        get: operations["listSignupRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/platform-merchant/sub-list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List sub-merchants
         * @description Lists the platform merchant's sub-merchants with their paid invoices and volume in the requested period, and the totals.
         */
        get: operations["listSubMerchants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/platform-merchant/unlink": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Unlink a sub-merchant
         * @description Removes a sub-merchant from the platform merchant.
         */
        put: operations["unlinkSubMerchant"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sub-merchant": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask to join a platform merchant
         * @description Sends a request to join a platform merchant as its sub-merchant; the platform merchant approves or denies it.
         */
        post: operations["createSubMerchantSignup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    invoicePaid: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Invoice paid
         * @description Sent to the merchant's `webhook_url` (set with `createMerchant` or `updateMerchant`) whenever one of its invoices is paid.
         */
        post: operations["notifyInvoicePaid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description Fields of a destination bank account, as sent to create or update it. */
        DepositAccountFields: {
            /**
             * Format: int32
             * @description Bank code used inside the service (see `listSupportedBanks`).
             */
            bank_code?: number;
            /** @description Account number. */
            account_number?: string;
            /** @description Account holder first name. */
            account_first_name?: string;
            /** @description Account holder middle name. */
            account_middle_name?: string;
            /** @description Account holder last name. */
            account_last_name?: string;
            /** @description `true` makes this account the merchant's default destination account. */
            set_default?: boolean;
            /** @description Biller id; required for Thai banks. */
            biller_id?: string;
            /** @description Id of the account in another payment method. */
            settlement_id?: string;
            /** @description Alias id of the account in another payment method. */
            settlement_alias_id?: string;
        };
        /** @description Request to register a destination bank account. */
        CreateDepositAccountRequest: components["schemas"]["DepositAccountFields"];
        /** @description The registered destination account. */
        CreateDepositAccountResponse: {
            /** @description Id of the new destination account. */
            account_id?: string;
        };
        /** @description Request to update a destination bank account; the create fields plus the account id. */
        UpdateDepositAccountRequest: {
            /** @description Id of the account to update (the same as the path parameter). */
            account_id?: string;
        } & components["schemas"]["DepositAccountFields"];
        /** @description An empty JSON object, the whole response of a successful call. */
        EmptyObject: Record<string, never>;
        /** @description Banks supported in the merchant's country, as a map from the integer bank code (written as a JSON object key) to the bank name. */
        SupportedBanks: {
            [key: string]: string;
        };
        /**
         * @description A destination bank account of the merchant.
         * @example {
         *       "id": "acc_01HZX3K9Q",
         *       "bank": "Example Bank",
         *       "account_number": "0001234567",
         *       "first_name": "Siti",
         *       "last_name": "Rahma",
         *       "bank_code": 14
         *     }
         */
        Account: {
            /** @description Account id. */
            id?: string;
            /** @description Name of the destination bank. */
            bank?: string;
            /** @description Account number. */
            account_number?: string;
            /** @description Biller id; required for Thai banks. */
            biller_id?: string;
            /** @description Account holder first name. */
            first_name?: string;
            /** @description Account holder last name. */
            last_name?: string;
            /**
             * Format: int32
             * @description Bank code used inside the service (see `listSupportedBanks`).
             */
            bank_code?: number;
            /** @description Id of the account in another payment method. */
            settlement_id?: string;
            /** @description Alias id of the account in another payment method. */
            settlement_alias_id?: string;
        };
        /** @description Destination accounts of the merchant keyed by account id. */
        DestinationAccountMap: {
            [key: string]: components["schemas"]["Account"];
        };
        /**
         * @description A money amount as a currency code and a value, both strings.
         * @example {
         *       "cur": "IDR",
         *       "amt": "150000"
         *     }
         */
        Amount: {
            /** @description Currency code. */
            cur?: string;
            /** @description Amount value, as a string. */
            amt?: string;
        };
        /** @description Amounts earned by the merchant, one entry per currency. */
        ValueSummary: {
            /** @description Amounts earned in the current year to date. */
            year?: components["schemas"]["Amount"][];
            /** @description Amounts earned in the previous year. */
            prev_year?: components["schemas"]["Amount"][];
            /** @description Amounts earned in the current month to date. */
            month?: components["schemas"]["Amount"][];
        };
        /**
         * @description A merchant fee setting.
         * @example {
         *       "fee_type": "Percentage",
         *       "fee_val": 1.5
         *     }
         */
        Fee: {
            /**
             * @description Kind of fee: `Fixed` (an amount in minor units) or `Percentage` (a percentage).
             * @enum {string}
             */
            fee_type?: "Fixed" | "Percentage";
            /**
             * Format: float
             * @description Fee value. For a `Fixed` fee, in minor units (one unit is input as 100). For a `Percentage` fee, a float with at most 2 decimal digits. The 2-digit limit is stated here and not enforced by the schema: `multipleOf: 0.01` over binary floats rejects valid values such as 1.15 in the JSON Schema validators the mock and the tests use, and the limit applies only when `fee_type` is `Percentage`.
             */
            fee_val?: number;
        };
        /** @description The merchant's profile (response of `GET /v1/merchant`). Besides the listed members the response carries the merchant's destination accounts as a map from account id to Account, under a member whose name the source does not show; any member not listed here is accepted as that map. */
        Merchant: {
            /** @description Business name. */
            business_name?: string;
            /**
             * Format: int32
             * @deprecated
             * @description Deprecated; the source names no replacement.
             */
            active_url_count?: number;
            /**
             * @deprecated
             * @description Deprecated list of destination accounts; the source names no replacement.
             */
            accounts?: components["schemas"]["Account"][];
            /**
             * @deprecated
             * @description Deprecated summary of amounts earned; the source names no replacement.
             */
            summary?: components["schemas"]["ValueSummary"];
            /** @description Merchant id. */
            merchant_id?: string;
            /** @description Id of the default destination account. */
            default_account_id?: string;
            /** @description Merchant country. */
            country?: string;
            /** @description Business e-mail address; may differ from the e-mail address used at registration. */
            business_email?: string;
            /** @description Mobile country code. */
            mobile_country_code?: string;
            /** @description Mobile number. */
            mobile_number?: string;
            /**
             * Format: int32
             * @description Default invoice expiry, in hours.
             */
            url_expiry?: number;
            /** @description Logo URL. */
            logo_url?: string;
            /** @description QR code URL. */
            qr?: string;
            /** @description Merchant status. */
            status?: string;
            /** @description Subscription plan. */
            plan?: string;
            /** @description Webhook URL, called when an invoice is paid (see the `invoicePaid` webhook). */
            webhook_url?: string;
            /**
             * @deprecated
             * @description Deprecated; the source names no replacement (`short_url` is the merchant's short URL).
             */
            short_code?: string;
            /** @description Merchant short URL. */
            short_url?: string;
            /** @description Merchant type. */
            merchant_type?: string;
            /** @description Merchant fee. */
            merchant_fee?: components["schemas"]["Fee"];
            /** @description Invitation URL; only for a platform merchant. */
            invitation_url?: string;
        };
        /**
         * Format: byte
         * @description Binary content (the source types it `bytes`).
         */
        Bytes: string;
        /** @description Request to register a merchant. */
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
            /**
             * Format: int32
             * @description Default invoice expiry, in hours.
             */
            url_expiry?: number;
            /** @description Logo image. */
            logo?: components["schemas"]["Bytes"];
            /** @description QR code URL. */
            qr?: string;
            /** @description URL the service calls when an invoice is paid (see the `invoicePaid` webhook). */
            webhook_url?: string;
            /** @description Switches merchant notifications. */
            notification?: string;
        };
        /** @description Request to update a merchant. */
        UpdateMerchantRequest: {
            /**
             * Format: int32
             * @description Default invoice expiry, in hours.
             */
            url_expiry?: number;
            /** @description Id of the merchant to update (the same as the path parameter). */
            merchant_id?: string;
            /** @description Business name. */
            name?: string;
            /** @description E-mail address. */
            email?: string;
            /** @description Mobile country code. */
            mobile_country_code?: string;
            /** @description Mobile number. */
            mobile_number?: string;
            /** @description Logo image. */
            logo?: components["schemas"]["Bytes"];
            /** @description QR code URL. */
            qr?: string;
            /** @description URL the service calls when an invoice is paid (see the `invoicePaid` webhook). */
            webhook_url?: string;
            /** @description `true` removes the logo. */
            remove_logo?: boolean;
            /** @description Switches merchant notifications. */
            notification?: string;
            /** @description Merchant fee setting. */
            merchant_fee?: components["schemas"]["Fee"];
        };
        /** @description An invoice template. */
        Template: {
            /** @description Template id. */
            template_id?: string;
            /** @description Template name. */
            template_name?: string;
            /** @description Customer name for invoices made from the template. */
            customer_name?: string;
            /** @description Description. */
            description?: string;
            /** @description Remarks. */
            remarks?: string;
            /** @description Destination account id. */
            destination_account_id?: string;
            /** @description Amount. */
            amount?: components["schemas"]["Amount"];
        };
        /** @description The merchant's invoice templates. */
        TemplateList: {
            /** @description Templates. */
            template?: components["schemas"]["Template"][];
        };
        /** @description Fields of an invoice template, as sent to create or update it. */
        TemplateFields: {
            /** @description Template name. */
            template_name?: string;
            /** @description Customer name for invoices made from the template. */
            customer_name?: string;
            /** @description Description. */
            description?: string;
            /** @description Remarks. */
            remarks?: string;
            /** @description Destination account id. */
            destination_account_id?: string;
            /** @description Amount. */
            amount?: components["schemas"]["Amount"];
        };
        /** @description Request to create an invoice template. */
        CreateTemplateRequest: components["schemas"]["TemplateFields"];
        /** @description The created template. */
        CreateTemplateResponse: {
            /** @description Id of the new template. */
            template_id?: string;
        };
        /** @description Request to update an invoice template; the create fields plus the template id. */
        UpdateTemplateRequest: {
            /** @description Id of the template to update (the same as the path parameter). */
            template_id?: string;
        } & components["schemas"]["TemplateFields"];
        /**
         * @description A point in time as whole seconds and nanoseconds (release 1.3.0; release 1.2.0 used ISO 8601 strings).
         * @example {
         *       "seconds": 1763719200,
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
         * @description Payment status of an invoice.
         *
         *     - `Created`: the payment URL is created.
         *     - `Failed`: the URL was accessed by the customer and the payment did not complete.
         *     - `Success`: the URL was accessed by the customer and the payment completed.
         *     - `Expired`: the URL expired and the payment was not completed.
         *     - `Flagged`: release 1.3.0 only. A flagged invoice can be moved to an end status with
         *       `PUT /v1/invoice/{invoice_id}` (operation `updateInvoiceStatus`); the source describes
         *       no further meaning.
         * @enum {string}
         */
        PaymentStatus: "Created" | "Failed" | "Success" | "Expired" | "Flagged";
        /**
         * @description Payment method of an invoice.
         *
         *     - `UnknownPaymentMethod`: the method is not known.
         *     - `Native`: the service's own payment method (bank transfer through the payment URL).
         *     - `ShopeePay`: the additional payment method of release 1.3.0.
         * @enum {string}
         */
        PaymentMethod: "UnknownPaymentMethod" | "Native" | "ShopeePay";
        /** @description A child invoice of a split invoice (release 1.3.0). */
        Child: {
            /** @description Child invoice id. */
            invoice_id?: string;
            /** @description Payment URL of the child invoice. */
            url?: string;
            /** @description Payment status of the child invoice. */
            status?: components["schemas"]["PaymentStatus"];
            /** @description Amount, fee included. */
            amount?: components["schemas"]["Amount"];
            /** @description Creation time. */
            created?: components["schemas"]["Timestamp"];
            /** @description Payment time. */
            paid_date?: components["schemas"]["Timestamp"];
            /** @description Bank reference number. */
            reference_no?: string;
            /** @description Id of the payment-initiation transaction. */
            transaction_id?: string;
            /** @description Expiry time of the child invoice's payment URL. */
            expiry?: components["schemas"]["Timestamp"];
            /** @description User note. */
            user_note_1?: string;
            /** @description User note. */
            user_note_2?: string;
            /** @description Amount without fee. */
            actual_amount?: components["schemas"]["Amount"];
            /** @description Fee of the child invoice. */
            fee_amount?: components["schemas"]["Amount"];
            /** @description Sub-merchant of the child invoice. */
            sub_merchant_id?: string;
        };
        /** @description An invoice and its payment status (the source names this resource URLStatus). */
        Invoice: {
            /** @description Invoice id. */
            invoice_id?: string;
            /** @description Single-use payment URL. */
            url?: string;
            /** @description Payment status. */
            status?: components["schemas"]["PaymentStatus"];
            /** @description Total amount, fee included: what the end user pays. */
            amount?: components["schemas"]["Amount"];
            /** @description Ordered item. */
            item_id?: string;
            /** @description Description. */
            description?: string;
            /** @description Additional remarks. */
            remarks?: string;
            /** @description Creation time. */
            created?: components["schemas"]["Timestamp"];
            /** @description Payment time. */
            paid_date?: components["schemas"]["Timestamp"];
            /** @description Customer name. */
            customer_name?: string;
            /** @description Destination account of the invoice. */
            destination_account_id?: string;
            /** @description Bank reference number. */
            reference_no?: string;
            /** @description Id of the payment-initiation transaction. */
            transaction_id?: string;
            /** @description QR data for Thai payment. */
            raw_qr_data?: string;
            /** @description Additional attachments. */
            attachments?: string;
            /** @description Payment method. */
            payment_method?: components["schemas"]["PaymentMethod"];
            /** @description Child invoices of a split invoice. */
            children?: components["schemas"]["Child"][];
            /** @description User note. */
            user_note_1?: string;
            /** @description User note. */
            user_note_2?: string;
            /** @description Amount without fee: what the merchant receives. */
            actual_amount?: components["schemas"]["Amount"];
            /** @description Fee of the invoice. */
            fee_amount?: components["schemas"]["Amount"];
            /** @description Sub-merchant of the invoice. */
            sub_merchant_id?: string;
        };
        /** @description A CSV file delivered with the invoice list. */
        CsvFile: {
            /** @description File name. */
            filename?: string;
            /** @description File content. */
            data?: components["schemas"]["Bytes"];
            /**
             * Format: int32
             * @description File size.
             */
            size?: number;
        };
        /** @description The merchant's invoices for a period. */
        InvoiceList: {
            /** @description Start of the period. */
            start?: components["schemas"]["Timestamp"];
            /** @description End of the period. */
            end?: components["schemas"]["Timestamp"];
            /** @description Next batch. Release 1.3.0 gives only the name and the type; in release 1.2.0 it is the invoice id of the next batch when a limit was reached. */
            next?: string;
            /** @description Invoices. */
            urls?: components["schemas"]["Invoice"][];
            /** @description The invoices as a CSV file. */
            file?: components["schemas"]["CsvFile"];
        };
        /** @description Request to create an invoice with a single-use payment URL. */
        CreateInvoiceRequest: {
            /** @description Merchant id. */
            merchant_id?: string;
            /** @description Destination account id. */
            account_id?: string;
            /** @description Amount. */
            amount?: components["schemas"]["Amount"];
            /** @description Ordered item. */
            item_id?: string;
            /** @description Description. */
            description?: string;
            /** @description Remarks. */
            remarks?: string;
            /** @description Customer name. */
            customer_name?: string;
            /**
             * Format: int32
             * @description Expiry of the requested URL, in hours.
             */
            expiry?: number;
            /** @description Attachments. */
            attachments?: components["schemas"]["Bytes"];
            /** @description Payment method. */
            payment_method?: components["schemas"]["PaymentMethod"];
            /** @description Amounts of the child invoices; makes a split invoice. */
            child_amounts?: components["schemas"]["Amount"][];
            /** @description Sub-merchant id; lets a platform merchant create the invoice for a sub-merchant. */
            sub_merchant_id?: string;
        };
        /** @description The created invoice's payment URL. */
        CreateInvoiceResponse: {
            /** @description Single-use payment URL. */
            url?: string;
            /** @description Expiry time of the URL. */
            expiry?: components["schemas"]["Timestamp"];
            /**
             * @deprecated
             * @description Deprecated message; the source names no replacement.
             */
            message?: string;
            /** @description Invoice id. */
            invoice_id?: string;
            /** @description Id of the payment-initiation transaction. */
            transaction_id?: string;
            /** @description Child invoices; present when the invoice is split. */
            children?: components["schemas"]["Child"][];
        };
        /** @description Request to move a flagged invoice to a status. */
        UpdateInvoiceStatusRequest: {
            /** @description Id of the invoice (the same as the path parameter). */
            invoice_id?: string;
            /** @description Status requested for the flagged invoice. */
            status?: components["schemas"]["PaymentStatus"];
            /** @description Notes accompanying the update. */
            notes?: string;
            /** @description Attachments accompanying the update. */
            attachments?: components["schemas"]["Bytes"];
        };
        /** @description The updated invoice. */
        UpdateInvoiceStatusResponse: {
            /** @description The invoice after the update. */
            invoice?: components["schemas"]["Invoice"];
        };
        /** @description Report of a problematic invoice, verified by the service operator. */
        ReportInvoiceRequest: {
            /** @description Id of the invoice (the same as the path parameter). */
            invoice_id?: string;
            /** @description Evidence. */
            attachments?: components["schemas"]["Bytes"];
            /** @description Description of the problem. */
            description?: string;
            /** @description Expected status (optional). */
            status?: string;
        };
        /** @description Approval of a sub-merchant's signup request. */
        ApproveSignupRequest: {
            /** @description Id of the signup request. */
            request_id?: string;
        };
        /** @description Denial of a sub-merchant's signup request. */
        DenySignupRequest: {
            /** @description Id of the signup request. */
            request_id?: string;
            /** @description Reason for the denial. */
            note?: string;
        };
        /** @description A sub-merchant's request to join a platform merchant. */
        SignupRequest: {
            /** @description Signup request id. */
            request_id?: string;
            /** @description Name of the applicant. */
            name?: string;
            /** @description E-mail address of the applicant. */
            email_address?: string;
            /** @description Mobile country code. */
            mobile_country_code?: string;
            /** @description Mobile number. */
            mobile_number?: string;
            /** @description Status of the signup request. */
            status?: string;
            /** @description The platform merchant's note. */
            note?: string;
            /** @description The system's reason. */
            reason?: string;
        };
        /** @description Signup requests matching the filter. */
        SignupRequestList: {
            /** @description Signup requests. */
            signup_requests?: components["schemas"]["SignupRequest"][];
            /**
             * Format: int32
             * @description Number of signup requests matching the filter.
             */
            total?: number;
        };
        /** @description A sub-merchant of a platform merchant, with its figures for the requested period. */
        SubMerchant: {
            /** @description Sub-merchant id. */
            id?: string;
            /** @description Sub-merchant name. */
            name?: string;
            /**
             * Format: int32
             * @description Number of paid invoices in the requested period.
             */
            paid_count?: number;
            /** @description Invoice volume in the requested period. */
            volume?: components["schemas"]["Amount"];
            /** @description E-mail address. */
            email?: string;
            /** @description Mobile number. */
            mobile_number?: string;
            /** @description Mobile country code. */
            mobile_country_code?: string;
            /** @description Creation time. */
            created?: components["schemas"]["Timestamp"];
        };
        /** @description Sub-merchants of the platform merchant with their totals. */
        SubMerchantList: {
            /** @description Sub-merchants. */
            merchant_list?: components["schemas"]["SubMerchant"][];
            /**
             * Format: int32
             * @description Number of sub-merchants.
             */
            total_merchant?: number;
            /**
             * Format: int32
             * @description Number of paid invoices.
             */
            total_paid?: number;
            /** @description Total invoice volume. */
            total_volume?: components["schemas"]["Amount"];
        };
        /** @description Request to unlink a sub-merchant from the platform merchant. */
        UnlinkSubMerchantRequest: {
            /** @description Id of the sub-merchant. */
            sub_merchant_id?: string;
        };
        /** @description A merchant's request to join a platform merchant as a sub-merchant. */
        CreateSubMerchantSignupRequest: {
            /** @description Id of the platform merchant to join. */
            platform_merchant_id?: string;
            /** @description Name of the applicant. */
            name?: string;
            /** @description E-mail address of the applicant. */
            email_address?: string;
            /** @description Mobile number of the applicant. */
            mobile_number?: string;
        };
        /** @description The created signup request. */
        CreateSubMerchantSignupResponse: {
            /** @description Id of the signup request. */
            request_id?: string;
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
        /** @description Request executed successfully; the body is an empty object. */
        EmptyObject: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["EmptyObject"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
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
            200: components["responses"]["EmptyObject"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    deleteDepositAccount: {
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
        requestBody?: never;
        responses: {
            200: components["responses"]["EmptyObject"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getMerchant: {
        parameters: {
            query?: never;
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
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
            200: components["responses"]["EmptyObject"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
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
            200: components["responses"]["EmptyObject"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    listTemplates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The templates. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    createTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTemplateRequest"];
            };
        };
        responses: {
            /** @description The template is created. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateTemplateResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    updateTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Template id.
                 * @example tpl_01HZX4A2B
                 */
                template_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTemplateRequest"];
            };
        };
        responses: {
            200: components["responses"]["EmptyObject"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    listInvoices: {
        parameters: {
            query?: never;
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
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
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    updateInvoiceStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Invoice id.
                 * @example inv_01HZX8F6M
                 */
                invoice_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateInvoiceStatusRequest"];
            };
        };
        responses: {
            /** @description The updated invoice. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdateInvoiceStatusResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    reportInvoice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description Invoice id.
                 * @example inv_01HZX6D4E
                 */
                invoice_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReportInvoiceRequest"];
            };
        };
        responses: {
            200: components["responses"]["EmptyObject"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    approveSignupRequest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApproveSignupRequest"];
            };
        };
        responses: {
            200: components["responses"]["EmptyObject"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    denySignupRequest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DenySignupRequest"];
            };
        };
        responses: {
            200: components["responses"]["EmptyObject"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    listSignupRequests: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The signup requests. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignupRequestList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    listSubMerchants: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sub-merchants and totals. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubMerchantList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    unlinkSubMerchant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UnlinkSubMerchantRequest"];
            };
        };
        responses: {
            200: components["responses"]["EmptyObject"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    createSubMerchantSignup: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSubMerchantSignupRequest"];
            };
        };
        responses: {
            /** @description The signup request is created. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateSubMerchantSignupResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    notifyInvoicePaid: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The notification. */
        requestBody?: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description The merchant's endpoint received the notification. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
