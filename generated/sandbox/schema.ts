// Generated from src/sandbox/openapi.yaml (the sandbox control API) by `npm run generate` (scripts/generate.ts). Do not edit.
export interface paths {
    "/_sandbox/openapi.yaml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description Returns this OpenAPI document (YAML). Needs no credential.
         */
        get: operations["getSandboxDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What this sandbox simulates
         * @description Describes the API this mock simulates in sandbox mode: its declaration's resources (id member, statuses, expiry rule, callbacks, each with the source it comes from), what the sandbox does for each operation (`static` for an operation that keeps the spec's example), the error statuses each operation declares, the webhooks, the bounds and the retry policy. Needs no credential. The operator's settings (`settings`: the callback allow-list, the memory budget, the eviction window and the delivery queue's bounds) are shown only to a call that carries the operator's token in `X-Sandbox-Operator-Token`; a token that is not the operator's answers 401.
         */
        get: operations["getSandbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your state
         * @description The records, clock, callback URLs, queued errors and delivery count of the credential the call carries.
         */
        get: operations["getState"];
        put?: never;
        post?: never;
        /**
         * Reset your state
         * @description Forgets everything kept for the credential the call carries (records, clock, callback URLs, queued errors, delivery log).
         */
        delete: operations["resetState"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/state/all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every credential's state, in summary
         * @description One line per credential that has state on this mock: its label (the first 12 hex digits of its hash, never the credential), its record count, clock offset, queued errors and delivery log length. Records of other credentials are not shown. Only for the sandbox's operator: it exists only when an operator token is set, and needs it in `X-Sandbox-Operator-Token`.
         */
        get: operations["listStates"];
        put?: never;
        post?: never;
        /**
         * Reset every credential's state
         * @description Forgets everything kept for every credential on this mock and cancels their queued callbacks. Only for the sandbox's operator: it exists only when an operator token is set, and needs it in `X-Sandbox-Operator-Token`. A test resets its own state with `resetState`.
         */
        delete: operations["resetAllStates"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/resources/{resource}/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A resource of the API's sandbox declaration (`GET /_sandbox` lists them), e.g. `invoice`.
                 * @example invoice
                 */
                resource: components["parameters"]["Resource"];
                /**
                 * @description The record's id, as the API returned it.
                 * @example inv_7Q2M4K9D1X8C3V6B
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        /**
         * One record
         * @description A record of the credential, rendered by its resource's schema.
         */
        get: operations["getResource"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/resources/{resource}/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A resource of the API's sandbox declaration (`GET /_sandbox` lists them), e.g. `invoice`.
                 * @example invoice
                 */
                resource: components["parameters"]["Resource"];
                /**
                 * @description The record's id, as the API returned it.
                 * @example inv_7Q2M4K9D1X8C3V6B
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a record to a status
         * @description Moves the record to `status` by the move of its lifecycle that goes there from its current status (`GET /_sandbox` lists each resource's actions and final statuses), with the effects its declaration names: members set, one event (its id in the answer) and the callbacks of that event (queued for delivery; their log entries are in the answer). A move the lifecycle does not allow, or any move out of a final status, is refused 409 with `allowed`, the moves allowed from here. A move to the status the record already has changes nothing and sends nothing. `deliver_twice` delivers each callback twice with the same Idempotency-Key, to test a receiver's idempotency.
         */
        post: operations["updateResourceStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/resources/{resource}/{id}/actions/{action}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A resource of the API's sandbox declaration (`GET /_sandbox` lists them), e.g. `invoice`.
                 * @example invoice
                 */
                resource: components["parameters"]["Resource"];
                /**
                 * @description The record's id, as the API returned it.
                 * @example inv_7Q2M4K9D1X8C3V6B
                 */
                id: components["parameters"]["Id"];
                /**
                 * @description An action of the resource's lifecycle (`GET /_sandbox` lists them), e.g. `pay`, `fail`, `expire`, `cancel`.
                 * @example pay
                 */
                action: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take a named action on a record
         * @description The named move of the record's lifecycle (as Stripe's test helpers are): `pay` an invoice, `fail` or `expire` it, `cancel` a checkout, `settle` a flagged one, `approve` an application... with the same effects as the status move to its target status. An action not allowed from the record's status is refused 409 with `allowed`, the actions allowed from here. The body is optional.
         */
        post: operations["updateResourceWithAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your events
         * @description Every status change of the credential's records is one event (oldest first, the newest 200 kept): its id, type (`<resource>.<action>`), the change, and the one Idempotency-Key that every delivery of its callbacks carries.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/events/{id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The event's id.
                 * @example evt_3K7Q1M9D2X8C4V6B
                 */
                id: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resend an event
         * @description Delivers the event's callbacks again, with the event's payload and Idempotency-Key (a receiver that processed it already must not process it again), once none of its deliveries is pending, to the callback URL the rule gives now: the merchant's current `webhook_url`, the URL registered now (an event whose callback was skipped for want of a URL is delivered once one is set). Takes no body, `{}` or `{"deliver_twice": true}`, as the actions. Refused 409 while a delivery is pending, or when the event raised no callback.
         */
        post: operations["sendEventAgain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/callbacks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your callback URLs
         * @description The callback URLs registered for the credential, by webhook.
         */
        get: operations["listCallbacks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/callbacks/{webhook}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A webhook of the API (its name under `webhooks:`), e.g. `transactionCompleted`.
                 * @example transactionCompleted
                 */
                webhook: string;
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Register a callback URL
         * @description Sets the URL the provider's dashboard would hold for this webhook, for the credential. Refused (400) for a webhook whose URL the sources say comes from elsewhere (Pay's `invoicePaid` goes to the merchant's `webhook_url`, set with `createMerchant` or `updateMerchant`), and for a URL the callback policy refuses: a link-local or cloud metadata address in any mode, and on a shared sandbox a target its operator does not allow (a URL set through the API itself is held to the same policy when the callback is sent).
         */
        put: operations["registerCallback"];
        post?: never;
        /**
         * Forget a callback URL
         * @description Removes the credential's URL for this webhook; its events are then logged as skipped.
         */
        delete: operations["deleteCallback"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The delivery log
         * @description The credential's callback deliveries, oldest first (at most the last 200): the event, the URL (without userinfo), the Idempotency-Key, the payload and every attempt with its status.
         */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/clock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your clock
         * @description The credential's sandbox time and how far it is ahead of the real time.
         */
        get: operations["getClock"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/clock/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Advance your clock
         * @description Moves the credential's clock forward by `seconds` (at most 400 days a call, 10 years in all) and expires what is due by then (a checkout 24 hours after creation or at its `expiry_date_time`, a Pay invoice after its `expiry` hours or the merchant's `url_expiry`), with the callbacks those moves fire.
         */
        post: operations["advanceClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/errors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your queued errors
         * @description The error statuses queued for the credential's next calls.
         */
        get: operations["listErrors"];
        put?: never;
        /**
         * Queue an error status, a latency or a dropped connection
         * @description The next `count` calls (default 1) of `operation_id` with this credential answer `status` (any status 400-599), with the body the operation declares for it (its first example, or none); a status the operation does not declare (429, 502, 503, 504...) gets a problem+json body, and the `sl-violations` header names it as undeclared. `retry_after` adds a `Retry-After` header (seconds). `latency_ms` (at most 30000) delays the answer. `drop` closes the connection without an answer: `"before"` (or `true`) before the request is processed, so nothing is stored or sent; `"after"` once it is processed (records stored, events raised, callbacks queued), the answer lost: the case that makes retrying a POST unsafe. A rule forces at least one of `status`, `latency_ms` and `drop`, and a drop answers no status (the schema says both); `operation_id` must be an operation of this mock's API (400 naming them otherwise), and at most 20 rules wait per credential (409 beyond). A call Prism judges invalid keeps Prism's answer and does not use up a queued status.
         */
        post: operations["createError"];
        /**
         * Clear your queued errors
         * @description Removes every error status queued for the credential.
         */
        delete: operations["deleteErrors"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether this sandbox serves requests
         * @description Needs no credential. In hosted mode (`mock --sandbox --hosted`), 200 once every mock of the process listens and until it stops; 503 while it is starting or draining (after SIGTERM, while the requests in flight finish): what a load balancer's health check reads. A local or shared sandbox that answers is ready.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The metrics, for Prometheus
         * @description Hosted mode only, for the operator's token in `X-Sandbox-Operator-Token`. The metrics in Prometheus's text format: requests by API, operation and status, their latency, the records and bytes held and the callbacks queued by API, deliveries by outcome, refused connections, partners, and the process's own (CPU, memory, event loop). Every label has a bounded set of values; none is a credential or a partner.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/partners": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every partner
         * @description Hosted mode only, for the operator's token. Every partner the operator issued a credential to, oldest first, with the quotas in force; never a credential.
         */
        get: operations["listPartners"];
        put?: never;
        /**
         * Issue a credential to a new partner
         * @description Hosted mode only, for the operator's token. A new partner and its credential: shown in this answer once (the sandbox keeps only its SHA-256), accepted as `Authorization: Bearer <credential>` on the bearer APIs and as the API key on the key APIs, and on this control API. `quotas` sets the partner's own bounds (the others keep their defaults). At most 1000 partners (409 beyond).
         */
        post: operations["createPartner"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/partners/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The partner's id, as issuing it answered.
                 * @example ptn_3f9a1c0e7b2d41a8c5e09d17
                 */
                id: components["parameters"]["PartnerId"];
            };
            cookie?: never;
        };
        /**
         * One partner
         * @description Hosted mode only, for the operator's token. The partner and its quotas in force; never its credential.
         */
        get: operations["getPartner"];
        put?: never;
        post?: never;
        /**
         * Revoke a partner's credential
         * @description Hosted mode only, for the operator's token. From the next request on, the partner's credential is refused (401) on every API and on this control API, by every instance on the same store; its state stays until the operator resets it. Answers the partner as it was.
         */
        delete: operations["deletePartner"];
        options?: never;
        head?: never;
        /**
         * Change a partner's name or quotas
         * @description Hosted mode only, for the operator's token. A JSON merge patch (RFC 7396): a quota given is set, a quota given as `null` goes back to its default, `"quotas": null` puts every quota back; what is not given is kept. The new quotas hold from the partner's next request.
         */
        patch: operations["updatePartner"];
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Whether the sandbox serves requests. */
        Health: {
            /**
             * @description `ready` (200) from the moment every mock listens; `starting` and `draining` (503) before and while it stops.
             * @enum {string}
             */
            status: "starting" | "ready" | "draining";
        };
        /** @description A partner's quotas in force. */
        Quotas: {
            /**
             * Format: int32
             * @description Records kept, per API (default 1000).
             */
            records: number;
            /**
             * Format: int64
             * @description Bytes of records and events kept (their JSON size), per API (default 4194304, 4 MiB).
             */
            bytes: number;
            /**
             * Format: int32
             * @description Status-change events kept, per API (default 200; the oldest give way).
             */
            events: number;
            /**
             * Format: int32
             * @description Callbacks waiting to be delivered, per API (default 20).
             */
            queued_callbacks: number;
            /**
             * Format: int32
             * @description Requests per second, every API and the control API together (default 10).
             */
            requests_per_second: number;
            /**
             * Format: int32
             * @description Requests over the per-second rate allowed within any 10 seconds (default 50).
             */
            burst: number;
        };
        /** @description The quotas the operator sets for a partner (the others keep their defaults). */
        QuotaOverrides: {
            /**
             * Format: int32
             * @description Records kept, per API (default 1000).
             */
            records?: number;
            /**
             * Format: int64
             * @description Bytes of records and events kept (their JSON size), per API (default 4194304, 4 MiB).
             */
            bytes?: number;
            /**
             * Format: int32
             * @description Status-change events kept, per API (default 200; the oldest give way).
             */
            events?: number;
            /**
             * Format: int32
             * @description Callbacks waiting to be delivered, per API (default 20).
             */
            queued_callbacks?: number;
            /**
             * Format: int32
             * @description Requests per second, every API and the control API together (default 10).
             */
            requests_per_second?: number;
            /**
             * Format: int32
             * @description Requests over the per-second rate allowed within any 10 seconds (default 50).
             */
            burst?: number;
        };
        /** @description A merge patch of a partner's quotas; a quota `null` goes back to its default, and `null` for the whole object puts every quota back. */
        QuotaPatch: {
            /**
             * Format: int32
             * @description Records kept, per API (default 1000).
             */
            records?: number | null;
            /**
             * Format: int64
             * @description Bytes of records and events kept (their JSON size), per API (default 4194304, 4 MiB).
             */
            bytes?: number | null;
            /**
             * Format: int32
             * @description Status-change events kept, per API (default 200; the oldest give way).
             */
            events?: number | null;
            /**
             * Format: int32
             * @description Callbacks waiting to be delivered, per API (default 20).
             */
            queued_callbacks?: number | null;
            /**
             * Format: int32
             * @description Requests per second, every API and the control API together (default 10).
             */
            requests_per_second?: number | null;
            /**
             * Format: int32
             * @description Requests over the per-second rate allowed within any 10 seconds (default 50).
             */
            burst?: number | null;
        } | null;
        /** @description A partner of a hosted sandbox, as the operator sees it (never its credential). */
        Partner: {
            /** @description The partner's id. */
            id: string;
            /** @description The name the operator gave. */
            name: string;
            /**
             * Format: date-time
             * @description When its credential was issued.
             */
            created_at: string;
            quotas: components["schemas"]["Quotas"];
            /** @description The quotas the operator set (the others are at their defaults). */
            overridden: ("records" | "bytes" | "events" | "queued_callbacks" | "requests_per_second" | "burst")[];
        };
        /** @description A new partner and its credential. */
        IssuedPartner: components["schemas"]["Partner"] & {
            /** @description The partner's credential, shown in this answer only (`bacsbx_` and 43 base64url characters): the bearer token or API key of its requests. */
            credential: string;
        };
        /** @description Every partner, oldest first. */
        PartnerList: {
            /** @description The partners. */
            partners: components["schemas"]["Partner"][];
        };
        /** @description A partner to issue a credential to. */
        PartnerRequest: {
            /** @description The partner's name, as the operator's listings show it (1 to 100 printable characters). */
            name: string;
            quotas?: components["schemas"]["QuotaOverrides"];
        };
        /** @description A merge patch of a partner (RFC 7396). */
        PartnerPatch: {
            /** @description A new name. */
            name?: string;
            quotas?: components["schemas"]["QuotaPatch"];
        };
        /** @description An error of the control API (RFC 9457 problem details). */
        Problem: {
            /** @description Always `about:blank`. */
            type?: string;
            /** @description The HTTP status's reason phrase. */
            title: string;
            /**
             * Format: int32
             * @description The HTTP status.
             */
            status: number;
            /** @description What is wrong and how to fix it. */
            detail: string;
            /** @description The member of the input concerned (`status`, `url`, `operation_id`, `seconds`, `id`, ...), when one is. */
            field?: string;
            /** @description On a refused move, the actions allowed from the record's status. */
            allowed?: components["schemas"]["NextAction"][];
            /** @description On a refused move, true when the record's status is final. */
            final?: boolean;
        };
        /** @description How many things were removed. */
        ResetResult: {
            /**
             * Format: int32
             * @description Number of states, registrations or rules removed.
             */
            reset: number;
        };
        /** @description What this mock's sandbox simulates. */
        SandboxDescription: {
            /** @description The API, e.g. `pay@1.3.0`. */
            alias: string;
            /** @description The declaration file, relative to the package; absent when the API has none (then no operation keeps state). */
            declaration?: string;
            /** @description The declared resources. */
            resources: components["schemas"]["ResourceDescription"][];
            /** @description Every operation of the API and what the sandbox does for it. */
            operations: components["schemas"]["OperationDescription"][];
            /** @description The API's webhooks (names under `webhooks:`). */
            webhooks: string[];
            /** @description The sandbox's bounds. */
            limits: {
                [key: string]: number;
            };
            /** @description The memory budget and its use: the JSON bytes of every credential's records and kept events (the oldest events give way to a new one), one budget for all the mocks the command line started (in a program, for every sandbox of the process unless it is given its own), the credentials with state on this mock and the callbacks waiting to be delivered. */
            memory?: {
                /**
                 * Format: int64
                 * @description The budget (256 MiB unless the operator sets `--sandbox-memory`).
                 */
                budget_bytes: number;
                /**
                 * Format: int64
                 * @description What the records and the events kept take now.
                 */
                used_bytes: number;
                /**
                 * Format: int32
                 * @description Credentials with state on this mock (at most `limits.credentials`).
                 */
                credentials: number;
                /**
                 * Format: int32
                 * @description Callbacks waiting to be delivered or retried on this mock.
                 */
                queued_callbacks: number;
            };
            /** @description How this sandbox is shared (see the document's description, "Local and shared"). */
            sharing?: {
                /**
                 * @description `local`: bound to loopback, callbacks reach any http(s) target but link-local and metadata addresses; `shared`: bound to another interface, callbacks reach only the operator's allow-list (`settings.callback_allow`).
                 * @enum {string}
                 */
                mode: "local" | "shared";
                /** @description True when an operator token is set (then `GET`/`DELETE /_sandbox/state/all` exist). */
                operator_token: boolean;
            };
            settings?: components["schemas"]["OperatorSettings"];
            retry: components["schemas"]["RetryPolicy"];
        };
        /** @description The operator's settings, shown only to a call with the operator's token (options of the sandbox: the command line's flags, or the programmatic options in parentheses). */
        OperatorSettings: {
            /** @description The hosts, `*.domains`, addresses and CIDR networks callbacks may reach in shared mode (`--callback-allow`, `callbackAllow`). */
            callback_allow: string[];
            /**
             * Format: int64
             * @description The memory budget of every credential's records and events together (`--sandbox-memory`, `budget`; 256 MiB by default).
             */
            memory_budget_bytes: number;
            /**
             * Format: int32
             * @description At the credential limit, a credential idle this long gives way to a new one; one used more recently never does, and the newcomer gets 507 (`--sandbox-evict-idle`, `evictIdleSeconds`; 600 by default).
             */
            evict_idle_seconds: number;
            /**
             * Format: int32
             * @description Callbacks waiting to be delivered per credential; one beyond is logged as failed and not sent (`--sandbox-queue`, `deliveryQueue`; 20 by default).
             */
            delivery_queue: number;
            /**
             * Format: int32
             * @description Callbacks waiting to be delivered per mock, every credential together (`--sandbox-queue-total`, `deliveryQueueTotal`; 500 by default).
             */
            delivery_queue_total: number;
        };
        /** @description How callbacks are retried (the sandbox's convention; the sources do not show the provider's). */
        RetryPolicy: {
            /**
             * Format: int32
             * @description Attempts per delivery, the first included.
             */
            attempts?: number;
            /**
             * Format: int32
             * @description Wait before the second attempt; doubled for each later one.
             */
            base_delay_ms?: number;
            /**
             * Format: int32
             * @description Longest wait between attempts.
             */
            max_delay_ms?: number;
            /**
             * Format: int32
             * @description Timeout of one attempt.
             */
            timeout_ms?: number;
        };
        /** @description A resource of the declaration. */
        ResourceDescription: {
            /** @description The resource's name (used in `/_sandbox/resources/{resource}/...`). */
            name: string;
            /** @description Where the provider's documents describe it (`<document title>, line <n>`). */
            source: string;
            /** @description What the sandbox chose where the sources say nothing, and why. */
            convention?: string;
            /** @description One record per credential that always exists (e.g. the merchant). */
            singleton: boolean;
            /** @description The member holding the id. */
            id_field: string;
            /** @description The member holding the status. */
            status_field?: string;
            /** @description The status a created record starts in. */
            initial_status?: string;
            /** @description The statuses the resource's schema names (its enum values); a schema that also allows other strings (statement's) accepts those too. Absent when the schema names none (any string it allows is accepted). */
            statuses?: string[];
            /** @description The expiry rule. */
            expiry?: {
                /** @description The status an expired record moves to. */
                to?: string;
                /** @description The statuses in which a record expires. */
                from?: string[];
                /** @description Where the sources state the rule. */
                source?: string;
            };
            /** @description The status graph (moves not listed are refused everywhere). */
            lifecycle?: {
                /** @description The statuses no move leaves. */
                final: string[];
                /** @description The named moves. */
                actions: {
                    /** @description Its name (`POST /_sandbox/resources/{resource}/{id}/actions/{action}`). */
                    action: string;
                    /** @description The statuses it leaves, or `*` for every status that is not final. */
                    from: string[] | string;
                    /** @description The status it enters. */
                    to: string;
                    /** @description Where the sources state it. */
                    source?: string;
                    /** @description The sandbox's choice where the sources say nothing. */
                    convention?: string;
                }[];
            };
            /** @description Request values that produce an outcome without the control API (docs/guides/sandbox-test-values.md). One rule for all: the member equals the value, compared without regard to case. */
            test_values?: {
                /** @description Its name. */
                name: string;
                /** @description The operation whose requests it reads. */
                operation_id: string;
                /** @description The request member to send it in, dotted; `list[].member` for a member of every item of a list (`disbursements[].description`). */
                member: string;
                /** @description The value, compared without regard to case. */
                value: string;
                /** @description The action it takes on the new record. */
                action?: string;
                /**
                 * Format: int32
                 * @description Seconds on the sandbox clock before it does (absent: at once).
                 */
                after_seconds?: number;
                /** @description The status the record is created in (no event). */
                status?: string;
                /**
                 * Format: int32
                 * @description The status the request is refused with (nothing is stored).
                 */
                refuse?: number;
                /** @description The value to send and what happens. */
                description: string;
            }[];
            /** @description The callbacks its status changes fire. */
            callbacks: {
                /** @description The webhook. */
                webhook?: string;
                /** @description The statuses whose entry fires it, or `*` for any change. */
                when?: string[] | string;
                /** @description Where the URL comes from (a template of the declaration). */
                url?: unknown;
                /** @description True when the URL is the one registered with `PUT /_sandbox/callbacks/{webhook}`. */
                registrable?: boolean;
                /** @description Where the sources state it. */
                source?: string;
                /** @description Where the sandbox chose: the payload, the URL. */
                convention?: string;
            }[];
        };
        /** @description What the sandbox does for one operation. */
        OperationDescription: {
            /** @description The operationId. */
            operation_id: string;
            /** @description The HTTP method, upper case. */
            method: string;
            /** @description The path template. */
            path: string;
            /**
             * @description What the sandbox does; `static` keeps the spec's example (Prism's answer).
             * @enum {string}
             */
            sandbox: "create" | "read" | "list" | "update" | "delete" | "action" | "answer" | "static";
            /** @description The resource it concerns. */
            resource?: string;
            /** @description Where the sources describe it. */
            source?: string;
            /** @description The error statuses (400-599) it declares: forced with `POST /_sandbox/errors`, each answers the body declared for it. The control API forces any other status 400-599 too, with a problem+json body that `sl-violations` names as undeclared. */
            error_statuses: number[];
            /** @description What the sandbox chose for it where the sources say nothing. */
            convention?: string;
            /** @description The rules that refuse a whole request, in the order they are tried: its status and reason (in the body where the status declares one with a member for it, else in `sl-violations`, code `sandbox-refusal`). Nothing is stored. */
            refusals?: components["schemas"]["RuleDescription"][];
            /** @description The rules of single items of a create: an item one holds for is not created and its result carries the error (`code`, `detail` as its message); the other items are created. */
            item_errors?: components["schemas"]["RuleDescription"][];
        };
        /** @description A rule of the sandbox that refuses a request or an item. */
        RuleDescription: {
            /**
             * Format: int32
             * @description The status it answers (a whole request's refusal).
             */
            status?: number;
            /** @description The error's code (an item's error). */
            code?: string;
            /** @description The reason, as the answer gives it; for a move refused by its status, which statuses it moves from. */
            detail: string;
            /** @description Where the sources state it. */
            source?: string;
            /** @description The sandbox's choice where the sources say nothing. */
            convention?: string;
        };
        /** @description A credential's sandbox clock. */
        Clock: {
            /**
             * Format: date-time
             * @description The sandbox time.
             */
            now: string;
            /**
             * Format: int64
             * @description How far it is ahead of the real time.
             */
            offset_seconds: number;
        };
        /** @description A stored record. */
        Record: {
            /** @description Its resource. */
            resource: string;
            /** @description Its id. */
            id: string;
            /** @description Its status, when its resource has one. */
            status?: string;
            /**
             * Format: date-time
             * @description When it expires (sandbox time), when an expiry rule applies and it has not expired.
             */
            expires_at?: string;
            /** @description The record as the resource's schema renders it. */
            data: unknown;
        };
        /** @description Everything kept for one credential. */
        State: {
            /** @description The credential's label (first 12 hex digits of its SHA-256 hash). */
            credential: string;
            clock: components["schemas"]["Clock"];
            /** @description The records, by resource, oldest first. */
            resources: {
                [key: string]: components["schemas"]["Record"][];
            };
            /** @description The registered callback URLs. */
            callbacks: components["schemas"]["Callback"][];
            /** @description The queued error statuses. */
            errors: components["schemas"]["ErrorRule"][];
            /**
             * Format: int32
             * @description Entries in the delivery log.
             */
            deliveries: number;
        };
        /** @description Every credential with state, in summary. */
        StateSummary: {
            /** @description One entry per credential. */
            credentials: {
                /** @description The credential's label. */
                credential?: string;
                /**
                 * Format: int32
                 * @description Its record count.
                 */
                records?: number;
                /**
                 * Format: int64
                 * @description Its clock offset.
                 */
                clock_offset_seconds?: number;
                /**
                 * Format: int32
                 * @description Its queued error rules.
                 */
                errors?: number;
                /**
                 * Format: int32
                 * @description Its delivery log length.
                 */
                deliveries?: number;
            }[];
        };
        /** @description The status to move a record to. */
        StatusMoveRequest: {
            /** @description The new status: one of the resource's statuses (400 otherwise) that a move of its lifecycle reaches from the record's status (409 otherwise). */
            status: string;
            /** @description Deliver each callback the move fires twice, with the same Idempotency-Key. */
            deliver_twice?: boolean;
        };
        /** @description The outcome of a status move. */
        StatusMove: {
            record: components["schemas"]["Record"];
            /** @description The status before the move. */
            from?: string;
            /** @description The status after the move. */
            to: string;
            /** @description False when the record already had that status (nothing is sent then). */
            changed: boolean;
            event?: components["schemas"]["Event"];
            /** @description The callbacks queued, as their log entries are at this moment. */
            deliveries: components["schemas"]["Delivery"][];
            /** @description The actions allowed from the new status (absent when the resource declares no lifecycle). */
            next_actions?: components["schemas"]["NextAction"][];
        };
        /** @description A move allowed from a status. */
        NextAction: {
            /** @description The action's name. */
            action: string;
            /** @description The status it enters. */
            to: string;
        };
        /** @description Options of an action. */
        ActionRequest: {
            /** @description Deliver each callback the action fires twice, with the same Idempotency-Key. */
            deliver_twice?: boolean;
        };
        /** @description One status change of a record. */
        Event: {
            /** @description The event's id. */
            id: string;
            /** @description `<resource>.<action>` (`<resource>.status` for a resource without lifecycle). */
            type: string;
            /** @description The resource. */
            resource: string;
            /** @description The record's id. */
            resource_id: string;
            /** @description The status before. */
            from?: string;
            /** @description The status after. */
            to: string;
            /** @description The action of the lifecycle taken. */
            action?: string;
            /** @description What moved it: `control`, `expiry`, `clock`, `test value <name>`, or the operationId of an API call. */
            cause: string;
            /**
             * Format: date-time
             * @description When it happened (sandbox time).
             */
            created_at: string;
            /** @description The Idempotency-Key every delivery of its callbacks carries, resends included. */
            idempotency_key: string;
            /** @description The webhooks it raised. */
            webhooks: string[];
            /** @description Its delivery log entries (first deliveries and resends). */
            deliveries: string[];
        };
        /** @description Events, oldest first. */
        EventList: {
            /** @description The events. */
            events: components["schemas"]["Event"][];
        };
        /** @description An event resent. */
        Resend: {
            event: components["schemas"]["Event"];
            /** @description The new deliveries. */
            deliveries: components["schemas"]["Delivery"][];
        };
        /** @description A callback URL. */
        CallbackRegistration: {
            /**
             * Format: uri
             * @description An http(s) URL; it receives the webhook's POSTs.
             */
            url: string;
        };
        /** @description A registered callback URL. */
        Callback: {
            /** @description The webhook. */
            webhook: string;
            /** @description The URL, without userinfo. */
            url: string;
        };
        /** @description The registered callback URLs. */
        CallbackList: {
            /** @description One per webhook. */
            callbacks: components["schemas"]["Callback"][];
        };
        /** @description A callback in the delivery log. */
        Delivery: {
            /** @description The log entry's id. */
            id: string;
            /** @description The webhook. */
            webhook: string;
            /** @description The resource whose status change fired it. */
            resource: string;
            /** @description The record's id. */
            resource_id: string;
            /** @description The status change. */
            event: {
                /** @description The status before. */
                from?: string;
                /** @description The status after. */
                to?: string;
                /** @description What moved it: `control`, `expiry`, `clock`, or the operationId of an API call. */
                cause?: string;
            };
            /** @description Where it is sent (without userinfo); absent when no URL is known. */
            url?: string;
            /** @description The Idempotency-Key of every delivery of this event. */
            idempotency_key?: string;
            /** @description The body sent. */
            payload?: unknown;
            /**
             * @description `pending` (sending or waiting to retry), `delivered` (2xx), `failed` (no 2xx after every attempt, or not sent: see `note`: a target the callback policy refuses, a full queue, a reset), `skipped` (no URL).
             * @enum {string}
             */
            state: "pending" | "delivered" | "failed" | "skipped";
            /**
             * Format: int32
             * @description How many times it is to be delivered (2 with `deliver_twice`).
             */
            times: number;
            /**
             * Format: int32
             * @description How many times it got a 2xx.
             */
            delivered_count: number;
            /** @description Every attempt, oldest first (at most 20). */
            attempts: {
                /**
                 * Format: date-time
                 * @description When it was made (real time).
                 */
                at?: string;
                /**
                 * Format: int32
                 * @description The receiver's HTTP status; 0 when the request failed.
                 */
                status?: number;
                /** @description Why the request failed, when it did; absent on a shared sandbox, where the log does not tell an open port from a closed one. */
                error?: string;
                /**
                 * Format: int32
                 * @description How long it took; absent on a shared sandbox for a request that failed (a failed attempt there always waits its whole timeout).
                 */
                duration_ms?: number;
            }[];
            /** @description Why it was skipped or failed. */
            note?: string;
            /**
             * Format: date-time
             * @description When the event happened (real time).
             */
            created_at: string;
        };
        /** @description The delivery log. */
        DeliveryLog: {
            /** @description The entries, oldest first. */
            deliveries: components["schemas"]["Delivery"][];
        };
        /** @description How far to move the clock. */
        ClockAdvance: {
            /**
             * Format: int64
             * @description Seconds to add (at most 400 days).
             */
            seconds: number;
            /** @description Deliver each callback the expiries fire twice. */
            deliver_twice?: boolean;
        };
        /** @description The clock after the advance and what expired. */
        ClockAdvanceResult: {
            clock: components["schemas"]["Clock"];
            /** @description The records that expired, in order. */
            expired: {
                /** @description The resource. */
                resource?: string;
                /** @description The record's id. */
                id?: string;
                /** @description Its status before. */
                from?: string;
                /** @description Its status after. */
                to?: string;
                /** @description The ids of the delivery log entries of the callbacks it fired. */
                deliveries?: string[];
            }[];
        };
        /** @description An error status, a latency or a dropped connection for the next calls of an operation: at least one of `status`, `latency_ms` and `drop: true`; with `status`, `drop` is false or absent (a dropped connection answers no status). */
        ErrorRuleRequest: {
            /** @description An operationId of the API (`GET /_sandbox` lists them); another is refused 400. */
            operation_id: string;
            /**
             * Format: int32
             * @description The status to answer; one the operation does not declare gets a problem+json body.
             */
            status?: number;
            /**
             * Format: int32
             * @description Seconds for a `Retry-After` header on the forced answer.
             */
            retry_after?: number;
            /**
             * Format: int32
             * @description Milliseconds to wait before answering.
             */
            latency_ms?: number;
            /** @description Close the connection without an answer: `before` the request is processed (nothing stored), or `after` it is (stored, its answer lost). `true` is `before`; `false` drops nothing. */
            drop?: boolean | ("before" | "after");
            /**
             * Format: int32
             * @description How many calls answer it.
             * @default 1
             */
            count?: number;
        };
        /** @description A queued error status, latency or drop. */
        ErrorRule: {
            /** @description The rule's id. */
            id: string;
            /** @description The operation. */
            operation_id: string;
            /**
             * Format: int32
             * @description The status it answers (absent for a latency or a drop alone).
             */
            status?: number;
            /**
             * Format: int32
             * @description How many more calls answer it.
             */
            remaining: number;
            /**
             * Format: int32
             * @description The Retry-After it sends, in seconds.
             */
            retry_after?: number;
            /**
             * Format: int32
             * @description The delay it adds.
             */
            latency_ms?: number;
            /**
             * @description When it drops the connection: before the request is processed, or after (its answer lost).
             * @enum {string}
             */
            drop?: "before" | "after";
        };
        /** @description The queued error statuses, in the order they apply. */
        ErrorRuleList: {
            /** @description The rules. */
            errors: components["schemas"]["ErrorRule"][];
        };
    };
    responses: {
        /** @description The input is not what the control API takes; `detail` says why and `field` names the member. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The call carries no credential (`Authorization: Bearer <value>` or the API's API-key header; another scheme such as `Basic` carries none, as on the APIs' own operations); in hosted mode, or one its operator did not issue (or revoked). */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No such resource, record or webhook for this credential. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The record's lifecycle does not allow the move from its status (or the status is final); `allowed` lists the actions allowed from here (empty from a final status). */
        MoveRefused: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A bound of the sandbox would be exceeded, or the call conflicts with the record's or event's state. */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The call does not carry the sandbox operator's token in `X-Sandbox-Operator-Token` (the same answer for a wrong one). */
        OperatorOnly: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The sandbox has no operator token, so the operations over every credential do not exist. */
        NoOperator: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The sandbox is not hosted (`mock --sandbox --hosted`): this operation exists only there. */
        NotHosted: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No partner has this id (or the sandbox is not hosted, as NotHosted says). */
        NoPartner: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Hosted mode: the partner's request rate is reached (its `requests_per_second` and `burst` quotas, every API and this control API together). Retry after the seconds `Retry-After` says. */
        TooManyRequests: {
            headers: {
                /** @description Seconds to wait before the next request. */
                "Retry-After"?: number;
                /** @description `*`, as on every answer of the mock: any origin may read it (without credentials). */
                "Access-Control-Allow-Origin"?: "*";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A durable store (`file:<dir>` or Postgres) could not keep or read this request's changes, or the sandbox is stopping: nothing was changed and nothing acknowledged. Retry after the seconds `Retry-After` says. */
        StoreUnavailable: {
            headers: {
                /** @description Seconds to wait before the next request. */
                "Retry-After"?: number;
                /** @description `*`, as on every answer of the mock: any origin may read it (without credentials). */
                "Access-Control-Allow-Origin"?: "*";
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The sandbox failed in a way it does not foresee; nothing is promised about what the call changed. On a sandbox of your own, `detail` says why. On a hosted sandbox, it names only the id of the failure, under which the operator's log holds the cause: give the operator that id. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No room for a new credential: the sandbox holds state for its limit of credentials (1000) and every one was used in the last 10 minutes, so the newcomer is refused rather than pushing out a partner at work. Retry later, or reset states you no longer need. */
        SandboxFull: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body is larger than 64 KiB. */
        TooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body is not `application/json`. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /**
         * @description The partner's id, as issuing it answered.
         * @example ptn_3f9a1c0e7b2d41a8c5e09d17
         */
        PartnerId: string;
        /**
         * @description A resource of the API's sandbox declaration (`GET /_sandbox` lists them), e.g. `invoice`.
         * @example invoice
         */
        Resource: string;
        /**
         * @description The record's id, as the API returned it.
         * @example inv_7Q2M4K9D1X8C3V6B
         */
        Id: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getSandboxDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/yaml": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
        };
    };
    getSandbox: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The description. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxDescription"];
                };
            };
            /** @description The call carries a token in `X-Sandbox-Operator-Token` that is not the sandbox operator's. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    getState: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["State"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    resetState: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The state is reset. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResetResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    listStates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The summary. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StateSummary"];
                };
            };
            401: components["responses"]["OperatorOnly"];
            404: components["responses"]["NoOperator"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    resetAllStates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every state is reset. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResetResult"];
                };
            };
            401: components["responses"]["OperatorOnly"];
            404: components["responses"]["NoOperator"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getResource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A resource of the API's sandbox declaration (`GET /_sandbox` lists them), e.g. `invoice`.
                 * @example invoice
                 */
                resource: components["parameters"]["Resource"];
                /**
                 * @description The record's id, as the API returned it.
                 * @example inv_7Q2M4K9D1X8C3V6B
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Record"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    updateResourceStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A resource of the API's sandbox declaration (`GET /_sandbox` lists them), e.g. `invoice`.
                 * @example invoice
                 */
                resource: components["parameters"]["Resource"];
                /**
                 * @description The record's id, as the API returned it.
                 * @example inv_7Q2M4K9D1X8C3V6B
                 */
                id: components["parameters"]["Id"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StatusMoveRequest"];
            };
        };
        responses: {
            /** @description The record after the move, and the callbacks queued. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusMove"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["MoveRefused"];
            413: components["responses"]["TooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    updateResourceWithAction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A resource of the API's sandbox declaration (`GET /_sandbox` lists them), e.g. `invoice`.
                 * @example invoice
                 */
                resource: components["parameters"]["Resource"];
                /**
                 * @description The record's id, as the API returned it.
                 * @example inv_7Q2M4K9D1X8C3V6B
                 */
                id: components["parameters"]["Id"];
                /**
                 * @description An action of the resource's lifecycle (`GET /_sandbox` lists them), e.g. `pay`, `fail`, `expire`, `cancel`.
                 * @example pay
                 */
                action: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ActionRequest"];
            };
        };
        responses: {
            /** @description The record after the move, its event and the callbacks queued. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatusMove"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["MoveRefused"];
            413: components["responses"]["TooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Only the events of this resource. */
                resource?: string;
                /** @description Only the events of this record. */
                resource_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    sendEventAgain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The event's id.
                 * @example evt_3K7Q1M9D2X8C4V6B
                 */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ActionRequest"];
            };
        };
        responses: {
            /** @description The event and its new deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Resend"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    listCallbacks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The registrations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CallbackList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    registerCallback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A webhook of the API (its name under `webhooks:`), e.g. `transactionCompleted`.
                 * @example transactionCompleted
                 */
                webhook: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CallbackRegistration"];
            };
        };
        responses: {
            /** @description The registration. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Callback"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    deleteCallback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A webhook of the API (its name under `webhooks:`), e.g. `transactionCompleted`.
                 * @example transactionCompleted
                 */
                webhook: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed (or there was none). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResetResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                /**
                 * @description Only the deliveries of this webhook.
                 * @example transactionCompleted
                 */
                webhook?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The log. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryLog"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    getClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The clock. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Clock"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    advanceClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClockAdvance"];
            };
        };
        responses: {
            /** @description The clock, and what expired. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClockAdvanceResult"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["TooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    listErrors: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queue. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorRuleList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    createError: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ErrorRuleRequest"];
            };
        };
        responses: {
            /** @description The error is queued. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorRule"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    deleteErrors: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queue is empty. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResetResult"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
            507: components["responses"]["SandboxFull"];
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            500: components["responses"]["InternalError"];
            /** @description Starting or draining (hosted mode). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["OperatorOnly"];
            404: components["responses"]["NotHosted"];
            500: components["responses"]["InternalError"];
        };
    };
    listPartners: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The partners. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PartnerList"];
                };
            };
            401: components["responses"]["OperatorOnly"];
            404: components["responses"]["NotHosted"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    createPartner: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PartnerRequest"];
            };
        };
        responses: {
            /** @description The partner, and its credential (shown once). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedPartner"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["OperatorOnly"];
            404: components["responses"]["NotHosted"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["TooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    getPartner: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The partner's id, as issuing it answered.
                 * @example ptn_3f9a1c0e7b2d41a8c5e09d17
                 */
                id: components["parameters"]["PartnerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The partner. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Partner"];
                };
            };
            401: components["responses"]["OperatorOnly"];
            404: components["responses"]["NoPartner"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    deletePartner: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The partner's id, as issuing it answered.
                 * @example ptn_3f9a1c0e7b2d41a8c5e09d17
                 */
                id: components["parameters"]["PartnerId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Partner"];
                };
            };
            401: components["responses"]["OperatorOnly"];
            404: components["responses"]["NoPartner"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
    updatePartner: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The partner's id, as issuing it answered.
                 * @example ptn_3f9a1c0e7b2d41a8c5e09d17
                 */
                id: components["parameters"]["PartnerId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["PartnerPatch"];
                "application/json": components["schemas"]["PartnerPatch"];
            };
        };
        responses: {
            /** @description The partner, changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Partner"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["OperatorOnly"];
            404: components["responses"]["NoPartner"];
            413: components["responses"]["TooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["StoreUnavailable"];
        };
    };
}
