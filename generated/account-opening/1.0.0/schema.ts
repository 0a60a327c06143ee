// Generated from specs/account-opening/1.0.0/openapi.yaml (account-opening@1.0.0) by `npm run generate` (scripts/generate.ts). Do not edit.
export interface paths {
    "/v1/product-list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List banks and their savings products
         * @description Lists the banks that offer online account opening, each with its savings products (interest, facilities, requirements, costs).
         */
        get: operations["listBankProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/open-account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit an account-opening application
         * @description Submits an application to open a savings account for a customer at a bank. The answer gives the application id (for the status inquiry) and the URL where the customer continues the process; the optional `reference_id` is echoed.
         */
        post: operations["openAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/status-inquiry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Query the status of an application
         * @description Returns the status of an account-opening application (PENDING, SENT, PROCESSING, CREATED, REJECTED, or UNKNOWN_STATUS for an unknown or invalid one) and the `reference_id` it was submitted with.
         */
        post: operations["inquireApplicationStatus"];
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
        /** @description A savings product of a bank. */
        BankProduct: {
            /** @description Product code. */
            code?: string;
            /** @description Product name. */
            name?: string;
            /** @description Product description. */
            description?: string;
            /** @description Interest rate, as text. */
            interest?: string;
            /** @description Facilities of the product. */
            facilities?: string[];
            /** @description Requirements to open the product. */
            requirements?: string[];
            /** @description Costs of the product. */
            costs?: string[];
        };
        /** @description A bank offering online account opening, with its savings products. */
        Bank: {
            /** @description Internal bank code. */
            code?: string;
            /** @description Bank name. */
            name?: string;
            /** @description URL of the bank's logo. */
            logo_url?: string;
            /** @description The bank's savings products. */
            products?: components["schemas"]["BankProduct"][];
        };
        /** @description The banks offering online account opening, with their products. */
        ListBankProductsResponse: {
            /** @description The banks. */
            banks?: components["schemas"]["Bank"][];
        };
        /**
         * @description Bank of an account-opening application: `UNKNOWN_BANK`, `DUMMY_BANK` or `MANDIRI`.
         * @enum {string}
         */
        BankCode: "UNKNOWN_BANK" | "DUMMY_BANK" | "MANDIRI";
        /**
         * @description Savings product of an account-opening application: `UNKNOWN_PRODUCT`, `DUMMY_PRODUCT` or `MANDIRI_NOW`.
         * @enum {string}
         */
        BankProductCode: "UNKNOWN_PRODUCT" | "DUMMY_PRODUCT" | "MANDIRI_NOW";
        /** @description The customer applying for the account. */
        UserDetail: {
            /** @description Customer name. */
            user_name?: string;
            /** @description Customer phone number. */
            user_phone_number?: string;
            /** @description Customer e-mail address. */
            user_email?: string;
        };
        /** @description An account-opening application. The source marks `reference_id` optional and says nothing of the other fields' requiredness, so every field is optional here. */
        OpenAccountRequest: {
            /** @description The platform's own reference for the application (optional); echoed in the answers. */
            reference_id?: string;
            /** @description Bank to open the account at. */
            bank_code?: components["schemas"]["BankCode"];
            /** @description Savings product to open. */
            product_code?: components["schemas"]["BankProductCode"];
            /** @description The customer. */
            user_detail?: components["schemas"]["UserDetail"];
        };
        /** @description The submitted application. */
        OpenAccountResponse: {
            /** @description Id of the application; query its status with it. */
            application_id?: string;
            /** @description URL where the customer continues the account-opening process. */
            application_url?: string;
            /** @description The reference_id of the request, echoed. */
            reference_id?: string;
        };
        /** @description The application to query. */
        InquireApplicationStatusRequest: {
            /** @description Id of the application, as returned by open-account. */
            application_id?: string;
        };
        /**
         * @description Status of an account-opening application (the source's `Status` type).
         *
         *     - `UNKNOWN_STATUS`: unknown or invalid.
         *     - `PENDING`: in queue, will be processed.
         *     - `SENT`: application data submitted.
         *     - `PROCESSING`: being processed by the bank.
         *     - `CREATED`: account created.
         *     - `REJECTED`: application rejected.
         * @enum {string}
         */
        ApplicationStatus: "UNKNOWN_STATUS" | "PENDING" | "SENT" | "PROCESSING" | "CREATED" | "REJECTED";
        /** @description The status of the application. */
        InquireApplicationStatusResponse: {
            /** @description Status of the application. */
            status?: components["schemas"]["ApplicationStatus"];
            /** @description The reference_id given when the application was submitted, echoed. */
            reference_id?: string;
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
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listBankProducts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The banks with their products. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListBankProductsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    openAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OpenAccountRequest"];
            };
        };
        responses: {
            /** @description The application is submitted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenAccountResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    inquireApplicationStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InquireApplicationStatusRequest"];
            };
        };
        responses: {
            /** @description The status of the application. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InquireApplicationStatusResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
}
