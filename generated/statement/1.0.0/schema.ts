// Generated from specs/statement/1.0.0/openapi.yaml (statement@1.0.0) by `npm run generate` (scripts/generate.ts). Do not edit.
export interface paths {
    "/v1/statement-init": {
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
         * @description Starts a statement retrieval in the hosted flow and returns a short-lived `redirect_uri`; the client redirects the end user to it, and the hosted pages collect consent, credentials and two-factor tokens. Status updates follow by callback (webhook `statementStatusChanged`). `bank_codes` restricts the bank selection; in sandbox only `DUMMY_BANK_PERSONAL` is valid.
         */
        post: operations["initStatement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/statement-retrieval": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a retrieval with the end user's credentials
         * @description Starts a statement retrieval with consent and credentials the client collected itself (the core operations). Only statement data between `start_date` and `end_date` (YYYY-MM-DD) is returned, possibly zero records. The answer carries the session's `statement_id` and `status`; on `LOGIN_ERROR` the credentials are most likely wrong and `site_response` carries the bank's text; on `TFA_AWAIT` submit the end user's token with `POST /v1/tfa`. Other data may appear depending on the stage.
         */
        post: operations["retrieveStatement"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/statements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get statement data
         * @description Returns the statement data of the organisation's retrievals. `statement_ids` with a single id narrows the result to that session; without it, all statement data of the organisation is returned. Pull the data after the `COMPLETED` callback; without callbacks, polling with `statement_ids=<id>` returns the session's latest status.
         */
        get: operations["listStatements"];
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
         * @description Submits the end user's two-factor token for a retrieval session in status `TFA_AWAIT`: `purpose` is `BankCredentialLogin` and `purpose_id` the session's `statement_id`. The token is usually 6 digits; some banks need alphanumeric captcha codes. After a successful submission the session's status changes (see the callbacks or `GET /v1/statements`).
         */
        post: operations["submitStatementTfa"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    statementStatusChanged: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Statement status update
         * @description Sent in real time to the callback URL set in the dashboard whenever a retrieval session's status changes (`LOGIN`, `RECEIVED`, `RECORDS_AVAILABLE`, `COMPLETED` and the other statuses, see StatementStatus). After `COMPLETED` the client pulls the data with `GET /v1/statements`. A listener identifies repeated deliveries by the `Idempotency-Key` header: when it equals the previous one, the callback is not processed again.
         */
        post: operations["notifyStatementStatus"];
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
         * @description A bank, by its code. The statement retrieval part of the source defines no list of bank codes and
         *     does not say which banks it supports, so any string is accepted. The one value it names is
         *     `DUMMY_BANK_PERSONAL`, the only one valid in statement-init's `bank_codes` in sandbox. The
         *     document's BankCode list (payment initiation's source bank codes, such as `BCA_PERSONAL` or
         *     `BDO_PERSONAL`) is the nearest list, but the source does not say that it applies here.
         * @example DUMMY_BANK_PERSONAL
         */
        BankCode: string;
        /** @description Request to start a statement retrieval in the hosted flow. */
        InitStatementRequest: {
            /**
             * @description Country of the end user's bank.
             * @enum {string}
             */
            country?: "ID" | "PH" | "TH";
            /** @description The client's name as shown to the end user on the hosted pages. */
            organization_display_name?: string;
            /** @description Where the hosted page redirects the end user after success; also after a failure when `app_redirect_error_uri` is not set. */
            app_redirect_uri?: string;
            /** @description Where the hosted page redirects the end user after a failure. */
            app_redirect_error_uri?: string;
            /**
             * @description Seconds before the hosted page redirects the end user; 60 when omitted.
             * @default 60
             */
            app_redirect_duration?: number | string;
            /** @description When true, the end user may choose personal or corporate accounts. */
            corporate?: boolean;
            /** @description When true, the end user may store the credentials on their device. */
            remember_me?: boolean;
            /** @description The client's own reference, returned with any data retrieval. */
            external_id?: string;
            /** @description Restricts the bank selection to these banks. In sandbox only `DUMMY_BANK_PERSONAL` is valid. */
            bank_codes?: components["schemas"]["BankCode"][];
        };
        /** @description A started hosted-flow retrieval. */
        InitStatementResponse: {
            /** @description Id of the retrieval session. */
            statement_id?: string;
            /** @description Short-lived URL of the hosted flow; redirect the end user to it. */
            redirect_uri?: string;
        };
        /** @description The end user's bank login, submitted with `retrieveStatement`. */
        Credential: {
            /**
             * @description Kind of credential; defaults to `EMAIL` and may be omitted for the usual identifier-and-password logins.
             * @default EMAIL
             */
            credential_type?: string;
            /** @description The login identifier (for example the online-banking user name or e-mail address). */
            identifier?: string;
            /** @description The secret that goes with the identifier (for example the password). */
            secret?: string;
        };
        /** @description Request to start a statement retrieval with credentials the client collected itself. */
        RetrieveStatementRequest: {
            /** @description The end user's bank. */
            bank_code: components["schemas"]["BankCode"];
            /** @description The end user's bank login. */
            credential: components["schemas"]["Credential"];
            /** @description The client's own reference, returned with any data retrieval. */
            external_id?: string;
            /**
             * Format: date
             * @description First day of the period (YYYY-MM-DD); only statement data between start_date and end_date is returned, possibly zero records.
             */
            start_date?: string;
            /**
             * Format: date
             * @description Last day of the period (YYYY-MM-DD).
             */
            end_date?: string;
        };
        /**
         * @description Status of a statement retrieval session. Known values and their meanings:
         *
         *     - `INITIATED`: nothing to do; wait for the `COMPLETED` callback.
         *     - `PENDING`: the service is still connecting to the bank.
         *     - `LOGIN_ERROR`: the credentials are most likely wrong; the response carries the bank's
         *       `site_response`.
         *     - `TFA_AWAIT`: a two-factor token must be submitted (`POST /v1/tfa`).
         *     - `LOGIN`: login succeeded.
         *     - `RECEIVED`: retrieval is starting.
         *     - `RECORDS_AVAILABLE`: at least one statement was detected.
         *     - `COMPLETED`: retrieval finished and the data is available (`GET /v1/statements`).
         *
         *     After a successful token submission the status changes. The list is not complete, so any other
         *     string is accepted too.
         */
        StatementStatus: ("INITIATED" | "PENDING" | "LOGIN_ERROR" | "TFA_AWAIT" | "LOGIN" | "RECEIVED" | "RECORDS_AVAILABLE" | "COMPLETED") | string;
        /** @description A statement retrieval session. */
        StatementSession: {
            /** @description Id of the retrieval session, unique per session. */
            statement_id?: string;
            /** @description Status of the session. */
            status?: components["schemas"]["StatementStatus"];
        };
        /** @description The retrieval session: its id, its status and, on `LOGIN_ERROR`, the bank's text. Other data may appear depending on the stage of the retrieval. */
        RetrieveStatementResponse: ({
            /** @description Text from the bank's site, for example on `LOGIN_ERROR`. */
            site_response?: string;
        } & {
            [key: string]: unknown;
        }) & components["schemas"]["StatementSession"];
        /** @description Statement data of one retrieval session, as returned by `GET /v1/statements`: the session's `statement_id` and `status`, and further members that the source does not show. */
        StatementRecord: {
            [key: string]: unknown;
        } & components["schemas"]["StatementSession"];
        /** @description The statement data: the records of all the organisation's retrievals, or of the one narrowed to by `statement_ids`. Each record carries `statement_id` and `status`. */
        ListStatementsResponse: components["schemas"]["StatementRecord"][] | components["schemas"]["StatementRecord"];
        /**
         * @description What a two-factor token is for. Statement retrieval sends `BankCredentialLogin`.
         *
         *     - `UnknownPurpose`: the purpose is not known.
         *     - `BankCredentialLogin`: log in to a bank account (`purpose_id` is then the `statement_id`).
         *     - `FundTransferAuthentication`: login for a fund transfer (payment initiation).
         * @enum {string}
         */
        TFAPurpose: "UnknownPurpose" | "BankCredentialLogin" | "FundTransferAuthentication";
        /** @description A two-factor token for a retrieval session in status `TFA_AWAIT`. */
        SubmitStatementTfaRequest: {
            /**
             * @description What the token is for: `BankCredentialLogin`, the one purpose the source gives for statement retrieval.
             * @constant
             */
            purpose?: "BankCredentialLogin";
            /** @description The `statement_id` of the retrieval session the token is for. */
            purpose_id?: string;
            /** @description The code the end user entered; usually 6 digits, some banks need alphanumeric captcha codes. */
            token?: string;
        };
        /** @description The answer to a token submission. */
        SubmitStatementTfaResponse: unknown;
    };
    responses: {
        /** @description The body is malformed or does not match the expected request. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The request lacks the caller's credentials (`x-api-key: <API_KEY>`). */
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
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    initStatement: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InitStatementRequest"];
            };
        };
        responses: {
            /** @description The session is started. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InitStatementResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    retrieveStatement: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RetrieveStatementRequest"];
            };
        };
        responses: {
            /** @description The session and its status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetrieveStatementResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    listStatements: {
        parameters: {
            query?: {
                /**
                 * @description A statement id; narrows the result to that retrieval session. Without it, all statement data of the organisation is returned.
                 * @example st_01J9Z4M2RZ
                 */
                statement_ids?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The statement data. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListStatementsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    submitStatementTfa: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubmitStatementTfaRequest"];
            };
        };
        responses: {
            /** @description Success (status 200); the response body is not shown. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubmitStatementTfaResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalServerError"];
        };
    };
    notifyStatementStatus: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Identifies the delivery; a repeated delivery carries the same key, and the listener does not process it again.
                 * @example 5d0f7a4e-2c1b-4b8e-9f3a-7e6d5c4b3a21
                 */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The status update. */
        requestBody?: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description The listener received the update. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
