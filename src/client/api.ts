/* Generated from openapi.json by scripts/client-types.ts (npm run openapi). Do not edit. */
export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health: 200 when the database answers and takes writes; 503 storage_unavailable while it does not */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ok";
                            /** @enum {string} */
                            environment: "sandbox" | "production";
                            /**
                             * Format: date-time
                             * @description Now on the virtual clock
                             */
                            time: string;
                        };
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                503: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/partner/merchants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the partner's merchants (paginated, by merchantId) */
        get: {
            parameters: {
                query?: {
                    /** @description Page number, starting at 1 */
                    page?: number;
                    /** @description Page size, default 20, at most 100 */
                    limit?: number;
                };
                header?: {
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Merchants of the calling partner, oldest first (ordered by merchantId). Default page size 20, maximum 100; a page past the end has no items. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MerchantList"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /** Create a merchant (standard onboarding) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateMerchantRequest"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StandardMerchantResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/partner/merchants/fast-track": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a merchant with full company data (fast-track)
         * @description Sub-TPP creation failure is not an HTTP error: the answer is 200 with status pending_onboarding, subTppStatus failed and subTppMessage. Sandbox: registrationNumber 00000000 or 99999999 forces that branch.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["FastTrackMerchantRequest"];
                };
            };
            responses: {
                /** @description status pending_partner_ais when the sub-TPP was created (subTppId set, subTppStatus created, subTppMessage null); pending_onboarding when it failed (no subTppId: no sub-TPP exists; subTppStatus failed, subTppMessage says why) — the merchant then uses the standard onboarding form at onboardingUrl. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["FastTrackMerchantResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/partner/merchants/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an activated test merchant (sandbox only)
         * @description Answers 404 not_available_in_production on production. The merchant can take payments at once; merchant.activated is sent to subscribed webhooks.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["TestMerchantRequest"];
                };
            };
            responses: {
                /** @description Sandbox only (404 not_available_in_production on production). The merchant is activated at once and can take payments. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TestMerchantResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/partner/merchants/{merchantId}/onboarding-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A merchant's onboarding status */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path: {
                    merchantId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A fast-tracked merchant reads pending_completion here (its create response said pending_partner_ais). subTppId is absent while no sub-TPP exists (a standard merchant before the onboarding form is submitted, or a failed fast-track); subTppDetails.status then says not_created or failed. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OnboardingStatusResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/partner/merchants/{merchantId}/resend-onboarding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a new onboarding link (the previous one stops working)
         * @description 409 onboarding_closed once the merchant has left the onboarding states (pending_onboarding, pending_completion).
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path: {
                    merchantId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A new onboardingToken and onboardingUrl valid 7 days from now; the previous link stops working at once. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ResendOnboardingResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/partner/merchants/{merchantId}/stores": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a store (point of sale) to an activated merchant
         * @description Not shown in the contract; obsim's design. 409 merchant_not_activated unless the merchant is activated.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path: {
                    merchantId: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateStoreRequest"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["StoreResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/partner/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a payment for an activated merchant */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreatePaymentRequest"];
                };
            };
            responses: {
                /** @description Returned by POST /v1/partner/payments and GET /v1/partner/payments/{paymentId}/status. status: pending (waiting for the payer) -> processing (approved at the bank) -> paid, or failed (failureReason bank_rejected / payer_abandoned / expired). Currency is always DKK. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Payment"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/partner/payments/{paymentId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A payment's current state */
        get: {
            parameters: {
                query?: never;
                header?: {
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path: {
                    paymentId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Returned by POST /v1/partner/payments and GET /v1/partner/payments/{paymentId}/status. status: pending (waiting for the payer) -> processing (approved at the bank) -> paid, or failed (failureReason bank_rejected / payer_abandoned / expired). Currency is always DKK. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Payment"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/partner/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register a webhook URL for a list of events */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateWebhookRequest"];
                };
            };
            responses: {
                /** @description secret signs every delivery: X-Webhook-Signature = hex HMAC-SHA256(secret, raw body). The provider shows it only in this response; in obsim, GET /_sandbox/webhooks reads it again. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/partner/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a signed test delivery (event webhook.test) to this webhook */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A `webhook.test` event queued for this webhook only (whatever events it subscribes to); body { event: 'webhook.test', timestamp, data: { webhookId, message, timestamp } }, signed like every delivery. Follow it with GET /_sandbox/deliveries/{deliveryId}. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookTestResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/generate-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate an AIS bearer token (JWT) limited to a list of permissions
         * @description Returns a JWT (HS256) valid for one hour on the simulator clock (OBSIM_TOKEN_TTL). Known permissions: ais:accounts:read, ais:balance:read, ais:transactions:read. Sandbox: no authentication needed (partner headers optional, checked when sent). Production: partner headers required (401 when missing or wrong). The merchant must exist (400 merchant_id_unknown) and be activated (400 merchant_id_not_activated); the contract lists 200, 400 and 500 for this call.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["GenerateTokenRequest"];
                };
            };
            responses: {
                /** @description A JWT (HS256) with claims sub (userId), merchantId, permissions, iat, exp (iat + 1 hour by default, virtual clock), iss `obsim-<environment>`, aud `obsim-ais`, jti. Send it as `Authorization: Bearer <token>` to /v1/ais/*. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TokenResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ais/consents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a consent (pending) and get the bank authorization URL
         * @description Creates a consent with status pending. Open authorizationUrl in a browser: the sandbox bank page lets the user pick a bank and authorize (status authorized, consentId set) or deny (status failed, errorMessage set), then redirects to callbackUrl with consentId, status and requestId as query parameters. expirationDateTime must be in the future and after transactionFromDateTime (400). The merchant must be activated (409). Bearer token of the same user and merchant required; no particular permission.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Optional request id for tracking, echoed as the x-request-id response header. When it is not 1-128 characters from A-Z a-z 0-9 . _ : -, it is not an error: obsim generates an id instead (req_<24 hex>). */
                    "x-request-id"?: string;
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateConsentRequest"];
                };
            };
            responses: {
                /** @description A consent. Dates are echoed normalised to ISO 8601 UTC with milliseconds. `authorizationUrl` is present while the consent is pending; `consentId` once authorized; `errorMessage` when failed. callbackUrl is not echoed (contract). */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Consent"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ais/users/{userId}/consents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a user's consents for a merchant, newest first
         * @description Every consent of that user for that merchant, whatever its status, newest first. Expired consents read `expired` as soon as the simulator clock passes expirationDateTime. Bearer token of the same user and merchant required.
         */
        get: {
            parameters: {
                query: {
                    /** @description Merchant identifier (merchantId of the partner API) */
                    merchantId: number;
                };
                header?: {
                    /** @description Optional request id for tracking, echoed as the x-request-id response header. When it is not 1-128 characters from A-Z a-z 0-9 . _ : -, it is not an error: obsim generates an id instead (req_<24 hex>). */
                    "x-request-id"?: string;
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path: {
                    /** @description User identifier issued by an identity provider */
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The user's consents for the merchant, newest first. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ConsentList"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ais/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * List the user's bank accounts
         * @description Needs token permission ais:accounts:read and an authorized, unexpired consent granting ReadAccountsDetail. Optional header x-request-id is echoed.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Optional request id for tracking, echoed as the x-request-id response header. When it is not 1-128 characters from A-Z a-z 0-9 . _ : -, it is not an error: obsim generates an id instead (req_<24 hex>). */
                    "x-request-id"?: string;
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AccountsRequest"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AccountsResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ais/accounts/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Read an account balance
         * @description Needs token permission ais:balance:read and a consent granting ReadBalances. 404 account_not_found for an unknown account or one of another user.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Optional request id for tracking, echoed as the x-request-id response header. When it is not 1-128 characters from A-Z a-z 0-9 . _ : -, it is not an error: obsim generates an id instead (req_<24 hex>). */
                    "x-request-id"?: string;
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["BalanceRequest"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BalanceResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ais/accounts/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Read account transactions (newest first, up to pageLimit)
         * @description Needs token permission ais:transactions:read and a consent granting ReadTransactionsDetail. pageLimit default 200, maximum 1000 (400 above). fromDate/toDate inclusive; entries booked before the consent's transactionFromDateTime are never returned. totalTransactions counts every match, not just this page.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Optional request id for tracking, echoed as the x-request-id response header. When it is not 1-128 characters from A-Z a-z 0-9 . _ : -, it is not an error: obsim generates an id instead (req_<24 hex>). */
                    "x-request-id"?: string;
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["TransactionsRequest"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TransactionsResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ais/accounts/{accountId}/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read account transactions in a date window
         * @description fromDate and toDate are required (400 without). The user and merchant are the bearer token's (sub, merchantId). Needs token permission ais:transactions:read and a consent granting ReadTransactionsDetail. Newest first, at most 1000 entries; response header X-Total-Count gives the number matching (narrow the window, or use POST /v1/ais/accounts/transactions, to see more).
         */
        get: {
            parameters: {
                query: {
                    fromDate: string;
                    toDate: string;
                };
                header?: {
                    /** @description Optional request id for tracking, echoed as the x-request-id response header. When it is not 1-128 characters from A-Z a-z 0-9 . _ : -, it is not an error: obsim generates an id instead (req_<24 hex>). */
                    "x-request-id"?: string;
                    /** @description obsim fault injection (not part of the provider API). `code=503` answers that status (400-599) with ErrorBody code forced_status without running the endpoint (429 and 503 add Retry-After: 1); `delay=250` waits that many real milliseconds first (at most 30000); both: `code=429, delay=100`. Other preferences are ignored; a malformed code or delay is a 400 naming Prefer. Applies before authentication. */
                    prefer?: string;
                };
                path: {
                    accountId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Transactions in the window, newest first, at most 1000 (header X-Total-Count carries the number matching). */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        /** @description The number of transactions matching the window (booked on or after the consent's transactionFromDateTime), also when more than the 1000 returned. */
                        "X-Total-Count"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["TransactionList"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
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
        /** Read the virtual clock */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The virtual clock: the only "now" of the simulator (timestamps, expiries, settlement delays). */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxClock"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
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
         * Move the virtual clock forward; due transitions fire in time order
         * @description Give exactly one of ms, duration or to. The clock never moves backwards (a `to` in the past is a 400). Every settlement, expiry, approval and consent expiry that falls due fires, earliest first, and its webhooks are queued. Each sandbox has its own clock: this moves the caller's sandbox only (the configured partners share the default sandbox's). The clock moves with what it fires: a firing that fails leaves it at the last instant whose firings committed.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SandboxClockAdvanceRequest"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxClockAdvanceResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/clock/freeze": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Freeze the virtual clock at the current instant */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SandboxEmptyBody"];
                };
            };
            responses: {
                /** @description The virtual clock: the only "now" of the simulator (timestamps, expiries, settlement delays). */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxClock"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/clock/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Let the virtual clock run again (from the current simulated instant) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SandboxEmptyBody"];
                };
            };
            responses: {
                /** @description The virtual clock: the only "now" of the simulator (timestamps, expiries, settlement delays). */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxClock"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/merchants/{merchantId}/{action}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Drive a merchant through onboarding
         * @description submit-onboarding (pending_onboarding -> awaiting_approval, merchant.onboarding.completed), complete-fast-track (pending_completion -> awaiting_approval, merchant.onboarding.completed), approve (awaiting_approval -> activated, merchant.activated), reject (any onboarding state -> rejected), activate (any onboarding state -> activated, merchant.activated), deactivate (activated -> inactive, merchant.deactivated), reactivate (inactive -> activated, merchant.activated). Any other combination: 409 illegal_transition.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    merchantId: number;
                    action: "submit-onboarding" | "complete-fast-track" | "approve" | "reject" | "activate" | "deactivate" | "reactivate";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SandboxEmptyBody"];
                };
            };
            responses: {
                /** @description Statuses are the stored onboarding status values (activated, not the webhook name active). */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxMerchantActionResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/payments/{paymentId}/{action}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete, fail or move on a payment
         * @description approve (pending -> processing: the payer approved at the bank; settles after OBSIM_SETTLE_DELAY), complete (pending/processing -> paid, payment.completed), fail (pending/processing -> failed, payment.failed; body reason bank_rejected (default), payer_abandoned or expired), abandon (pending -> failed, payer_abandoned), expire (pending -> failed, expired). Answers the Payment object of GET /v1/partner/payments/{paymentId}/status.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    paymentId: number;
                    action: "approve" | "complete" | "fail" | "abandon" | "expire";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SandboxPaymentActionRequest"];
                };
            };
            responses: {
                /** @description Returned by POST /v1/partner/payments and GET /v1/partner/payments/{paymentId}/status. status: pending (waiting for the payer) -> processing (approved at the bank) -> paid, or failed (failureReason bank_rejected / payer_abandoned / expired). Currency is always DKK. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Payment"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/consents/{requestId}/{action}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Authorize, deny, revoke or expire a consent
         * @description authorize (pending -> authorized), deny (pending -> failed, errorMessage from the body or a default), revoke (authorized -> revoked), expire (pending/authorized -> expired). Consents are scoped through their merchant. Answers the Consent object.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    requestId: string;
                    action: "authorize" | "deny" | "revoke" | "expire";
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SandboxConsentActionRequest"];
                };
            };
            responses: {
                /** @description A consent. Dates are echoed normalised to ISO 8601 UTC with milliseconds. `authorizationUrl` is present while the consent is pending; `consentId` once authorized; `errorMessage` when failed. callbackUrl is not echoed (contract). */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Consent"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
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
         * List webhook deliveries (newest first)
         * @description Filters (all optional, combined with AND): event (name), webhookId, state (pending, delivering, delivered, failed), outcome (delivered, timeout, connection_refused, connection_reset, non_2xx, redirect, error), statusCode (the HTTP status the receiver answered, 100-599); limit 1-500, default 50. total counts the matches up to 10,000; totalCapped says there are more.
         */
        get: {
            parameters: {
                query?: {
                    event?: string;
                    webhookId?: string;
                    state?: "pending" | "delivering" | "delivered" | "failed";
                    /** @description Only attempts with this outcome (pending and in-flight deliveries have none) */
                    outcome?: "delivered" | "timeout" | "connection_refused" | "connection_reset" | "non_2xx" | "redirect" | "error";
                    /** @description Only attempts the receiver answered with this HTTP status (e.g. 500, 302) */
                    statusCode?: number;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Newest first (items holds at most `limit`). total counts the deliveries matching the filters up to 10,000; totalCapped is true when more match (counting a million would take as long as the table is big). */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxDeliveryList"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read one webhook delivery */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    deliveryId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One delivery attempt of one event to one webhook. No automatic retries: a failed delivery stays failed; POST /_sandbox/deliveries/{id}/redeliver sends the same body again under the same X-Webhook-Id as a new delivery. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxDelivery"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again (same body, same X-Webhook-Id)
         * @description Creates a new delivery (redeliveryOf = this id) of the same event to the same webhook, with the same body bytes and X-Webhook-Id, and returns it (state pending; poll GET /_sandbox/deliveries/{id} for the outcome). The webhook must still exist.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    deliveryId: number;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SandboxEmptyBody"];
                };
            };
            responses: {
                /** @description One delivery attempt of one event to one webhook. No automatic retries: a failed delivery stays failed; POST /_sandbox/deliveries/{id}/redeliver sends the same body again under the same X-Webhook-Id as a new delivery. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxDelivery"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's request journal, newest first
         * @description Every request obsim answered for the caller on /v1/*, the hosted pages and /_sandbox/* (not these journal routes, not /_sandbox/sandboxes). Filters combine with AND; since/until are virtual-clock instants. Pages of `limit` (default 50, at most 500); pass `nextCursor` as `cursor` for the next, older page. The journal keeps the newest --journal-max-entries entries (10,000) within --journal-max-bytes (50 MB) per sandbox.
         */
        get: {
            parameters: {
                query?: {
                    /** @description HTTP method, any case (GET, POST, …) */
                    method?: string;
                    /** @description Exact path (no query string) */
                    path?: string;
                    /** @description Paths starting with this */
                    pathPrefix?: string;
                    status?: number;
                    /** @description Error code of refused requests, e.g. validation_failed */
                    code?: string;
                    /** @description Answered at or after this instant (virtual clock) */
                    since?: string;
                    /** @description Answered at or before this instant (virtual clock) */
                    until?: string;
                    limit?: number;
                    /** @description nextCursor of the previous page */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Newest first. `nextCursor` (absent on the last page) fetches the next, older page with the same filters. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JournalList"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Clear the caller's journal */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JournalCleared"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/requests/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live stream of new journal entries and webhook deliveries (Server-Sent Events)
         * @description text/event-stream. `event: request` with a JournalEntry as data for each request answered from now on; `event: delivery` with { id, eventId, event, url, state, statusCode, outcome, durationMs } for each finished webhook delivery attempt; a `: heartbeat` comment every 15 s. The first line is `: connected`. `obsim logs tail` reads it.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The stream (never ends by itself) */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/requests/{requestId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One journal entry */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description The entry id (JournalEntry.id) */
                    requestId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description One answered request. Credentials are never stored: X-Partner-Client-Secret, Authorization (its scheme kept), Cookie and X-Obsim-Admin-Key show as `[redacted]`, and so do the values of `token`, `secret`, `clientSecret`, `accessToken`, `refreshToken` and `password` properties in either body. Bodies longer than --journal-body-limit are cut (`…Truncated: true`, the body then a string). `code` and `field` are the ErrorBody code and field of a refused request; `resources` names what a successful write created or changed. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JournalEntry"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/requests/count": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Count the journal entries a matcher matches */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["JournalCountRequest"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JournalCount"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/requests/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify how many journal entries a matcher matches, with near misses when it does not hold
         * @description Always 200 for a well-formed body: `{ verified: true, actual }`, or `{ verified: false, expected, actual, nearMisses | matched }` — the message a failing test prints. A malformed matcher is a 400 naming the field.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["JournalVerifyRequest"];
                };
            };
            responses: {
                /** @description verified: whether the count holds. When it does not: expected (the count asked), actual (how many matched), and the explanation a test prints: for too few, nearMisses, the closest entries that did not match (fewest and least weighty differences first, then newest) with the fields that differed; for too many, matched (the newest ten that did). */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JournalVerifyResult"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete the calling partner's data
         * @description Deletes the partner's merchants (and their stores, payments and consents), webhooks, events, deliveries and pending timers, in one transaction. Other partners, the clock and the sandbox bank fixtures are untouched. The default sandbox partner, and the partner of a created sandbox, get their default activated merchant again.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SandboxEmptyBody"];
                };
            };
            responses: {
                /** @description Counts of the calling partner's rows deleted. Other partners' data, the clock and the sandbox bank fixtures are untouched. For the default sandbox partner, the default activated merchant is created again (defaultMerchantId). */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxResetResponse"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/magic-values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Inputs that force sandbox outcomes
         * @description Payment amounts, fast-track registration numbers and special AIS users (docs/sandbox-controls.md "Magic values").
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Inputs that force an outcome in the sandbox (docs/sandbox-controls.md "Magic values"). */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxMagicValues"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's sandbox at a glance: environment, clock and counts
         * @description Counts merchants by status, payments by status, consents by status and deliveries by state and outcome. Counting reads every payment of the sandbox: this is a dashboard read, not one for a hot loop.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The caller's sandbox at a glance: its environment, clock and counts. Merchants count by reported status (pending_partner_ais counts as pending_completion); deliveries by state and by the outcome of their attempt. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxOverview"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/merchants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List merchants, newest first, with the control actions legal for each
         * @description Filters: status (the reported status; pending_completion includes pending_partner_ais), q (part of the company name or partnerRefId, case-insensitive). limit 1-200, default 50; cursor from nextCursor.
         */
        get: {
            parameters: {
                query?: {
                    status?: "pending_onboarding" | "pending_completion" | "awaiting_approval" | "activated" | "rejected" | "inactive";
                    /** @description Part of the company name or partnerRefId (case-insensitive) */
                    q?: string;
                    limit?: number;
                    /** @description nextCursor of the previous page: the items after it, newest first */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxMerchantList"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/merchants/{merchantId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a merchant: its fields, onboarding link, stores, state and legal actions */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    merchantId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxMerchant"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payments, newest first, with the control actions legal for each
         * @description Filters: status, referenceNumber (exact). limit 1-200, default 50; cursor from nextCursor.
         */
        get: {
            parameters: {
                query?: {
                    status?: "pending" | "processing" | "paid" | "failed";
                    /** @description Exactly this referenceNumber */
                    referenceNumber?: string;
                    limit?: number;
                    /** @description nextCursor of the previous page: the items after it, newest first */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxPaymentList"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/payments/{paymentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a payment with its timeline (events and their deliveries) and legal actions */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    paymentId: number;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxPayment"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/consents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List consents of the caller's merchants, newest first, with the control actions legal for each
         * @description Filters: userId (the bank user), status. limit 1-200, default 50; cursor from nextCursor.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only this bank user */
                    userId?: string;
                    status?: "pending" | "authorized" | "expired" | "revoked" | "failed";
                    limit?: number;
                    /** @description nextCursor of the previous page: the items after it, newest first */
                    cursor?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxConsentList"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List registered webhooks with their signing secrets */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The caller's registered webhooks, oldest first, with their signing secrets (the provider shows a secret only when the webhook is created; a sandbox lets its owner read it again). */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxWebhookList"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/scenarios": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the shipped scenarios */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxScenarioList"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/scenarios/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a shipped or inline scenario and return the result of every step
         * @description Runs in-process with the calling partner credentials. A failed expectation is not an HTTP error: the answer is 200 with `passed: false` and the failed step `message`. An invalid inline scenario (or one of more than 100 steps) is a 400 naming the step; an unknown name a 404 scenario_not_found. Virtual time moves for the caller's sandbox when a step advances the clock. With `isolate: true` the scenario runs in a fresh sandbox (its own data and clock), deleted afterwards.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SandboxScenarioRunRequest"];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxScenarioRunResult"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/snapshots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's snapshots, oldest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SnapshotList"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Capture the caller's data and its sandbox's clock under a name
         * @description Every row the caller owns (merchants, stores, payments, consents, webhooks, events, deliveries, timers) and the clock's instant, kept in the database (it survives a restart, and the deletion of its sandbox). Names are unique in the simulator (409 snapshot_exists).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SnapshotCreateRequest"];
                };
            };
            responses: {
                /** @description A snapshot of the caller's data and its sandbox's clock. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Snapshot"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/snapshots/{name}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rewind the caller's data and its sandbox's clock to one of its snapshots
         * @description In one transaction: the caller's rows are replaced by the snapshot's (same ids) and the clock is put back at the snapshot's instant (frozen or running, as it was). Pending timers are those of the snapshot.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SandboxEmptyBody"];
                };
            };
            responses: {
                /** @description A snapshot of the caller's data and its sandbox's clock. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Snapshot"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/snapshots/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete one of the caller’s snapshots */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            name: string;
                            deleted: boolean;
                        };
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/sandboxes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the sandboxes
         * @description Every live sandbox, oldest first (not the default one of the configured partners). Secrets are never listed. In a cluster, every shard's sandboxes (the shard that answers asks the others; `unreachable` names those that did not answer); `scope=shard` lists only the answering shard's.
         */
        get: {
            parameters: {
                query?: {
                    scope?: "cluster" | "shard";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxList"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a sandbox: an isolated world with its own credentials, clock and settings
         * @description Answers the sandbox and its partner credentials (the secret is shown only here). Every /v1/partner/*, /_sandbox/* and hosted-page flow works with them unchanged and sees only this sandbox's data, on this sandbox's clock. Idle for its ttl (default 24h), it is removed. Needs X-Obsim-Admin-Key when the server runs with OBSIM_ADMIN_KEY.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SandboxCreateRequest"];
                };
            };
            responses: {
                /** @description The new sandbox and its partner credentials: send them as X-Partner-Client-Id / X-Partner-Client-Secret to every /v1/partner/* and /_sandbox/* call. The secret is not shown again. */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxCreated"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/sandboxes/{sandboxId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one sandbox
         * @description An admin, or the sandbox itself (its partner credentials).
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sandboxId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description A created sandbox (its secret is shown only once, at creation). */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Sandbox"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a sandbox and all its data
         * @description Its merchants, payments, consents, webhooks, events, deliveries and timers are deleted in one transaction; its credentials then answer 401 sandbox_gone. An admin, or the sandbox itself.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    sandboxId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SandboxDeleted"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "4XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
                /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one. */
                "5XX": {
                    headers: {
                        /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                        "x-request-id"?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorBody"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "payment.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.completed
         * @description The payer completed bank authorization and the payment settled (status paid). Answer 2xx within 10 seconds; failed deliveries are not retried automatically.
         */
        post: operations["webhook_payment_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.failed
         * @description The bank rejected the payment, the payer abandoned it, or it expired (failureReason). Answer 2xx within 10 seconds; failed deliveries are not retried automatically.
         */
        post: operations["webhook_payment_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "merchant.activated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * merchant.activated
         * @description The merchant became active (status active). Answer 2xx within 10 seconds; failed deliveries are not retried automatically.
         */
        post: operations["webhook_merchant_activated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "merchant.deactivated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * merchant.deactivated
         * @description The merchant became inactive. Answer 2xx within 10 seconds; failed deliveries are not retried automatically.
         */
        post: operations["webhook_merchant_deactivated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "merchant.onboarding.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * merchant.onboarding.completed
         * @description The merchant finished onboarding (now awaiting approval). Answer 2xx within 10 seconds; failed deliveries are not retried automatically.
         */
        post: operations["webhook_merchant_onboarding_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook.test
         * @description A test delivery to one webhook (POST /v1/partner/webhooks/{id}/test); not a contract event. Answer 2xx within 10 seconds; failed deliveries are not retried automatically.
         */
        post: operations["webhook_webhook_test"];
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
         * ErrorBody
         * @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` names the offending request property when there is one.
         */
        ErrorBody: {
            /** @description HTTP status code, repeated */
            status: number;
            /** @description Stable error code (docs/errors.md lists them) */
            code: string;
            /** @description Human-readable explanation */
            message: string;
            /** @description Offending request property, e.g. `amount` or `address.countryCode` */
            field?: string;
            details?: {
                field: string;
                message: string;
            }[];
            /** @description Request id; also sent as the x-request-id response header */
            requestId: string;
        };
        /**
         * Person
         * @description A person (sole trader, beneficial owner, director, signatory).
         */
        Person: {
            fullName: string;
            /** @description Free-text postal address */
            address?: string;
            /**
             * Format: date
             * @description YYYY-MM-DD, a real calendar date before today
             */
            dateOfBirth?: string;
        };
        /** Address */
        Address: {
            street?: string;
            city?: string;
            postalCode?: string;
            /**
             * @description ISO 3166-1 alpha-2, upper case; defaults to DK
             * @default DK
             */
            countryCode: string;
        };
        /**
         * CreateMerchantRequest
         * @description Standard merchant creation. The contract lists the fields but not which are required: obsim requires companyName and contactEmail (a real provider needs both to send the onboarding link) and accepts contactPhone and partnerRefId.
         */
        CreateMerchantRequest: {
            companyName: string;
            /** Format: email */
            contactEmail: string;
            contactPhone?: string;
            partnerRefId?: string;
        };
        /** StandardMerchantResponse */
        StandardMerchantResponse: {
            merchantId: number;
            /** Format: uuid */
            clientId: string;
            companyName: string;
            contactEmail: string;
            onboardingUrl: string;
            onboardingToken: string;
            /** @enum {string} */
            status: "pending_onboarding";
            /**
             * Format: date-time
             * @description When onboardingUrl stops working: creation + 7 days, with milliseconds
             */
            expiresAt: string;
        };
        /**
         * FastTrackMerchantRequest
         * @description Fast-track creation with full company data. Besides the schema, obsim checks the IBAN checksum (mod-97) and that soleTrader is given when isSoleTrader is true. Sandbox magic: registrationNumber 00000000 or 99999999 makes the sub-TPP creation fail (status pending_onboarding, subTppStatus failed).
         */
        FastTrackMerchantRequest: {
            companyName: string;
            /** Format: email */
            contactEmail: string;
            /** @description Company registration number (DK: 8-digit CVR) */
            registrationNumber: string;
            /**
             * Format: uri
             * @description Absolute http(s) URL
             */
            website: string;
            /** @description Payout IBAN; spaces between groups allowed; checksum verified. Stored without spaces, upper case. */
            iban: string;
            contactPhone?: string;
            partnerRefId?: string;
            /** @description BIC/SWIFT, 8 or 11 characters, upper case */
            bic?: string;
            /**
             * @default PIS: In store merchant payment
             * @enum {string}
             */
            primaryUseCase: "PIS: In store merchant payment" | "PIS: eCommerce merchant payment" | "PIS: Funding an account" | "PIS: Paying a bill" | "PIS: Paying off debt";
            /** @description 4-digit merchant category code */
            mccCode?: string;
            isSoleTrader?: boolean;
            soleTrader?: components["schemas"]["Person"];
            ubos?: components["schemas"]["Person"][];
            directors?: components["schemas"]["Person"][];
            signatories?: components["schemas"]["Person"][];
            address?: components["schemas"]["Address"];
        };
        /**
         * FastTrackMerchantResponse
         * @description status pending_partner_ais when the sub-TPP was created (subTppId set, subTppStatus created, subTppMessage null); pending_onboarding when it failed (no subTppId: no sub-TPP exists; subTppStatus failed, subTppMessage says why) — the merchant then uses the standard onboarding form at onboardingUrl.
         */
        FastTrackMerchantResponse: {
            merchantId: number;
            /** Format: uuid */
            clientId: string;
            companyName: string;
            contactEmail: string;
            /** @description The sub-TPP created for the merchant; absent when its creation failed */
            subTppId?: string;
            /** @enum {string} */
            subTppStatus: "created" | "failed";
            subTppMessage: string | null;
            onboardingUrl: string;
            onboardingToken: string;
            /** @enum {string} */
            status: "pending_partner_ais" | "pending_onboarding";
            /**
             * Format: date-time
             * @description When onboardingUrl stops working: creation + 7 days
             */
            expiresAt: string;
        };
        /** TestMerchantRequest */
        TestMerchantRequest: {
            companyName: string;
        };
        /**
         * TestMerchantResponse
         * @description Sandbox only (404 not_available_in_production on production). The merchant is activated at once and can take payments.
         */
        TestMerchantResponse: {
            merchantId: number;
            /** Format: uuid */
            clientId: string;
            companyName: string;
            /** @enum {string} */
            status: "activated";
            message: string;
        };
        /**
         * OnboardingStatusResponse
         * @description A fast-tracked merchant reads pending_completion here (its create response said pending_partner_ais). subTppId is absent while no sub-TPP exists (a standard merchant before the onboarding form is submitted, or a failed fast-track); subTppDetails.status then says not_created or failed.
         */
        OnboardingStatusResponse: {
            merchantId: number;
            /** @enum {string} */
            onboardingStatus: "pending_onboarding" | "pending_completion" | "awaiting_approval" | "activated" | "rejected" | "inactive";
            /** @description Absent while no sub-TPP exists (subTppDetails.status not_created or failed) */
            subTppId?: string;
            subTppDetails: {
                /**
                 * @description not_created: onboarding form not submitted yet; failed: fast-track sub-TPP creation failed; created: sub-TPP exists, merchant not active yet; active / inactive / rejected follow the merchant
                 * @enum {string}
                 */
                status: "not_created" | "failed" | "created" | "active" | "inactive" | "rejected";
                /** @description true exactly when the merchant is activated (can take payments) */
                isActivated: boolean;
            };
        };
        /**
         * MerchantSummary
         * @description Item of GET /v1/partner/merchants. contactEmail, partnerRefId and subTppId are absent when the merchant has none (never null: the contract types them as strings).
         */
        MerchantSummary: {
            merchantId: number;
            /** Format: uuid */
            clientId: string;
            companyName: string;
            contactEmail?: string;
            partnerRefId?: string;
            /**
             * @description How the merchant was created
             * @enum {string}
             */
            type: "standard" | "fast_track" | "test";
            /** @enum {string} */
            status: "pending_onboarding" | "pending_completion" | "awaiting_approval" | "activated" | "rejected" | "inactive";
            subTppId?: string;
            /** @enum {string} */
            subTppStatus: "not_created" | "failed" | "created" | "active" | "inactive" | "rejected";
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        /**
         * MerchantList
         * @description Merchants of the calling partner, oldest first (ordered by merchantId). Default page size 20, maximum 100; a page past the end has no items.
         */
        MerchantList: {
            items: components["schemas"]["MerchantSummary"][];
            page: number;
            limit: number;
            /** @description Number of merchants of the partner over all pages */
            total: number;
        };
        /**
         * ResendOnboardingResponse
         * @description A new onboardingToken and onboardingUrl valid 7 days from now; the previous link stops working at once.
         */
        ResendOnboardingResponse: {
            merchantId: number;
            onboardingUrl: string;
            onboardingToken: string;
            /** Format: date-time */
            expiresAt: string;
            /** @enum {string} */
            status: "pending_onboarding" | "pending_completion";
        };
        /**
         * CreateStoreRequest
         * @description Not shown in the contract: obsim's store resource (a physical or online point of sale of an activated merchant).
         */
        CreateStoreRequest: {
            name: string;
            address?: components["schemas"]["Address"];
            /** @description 4-digit merchant category code of this store */
            mccCode?: string;
            partnerRefId?: string;
        };
        /** StoreResponse */
        StoreResponse: {
            storeId: number;
            merchantId: number;
            name: string;
            address: components["schemas"]["Address"] | null;
            mccCode: string | null;
            partnerRefId: string | null;
            /** Format: date-time */
            createdAt: string;
        };
        /**
         * CreatePaymentRequest
         * @description amount in DKK: > 0, at most 2 decimals, at most 1000000. The merchant (by its clientId) must belong to the calling partner (else 404 merchant_not_found) and be activated (else 409 merchant_not_activated). Sandbox magic amounts force outcomes (GET /_sandbox/magic-values).
         */
        CreatePaymentRequest: {
            /**
             * Format: uuid
             * @description The merchant's clientId
             */
            merchantClientId: string;
            /** @description DKK, at most 2 decimals */
            amount: number;
            /** @description Partner reference shown to the payer; 1–140 characters, not blank */
            referenceNumber: string;
        };
        /**
         * Payment
         * @description Returned by POST /v1/partner/payments and GET /v1/partner/payments/{paymentId}/status. status: pending (waiting for the payer) -> processing (approved at the bank) -> paid, or failed (failureReason bank_rejected / payer_abandoned / expired). Currency is always DKK.
         */
        Payment: {
            paymentId: number;
            /** @enum {string} */
            status: "pending" | "processing" | "paid" | "failed";
            /** @description Pending, AcceptedSettlementInProcess, AcceptedSettlementCompleted, Rejected or Cancelled */
            bankPaymentStatus: string;
            /** @enum {string|null} */
            failureReason: "bank_rejected" | "payer_abandoned" | "expired" | null;
            amount: number;
            /** @enum {string} */
            currency: "DKK";
            referenceNumber: string;
            merchantClientId: string;
            merchantName: string;
            /** @description Hosted payment page to open in the payer's browser */
            paymentUrl: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /**
             * Format: date-time
             * @description A payment still pending at this instant fails with failureReason expired
             */
            expiresAt: string;
        };
        /**
         * CreateWebhookRequest
         * @description url: absolute http(s) URL (https only in production). events: one or more of the five event names, no duplicates.
         */
        CreateWebhookRequest: {
            url: string;
            events: ("payment.completed" | "payment.failed" | "merchant.activated" | "merchant.deactivated" | "merchant.onboarding.completed")[];
        };
        /**
         * WebhookResponse
         * @description secret signs every delivery: X-Webhook-Signature = hex HMAC-SHA256(secret, raw body). The provider shows it only in this response; in obsim, GET /_sandbox/webhooks reads it again.
         */
        WebhookResponse: {
            id: string;
            url: string;
            events: ("payment.completed" | "payment.failed" | "merchant.activated" | "merchant.deactivated" | "merchant.onboarding.completed")[];
            secret: string;
            /** Format: date-time */
            createdAt: string;
        };
        /**
         * WebhookTestResponse
         * @description A `webhook.test` event queued for this webhook only (whatever events it subscribes to); body { event: 'webhook.test', timestamp, data: { webhookId, message, timestamp } }, signed like every delivery. Follow it with GET /_sandbox/deliveries/{deliveryId}.
         */
        WebhookTestResponse: {
            webhookId: string;
            /** @description Sent as X-Webhook-Id */
            eventId: string;
            deliveryId: number;
            /** @enum {string} */
            status: "queued";
        };
        /** SnapshotCreateRequest */
        SnapshotCreateRequest: {
            /** @description Letters, digits, . _ -; unique in the simulator */
            name: string;
        };
        /**
         * Snapshot
         * @description A snapshot of the caller's data and its sandbox's clock.
         */
        Snapshot: {
            name: string;
            /** Format: date-time */
            createdAt: string;
            clock: {
                /**
                 * Format: date-time
                 * @description The virtual instant it was taken at (restored with it)
                 */
                now: string;
                frozen: boolean;
            };
            /** @description Rows it holds, by kind */
            counts: {
                [key: string]: number;
            };
        };
        /** SnapshotList */
        SnapshotList: {
            items: components["schemas"]["Snapshot"][];
        };
        /**
         * SandboxCreateRequest
         * @description Everything is optional. `ttl`: idle time after which the sandbox is removed (default 24h, at most 30d). `clock`: where its virtual clock starts and whether it runs. `settleDelay`, `approvalDelay`, `paymentExpiry`: this sandbox's delays instead of the server's.
         */
        SandboxCreateRequest: {
            name?: string;
            /** @description A duration: "500ms", "5s", "2m", "1h", "7d", or whole milliseconds */
            ttl?: string | number;
            clock?: {
                /** Format: date-time */
                start?: string;
                frozen?: boolean;
            };
            /** @description A duration: "500ms", "5s", "2m", "1h", "7d", or whole milliseconds */
            settleDelay?: string | number;
            /** @description A duration: "500ms", "5s", "2m", "1h", "7d", or whole milliseconds */
            approvalDelay?: string | number;
            /** @description A duration: "500ms", "5s", "2m", "1h", "7d", or whole milliseconds */
            paymentExpiry?: string | number;
            /** @description Start from this snapshot (POST /_sandbox/snapshots): its data with new ids, and its clock unless `clock` is given */
            snapshot?: string;
            /** @description Build this starting world in it: the name of a shipped persona (personas/), or a persona object (personas/persona.schema.json) */
            persona?: string | Record<string, never>;
        } | null;
        /**
         * Sandbox
         * @description A created sandbox (its secret is shown only once, at creation).
         */
        Sandbox: {
            /** @description Also the client id of its partner credential */
            sandboxId: string;
            /** @description The shard that holds it, in a cluster (docs/cluster.md); absent on a single process */
            shard?: string;
            name: string;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it is removed unless used before (wall clock: last use + ttl)
             */
            expiresAt: string;
            ttlMs: number;
            clock: components["schemas"]["SandboxClock"];
            settings: {
                settleDelayMs: number;
                approvalDelayMs: number;
                paymentExpiryMs: number;
            };
        };
        /**
         * SandboxCreated
         * @description The new sandbox and its partner credentials: send them as X-Partner-Client-Id / X-Partner-Client-Secret to every /v1/partner/* and /_sandbox/* call. The secret is not shown again.
         */
        SandboxCreated: {
            /** @description Also the client id of its partner credential */
            sandboxId: string;
            /** @description The shard that holds it, in a cluster (docs/cluster.md); absent on a single process */
            shard?: string;
            name: string;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it is removed unless used before (wall clock: last use + ttl)
             */
            expiresAt: string;
            ttlMs: number;
            clock: components["schemas"]["SandboxClock"];
            settings: {
                settleDelayMs: number;
                approvalDelayMs: number;
                paymentExpiryMs: number;
            };
            credentials: {
                clientId: string;
                clientSecret: string;
            };
            /** @description What the persona built (when one was given) */
            persona?: {
                name: string;
                merchants: {
                    companyName: string;
                    merchantId: number;
                    clientId: string;
                    state: string;
                }[];
                payments: number;
                consents: number;
                webhooks: {
                    id: string;
                    url: string;
                    secret: string;
                }[];
            };
            /** @description The activated merchant every sandbox starts with (as the default partner has) */
            defaultMerchant: {
                merchantId: number;
                clientId: string;
            };
        };
        /** SandboxList */
        SandboxList: {
            items: components["schemas"]["Sandbox"][];
            total: number;
            /** @description In a cluster: the shards that did not answer, whose sandboxes are missing from items */
            unreachable?: string[];
        };
        /** SandboxDeleted */
        SandboxDeleted: {
            sandboxId: string;
            deleted: {
                merchants: number;
                payments: number;
                stores: number;
                webhooks: number;
                events: number;
                deliveries: number;
                consents: number;
                timers: number;
            };
        };
        /**
         * SandboxEmptyBody
         * @description No body (or an empty JSON object).
         */
        SandboxEmptyBody: Record<string, never> | null;
        /**
         * SandboxClock
         * @description The virtual clock: the only "now" of the simulator (timestamps, expiries, settlement delays).
         */
        SandboxClock: {
            /**
             * Format: date-time
             * @description Current simulated instant
             */
            now: string;
            /** @description true: time moves only when advanced (--clock-frozen); false: it runs with the wall clock */
            frozen: boolean;
            /** @description Simulated time minus wall-clock time, in ms */
            offsetMs: number;
        };
        /**
         * SandboxClockAdvanceRequest
         * @description Exactly one of: `ms` (whole milliseconds), `duration` ("500ms", "5s", "2m", "1h", "7d"), `to` (an ISO 8601 instant not in the past). Every timer that falls due (settlement, expiry, approval, consent expiry) fires in time order.
         */
        SandboxClockAdvanceRequest: {
            ms?: number;
            /** @description e.g. 5s, 2m, 1h, 7d */
            duration?: string;
            /** Format: date-time */
            to?: string;
        };
        /** SandboxClockAdvanceResponse */
        SandboxClockAdvanceResponse: {
            /** Format: date-time */
            now: string;
            /** @description Timed transitions of the caller's sandbox that fired during the advance */
            fired: number;
        };
        /**
         * SandboxMerchantActionResponse
         * @description Statuses are the stored onboarding status values (activated, not the webhook name active).
         */
        SandboxMerchantActionResponse: {
            merchantId: number;
            status: string;
            previousStatus: string;
        };
        /**
         * SandboxPaymentActionRequest
         * @description Only for `fail`: the failure reason (default bank_rejected). Other actions take no body.
         */
        SandboxPaymentActionRequest: {
            /** @enum {string} */
            reason?: "bank_rejected" | "payer_abandoned" | "expired";
        } | null;
        /**
         * SandboxConsentActionRequest
         * @description Only for `deny`: the errorMessage reported on the failed consent. Other actions take no body.
         */
        SandboxConsentActionRequest: {
            errorMessage?: string;
        } | null;
        /**
         * SandboxDelivery
         * @description One delivery attempt of one event to one webhook. No automatic retries: a failed delivery stays failed; POST /_sandbox/deliveries/{id}/redeliver sends the same body again under the same X-Webhook-Id as a new delivery.
         */
        SandboxDelivery: {
            id: number;
            /** @description Sent as X-Webhook-Id; unchanged on redelivery */
            eventId: string;
            /** @description Event name (payment.completed, …, webhook.test) */
            event: string;
            webhookId: string;
            url: string;
            /** @enum {string} */
            state: "pending" | "delivering" | "delivered" | "failed";
            /** @description Receiver's HTTP status, when it answered */
            statusCode: number | null;
            /**
             * @description null until attempted
             * @enum {string|null}
             */
            outcome: "delivered" | "timeout" | "connection_refused" | "connection_reset" | "non_2xx" | "redirect" | "error" | null;
            error: string | null;
            /** @description Wall-clock duration of the exchange */
            durationMs: number | null;
            /**
             * Format: date-time
             * @description Simulated instant of the attempt
             */
            attemptedAt: string | null;
            /** Format: date-time */
            createdAt: string;
            /** @description Delivery id this one re-sends */
            redeliveryOf: number | null;
            /** @description The exact body bytes (sent, or to be sent) */
            body: string;
            /** @description X-Webhook-Signature: hex HMAC-SHA256 of body with the webhook secret */
            signature: string;
        };
        /**
         * SandboxDeliveryList
         * @description Newest first (items holds at most `limit`). total counts the deliveries matching the filters up to 10,000; totalCapped is true when more match (counting a million would take as long as the table is big).
         */
        SandboxDeliveryList: {
            items: components["schemas"]["SandboxDelivery"][];
            total: number;
            totalCapped: boolean;
        };
        /**
         * SandboxResetResponse
         * @description Counts of the calling partner's rows deleted. Other partners' data, the clock and the sandbox bank fixtures are untouched. For the default sandbox partner, the default activated merchant is created again (defaultMerchantId).
         */
        SandboxResetResponse: {
            deleted: {
                merchants: number;
                payments: number;
                stores: number;
                webhooks: number;
                events: number;
                deliveries: number;
                consents: number;
                timers: number;
            };
            defaultMerchantId: number | null;
        };
        /**
         * SandboxMagicValues
         * @description Inputs that force an outcome in the sandbox (docs/sandbox-controls.md "Magic values").
         */
        SandboxMagicValues: {
            amounts: {
                amount: number;
                outcome: string;
                description: string;
            }[];
            fastTrack: ({
                field: string;
                value: string;
                description: string;
            } & {
                [key: string]: unknown;
            })[];
            users: {
                userId: string;
                description: string;
            }[];
        };
        /**
         * SandboxOverview
         * @description The caller's sandbox at a glance: its environment, clock and counts. Merchants count by reported status (pending_partner_ais counts as pending_completion); deliveries by state and by the outcome of their attempt.
         */
        SandboxOverview: {
            /** @enum {string} */
            environment: "sandbox" | "production";
            /** @description The caller's client id */
            partnerId: string;
            /** @description The created sandbox (POST /_sandbox/sandboxes) the caller is; null for the configured partners */
            sandboxId: string | null;
            clock: components["schemas"]["SandboxClock"];
            merchants: {
                pending_onboarding: number;
                pending_completion: number;
                awaiting_approval: number;
                activated: number;
                rejected: number;
                inactive: number;
            };
            payments: {
                pending: number;
                processing: number;
                paid: number;
                failed: number;
            };
            consents: {
                pending: number;
                authorized: number;
                expired: number;
                revoked: number;
                failed: number;
            };
            deliveries: {
                byState: {
                    pending: number;
                    delivering: number;
                    delivered: number;
                    failed: number;
                };
                byOutcome: {
                    delivered: number;
                    timeout: number;
                    connection_refused: number;
                    connection_reset: number;
                    non_2xx: number;
                    redirect: number;
                    error: number;
                };
            };
            /** @description Registered webhooks */
            webhooks: number;
        };
        /** SandboxMerchantList */
        SandboxMerchantList: {
            items: {
                merchant: components["schemas"]["MerchantSummary"];
                /**
                 * @description The stored state of the transition table (status reports pending_partner_ais as pending_completion)
                 * @enum {string}
                 */
                state: "pending_onboarding" | "pending_completion" | "pending_partner_ais" | "awaiting_approval" | "activated" | "rejected" | "inactive";
                /** @description Control actions legal from this state (POST /_sandbox/merchants/{merchantId}/{action}) */
                actions: ("submit-onboarding" | "complete-fast-track" | "approve" | "reject" | "activate" | "deactivate" | "reactivate")[];
            }[];
            /** @description Pass as cursor for the next page; null on the last page */
            nextCursor: string | null;
        };
        /** SandboxMerchant */
        SandboxMerchant: {
            merchant: components["schemas"]["MerchantSummary"];
            /**
             * @description The stored state of the transition table (status reports pending_partner_ais as pending_completion)
             * @enum {string}
             */
            state: "pending_onboarding" | "pending_completion" | "pending_partner_ais" | "awaiting_approval" | "activated" | "rejected" | "inactive";
            /** @description Every state of the table, in order */
            states: ("pending_onboarding" | "pending_completion" | "pending_partner_ais" | "awaiting_approval" | "activated" | "rejected" | "inactive")[];
            /** @description Control actions legal from this state (POST /_sandbox/merchants/{merchantId}/{action}) */
            actions: ("submit-onboarding" | "complete-fast-track" | "approve" | "reject" | "activate" | "deactivate" | "reactivate")[];
            /** @description The current hosted onboarding link while onboarding is open */
            onboardingUrl: string | null;
            /** Format: date-time */
            onboardingExpiresAt: string | null;
            stores: components["schemas"]["StoreResponse"][];
        };
        /** SandboxPaymentList */
        SandboxPaymentList: {
            items: {
                payment: components["schemas"]["Payment"];
                /** @description Control actions legal from this status (POST /_sandbox/payments/{paymentId}/{action}) */
                actions: ("approve" | "complete" | "fail" | "abandon" | "expire")[];
            }[];
            /** @description Pass as cursor for the next page; null on the last page */
            nextCursor: string | null;
        };
        /** SandboxPayment */
        SandboxPayment: {
            payment: components["schemas"]["Payment"];
            /** @description Control actions legal from this status (POST /_sandbox/payments/{paymentId}/{action}) */
            actions: ("approve" | "complete" | "fail" | "abandon" | "expire")[];
            /** @description Oldest first: created, the payer opening the hosted page, the last status change, and the events it emitted with their deliveries. A payment keeps no history of intermediate states (pending -> processing -> paid shows the change to paid). */
            timeline: {
                /** Format: date-time */
                at: string;
                /** @enum {string} */
                kind: "created" | "page_opened" | "status_changed" | "event";
                /** @enum {string|null} */
                status: "pending" | "processing" | "paid" | "failed" | null;
                /** @enum {string|null} */
                event: "payment.completed" | "payment.failed" | "merchant.activated" | "merchant.deactivated" | "merchant.onboarding.completed" | null;
                eventId: string | null;
                deliveries: {
                    id: number;
                    /** @enum {string} */
                    state: "pending" | "delivering" | "delivered" | "failed";
                    /** @enum {string|null} */
                    outcome: "delivered" | "timeout" | "connection_refused" | "connection_reset" | "non_2xx" | "redirect" | "error" | null;
                    statusCode: number | null;
                }[];
            }[];
        };
        /** SandboxConsentList */
        SandboxConsentList: {
            items: {
                consent: components["schemas"]["Consent"];
                /** @description Control actions legal from this status (POST /_sandbox/consents/{requestId}/{action}) */
                actions: ("authorize" | "deny" | "revoke" | "expire")[];
            }[];
            /** @description Pass as cursor for the next page; null on the last page */
            nextCursor: string | null;
        };
        /**
         * SandboxWebhookList
         * @description The caller's registered webhooks, oldest first, with their signing secrets (the provider shows a secret only when the webhook is created; a sandbox lets its owner read it again).
         */
        SandboxWebhookList: {
            items: components["schemas"]["WebhookResponse"][];
        };
        /**
         * JournalEntry
         * @description One answered request. Credentials are never stored: X-Partner-Client-Secret, Authorization (its scheme kept), Cookie and X-Obsim-Admin-Key show as `[redacted]`, and so do the values of `token`, `secret`, `clientSecret`, `accessToken`, `refreshToken` and `password` properties in either body. Bodies longer than --journal-body-limit are cut (`…Truncated: true`, the body then a string). `code` and `field` are the ErrorBody code and field of a refused request; `resources` names what a successful write created or changed.
         */
        JournalEntry: {
            /** @description Increasing in the order requests were answered */
            id: number;
            /**
             * Format: date-time
             * @description When it was answered, on the sandbox's virtual clock
             */
            at: string;
            /**
             * Format: date-time
             * @description When it was answered, on the wall clock
             */
            wallAt: string;
            method: string;
            /** @description Without the query string */
            path: string;
            /** @description Query parameters as parsed */
            query: {
                [key: string]: unknown;
            };
            /** @description Selected request headers: accept, content-length, content-type, idempotency-key, prefer, user-agent, x-obsim-scenario, x-partner-client-id, x-request-id; credential headers as `[redacted]` */
            headers: {
                [key: string]: string;
            };
            /** @description The request body (JSON as parsed; a form as its fields); absent when none */
            requestBody?: unknown;
            requestBodyTruncated: boolean;
            status: number;
            /** @description Error code of a refused request (ErrorBody.code); absent otherwise */
            code?: string;
            /** @description The field a refused request was refused for (ErrorBody.field), when it names one */
            field?: string;
            /** @description The answer (JSON as parsed; a page as its HTML); absent when none */
            responseBody?: unknown;
            responseBodyTruncated: boolean;
            /** @description From the request received to the answer ready (its commit included) */
            durationMs: number;
            /** @description The x-request-id of the answer */
            requestId: string;
            /** @description For a successful write: the ids it created or changed (from its path and its answer); empty for reads and refusals */
            resources: {
                merchantId?: number;
                paymentId?: number;
                consentId?: string;
                webhookId?: string;
                deliveryId?: number;
            };
        };
        /**
         * JournalList
         * @description Newest first. `nextCursor` (absent on the last page) fetches the next, older page with the same filters.
         */
        JournalList: {
            items: components["schemas"]["JournalEntry"][];
            nextCursor?: string;
        };
        /**
         * RequestMatcher
         * @description Which journal entries count; every criterion given must hold (an empty matcher matches every entry). path: exact, or a pattern where `{name}` and `*` match one segment and `**` the rest (`/v1/partner/merchants/{id}/onboarding-status`). status: a code or a class (`"4xx"`). body: partial match of the request body (extra properties are fine; arrays element by element; `$any`, `$absent`, `$type:<t>`, `$regex:<re>`). jsonPath: `$.a.b[0]` -> the value it must equal in the request body. Unknown properties are refused (400 unknown_field naming it).
         */
        RequestMatcher: {
            /** @description HTTP method, any case (GET, POST, …) */
            method?: string;
            path?: string;
            pathPrefix?: string;
            status?: number | string;
            code?: string;
            query?: {
                [key: string]: string;
            };
            /** @description Partial match of the request body */
            body?: unknown;
            jsonPath?: {
                [key: string]: unknown;
            };
            headerPresent?: string[];
            headerAbsent?: string[];
        };
        /**
         * JournalCountRequest
         * @description A matcher, and optionally only entries newer than `after` (an entry id).
         */
        JournalCountRequest: {
            request?: components["schemas"]["RequestMatcher"];
            /** @description Only entries with a greater id */
            after?: number;
        };
        /**
         * JournalVerifyRequest
         * @description A matcher and how many entries must match: `count` (exactly), `atLeast`, `atMost` (both may be given); none given means at least one. Looks at every entry of the journal after `after`.
         */
        JournalVerifyRequest: {
            request?: components["schemas"]["RequestMatcher"];
            count?: number;
            atLeast?: number;
            atMost?: number;
            /** @description Only entries with a greater id */
            after?: number;
        };
        /** JournalCount */
        JournalCount: {
            count: number;
        };
        /**
         * JournalVerifyResult
         * @description verified: whether the count holds. When it does not: expected (the count asked), actual (how many matched), and the explanation a test prints: for too few, nearMisses, the closest entries that did not match (fewest and least weighty differences first, then newest) with the fields that differed; for too many, matched (the newest ten that did).
         */
        JournalVerifyResult: {
            verified: boolean;
            actual: number;
            expected?: {
                count?: number;
                atLeast?: number;
                atMost?: number;
            };
            matched?: components["schemas"]["JournalEntry"][];
            nearMisses?: {
                entry: components["schemas"]["JournalEntry"];
                /** @description Weighted number of criteria missed (method/path 3, status/code 2, others 1) */
                distance: number;
                differences: {
                    /** @description The criterion missed: method, path, status, code, query.<name>, body.<path>, jsonPath.<path>, headers.<name> */
                    field: string;
                    /** @description What the matcher asked for */
                    expected: unknown;
                    /** @description What the entry had */
                    actual: unknown;
                }[];
            }[];
        };
        /** JournalCleared */
        JournalCleared: {
            /** @description Entries deleted */
            deleted: number;
        };
        /**
         * GenerateTokenRequest
         * @description Token request. `permissions` must hold at least one of the known permission strings (duplicates are ignored). Authentication of this call (not shown by the contract): none in the sandbox; when partner credential headers are sent they are checked and the merchant must be theirs; in production they are required.
         */
        GenerateTokenRequest: {
            /** @description User identifier issued by an identity provider */
            userId: string;
            /** @description Merchant identifier (merchantId of the partner API) */
            merchantId: number;
            /** @description Permissions the token is limited to: ais:accounts:read, ais:balance:read, ais:transactions:read */
            permissions: ("ais:accounts:read" | "ais:balance:read" | "ais:transactions:read")[];
        };
        /**
         * TokenResponse
         * @description A JWT (HS256) with claims sub (userId), merchantId, permissions, iat, exp (iat + 1 hour by default, virtual clock), iss `obsim-<environment>`, aud `obsim-ais`, jti. Send it as `Authorization: Bearer <token>` to /v1/ais/*.
         */
        TokenResponse: {
            token: string;
        };
        /**
         * CreateConsentRequest
         * @description Consent request. expirationDateTime must be in the future (virtual clock) and after transactionFromDateTime. callbackUrl (http or https) receives the browser after the bank page with `consentId`, `status`, `requestId` (and `error` when denied) as query parameters.
         */
        CreateConsentRequest: {
            /** @description Merchant identifier (merchantId of the partner API) */
            merchantId: number;
            /** @description User identifier issued by an identity provider */
            userId: string;
            permissions: ("ReadAccountsDetail" | "ReadBalances" | "ReadTransactionsDetail")[];
            /** @description When the consent expires (ISO 8601; must be in the future) */
            expirationDateTime: string;
            /** @description Earliest booking date readable under this consent (ISO 8601) */
            transactionFromDateTime: string;
            /** Format: uri */
            callbackUrl?: string;
        };
        /**
         * Consent
         * @description A consent. Dates are echoed normalised to ISO 8601 UTC with milliseconds. `authorizationUrl` is present while the consent is pending; `consentId` once authorized; `errorMessage` when failed. callbackUrl is not echoed (contract).
         */
        Consent: {
            merchantId: number;
            userId: string;
            permissions: ("ReadAccountsDetail" | "ReadBalances" | "ReadTransactionsDetail")[];
            /** Format: date-time */
            expirationDateTime: string;
            /** Format: date-time */
            transactionFromDateTime: string;
            /** @description Provider request id (UUID) */
            requestId: string;
            /**
             * @description pending -> authorized | failed (bank page); pending/authorized -> expired (virtual clock passes expirationDateTime); authorized -> revoked
             * @enum {string}
             */
            status: "pending" | "authorized" | "expired" | "revoked" | "failed";
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description Provider consent token id, set when the user authorizes */
            consentId?: string;
            /** @description Hosted bank page (present while pending) */
            authorizationUrl?: string;
            /** @description Why the consent failed */
            errorMessage?: string;
        };
        /**
         * ConsentList
         * @description The user's consents for the merchant, newest first.
         */
        ConsentList: components["schemas"]["Consent"][];
        /** AccountsRequest */
        AccountsRequest: {
            /** @description User identifier issued by an identity provider */
            userId: string;
            /** @description Merchant identifier (merchantId of the partner API) */
            merchantId: number;
        };
        /**
         * AccountDetails
         * @description Account details (fields not shown by the contract; obsim returns these).
         */
        AccountDetails: {
            bankName: string;
            bic: string;
            /** @description National account number (the IBAN without country and check digits) */
            bban: string;
            productName: string;
            /** @enum {string} */
            ownerType: "private";
            /** Format: date */
            openedDate: string;
        };
        /** Account */
        Account: {
            accountId: string;
            /** @description Sandbox bank id (docs/ais.md "The bank consent page" lists them) */
            bankId: string;
            accountHolderName: string;
            iban: string;
            /** @description ISO 4217 code */
            currency: string;
            /** @description Decimal amount, two decimals */
            balance: string;
            /**
             * @description obsim values: current, savings, credit_card
             * @enum {string}
             */
            accountType: "current" | "savings" | "credit_card";
            accountDetails: components["schemas"]["AccountDetails"];
        };
        /** AccountsResponse */
        AccountsResponse: {
            userId: string;
            merchantId: number;
            /** @description The merchant's clientId */
            clientId: string;
            /** @description The authorized consent used for this read */
            consentId: string;
            accounts: components["schemas"]["Account"][];
            totalAccounts: number;
        };
        /** BalanceRequest */
        BalanceRequest: {
            /** @description User identifier issued by an identity provider */
            userId: string;
            /** @description Merchant identifier (merchantId of the partner API) */
            merchantId: number;
            accountId: string;
        };
        /** BalanceResponse */
        BalanceResponse: {
            userId: string;
            merchantId: number;
            accountId: string;
            balance: {
                /** @description Decimal amount */
                value: string;
                currency: string;
                /** Format: date-time */
                lastUpdated: string;
            };
            accountDetails: {
                iban: string;
                accountHolderName: string;
                bankId: string;
            };
        };
        /**
         * TransactionsRequest
         * @description Newest first. pageLimit: integer 1–1000 (obsim's maximum), default 200. fromDate/toDate are inclusive; a bare date as toDate means the whole day. Never returns entries booked before the consent's transactionFromDateTime. To page on, repeat with toDate = the last bookingDate minus one millisecond.
         */
        TransactionsRequest: {
            /** @description User identifier issued by an identity provider */
            userId: string;
            /** @description Merchant identifier (merchantId of the partner API) */
            merchantId: number;
            accountId: string;
            /** @default 200 */
            pageLimit: number;
            fromDate?: string;
            toDate?: string;
        };
        /** Transaction */
        Transaction: {
            transactionId: string;
            /** @description Decimal amount, always positive; the direction is `type` */
            amount: string;
            currency: string;
            description: string;
            /** Format: date-time */
            bookingDate: string;
            /** Format: date-time */
            valueDate: string;
            counterparty: {
                name: string;
                iban: string;
            };
            reference: string;
            /**
             * @description debit (money out) or credit (money in)
             * @enum {string}
             */
            type: "debit" | "credit";
            /**
             * @description booked, or pending (the last two days)
             * @enum {string}
             */
            status: "booked" | "pending";
        };
        /** TransactionsResponse */
        TransactionsResponse: {
            userId: string;
            merchantId: number;
            accountId: string;
            /** @description Number of transactions matching the date filters (and the consent window), not just this page */
            totalTransactions: number;
            /** @description The limit used */
            pageLimit: number;
            transactions: components["schemas"]["Transaction"][];
        };
        /**
         * TransactionList
         * @description Transactions in the window, newest first, at most 1000 (header X-Total-Count carries the number matching).
         */
        TransactionList: components["schemas"]["Transaction"][];
        /**
         * SandboxScenarioRunRequest
         * @description Run a scenario inside the simulator with the calling partner credentials: `name` of a shipped scenario (GET /_sandbox/scenarios) or an inline `scenario` document (the scenario file format, as JSON). Exactly one of the two.
         */
        SandboxScenarioRunRequest: {
            /** @description A shipped scenario, e.g. `payment-paid` */
            name?: string;
            /** @description An inline scenario: `{ name, steps: [...] }` (see scenarios/scenario.schema.json) */
            scenario?: Record<string, never>;
            /**
             * @description POST /_sandbox/reset first (deletes ALL of the partner's data)
             * @default false
             */
            reset: boolean;
            /**
             * @description Run in a fresh sandbox (its own data and clock), deleted afterwards; the caller's data and clock are untouched
             * @default false
             */
            isolate: boolean;
            /** @description Variables set before the first step */
            vars?: Record<string, never>;
        };
        /** SandboxScenarioStepResult */
        SandboxScenarioStepResult: {
            /** @description 1-based step number */
            index: number;
            /** @enum {string} */
            kind: "request" | "control" | "advanceClock" | "registerWebhook" | "expectWebhook" | "expectNoWebhook" | "expectRequest" | "expectNoRequest" | "wait" | "set";
            label: string;
            /**
             * @description Steps after a failed one are skipped
             * @enum {string}
             */
            status: "passed" | "failed" | "skipped";
            durationMs: number;
            /** @description What happened, e.g. `POST /v1/partner/payments → 200` */
            detail?: string;
            /** @description Why the step failed, with the expected/actual diff */
            message?: string;
        };
        /** SandboxScenarioRunResult */
        SandboxScenarioRunResult: {
            name: string;
            description?: string;
            /** @description Run id, also the `${run.id}` variable used in unique names */
            runId: string;
            passed: boolean;
            durationMs: number;
            /**
             * Format: date-time
             * @description Wall-clock start of the run
             */
            startedAt: string;
            steps: components["schemas"]["SandboxScenarioStepResult"][];
            /** @description Set when the run could not start (setup failed) */
            error?: string;
        };
        /** SandboxScenarioList */
        SandboxScenarioList: {
            items: {
                name: string;
                description?: string;
                tags?: string[];
                covers?: string[];
                /** @description Number of steps */
                steps: number;
            }[];
        };
        /**
         * PaymentEventData
         * @description `data` of payment.completed and payment.failed (the contract table), plus failureReason on payment.failed (obsim: bank_rejected, payer_abandoned or expired).
         */
        PaymentEventData: {
            paymentId: number;
            referenceNumber: string;
            /**
             * @description paid for payment.completed, failed for payment.failed
             * @enum {string}
             */
            status: "pending" | "processing" | "paid" | "failed";
            /** @description DKK, as created */
            amount: number;
            /** @enum {string} */
            currency: "DKK";
            merchantClientId: string;
            merchantName: string;
            /** @description AcceptedSettlementCompleted for a settled payment; Rejected or Cancelled for a failed one */
            bankPaymentStatus: string;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds
             */
            timestamp: string;
            /**
             * @description payment.failed only
             * @enum {string}
             */
            failureReason?: "bank_rejected" | "payer_abandoned" | "expired";
        };
        /**
         * MerchantEventData
         * @description `data` of merchant.activated and merchant.deactivated (the contract table; status names the activated state `active`), and of merchant.onboarding.completed (payload not shown by the contract: obsim sends the same fields).
         */
        MerchantEventData: {
            merchantId: number;
            clientId: string;
            companyName: string;
            status: string;
            previousStatus: string;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds
             */
            timestamp: string;
        };
        /**
         * WebhookTestData
         * @description `data` of the test delivery (POST /v1/partner/webhooks/{id}/test; payload not shown by the contract).
         */
        WebhookTestData: {
            webhookId: string;
            message: string;
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds
             */
            timestamp: string;
        };
        /**
         * PaymentCompletedEvent
         * @description The body of a payment.completed delivery.
         */
        PaymentCompletedEvent: {
            /** @enum {string} */
            event: "payment.completed";
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds
             */
            timestamp: string;
            data: components["schemas"]["PaymentEventData"];
        };
        /**
         * PaymentFailedEvent
         * @description The body of a payment.failed delivery.
         */
        PaymentFailedEvent: {
            /** @enum {string} */
            event: "payment.failed";
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds
             */
            timestamp: string;
            data: components["schemas"]["PaymentEventData"];
        };
        /**
         * MerchantActivatedEvent
         * @description The body of a merchant.activated delivery.
         */
        MerchantActivatedEvent: {
            /** @enum {string} */
            event: "merchant.activated";
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds
             */
            timestamp: string;
            data: components["schemas"]["MerchantEventData"];
        };
        /**
         * MerchantDeactivatedEvent
         * @description The body of a merchant.deactivated delivery.
         */
        MerchantDeactivatedEvent: {
            /** @enum {string} */
            event: "merchant.deactivated";
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds
             */
            timestamp: string;
            data: components["schemas"]["MerchantEventData"];
        };
        /**
         * MerchantOnboardingCompletedEvent
         * @description The body of a merchant.onboarding.completed delivery.
         */
        MerchantOnboardingCompletedEvent: {
            /** @enum {string} */
            event: "merchant.onboarding.completed";
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds
             */
            timestamp: string;
            data: components["schemas"]["MerchantEventData"];
        };
        /**
         * WebhookTestEvent
         * @description The body of a webhook.test delivery.
         */
        WebhookTestEvent: {
            /** @enum {string} */
            event: "webhook.test";
            /**
             * Format: date-time
             * @description ISO 8601 with milliseconds
             */
            timestamp: string;
            data: components["schemas"]["WebhookTestData"];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    webhook_payment_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description Lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the webhook secret. Recompute it over the raw body and compare in constant time. */
                "X-Webhook-Signature": string;
                /** @description The event id (evt_…): the same on every attempt and redelivery of the event. De-duplicate on it. */
                "X-Webhook-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentCompletedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx counts as delivered) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_payment_failed: {
        parameters: {
            query?: never;
            header: {
                /** @description Lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the webhook secret. Recompute it over the raw body and compare in constant time. */
                "X-Webhook-Signature": string;
                /** @description The event id (evt_…): the same on every attempt and redelivery of the event. De-duplicate on it. */
                "X-Webhook-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentFailedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx counts as delivered) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_merchant_activated: {
        parameters: {
            query?: never;
            header: {
                /** @description Lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the webhook secret. Recompute it over the raw body and compare in constant time. */
                "X-Webhook-Signature": string;
                /** @description The event id (evt_…): the same on every attempt and redelivery of the event. De-duplicate on it. */
                "X-Webhook-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MerchantActivatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx counts as delivered) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_merchant_deactivated: {
        parameters: {
            query?: never;
            header: {
                /** @description Lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the webhook secret. Recompute it over the raw body and compare in constant time. */
                "X-Webhook-Signature": string;
                /** @description The event id (evt_…): the same on every attempt and redelivery of the event. De-duplicate on it. */
                "X-Webhook-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MerchantDeactivatedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx counts as delivered) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_merchant_onboarding_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description Lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the webhook secret. Recompute it over the raw body and compare in constant time. */
                "X-Webhook-Signature": string;
                /** @description The event id (evt_…): the same on every attempt and redelivery of the event. De-duplicate on it. */
                "X-Webhook-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MerchantOnboardingCompletedEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx counts as delivered) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_webhook_test: {
        parameters: {
            query?: never;
            header: {
                /** @description Lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the webhook secret. Recompute it over the raw body and compare in constant time. */
                "X-Webhook-Signature": string;
                /** @description The event id (evt_…): the same on every attempt and redelivery of the event. De-duplicate on it. */
                "X-Webhook-Id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookTestEvent"];
            };
        };
        responses: {
            /** @description Received (any 2xx counts as delivered) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
