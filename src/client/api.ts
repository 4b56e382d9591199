/* Generated from openapi.json and openapi-controls.json by scripts/client-types.ts (npm run openapi). Do not edit. */
export interface paths {
    "/v1/partner/merchants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the partner's merchants (paginated, by merchantId)
         * @description The partner's merchants in ascending merchantId order, page by page (page from 1, limit 1-100, default 20), with the total count in the body. The order is stable, so a merchant created while paging appears on the last page.
         */
        get: operations["listMerchants"];
        put?: never;
        /**
         * Create a merchant (standard onboarding)
         * @description Creates a merchant in pending_onboarding with a hosted onboarding link (onboardingUrl) that the merchant completes; merchant.onboarding.completed and then merchant.activated follow as it is reviewed (on the sandbox clock, or at once with the sandbox controls). The link expires; POST …/resend-onboarding issues a new one.
         */
        post: operations["createMerchant"];
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
        post: operations["createFastTrackMerchant"];
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
        post: operations["createTestMerchant"];
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
        /**
         * A merchant's onboarding status
         * @description The merchant's onboarding status and its sub-TPP (the provider's record of the merchant at the bank) with whether it is activated. Another partner's merchant answers 404 merchant_not_found, like a missing one.
         */
        get: operations["getMerchantOnboardingStatus"];
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
        post: operations["resendMerchantOnboarding"];
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
        post: operations["createMerchantStore"];
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
        /**
         * Create a payment for an activated merchant
         * @description The merchant is named by its clientId (merchantClientId): another partner's answers 404 merchant_not_found, one not activated 409 merchant_not_activated. The payment starts pending with a hosted paymentUrl where the payer approves or rejects it, and fails with reason expired when nobody finishes it within OBSIM_PAYMENT_EXPIRY (30 minutes by default) on the sandbox clock. Amounts are DKK with at most two decimals. The contract does not say referenceNumber is unique: obsim stores it as given and never de-duplicates on it.
         */
        post: operations["createPayment"];
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
        /**
         * A payment's current state
         * @description The same Payment as at creation, with its current status (pending, processing, paid, failed) and, once failed, its failureReason. Ids are per partner: another partner's payment answers 404 payment_not_found, like a missing one. Poll sparingly: the payment.completed and payment.failed webhooks say when the state changes.
         */
        get: operations["getPaymentStatus"];
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
        /**
         * Register a webhook URL for a list of events
         * @description Registers an http(s) URL for one or more events and answers its id and the signing secret (shown only here). Every delivery is a POST of the event JSON signed with X-Webhook-Signature (HMAC-SHA256 of the exact body bytes with the secret) and carries X-Webhook-Id; a delivery that does not get a 2xx within 10 seconds is failed and not retried (the contract's rule).
         */
        post: operations["registerWebhook"];
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
        /**
         * Queue a signed test delivery (event webhook.test) to this webhook
         * @description The contract shows neither the answer nor the payload. obsim queues one delivery of the event webhook.test to this webhook only (whatever events it subscribes to), signed like every delivery, and answers { webhookId, eventId, deliveryId, status: queued }; follow it with GET /_sandbox/deliveries/{deliveryId}.
         */
        post: operations["testWebhook"];
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
        post: operations["generateToken"];
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
        post: operations["createConsent"];
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
        get: operations["listUserConsents"];
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
        post: operations["listAccounts"];
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
        post: operations["getAccountBalance"];
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
        post: operations["listAccountTransactions"];
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
        get: operations["listAccountTransactionsInWindow"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The process's metrics in Prometheus's text format
         * @description Requests by operation and status class with a latency histogram, sandboxes, payments, merchants and consents by state, webhook deliveries by event and outcome with their lag, timers due and overdue, clock lag, the journal, chaos injections, the database files, and Node process and event-loop metrics (docs/operations.md). When the server runs with a metrics token or an admin key, send `Authorization: Bearer <OBSIM_METRICS_TOKEN>` or the admin key (X-Obsim-Admin-Key, or as the bearer); open otherwise.
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
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health: 200 when the database answers and takes writes; 503 storage_unavailable while it does not
         * @description For load balancers, container health checks and test set-ups waiting for obsim to be ready: no credentials, never journaled. 200 with the environment and the default sandbox's clock; 503 storage_unavailable while the database refuses writes (a full disk, a lock held elsewhere).
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
    "/_sandbox/banks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The sandbox banks and how each behaves in this sandbox
         * @description Each bank with its profile (null: none, it behaves as always) and its health now; and the shipped profiles by name.
         */
        get: operations["listBanks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/banks/{bankId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A sandbox bank and its profile in this sandbox
         * @description Its profile (null: none), and its health now on the sandbox clock.
         */
        get: operations["getBank"];
        /**
         * Put a bank profile in force for one bank
         * @description Replaces the bank's profile; a degraded bank's failures start again from the seed. A shipped profile by name, fields of its own, or both. A problem is a 400 whose `field` is a JSON pointer into the body (`/ais/pageSize`); nothing is applied. Payments already waiting keep the timer they have.
         */
        put: operations["setBankProfile"];
        post?: never;
        /**
         * Clear a bank's profile
         * @description The bank behaves as every bank without a profile again.
         */
        delete: operations["clearBankProfile"];
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
         * Read the virtual clock
         * @description The caller's sandbox clock: its current instant, whether it is frozen, and its offset from the wall clock. Every timestamp obsim writes for this sandbox (payments, consents, journal entries, webhook bodies) comes from this clock.
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
         * Move the virtual clock forward; due transitions fire in time order
         * @description Give exactly one of ms, duration or to. The clock never moves backwards (a `to` in the past is a 400). Every settlement, expiry, approval and consent expiry that falls due fires, earliest first, and its webhooks are queued. Each sandbox has its own clock: this moves the caller's sandbox only (the configured partners share the default sandbox's). The clock moves with what it fires: a firing that fails leaves it at the last instant whose firings committed.
         */
        post: operations["advanceClock"];
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
        /**
         * Freeze the virtual clock at the current instant
         * @description Stops the sandbox clock where it is: time moves only through POST /_sandbox/clock/advance from then on, so tests can assert exact timestamps and expiry. Idempotent: freezing a frozen clock changes nothing.
         */
        post: operations["freezeClock"];
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
        /**
         * Let the virtual clock run again (from the current simulated instant)
         * @description The clock runs at wall-clock speed again from the instant it was frozen at (it does not jump to the wall clock). Idempotent.
         */
        post: operations["resumeClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/collections/postman": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The provider's API as a Postman Collection v2.1, runnable against this sandbox
         * @description Made from the served document by openapi-to-postmanv2 (a folder per tag, the document's example bodies), then by obsim: partner headers and bearer auth from variables, Obsim-Contract-Version on every provider request, ids chained from answer to request by test scripts that check every answer, a pre-request script that fetches a bearer token when there is none, and a Flows folder (consent to transactions; test merchant to a paid payment). Use it with GET /_sandbox/collections/postman/environment. `version` names the contract version (default: the sandbox's pin, else base); an unknown one is 400 unknown_contract_version at /version. Built on the first request for a version, then kept; not recorded in the journal.
         */
        get: operations["getPostmanCollection"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/collections/postman/environment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A Postman environment for the caller's sandbox
         * @description Where obsim answers (baseUrl), the credentials this request was made with as secret values (obsim keeps only a digest of a sandbox's secret, so it echoes what the caller sent), the sandbox's default merchant (merchantId, merchantClientId), the sandbox bank user of the AIS requests, the contract version and the settlement delay the Flows folder advances the clock by. `version` names the contract version (default: the sandbox's pin, else base); an unknown one is 400 unknown_contract_version at /version. Answered with Cache-Control: no-store; not recorded in the journal.
         */
        get: operations["getPostmanEnvironment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/collections/bruno": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The provider's API as a Bruno collection folder (zip) with this sandbox's environment
         * @description A zip holding one folder: the collection as Bruno's own converter (@usebruno/converters) makes it from the served document, with what obsim adds to the Postman collection in Bruno's script API, written in Bruno's .bru format; environments/ holds this sandbox's environment, whose credentials are read from the folder's .env (git-ignored). Run it with bru run -r --env NAME. `version` names the contract version (default: the sandbox's pin, else base); an unknown one is 400 unknown_contract_version at /version. Answered with Cache-Control: no-store; not recorded in the journal.
         */
        get: operations["getBrunoCollection"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/contract/changelog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every change between two contract versions, each with its verdict
         * @description The documents of `from` and `to` compared operation by operation, status by status, field by field and webhook by webhook, and their x-obsim switches (what obsim sends) rule by rule. Each change has its kind, a JSON pointer into each side and a verdict: breaking for a client or not, by the rules of docs/contract-versions.md (oasdiff's checks where they apply). `base` is the provider's document. An unknown version is a 400 listing the versions. format=markdown answers a table (text/markdown).
         */
        get: operations["getContractChangelog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/contract/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The contract versions this obsim serves, the base first
         * @description The provider's document (base) and the versions of --contracts (OBSIM_CONTRACTS): each with its name, the file it came from, where its document is served, and what it deprecates and sunsets. A request names its version with the Obsim-Contract-Version header; a sandbox is pinned to one at creation (contractVersion). The controls are not versioned (docs/contract-versions.md).
         */
        get: operations["listContractVersions"];
        put?: never;
        post?: never;
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
        post: operations["controlMerchant"];
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
        post: operations["controlPayment"];
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
        post: operations["controlConsent"];
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
        get: operations["listDeliveries"];
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
        /**
         * Read one webhook delivery
         * @description One delivery: the event and its id, the webhook and URL, the exact body sent and its X-Webhook-Signature, its state and outcome, the receiver's status code or the error, and when it was attempted and how long it took. 404 delivery_not_found for another partner's delivery.
         */
        get: operations["getDelivery"];
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
        post: operations["redeliverDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/faults": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The sandbox's fault profile in force
         * @description Its seed (replay a run by setting the same profile with it), its rules, and the faults each rule injected since it was set.
         */
        get: operations["getFaults"];
        /**
         * Put a fault profile in force
         * @description Replaces the profile in force; each rule's stream starts again from the seed. A shipped profile by name, rules of its own, or both. A problem is a 400 whose `field` is a JSON pointer into the body (`/rules/1/rate`); nothing is applied.
         */
        put: operations["setFaults"];
        post?: never;
        /**
         * Clear the fault profile
         * @description Nothing is injected any more; deliveries already held by a delay are sent when it ends.
         */
        delete: operations["clearFaults"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/pact/provider-states": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The Pact provider states this obsim sets up
         * @description Each state's name (or pattern: `{param}` placeholders take any text), what it builds, the params it takes (type, allowed values, default) and the values it answers for `fromProviderState`. The partner's own states (--pact-states) come first and win over a built-in state of the same name.
         */
        get: operations["listPactProviderStates"];
        put?: never;
        /**
         * A Pact verifier's state change: set a provider state up in the caller's sandbox, or tear it down
         * @description The target of the verifier's provider-state URL. setup: the state's steps run in the caller's sandbox (the partner API and the sandbox controls, as a scenario would: journal, events, webhooks and transitions included, on the sandbox's clock), and the values it made are answered, for `fromProviderState`. teardown: the state's own teardown steps, or POST /_sandbox/reset (the whole sandbox's data is emptied, not only what the setup made, and its default merchant made again). An empty state name (an interaction without a state) builds and resets nothing; after its teardown, the next setup resets the sandbox first, so what that interaction made is not in the next interaction's state. An unknown state is a 400 unknown_provider_state naming it and the known ones; a param of the wrong type a 400 naming /params/<name>; a state whose steps fail a 409 provider_state_failed naming the step.
         */
        post: operations["changePactProviderState"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/pact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's sandbox's traffic as a Pact v4 file
         * @description One synchronous HTTP interaction per distinct operation and answer the sandbox's journal holds (provider operations only): the request as sent, with the ids earlier answers handed out taken from a provider state (fromProviderState); the answer matched by equality where it identifies the answer (statuses and other enum values, error codes, flags, nulls) and by regex (documented id patterns, instants) or type everywhere else; and the built-in provider state that rebuilds what it read. Credentials, tokens and secret-named values are written as REDACTED: obsim pact verify sends a sandbox's own credentials instead. 409 journal_off when the journal is off.
         */
        get: operations["exportPact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/receiver-checks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The check-receiver runs recorded for the readiness report, newest first
         * @description The runs of POST /_sandbox/receiver-checks against this sandbox's webhooks, newest first; the newest 20 are kept. They outlive a reset and a snapshot restore (like the journal) and go with the sandbox.
         */
        get: operations["listReceiverChecks"];
        put?: never;
        /**
         * Check a registered webhook receiver, and record the result for the readiness report
         * @description Sends the checks of `obsim check-receiver` (a valid delivery of every event, a tampered body, a wrong secret, a missing and a truncated signature, a duplicate, out-of-order and unknown events) to the registered webhook's URL, signed with its own secret, one after another, and answers the result. The deliveries use fresh ids and are not in the delivery log. Default: the newest webhook. 404 webhook_not_found when none is registered.
         */
        post: operations["checkRegisteredReceiver"];
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
        get: operations["listRequests"];
        put?: never;
        post?: never;
        /**
         * Clear the caller's journal
         * @description Deletes every entry of the caller's journal and answers how many were deleted. Other partners' journals, the caller's data and its clock are untouched; a verify or count after it sees only later requests.
         */
        delete: operations["clearRequests"];
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
        get: operations["streamRequests"];
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
        /**
         * One journal entry
         * @description One entry of the caller's journal by its id (the `id` of a listed entry): method, path, query, redacted headers, the bodies as sent and answered (capped), status, error code, duration and the resources it touched. 404 journal_entry_not_found for an id the journal no longer holds or that belongs to another partner.
         */
        get: operations["getRequest"];
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
        /**
         * Count the journal entries a matcher matches
         * @description The same matcher as verify (method, path or pathPattern, query, headers, body as a partial match, status, code), counted over the caller's whole journal; 400 validation_failed for a malformed matcher.
         */
        post: operations["countRequests"];
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
        post: operations["verifyRequests"];
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
        post: operations["resetSandboxData"];
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
        get: operations["listMagicValues"];
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
        get: operations["getSandboxOverview"];
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
        get: operations["listSandboxMerchants"];
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
        /**
         * Read a merchant: its fields, onboarding link, stores, state and legal actions
         * @description Everything obsim keeps about one of the caller's merchants, including what the provider API does not show again (the onboarding link and its expiry, its stores) and the control actions that are legal in its state. 404 merchant_not_found for another partner's merchant.
         */
        get: operations["getSandboxMerchant"];
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
        get: operations["listSandboxPayments"];
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
        /**
         * Read a payment with its timeline (states, events and their deliveries) and legal actions
         * @description One payment with its timeline (every state it went through with what caused it, every event it produced and the deliveries of each, in order) and the control actions legal in its state. 404 payment_not_found for another partner's payment.
         */
        get: operations["getSandboxPayment"];
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
        get: operations["listSandboxConsents"];
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
        /**
         * List registered webhooks with their signing secrets
         * @description The caller's registered webhooks with the secret each delivery is signed with (HMAC-SHA256 over the exact body bytes), so a test can verify X-Webhook-Signature. The provider API shows the secret only when a webhook is registered.
         */
        get: operations["listSandboxWebhooks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/scenarios/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A HAR file as a scenario that replays it
         * @description The body is a HAR 1.2 file (application/json or application/har+json, up to 64 MB) recorded against the provider's sandbox, obsim or a shadow. Entries to the provider's API (matched against the served documents whatever the host) become request steps with the recorded bodies, statuses and states as expectations; ids and tokens an earlier answer handed out become captured variables; a state that changed with nothing sent becomes a clock advance; a hosted page of another layout the payer step for the outcome the HAR shows; credentials, cookies and secrets are left out (the replay uses the sandbox's own); an Obsim-Contract-Version header becomes contractVersion. Other entries are left out and counted, aborted ones skipped, requests the document does not allow imported and flagged, all said in the summary (comments atop the file, or `summary` with format=json). Translated on a worker thread, never on the thread that answers requests. Not JSON or cut short: 400 malformed_json; not HAR 1.2: 400 validation_failed naming the failing pointer; no entry for the provider's API: 422 unprocessable, nothing written. Not recorded in the journal.
         */
        post: operations["importHarScenario"];
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
        /**
         * List the shipped scenarios
         * @description The scenarios that ship with obsim (scenarios/*.yaml): the name, description, tags and step count of each, runnable by name with POST /_sandbox/scenarios/run.
         */
        get: operations["listScenarios"];
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
        post: operations["runScenario"];
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
        /**
         * The caller's snapshots, oldest first
         * @description Each snapshot the caller captured, with what it holds; restore one with POST /_sandbox/snapshots/{name}/restore.
         */
        get: operations["listSnapshots"];
        put?: never;
        /**
         * Capture the caller's data and its sandbox's clock under a name
         * @description Every row the caller owns (merchants, stores, payments, consents, webhooks, events, deliveries, timers) and the clock's instant, kept in the database (it survives a restart, and the deletion of its sandbox). Names are unique in the simulator (409 snapshot_exists).
         */
        post: operations["createSnapshot"];
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
        post: operations["restoreSnapshot"];
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
        /**
         * Delete one of the caller’s snapshots
         * @description Deletes the snapshot only; the caller's current data and clock are unchanged. 404 snapshot_not_found for a name the caller has not captured.
         */
        delete: operations["deleteSnapshot"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/payments/{paymentId}/transitions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A payment's transitions
         * @description Oldest first: its creation (from null), then every change, each with the instant on the sandbox's clock, its cause (the request, control action, console action, scenario step, hosted page or timer that made it) and the W3C trace id it belongs to. The sandbox keeps its newest 10,000 transitions; snapshots and resets treat them as the rest of its data. 404 payment_not_found for another partner's payment.
         */
        get: operations["listPaymentTransitions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/merchants/{merchantId}/transitions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A merchant's transitions
         * @description Oldest first: its creation (from null), then every change, each with the instant on the sandbox's clock, its cause (the request, control action, console action, scenario step, hosted page or timer that made it) and the W3C trace id it belongs to. The sandbox keeps its newest 10,000 transitions; snapshots and resets treat them as the rest of its data. 404 merchant_not_found for another partner's merchant.
         */
        get: operations["listMerchantTransitions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/consents/{requestId}/transitions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A consent's transitions
         * @description Oldest first: its creation (from null), then every change, each with the instant on the sandbox's clock, its cause (the request, control action, console action, scenario step, hosted page or timer that made it) and the W3C trace id it belongs to. The sandbox keeps its newest 10,000 transitions; snapshots and resets treat them as the rest of its data. Consents are scoped through their merchant; 404 consent_not_found for another partner's consent.
         */
        get: operations["listConsentTransitions"];
        put?: never;
        post?: never;
        delete?: never;
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
        get: operations["listSandboxes"];
        put?: never;
        /**
         * Create a sandbox: an isolated world with its own credentials, clock and settings
         * @description Answers the sandbox and its partner credentials (the secret is shown only here). Every /v1/partner/*, /_sandbox/* and hosted-page flow works with them unchanged and sees only this sandbox's data, on this sandbox's clock. Idle for its ttl (default 24h), it is removed. Needs X-Obsim-Admin-Key when the server runs with OBSIM_ADMIN_KEY.
         */
        post: operations["createSandbox"];
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
        get: operations["getSandbox"];
        put?: never;
        post?: never;
        /**
         * Delete a sandbox and all its data
         * @description Its merchants, payments, consents, webhooks, events, deliveries and timers are deleted in one transaction; its credentials then answer 401 sandbox_gone. An admin, or the sandbox itself.
         */
        delete: operations["deleteSandbox"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/report": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The go-live readiness report of a sandbox
         * @description Computed from the sandbox's journal, webhook deliveries, check-receiver runs (POST /_sandbox/receiver-checks) and rows: operations called and the answers met, lifecycle states and events reached, smells with the journal entries that prove them, and the default go-live checklist with its verdict (docs/readiness.md). With partner credentials: the caller's sandbox. An admin names any sandbox with `sandbox` (a created sandbox's id, or a configured partner's client id; `default` is the default partner). 409 journal_off when the journal is off: there is nothing to judge.
         */
        get: operations["getReadinessReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/contract/impact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What upgrading to a contract version changes for this sandbox's own traffic
         * @description The changelog from each version the sandbox's traffic ran under to `to`, joined with its journal and webhook deliveries: only the changes its traffic touched are listed (the operations it called, the request fields and values it sent, the answer fields and values it received, the events and payload fields delivered to it), each with the first journal entries (or deliveries) that touched it, their count and its verdict; the others are counted. Read off the request path (the readiness report's worker). With partner credentials: the caller's sandbox; an admin names any with `sandbox`. format=markdown: a table; format=junit: one failing test case per touched breaking change. 409 journal_off when the journal is off. Not recorded in the journal.
         */
        get: operations["getContractImpact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/scenario-draft": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A sandbox's journal as a scenario file that replays it
         * @description Each partner request becomes a `request` step with the body it sent and the status it got; ids, tokens and links obsim handed out become captured variables; clock advances, sandbox triggers, fault profiles and webhook registrations become their own steps; each delivery an `expectWebhook`. No secret is written; times and generated ids are not asserted. `since`/`until` take a journal entry id or an ISO instant on the sandbox clock. An empty range, or a journal that had dropped entries, is said in the file's comments and in `warnings` (format=json). Not recorded in the journal. 409 journal_off when the journal is off.
         */
        get: operations["getScenarioDraft"];
        put?: never;
        post?: never;
        delete?: never;
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
         * The payment.completed event
         * @description The payer completed bank authorization and the payment settled (status paid). Answer 2xx within 10 seconds; failed deliveries are not retried automatically.
         */
        post: operations["onPaymentCompleted"];
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
         * The payment.failed event
         * @description The bank rejected the payment, the payer abandoned it, or it expired (failureReason). Answer 2xx within 10 seconds; failed deliveries are not retried automatically.
         */
        post: operations["onPaymentFailed"];
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
         * The merchant.activated event
         * @description The merchant became active (status active). Answer 2xx within 10 seconds; failed deliveries are not retried automatically.
         */
        post: operations["onMerchantActivated"];
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
         * The merchant.deactivated event
         * @description The merchant became inactive. Answer 2xx within 10 seconds; failed deliveries are not retried automatically.
         */
        post: operations["onMerchantDeactivated"];
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
         * The merchant.onboarding.completed event
         * @description The merchant finished onboarding (now awaiting approval). Answer 2xx within 10 seconds; failed deliveries are not retried automatically.
         */
        post: operations["onMerchantOnboardingCompleted"];
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
         * The webhook.test event
         * @description A test delivery to one webhook (POST /v1/partner/webhooks/{id}/test); not a contract event. Answer 2xx within 10 seconds; failed deliveries are not retried automatically.
         */
        post: operations["onWebhookTest"];
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
         * @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place.
         */
        ErrorBody: {
            /** @description HTTP status code, repeated */
            status: number;
            /** @description Stable error code (docs/errors.md lists them) */
            code: string;
            /** @description Human-readable explanation */
            message: string;
            /** @description Where the problem is: an RFC 6901 JSON pointer into the part of the request `in` names, e.g. `/amount`, `/address/countryCode`, `/ubos/0/fullName`; the empty string for the whole part */
            field?: string;
            /**
             * @description The part `field` points into: the JSON body, the query string, the path parameters, a header (by lower-case name), or the answer (a 500 response_validation_failed)
             * @enum {string}
             */
            in?: "body" | "query" | "path" | "header" | "response";
            /** @description Every problem found (the first is also in `field` and `message`) */
            details?: {
                /** @description An RFC 6901 JSON pointer, as `field` */
                field: string;
                /** @enum {string} */
                in?: "body" | "query" | "path" | "header" | "response";
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
            /** @description One of: Pending (created), AcceptedCustomerProfile (approved; a bank that settles on business days holds it to its next business day), AcceptedSettlementInProcess (approved, settling), AcceptedSettlementCompleted (paid), Rejected (the bank rejected it), Cancelled (abandoned or expired) */
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
            /** @description AcceptedSettlementCompleted for a settled payment; Rejected or Cancelled for a failed one. One of: Pending (created), AcceptedCustomerProfile (approved; a bank that settles on business days holds it to its next business day), AcceptedSettlementInProcess (approved, settling), AcceptedSettlementCompleted (paid), Rejected (the bank rejected it), Cancelled (abandoned or expired) */
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
            /** @description One of: pending_onboarding, pending_completion, pending_partner_ais, awaiting_approval, active, rejected, inactive (the stored statuses, activated named active) */
            status: string;
            /** @description One of: pending_onboarding, pending_completion, pending_partner_ais, awaiting_approval, active, rejected, inactive (the stored statuses, activated named active) */
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
            /** @description A duration: "500ms", "5s", "2m", "1h", "7d", or whole milliseconds (at most ten years) */
            ttl?: string | number;
            clock?: {
                /** Format: date-time */
                start?: string;
                frozen?: boolean;
            };
            /** @description A duration: "500ms", "5s", "2m", "1h", "7d", or whole milliseconds (at most ten years) */
            settleDelay?: string | number;
            /** @description A duration: "500ms", "5s", "2m", "1h", "7d", or whole milliseconds (at most ten years) */
            approvalDelay?: string | number;
            /** @description A duration: "500ms", "5s", "2m", "1h", "7d", or whole milliseconds (at most ten years) */
            paymentExpiry?: string | number;
            /** @description Start from this snapshot (POST /_sandbox/snapshots): its data with new ids, and its clock unless `clock` is given */
            snapshot?: string;
            faults?: components["schemas"]["FaultProfileRequest"];
            /** @description Bank profiles in force from the start, by bank id (docs/banks.md): a problem is a 400 whose `field` is a JSON pointer (`/banks/nordlys-bank/failureRate`) */
            banks?: {
                [key: string]: components["schemas"]["BankProfileRequest"];
            };
            /** @description The contract version the sandbox is pinned to (docs/contract-versions.md; GET /_sandbox/contract/versions lists them): its requests are served by that version unless one names another with Obsim-Contract-Version. Default: base, the provider's document */
            contractVersion?: string;
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
            /** @description The contract version it is pinned to; absent: the base (docs/contract-versions.md) */
            contractVersion?: string;
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
            /** @description The contract version it is pinned to; absent: the base (docs/contract-versions.md) */
            contractVersion?: string;
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
            faults?: components["schemas"]["FaultProfile"];
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
                /** @description Recorded state changes of its payments, merchants and consents. */
                transitions: number;
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
            /** @enum {string} */
            status: "pending_onboarding" | "pending_completion" | "pending_partner_ais" | "awaiting_approval" | "activated" | "rejected" | "inactive";
            /** @enum {string} */
            previousStatus: "pending_onboarding" | "pending_completion" | "pending_partner_ais" | "awaiting_approval" | "activated" | "rejected" | "inactive";
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
            /**
             * @description Event name; webhook.test for a test delivery
             * @enum {string}
             */
            event: "payment.completed" | "payment.failed" | "merchant.activated" | "merchant.deactivated" | "merchant.onboarding.completed" | "webhook.test";
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
            outcome: "delivered" | "timeout" | "connection_refused" | "connection_reset" | "non_2xx" | "redirect" | "error" | "chaos_drop" | null;
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
            /** @description The sandbox's fault profile acted on this delivery (docs/chaos.md): dropped (outcome chaos_drop, never sent), held back (webhook_delay, webhook_reorder), or this delivery is a duplicate (webhook_duplicate) */
            fault?: {
                rule: number;
                /** @enum {string} */
                kind: "latency" | "error" | "drop" | "webhook_duplicate" | "webhook_delay" | "webhook_reorder" | "webhook_drop";
            };
            /** @description The bank and its profile's rule behind the change that sent this event (docs/banks.md): why a payment failed or settled when it did */
            bank?: {
                bankId: string;
                /** @enum {string} */
                rule: "bank_down" | "app_approval" | "app_approval_expired" | "degraded_delay" | "degraded_failure" | "next_business_day" | "consent_max_days";
            };
            /** @description The W3C traceparent the attempt sent (absent before the first attempt): its span, in the trace of the request or change that emitted the event, so a receiver continues that trace (docs/operations.md) */
            traceparent?: string;
            /** @description The W3C tracestate the attempt sent with its traceparent: the one the causing request carried, passed on unchanged (absent when that request sent none, and before the first attempt) (docs/operations.md) */
            tracestate?: string;
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
                /** @description Recorded state changes of its payments, merchants and consents. */
                transitions: number;
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
            /** @description The contract version the sandbox is pinned to (docs/contract-versions.md); absent: the base */
            contractVersion?: string;
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
                    chaos_drop: number;
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
            /** @description Oldest first: created, every status change (pending -> processing -> paid shows both), each with its cause, the payer opening the hosted page, and the events each change emitted with their deliveries. A payment older than the sandbox's newest 10,000 transitions shows its creation and its last change. */
            timeline: {
                /** Format: date-time */
                at: string;
                /** @enum {string} */
                kind: "created" | "page_opened" | "bank_unavailable" | "app_approval_requested" | "status_changed" | "event";
                /** @enum {string|null} */
                status: "pending" | "processing" | "paid" | "failed" | null;
                /** @description What made a change (created, status_changed): as a transition names it (GET /_sandbox/payments/{paymentId}/transitions). */
                cause: {
                    /** @enum {string} */
                    kind: "request" | "control" | "console" | "scenario_step" | "hosted_page" | "timer" | "persona" | "seed" | "migration";
                    name: string;
                    requestId?: string;
                } | null;
                /** @enum {string|null} */
                event: "payment.completed" | "payment.failed" | "merchant.activated" | "merchant.deactivated" | "merchant.onboarding.completed" | null;
                eventId: string | null;
                /** @description The bank and its profile's rule behind a change, or the app the payer was sent to (docs/banks.md) */
                bank?: {
                    bankId: string;
                    /** @enum {string} */
                    rule: "bank_down" | "app_approval" | "app_approval_expired" | "degraded_delay" | "degraded_failure" | "next_business_day" | "consent_max_days";
                };
                deliveries: {
                    id: number;
                    /** @enum {string} */
                    state: "pending" | "delivering" | "delivered" | "failed";
                    /** @enum {string|null} */
                    outcome: "delivered" | "timeout" | "connection_refused" | "connection_reset" | "non_2xx" | "redirect" | "error" | "chaos_drop" | null;
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
         * SandboxTransition
         * @description One state change of a payment, merchant or consent (docs/lifecycle-and-webhooks.md, "Transitions"): the state it left (null: created in `to`), the one it reached, when on the sandbox's clock, what caused it, and the trace it belongs to.
         */
        SandboxTransition: {
            /** @description Increases with every transition of the process: orders them. */
            id: number;
            /** @enum {string} */
            resource: "payment" | "merchant" | "consent";
            /** @description The paymentId or merchantId (as a string), or the consent requestId. */
            resourceId: string;
            /** @description null when the resource was created in `to`. */
            from: string | null;
            to: string;
            /** @description Why, where the state carries one: a failed payment's failureReason. */
            reason?: string;
            /** Format: date-time */
            at: string;
            cause: {
                /** @enum {string} */
                kind: "request" | "control" | "console" | "scenario_step" | "hosted_page" | "timer" | "persona" | "seed" | "migration";
                /** @description request: the provider operation's operationId; control, console: the action; scenario_step: the scenario and its step; hosted_page: what the payer, merchant or bank user did; timer: the timer's trigger; seed: start, sandbox created or reset. */
                name: string;
                /** @description The request that made the change (its x-request-id); absent for a timer. */
                requestId?: string;
            };
            /** @description The W3C trace id of the trace the change belongs to (docs/operations.md). */
            traceId?: string;
            /** @description The bank and the rule of its profile behind the change (docs/banks.md), when one was. */
            bank?: {
                bankId: string;
                /** @enum {string} */
                rule: "bank_down" | "app_approval" | "app_approval_expired" | "degraded_delay" | "degraded_failure" | "next_business_day" | "consent_max_days";
            };
        };
        /** SandboxTransitionList */
        SandboxTransitionList: {
            /** @description Oldest first. A sandbox keeps its newest 10,000 transitions. */
            items: components["schemas"]["SandboxTransition"][];
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
            /** @description The answer's status; 0 when the connection was dropped without one (a fault, docs/chaos.md) */
            status: number;
            /** @description The sandbox's fault profile injected a fault into this request (docs/chaos.md); absent when it did not */
            fault?: {
                rule: number;
                /** @enum {string} */
                kind: "latency" | "error" | "drop" | "webhook_duplicate" | "webhook_delay" | "webhook_reorder" | "webhook_drop";
            };
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
            /** @description One entry's read only (GET /_sandbox/requests/{id}): the changes this request made that a bank profile's rule was behind (docs/banks.md), e.g. an approval a degraded bank will reject */
            bank?: {
                resource: string;
                resourceId: string;
                bankId: string;
                /** @enum {string} */
                rule: "bank_down" | "app_approval" | "app_approval_expired" | "degraded_delay" | "degraded_failure" | "next_business_day" | "consent_max_days";
            }[];
            /** @description The W3C trace id of the request's span (the answer's traceparent): the trace its changes and the webhooks they caused continue (docs/operations.md). Absent in entries kept before obsim recorded traces */
            traceId?: string;
            /** @description The contract version that served the request (docs/contract-versions.md); absent: the base */
            contractVersion?: string;
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
         * JournalHar
         * @description A page of the journal as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), oldest first; credentials redacted as in the journal. The journal keeps request headers only (not the answer's): each response lists the x-request-id it carried. `_nextCursor` (absent on the last page) fetches the next, older page.
         */
        JournalHar: {
            log: {
                /** @enum {string} */
                version: "1.2";
                creator: {
                    name: string;
                    version: string;
                };
                _nextCursor?: string;
                entries: {
                    startedDateTime: string;
                    time: number;
                    comment?: string;
                    cache: Record<string, never>;
                    timings: {
                        send: number;
                        wait: number;
                        receive: number;
                    };
                    request: {
                        method: string;
                        url: string;
                        httpVersion: string;
                        cookies: Record<string, never>[];
                        headers: {
                            name: string;
                            value: string;
                        }[];
                        queryString: {
                            name: string;
                            value: string;
                        }[];
                        postData?: {
                            size?: number;
                            mimeType: string;
                            text: string;
                        };
                        headersSize: number;
                        bodySize: number;
                    };
                    response: {
                        status: number;
                        statusText: string;
                        httpVersion: string;
                        cookies: Record<string, never>[];
                        headers: {
                            name: string;
                            value: string;
                        }[];
                        content: {
                            size?: number;
                            mimeType: string;
                            text: string;
                        };
                        redirectURL: string;
                        headersSize: number;
                        bodySize: number;
                    };
                }[];
            };
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
         * SandboxScenarioRunRequest
         * @description Run a scenario inside the simulator with the calling partner credentials: `name` of a shipped scenario (GET /_sandbox/scenarios) or an inline `scenario` document (the scenario file format, as JSON). Exactly one of the two.
         */
        SandboxScenarioRunRequest: {
            /** @description A shipped scenario, e.g. `payment-paid` */
            name?: string;
            /** @description An inline scenario: `{ name, steps: [...] }`, checked against scenarios/scenario.schema.json (an unknown property at any depth is a 400 naming it) */
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
            /** @description Variables set before the first step (`${name}` in the steps) */
            vars?: {
                [key: string]: string | number | boolean;
            };
        };
        /** SandboxScenarioStepResult */
        SandboxScenarioStepResult: {
            /** @description 1-based step number */
            index: number;
            /** @enum {string} */
            kind: "request" | "control" | "advanceClock" | "registerWebhook" | "expectWebhook" | "expectNoWebhook" | "expectRequest" | "expectNoRequest" | "expectReport" | "faults" | "bank" | "wait" | "set" | "include";
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
         * SandboxReadinessReport
         * @description What the sandbox saw, judged for go-live (docs/readiness.md): each partner-facing operation with the statuses it answered and those not yet met; the states and events reached; smells with the journal entries that prove them (GET /_sandbox/requests/{id}); the checklist and its verdict. Computed from the journal as it is kept: `journal.truncated` says older entries were dropped by the journal's bounds.
         */
        SandboxReadinessReport: {
            sandboxId: string;
            /** @description Wall clock (ISO 8601) */
            generatedAt: string;
            /**
             * @description met when no checklist item is unmet
             * @enum {string}
             */
            verdict: "met" | "unmet";
            /** @description `default`, or the name of the requirements applied */
            checklistSource: string;
            journal: {
                entries: number;
                truncated: boolean;
                /** @description Entries the sandbox's fault profile injected a fault into (docs/chaos.md) */
                faults?: number;
            };
            /** @description Calls to operations deprecated in the contract version that served them (docs/contract-versions.md), each with its count and the journal id of the first; absent when there were none */
            deprecatedCalls?: {
                operationId: string;
                method: string;
                path: string;
                contractVersion: string;
                calls: number;
                /** @description GET /_sandbox/requests/{id} */
                firstEntry: number;
            }[];
            operations: {
                operationId: string;
                method: string;
                /** @description The OpenAPI path template */
                path: string;
                called: boolean;
                calls: number;
                /** @description Answers by status code */
                statuses: {
                    [key: string]: number;
                };
                /** @description Answers worth having met that were not */
                unseen: string[];
                /** @description Up to five journal entry ids, newest first */
                evidence: number[];
                evidenceByStatus: {
                    [key: string]: number[];
                };
                /** @description Faults the sandbox's fault profile injected into its calls (docs/chaos.md), apart from `statuses`: by status, `dropped` (no answer) and `latency` (answered late, also in `statuses`). A status met this way is not unseen. */
                injected?: {
                    [key: string]: number;
                };
            }[];
            lifecycles: {
                /** @description States reached: every state a payment passed through counts (a payment now paid counts for pending too) */
                payments: {
                    reached: {
                        [key: string]: number;
                    };
                    unreached: string[];
                };
                failureReasons: {
                    reached: {
                        [key: string]: number;
                    };
                    unreached: string[];
                };
                merchants: {
                    reached: {
                        [key: string]: number;
                    };
                    unreached: string[];
                };
                consents: {
                    reached: {
                        [key: string]: number;
                    };
                    unreached: string[];
                };
                /** @description Transitions made, by name (`pending -> failed (expired)`, `created -> pending`; a payment failure names its reason), counted per resource kind, from the transitions the sandbox keeps */
                transitions: {
                    payments: {
                        [key: string]: number;
                    };
                    merchants: {
                        [key: string]: number;
                    };
                    consents: {
                        [key: string]: number;
                    };
                };
                /** @description What the integration met at banks with a profile (docs/banks.md): payments and consents each rule was behind — `bank_down` (a payment failed after its payer tried a down bank), `app_approval_expired` (a decoupled approval that never came), `next_business_day` (a settlement held to the next business day), … */
                bankRules: {
                    [key: string]: number;
                };
                events: {
                    event: string;
                    acknowledged: number;
                    failed: number;
                }[];
                neverProduced: string[];
            };
            smells: {
                /** @enum {string} */
                code: "duplicate_reference_number" | "repeated_validation_error" | "retry_before_retry_after" | "expired_token_reused" | "polling_after_webhook" | "forged_signature_accepted";
                message: string;
                docs: string;
                evidence: number[];
            }[];
            checklist: {
                id: string;
                title: string;
                /** @enum {string} */
                status: "met" | "unmet" | "not_applicable";
                because: string;
                evidence: number[];
            }[];
        };
        /**
         * SandboxReceiverCheck
         * @description A check-receiver run against a registered webhook (the checks of `obsim check-receiver`, signed with the webhook's own secret), as recorded for the readiness report.
         */
        SandboxReceiverCheck: {
            webhookId: string;
            url: string;
            startedAt: string;
            passed: number;
            warned: number;
            failed: number;
            /** @enum {string} */
            verdict: "passed" | "failed";
            /** @description A delivery with a forged or missing signature was acknowledged with 2xx */
            forgedAccepted: boolean;
            checks: {
                id: string;
                title: string;
                /** @enum {string} */
                status: "pass" | "warn" | "fail";
                reason: string;
            }[];
            hints: string[];
        };
        /**
         * FaultRule
         * @description One rule. API rules (`latency`, `error`, `drop`) match partner requests: `operation` (an operationId, or `METHOD /path/{template}`; absent: every /v1 operation). Webhook rules (`webhook_duplicate`, `webhook_delay`, `webhook_reorder`, `webhook_drop`) match deliveries: `event` (an event type; absent: all). A rule fires at `rate` (0–1) of what it matches, only inside `window` (instants of the sandbox clock) when given.
         */
        FaultRule: {
            /** @enum {string} */
            kind: "latency" | "error" | "drop" | "webhook_duplicate" | "webhook_delay" | "webhook_reorder" | "webhook_drop";
            rate: number;
            operation?: string;
            event?: string;
            window?: {
                /** Format: date-time */
                from: string;
                /** Format: date-time */
                to: string;
            };
            /** @description Real milliseconds, at most 30,000: `fixed` (ms), `uniform` (minMs..maxMs) or `normal` (meanMs, stddevMs; clipped to 0..30,000) */
            latency?: {
                /** @enum {string} */
                distribution: "fixed" | "uniform" | "normal";
                ms?: number;
                minMs?: number;
                maxMs?: number;
                meanMs?: number;
                stddevMs?: number;
            };
            /**
             * @description 429 and 503 with Retry-After and the error body; 500 with the error body; 502 and 504 as a router in front of the provider answers them (HTML)
             * @enum {integer}
             */
            status?: 429 | 500 | 502 | 503 | 504;
            /** @description Retry-After of a 429 or 503 (default 1) */
            retryAfterSeconds?: number;
            /**
             * @description `instead` (default): answered without running the endpoint, nothing changed. `after`: the endpoint ran and its change stands, then the error is answered or the connection dropped
             * @enum {string}
             */
            when?: "instead" | "after";
            /** @description webhook_duplicate: copies sent besides the delivery (default 1) */
            copies?: number;
            /** @description webhook_delay: held until the sandbox clock has moved `virtualSeconds`, or for `realMs` of real time */
            delay?: {
                virtualSeconds?: number;
                realMs?: number;
            };
            /** @description webhook_reorder: held a random 0..withinMs (real), so others overtake it */
            withinMs?: number;
        };
        /**
         * FaultProfileRequest
         * @description A fault profile: a shipped one by name (flaky-network, provider-outage, slow-webhooks, webhook-storm), rules of its own, or both (the named profile's rules first). `seed`: the same seed and the same order of matching requests give the same faults; without one a seed is chosen and shown by GET /_sandbox/faults.
         */
        FaultProfileRequest: {
            /** @enum {string} */
            profile?: "flaky-network" | "provider-outage" | "slow-webhooks" | "webhook-storm";
            seed?: number;
            rules?: components["schemas"]["FaultRule"][];
        };
        /**
         * FaultProfile
         * @description The fault profile in force in a sandbox: its seed, the shipped profile it came from, its rules (a named profile's expanded: a window as instants), and the faults injected since it was set, by rule.
         */
        FaultProfile: {
            sandboxId: string;
            /** @description false: no profile, nothing is injected */
            active: boolean;
            seed?: number;
            profile?: string;
            /** @description On the sandbox clock (ISO 8601) */
            setAt?: string;
            rules: components["schemas"]["FaultRule"][];
            /** @description Faults injected by each rule since the profile was set (same order as rules) */
            injected: number[];
        };
        /**
         * BankProfileRequest
         * @description A bank profile: a shipped one by name (healthy, degraded, down, outage-1h, slow-app-approval, app-approval-timeout, weekend-settlement, strict-ais), fields of its own, or both (its fields over the named ones over the defaults).
         */
        BankProfileRequest: {
            /**
             * @description The shipped profile it starts from
             * @enum {string}
             */
            profile?: "healthy" | "degraded" | "down" | "outage-1h" | "slow-app-approval" | "app-approval-timeout" | "weekend-settlement" | "strict-ais";
            /** @description healthy; degraded (approvals answered delaySeconds late, a failureRate share rejected); down (the hosted pages offer the other banks). Inside the window from–until on the sandbox clock, if given; healthy outside it. */
            health?: {
                /** @enum {string} */
                status?: "healthy" | "degraded" | "down";
                /**
                 * Format: date-time
                 * @description ISO 8601 instant on the sandbox clock
                 */
                from?: string;
                /**
                 * Format: date-time
                 * @description ISO 8601 instant on the sandbox clock
                 */
                until?: string;
                /** @description How late a degraded bank answers an approval (sandbox seconds, default 60) */
                delaySeconds?: number;
                /** @description A window from `from` (default: now) this long: "down for an hour" is 3600 */
                forSeconds?: number;
            };
            authorization?: {
                /**
                 * @description redirect: approve on the page; decoupled: approve in the bank app
                 * @enum {string}
                 */
                mode?: "redirect" | "decoupled";
                /** @description decoupled: when the app approval arrives (sandbox seconds, default 120); null: never, the payment expires */
                approvalDelaySeconds?: number | null;
            };
            settlement?: {
                /** @enum {string} */
                mode?: "instant" | "business_days";
                /** @description business_days: the latest time of day (HH:MM, the bank's local time) an approval settles the same day (default 15:00) */
                cutOff?: string;
            };
            ais?: {
                /** @description Days of transaction history returned (null: all the consent allows) */
                historyDays?: number | null;
                /** @description Most transactions in one answer (null: the API maximum); pageLimit answers the one used */
                pageSize?: number | null;
                /** @description Whether pending transactions are listed (default true) */
                pendingTransactions?: boolean;
                /** @description Longest consent granted: a longer one is shortened when authorized (null: as asked) */
                consentMaxDays?: number | null;
            };
            /** @description degraded: the share of approvals rejected */
            failureRate?: number;
            /** @description Same seed and same payments: the same failures */
            seed?: number;
        };
        /**
         * BankProfile
         * @description A profile in force, every field filled in.
         */
        BankProfile: {
            /**
             * @description The shipped profile it starts from
             * @enum {string}
             */
            profile?: "healthy" | "degraded" | "down" | "outage-1h" | "slow-app-approval" | "app-approval-timeout" | "weekend-settlement" | "strict-ais";
            /** @description healthy; degraded (approvals answered delaySeconds late, a failureRate share rejected); down (the hosted pages offer the other banks). Inside the window from–until on the sandbox clock, if given; healthy outside it. */
            health: {
                /** @enum {string} */
                status?: "healthy" | "degraded" | "down";
                /**
                 * Format: date-time
                 * @description ISO 8601 instant on the sandbox clock
                 */
                from?: string;
                /**
                 * Format: date-time
                 * @description ISO 8601 instant on the sandbox clock
                 */
                until?: string;
                /** @description How late a degraded bank answers an approval (sandbox seconds, default 60) */
                delaySeconds?: number;
            };
            authorization: {
                /**
                 * @description redirect: approve on the page; decoupled: approve in the bank app
                 * @enum {string}
                 */
                mode?: "redirect" | "decoupled";
                /** @description decoupled: when the app approval arrives (sandbox seconds, default 120); null: never, the payment expires */
                approvalDelaySeconds?: number | null;
            };
            settlement: {
                /** @enum {string} */
                mode?: "instant" | "business_days";
                /** @description business_days: the latest time of day (HH:MM, the bank's local time) an approval settles the same day (default 15:00) */
                cutOff?: string;
            };
            ais: {
                /** @description Days of transaction history returned (null: all the consent allows) */
                historyDays?: number | null;
                /** @description Most transactions in one answer (null: the API maximum); pageLimit answers the one used */
                pageSize?: number | null;
                /** @description Whether pending transactions are listed (default true) */
                pendingTransactions?: boolean;
                /** @description Longest consent granted: a longer one is shortened when authorized (null: as asked) */
                consentMaxDays?: number | null;
            };
            /** @description degraded: the share of approvals rejected */
            failureRate: number;
            /** @description Same seed and same payments: the same failures */
            seed: number;
        };
        /**
         * SandboxBank
         * @description A sandbox bank and how it behaves in this sandbox: its profile (null: as every bank without one), and its health now.
         */
        SandboxBank: {
            bankId: string;
            name: string;
            bic: string;
            country: string;
            currency: string;
            /**
             * @description On the sandbox clock now
             * @enum {string}
             */
            health: "healthy" | "degraded" | "down";
            profile: components["schemas"]["BankProfile"] | null;
            /** @description When the profile was set, on the sandbox clock */
            setAt?: string;
        };
        /** SandboxBankList */
        SandboxBankList: {
            items: components["schemas"]["SandboxBank"][];
            /** @description The shipped profiles */
            profiles: {
                name: string;
                summary: string;
            }[];
        };
        /** SandboxScenarioDraft */
        SandboxScenarioDraft: {
            /** @description The scenario file, comments included (what format=yaml answers) */
            yaml: string;
            /** @description Steps written; 0 when there was nothing to record (the file is then comments only) */
            steps: number;
            /** @description What is missing or may not replay: an empty range, entries the journal had dropped, deliveries to webhooks registered before the range */
            warnings: string[];
            /** @description Journal entries read */
            entries: number;
            /** @description Webhook deliveries read */
            deliveries: number;
        };
        /**
         * ContractVersionList
         * @description The contract versions this obsim serves, the base (the provider's document) first, then those of --contracts in name order. Each is served as its own document at /openapi.json?version=NAME.
         */
        ContractVersionList: {
            items: {
                /** @description What Obsim-Contract-Version, a sandbox, a scenario and the CLI name it by */
                name: string;
                /** @description The overlay's info.title */
                title: string;
                /** @description The version file it was loaded from; absent for the base */
                file?: string;
                /** @description Where its OpenAPI document is served */
                document: string;
                /** @description Operations and fields this version marks deprecated: true, with the Deprecation header's instant */
                deprecations: {
                    operationId: string;
                    method: string;
                    /** @description As the document writes it: /v1/partner/payments/{paymentId}/status */
                    path: string;
                    /** @description A deprecated field of the operation (request body: /x, answer: /x, query or header: the name); absent: the operation itself */
                    field?: string;
                    /** @enum {string} */
                    in?: "request" | "answer" | "query" | "header";
                    /** Format: date-time */
                    deprecatedAt: string;
                }[];
                /** @description Operations that answer 410 operation_sunset from this instant on the sandbox clock */
                sunsets: {
                    operationId: string;
                    method: string;
                    /** @description As the document writes it: /v1/partner/payments/{paymentId}/status */
                    path: string;
                    /** Format: date-time */
                    sunsetAt: string;
                }[];
            }[];
        };
        /**
         * ContractChangelog
         * @description Every change from one contract version to another, each with its kind, a pointer into each side and its verdict.
         */
        ContractChangelog: {
            from: string;
            to: string;
            summary: {
                changes: number;
                breaking: number;
            };
            changes: {
                /** @description Stable within a changelog: the kind and where */
                id: string;
                /** @enum {string} */
                kind: "operation-added" | "operation-removed" | "operation-deprecated" | "operation-undeprecated" | "sunset" | "request-field-added" | "request-field-removed" | "request-field-required" | "request-field-optional" | "request-field-retyped" | "answer-field-added" | "answer-field-removed" | "answer-field-required" | "answer-field-optional" | "answer-field-retyped" | "enum-value-added" | "enum-value-removed" | "status-added" | "status-removed" | "webhook-added" | "webhook-removed" | "webhook-field-added" | "webhook-field-removed" | "webhook-field-required" | "webhook-field-optional" | "webhook-field-retyped" | "header-added" | "header-removed" | "header-required" | "field-deprecated" | "value-now-sent" | "value-no-longer-sent" | "field-made" | "field-no-longer-made" | "field-no-longer-sent" | "field-sent-again" | "status-changed";
                /** @description Whether a client written against `from` can stop working under `to` (docs/contract-versions.md, "Verdicts") */
                breaking: boolean;
                /** @description The verdict's rule: oasdiff's check id, or obsim-… for what oasdiff does not check */
                rule: string;
                /** @enum {string} */
                place?: "request" | "query" | "header" | "answer" | "answer-header" | "webhook";
                operationId?: string;
                method?: string;
                path?: string;
                /** @description A webhook event */
                event?: string;
                /** @description The status key as the document writes it (200, 4XX) */
                status?: string;
                /** @description RFC 6901 pointer into the body (* for every item of an array); for a query parameter or header, its name */
                field?: string;
                /** @description The enum value, or the value now (or no longer) sent */
                value?: string | number | boolean | null;
                /** @description A value now sent only when this field of the answer holds this value */
                when?: {
                    field: string;
                    equals: unknown;
                };
                before?: string;
                after?: string;
                /** @description JSON pointer into the from version's document (or its file, for a switch) */
                fromPointer?: string;
                /** @description JSON pointer into the to version's document (or its file, for a switch) */
                toPointer?: string;
                /** @enum {string} */
                source: "document" | "switches";
                description: string;
            }[];
        };
        /**
         * ContractImpact
         * @description What upgrading to a version changes for this sandbox: the changes its own traffic touched (journal entries and webhook deliveries), each with its evidence and verdict; the others counted.
         */
        ContractImpact: {
            sandboxId: string;
            to: string;
            /** Format: date-time */
            generatedAt: string;
            traffic: {
                /** @description Journal entries of the provider's operations read */
                entries: number;
                /** @description Webhook deliveries attempted */
                deliveries: number;
                /** @description Entries whose body the journal kept only in part: their fields are not read */
                unreadBodies: number;
                /** @description The journal dropped older entries (its bounds): what they showed is not judged */
                journalTruncated: boolean;
                versions: {
                    name: string;
                    entries: number;
                    deliveries: number;
                }[];
                /** @description Versions the traffic ran under that are no longer loaded */
                unknownVersions: string[];
            };
            touched: {
                /** @description Stable within a changelog: the kind and where */
                id: string;
                /** @enum {string} */
                kind: "operation-added" | "operation-removed" | "operation-deprecated" | "operation-undeprecated" | "sunset" | "request-field-added" | "request-field-removed" | "request-field-required" | "request-field-optional" | "request-field-retyped" | "answer-field-added" | "answer-field-removed" | "answer-field-required" | "answer-field-optional" | "answer-field-retyped" | "enum-value-added" | "enum-value-removed" | "status-added" | "status-removed" | "webhook-added" | "webhook-removed" | "webhook-field-added" | "webhook-field-removed" | "webhook-field-required" | "webhook-field-optional" | "webhook-field-retyped" | "header-added" | "header-removed" | "header-required" | "field-deprecated" | "value-now-sent" | "value-no-longer-sent" | "field-made" | "field-no-longer-made" | "field-no-longer-sent" | "field-sent-again" | "status-changed";
                /** @description Whether a client written against `from` can stop working under `to` (docs/contract-versions.md, "Verdicts") */
                breaking: boolean;
                /** @description The verdict's rule: oasdiff's check id, or obsim-… for what oasdiff does not check */
                rule: string;
                /** @enum {string} */
                place?: "request" | "query" | "header" | "answer" | "answer-header" | "webhook";
                operationId?: string;
                method?: string;
                path?: string;
                /** @description A webhook event */
                event?: string;
                /** @description The status key as the document writes it (200, 4XX) */
                status?: string;
                /** @description RFC 6901 pointer into the body (* for every item of an array); for a query parameter or header, its name */
                field?: string;
                /** @description The enum value, or the value now (or no longer) sent */
                value?: string | number | boolean | null;
                /** @description A value now sent only when this field of the answer holds this value */
                when?: {
                    field: string;
                    equals: unknown;
                };
                before?: string;
                after?: string;
                /** @description JSON pointer into the from version's document (or its file, for a switch) */
                fromPointer?: string;
                /** @description JSON pointer into the to version's document (or its file, for a switch) */
                toPointer?: string;
                /** @enum {string} */
                source: "document" | "switches";
                description: string;
                /** @description The version the touching traffic ran under */
                from: string;
                evidence: {
                    /** @description Journal entries (GET /_sandbox/requests/{id}) */
                    entries?: {
                        count: number;
                        /** @description The first ids, oldest first */
                        first: number[];
                    };
                    /** @description Deliveries (GET /_sandbox/deliveries/{id}) */
                    deliveries?: {
                        count: number;
                        /** @description The first ids, oldest first */
                        first: number[];
                    };
                };
            }[];
            /** @description Touched changes that break a client */
            breaking: number;
            untouched: {
                count: number;
                breaking: number;
            };
            /**
             * @description breaking: a touched change breaks a client; clear: none does
             * @enum {string}
             */
            verdict: "breaking" | "clear";
        };
        /**
         * PostmanCollection
         * @description A Postman Collection v2.1 (https://schema.getpostman.com/json/collection/v2.1.0/collection.json) of the served document: converted by openapi-to-postmanv2 (a folder per tag, the example bodies), made runnable by obsim (variables, chained ids, checks, a Flows folder).
         */
        PostmanCollection: {
            info: {
                name: string;
                /** @enum {string} */
                schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
            } & {
                [key: string]: unknown;
            };
            item: ({
                name: string;
            } & {
                [key: string]: unknown;
            })[];
            variable: ({
                key: string;
                value: string;
            } & {
                [key: string]: unknown;
            })[];
            event: {
                [key: string]: unknown;
            }[];
        } & {
            [key: string]: unknown;
        };
        /**
         * PostmanEnvironment
         * @description A Postman environment for the caller's sandbox, as Postman exports one: where obsim answers, the credentials the request was made with (secret-typed), the default merchant, the contract version and the settlement delay.
         */
        PostmanEnvironment: {
            /** Format: uuid */
            id: string;
            name: string;
            values: {
                /** @enum {string} */
                key: "baseUrl" | "partnerClientId" | "partnerClientSecret" | "merchantId" | "merchantClientId" | "userId" | "contractVersion" | "settleDelayMs";
                value: string;
                /**
                 * @description secret: the credentials (Postman masks them)
                 * @enum {string}
                 */
                type: "default" | "secret";
                enabled: boolean;
            }[];
            /** @enum {string} */
            _postman_variable_scope: "environment";
            /**
             * Format: date-time
             * @description Now on the sandbox clock
             */
            _postman_exported_at?: string;
            _postman_exported_using?: string;
        };
        /**
         * SandboxHarImportRequest
         * @description A HAR 1.2 file as browsers, proxies and obsim write it ({"log": {"version": "1.2", "creator": …, "entries": […]}}), up to 64 MB; validated against the registry's har-schema off the request path (a 400 names the first failing pointer).
         */
        SandboxHarImportRequest: Record<string, never>;
        /** SandboxHarImportSummary */
        SandboxHarImportSummary: {
            /** @description Entries in the HAR */
            entries: number;
            /** @description Entries taken into the story: requests to the provider's API (and obsim's controls), and hosted-page visits */
            taken: number;
            /** @description Steps written */
            steps: number;
            /** @description Entries left out, counted by reason (another host's pages, assets and analytics; CORS preflights) */
            leftOut: {
                reason: string;
                count: number;
            }[];
            /** @description Entries that got no answer (status 0 or less, `_error`): skipped, a replay cannot expect no answer */
            skipped: string[];
            /** @description The variables the scenario captures, in order */
            variables: string[];
            /** @description Answers' fields not expected verbatim, grouped by why (times, ids handed out anew, echoes, links, secrets) */
            notExpected: {
                reason: string;
                keys: string[];
            }[];
            /** @description Requests the document does not allow (an unknown path, a method the path does not take): imported as recorded; a contract version the importing obsim does not serve; a failure reason obsim does not have, and the one the replay uses instead */
            flagged: string[];
            /** @description Ids a request used that no earlier answer handed out: kept as written */
            literals: string[];
            /** @description Steps the HAR implies: clock advances where a state changed with nothing sent, payer steps for hosted pages of another provider's layout */
            inferred: string[];
            /** @description Hosted-page visits whose outcome the HAR does not show (no step) */
            unseen: string[];
            /** @description The Obsim-Contract-Version header the HAR carries (a request’s, else an answer’s), written as the scenario’s contractVersion */
            contractVersion?: string;
        };
        /** SandboxHarImport */
        SandboxHarImport: {
            /** @description The scenario file, its summary in comments atop it (what format=yaml answers) */
            yaml: string;
            summary: components["schemas"]["SandboxHarImportSummary"];
            /** @description The summary in words, a line each (as the CLI prints it) */
            lines: string[];
        };
        /**
         * SandboxPactStateChange
         * @description A Pact verifier's state-change request: the state an interaction names, its params, and whether to set it up or tear it down. An interaction without a state is sent with an empty name, which does nothing.
         */
        SandboxPactStateChange: {
            /** @description The provider state (a name or a name a pattern matches); empty: nothing to do */
            state: string;
            /** @description Its params (Pact V3 and V4); each must be of the type the state declares */
            params?: {
                [key: string]: string | number | boolean | (string | number | boolean)[] | null;
            };
            /**
             * @description setup (default) or teardown
             * @default setup
             * @enum {string}
             */
            action: "setup" | "teardown";
        };
        /**
         * SandboxPactStateValues
         * @description The values a state set up made (`{"merchantClientId": "…", "paymentId": 5000003}`): the verifier puts them where the pact says fromProviderState. Empty after a teardown or an empty state.
         */
        SandboxPactStateValues: {
            [key: string]: unknown;
        };
        /** SandboxPactStateList */
        SandboxPactStateList: {
            /** @description The states this obsim sets up: the partner's (--pact-states) first, then the built-in ones */
            items: {
                /** @description The state name, or a pattern whose `{param}` placeholders take any text */
                name: string;
                description: string;
                /** @description The params it takes, by name */
                params: {
                    [key: string]: {
                        /** @enum {string} */
                        type: "string" | "number" | "integer" | "boolean" | "array";
                        enum?: (string | number)[];
                        /** @description An array param's items */
                        items?: {
                            /** @enum {string} */
                            type: "string" | "number" | "integer" | "boolean";
                            enum?: (string | number)[];
                        };
                        /** @description The value used when the param is not sent */
                        default?: unknown;
                        description?: string;
                    };
                };
                /** @description The values it answers, by name, with what each is */
                answers: {
                    [key: string]: string;
                };
                /** @description `built-in`, or the file of --pact-states it comes from */
                source: string;
            }[];
        };
        /**
         * SandboxPact
         * @description A Pact Specification v4 file (https://github.com/pact-foundation/pact-specification/tree/version-4): one synchronous HTTP interaction per distinct operation and answer the sandbox's journal holds.
         */
        SandboxPact: {
            consumer: {
                name: string;
            };
            provider: {
                name: string;
            };
            interactions: {
                [key: string]: unknown;
            }[];
            metadata: {
                [key: string]: unknown;
            };
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
    listMerchants: {
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "merchantId": 100001,
                     *           "clientId": "467cf20b-8d06-4dde-991f-1d534a621c3d",
                     *           "companyName": "obsim Default Merchant ApS",
                     *           "type": "test",
                     *           "status": "activated",
                     *           "subTppStatus": "active",
                     *           "createdAt": "2026-03-02T09:30:00.000Z",
                     *           "updatedAt": "2026-03-02T09:30:00.000Z",
                     *           "contactEmail": "merchant@obsim.test",
                     *           "partnerRefId": "obsim-default-merchant",
                     *           "subTppId": "stpp_f1651c21f7bd69d58703"
                     *         },
                     *         {
                     *           "merchantId": 100002,
                     *           "clientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *           "companyName": "Nørrebro Kaffe ApS",
                     *           "type": "test",
                     *           "status": "activated",
                     *           "subTppStatus": "active",
                     *           "createdAt": "2026-03-02T09:30:00.000Z",
                     *           "updatedAt": "2026-03-02T09:30:00.000Z",
                     *           "subTppId": "stpp_41d1010b3a99eba04ecc"
                     *         }
                     *       ],
                     *       "page": 1,
                     *       "limit": 2,
                     *       "total": 4
                     *     }
                     */
                    "application/json": components["schemas"]["MerchantList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    createMerchant: {
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
                /**
                 * @example {
                 *       "companyName": "Vesterbro Cykler ApS",
                 *       "contactEmail": "ejer@vesterbrocykler.dk",
                 *       "contactPhone": "+4531234567",
                 *       "partnerRefId": "crm-20931"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "merchantId": 100003,
                     *       "clientId": "54a9fc15-c9fc-45eb-bc76-4ea7cbc6b979",
                     *       "companyName": "Vesterbro Cykler ApS",
                     *       "contactEmail": "ejer@vesterbrocykler.dk",
                     *       "onboardingUrl": "http://localhost:4010/onboarding/onb_JOT6auqGx4Yb8a7ua01_FudA",
                     *       "onboardingToken": "onb_JOT6auqGx4Yb8a7ua01_FudA",
                     *       "status": "pending_onboarding",
                     *       "expiresAt": "2026-03-09T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["StandardMerchantResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    createFastTrackMerchant: {
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
                /**
                 * @example {
                 *       "companyName": "Amager Bageri ApS",
                 *       "contactEmail": "kontakt@amagerbageri.dk",
                 *       "registrationNumber": "38291045",
                 *       "website": "https://amagerbageri.dk",
                 *       "iban": "DK5000400440116243"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "merchantId": 100004,
                     *       "clientId": "f6519351-f623-4051-b9f2-4de52b91b0f0",
                     *       "companyName": "Amager Bageri ApS",
                     *       "contactEmail": "kontakt@amagerbageri.dk",
                     *       "subTppStatus": "created",
                     *       "subTppMessage": null,
                     *       "onboardingUrl": "http://localhost:4010/onboarding/onb_ZEkdYsH0a34iOSg4Xcx5Ss76",
                     *       "onboardingToken": "onb_ZEkdYsH0a34iOSg4Xcx5Ss76",
                     *       "status": "pending_partner_ais",
                     *       "expiresAt": "2026-03-09T09:30:00.000Z",
                     *       "subTppId": "stpp_449613dc53d850de9c4f"
                     *     }
                     */
                    "application/json": components["schemas"]["FastTrackMerchantResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    createTestMerchant: {
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
                /**
                 * @example {
                 *       "companyName": "Nørrebro Kaffe ApS"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "merchantId": 100002,
                     *       "clientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *       "companyName": "Nørrebro Kaffe ApS",
                     *       "status": "activated",
                     *       "message": "Test merchant created and activated: it can accept payments at once (sandbox only)."
                     *     }
                     */
                    "application/json": components["schemas"]["TestMerchantResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getMerchantOnboardingStatus: {
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
                    /**
                     * @example {
                     *       "merchantId": 100002,
                     *       "onboardingStatus": "activated",
                     *       "subTppDetails": {
                     *         "status": "active",
                     *         "isActivated": true
                     *       },
                     *       "subTppId": "stpp_41d1010b3a99eba04ecc"
                     *     }
                     */
                    "application/json": components["schemas"]["OnboardingStatusResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    resendMerchantOnboarding: {
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
                    /**
                     * @example {
                     *       "merchantId": 100004,
                     *       "onboardingUrl": "http://localhost:4010/onboarding/onb_2nCxVCK0fqhpiywlFOBXYQ9i",
                     *       "onboardingToken": "onb_2nCxVCK0fqhpiywlFOBXYQ9i",
                     *       "expiresAt": "2026-03-09T09:30:00.000Z",
                     *       "status": "pending_completion"
                     *     }
                     */
                    "application/json": components["schemas"]["ResendOnboardingResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    createMerchantStore: {
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
                /**
                 * @example {
                 *       "name": "Nørrebrogade 12",
                 *       "mccCode": "5814"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "storeId": 1,
                     *       "merchantId": 100002,
                     *       "name": "Nørrebrogade 12",
                     *       "address": null,
                     *       "mccCode": "5814",
                     *       "partnerRefId": null,
                     *       "createdAt": "2026-03-02T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["StoreResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    createPayment: {
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
                /**
                 * @example {
                 *       "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                 *       "amount": 149.95,
                 *       "referenceNumber": "order-1001"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "paymentId": 5000001,
                     *       "status": "pending",
                     *       "bankPaymentStatus": "Pending",
                     *       "failureReason": null,
                     *       "amount": 149.95,
                     *       "currency": "DKK",
                     *       "referenceNumber": "order-1001",
                     *       "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *       "merchantName": "Nørrebro Kaffe ApS",
                     *       "paymentUrl": "http://localhost:4010/pay/pay_5000001_Jaf4ocfSPiTz_tP_us_2cP",
                     *       "createdAt": "2026-03-02T09:30:00.000Z",
                     *       "updatedAt": "2026-03-02T09:30:00.000Z",
                     *       "expiresAt": "2026-03-02T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getPaymentStatus: {
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
                    /**
                     * @example {
                     *       "paymentId": 5000001,
                     *       "status": "paid",
                     *       "bankPaymentStatus": "AcceptedSettlementCompleted",
                     *       "failureReason": null,
                     *       "amount": 149.95,
                     *       "currency": "DKK",
                     *       "referenceNumber": "order-1001",
                     *       "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *       "merchantName": "Nørrebro Kaffe ApS",
                     *       "paymentUrl": "http://localhost:4010/pay/pay_5000001_Jaf4ocfSPiTz_tP_us_2cP",
                     *       "createdAt": "2026-03-02T09:30:00.000Z",
                     *       "updatedAt": "2026-03-02T09:30:00.000Z",
                     *       "expiresAt": "2026-03-02T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    registerWebhook: {
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
                /**
                 * @example {
                 *       "url": "https://partner.example/webhooks/obsim",
                 *       "events": [
                 *         "payment.completed",
                 *         "payment.failed",
                 *         "merchant.activated",
                 *         "merchant.deactivated",
                 *         "merchant.onboarding.completed"
                 *       ]
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "id": "wh_ac41e9c7f3777792bb08fba5",
                     *       "url": "https://partner.example/webhooks/obsim",
                     *       "events": [
                     *         "payment.completed",
                     *         "payment.failed",
                     *         "merchant.activated",
                     *         "merchant.deactivated",
                     *         "merchant.onboarding.completed"
                     *       ],
                     *       "secret": "whsec_108d6abfa54c429f025454b846f63c54476f516db5f14680",
                     *       "createdAt": "2026-03-02T09:30:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    testWebhook: {
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
                    /**
                     * @example {
                     *       "webhookId": "wh_ac41e9c7f3777792bb08fba5",
                     *       "eventId": "evt_01a224bb829b0dd4686e1e27",
                     *       "deliveryId": 4,
                     *       "status": "queued"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookTestResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    generateToken: {
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
                /**
                 * @example {
                 *       "userId": "user-typical",
                 *       "merchantId": 100002,
                 *       "permissions": [
                 *         "ais:accounts:read",
                 *         "ais:balance:read",
                 *         "ais:transactions:read"
                 *       ]
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJtZXJjaGFudElkIjoxMDAwMDIsInBlcm1pc3Npb25zIjpbImFpczphY2NvdW50czpyZWFkIiwiYWlzOmJhbGFuY2U6cmVhZCIsImFpczp0cmFuc2FjdGlvbnM6cmVhZCJdLCJzdWIiOiJ1c2VyLXR5cGljYWwiLCJpc3MiOiJvYnNpbS1zYW5kYm94IiwiYXVkIjoib2JzaW0tYWlzIiwiaWF0IjoxNzcyNDQzODAwLCJleHAiOjE3NzI0NDc0MDAsImp0aSI6IjgzYzUxNzZkLWYxZjktNGU0OS05ODM4LTVhODgzNGRhOTNmNyJ9.lcK7wTOdlqHS7J_6S2Ae7El4UL4lKeQlLc6lULZa1Lo"
                     *     }
                     */
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    createConsent: {
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
                /**
                 * @example {
                 *       "userId": "user-typical",
                 *       "merchantId": 100002,
                 *       "permissions": [
                 *         "ReadAccountsDetail",
                 *         "ReadBalances",
                 *         "ReadTransactionsDetail"
                 *       ],
                 *       "expirationDateTime": "2026-06-01T00:00:00.000Z",
                 *       "transactionFromDateTime": "2025-03-01T00:00:00.000Z"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "merchantId": 100002,
                     *       "userId": "user-typical",
                     *       "permissions": [
                     *         "ReadAccountsDetail",
                     *         "ReadBalances",
                     *         "ReadTransactionsDetail"
                     *       ],
                     *       "expirationDateTime": "2026-06-01T00:00:00.000Z",
                     *       "transactionFromDateTime": "2025-03-01T00:00:00.000Z",
                     *       "requestId": "6bbf9e76-d2e0-470d-b94f-e16c7ad273ec",
                     *       "status": "pending",
                     *       "createdAt": "2026-03-02T09:30:00.000Z",
                     *       "updatedAt": "2026-03-02T09:30:00.000Z",
                     *       "authorizationUrl": "http://localhost:4010/consent/ctk_QTZkNLzknZMr6LZcexpLNTfZPeNsVFkb"
                     *     }
                     */
                    "application/json": components["schemas"]["Consent"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listUserConsents: {
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
                    /**
                     * @example [
                     *       {
                     *         "merchantId": 100002,
                     *         "userId": "user-typical",
                     *         "permissions": [
                     *           "ReadAccountsDetail",
                     *           "ReadBalances",
                     *           "ReadTransactionsDetail"
                     *         ],
                     *         "expirationDateTime": "2026-06-01T00:00:00.000Z",
                     *         "transactionFromDateTime": "2025-03-01T00:00:00.000Z",
                     *         "requestId": "6ccde979-43c9-4f36-b61a-3c59013d21c9",
                     *         "status": "authorized",
                     *         "createdAt": "2026-03-02T09:30:00.000Z",
                     *         "updatedAt": "2026-03-02T09:30:00.000Z",
                     *         "consentId": "cns_db86786963154007943fd7fe81d764d7"
                     *       },
                     *       {
                     *         "merchantId": 100002,
                     *         "userId": "user-typical",
                     *         "permissions": [
                     *           "ReadAccountsDetail",
                     *           "ReadBalances",
                     *           "ReadTransactionsDetail"
                     *         ],
                     *         "expirationDateTime": "2026-06-01T00:00:00.000Z",
                     *         "transactionFromDateTime": "2025-03-01T00:00:00.000Z",
                     *         "requestId": "6bbf9e76-d2e0-470d-b94f-e16c7ad273ec",
                     *         "status": "failed",
                     *         "createdAt": "2026-03-02T09:30:00.000Z",
                     *         "updatedAt": "2026-03-02T09:30:00.000Z",
                     *         "errorMessage": "The user cancelled at the bank"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["ConsentList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listAccounts: {
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
                /**
                 * @example {
                 *       "userId": "user-typical",
                 *       "merchantId": 100002
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "userId": "user-typical",
                     *       "merchantId": 100002,
                     *       "clientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *       "consentId": "cns_db86786963154007943fd7fe81d764d7",
                     *       "accounts": [
                     *         {
                     *           "accountId": "acc_54f63f3095e9a20a1475",
                     *           "bankId": "nordlys-bank",
                     *           "accountHolderName": "Sheri Bartell",
                     *           "iban": "DK6824703628921513",
                     *           "currency": "DKK",
                     *           "balance": "7204.90",
                     *           "accountType": "current",
                     *           "accountDetails": {
                     *             "bankName": "Nordlys Bank",
                     *             "bic": "NLYSDKKKXXX",
                     *             "bban": "24703628921513",
                     *             "productName": "Everyday Account",
                     *             "ownerType": "private",
                     *             "openedDate": "2021-09-03"
                     *           }
                     *         },
                     *         {
                     *           "accountId": "acc_a4ba4793c7fd525c00f0",
                     *           "bankId": "nordlys-bank",
                     *           "accountHolderName": "Sheri Bartell",
                     *           "iban": "DK1624707131145376",
                     *           "currency": "DKK",
                     *           "balance": "189072.58",
                     *           "accountType": "savings",
                     *           "accountDetails": {
                     *             "bankName": "Nordlys Bank",
                     *             "bic": "NLYSDKKKXXX",
                     *             "bban": "24707131145376",
                     *             "productName": "High Interest Savings",
                     *             "ownerType": "private",
                     *             "openedDate": "2018-08-03"
                     *           }
                     *         },
                     *         {
                     *           "accountId": "acc_249c4ebe5224190b1b81",
                     *           "bankId": "fjord-sparekasse",
                     *           "accountHolderName": "Sheri Bartell",
                     *           "iban": "DK3191350197224183",
                     *           "currency": "DKK",
                     *           "balance": "-3121.75",
                     *           "accountType": "credit_card",
                     *           "accountDetails": {
                     *             "bankName": "Fjord Sparekasse",
                     *             "bic": "FJSPDK22XXX",
                     *             "bban": "91350197224183",
                     *             "productName": "Fjord Mastercard",
                     *             "ownerType": "private",
                     *             "openedDate": "2023-09-11"
                     *           }
                     *         }
                     *       ],
                     *       "totalAccounts": 3
                     *     }
                     */
                    "application/json": components["schemas"]["AccountsResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getAccountBalance: {
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
                /**
                 * @example {
                 *       "userId": "user-typical",
                 *       "merchantId": 100002,
                 *       "accountId": "acc_54f63f3095e9a20a1475"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "userId": "user-typical",
                     *       "merchantId": 100002,
                     *       "accountId": "acc_54f63f3095e9a20a1475",
                     *       "balance": {
                     *         "value": "7204.90",
                     *         "currency": "DKK",
                     *         "lastUpdated": "2026-03-02T00:00:00.000Z"
                     *       },
                     *       "accountDetails": {
                     *         "iban": "DK6824703628921513",
                     *         "accountHolderName": "Sheri Bartell",
                     *         "bankId": "nordlys-bank"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["BalanceResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listAccountTransactions: {
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
                /**
                 * @example {
                 *       "userId": "user-typical",
                 *       "merchantId": 100002,
                 *       "accountId": "acc_54f63f3095e9a20a1475",
                 *       "pageLimit": 2
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "userId": "user-typical",
                     *       "merchantId": 100002,
                     *       "accountId": "acc_54f63f3095e9a20a1475",
                     *       "totalTransactions": 320,
                     *       "pageLimit": 2,
                     *       "transactions": [
                     *         {
                     *           "transactionId": "txn_54f63f3095e9_000320",
                     *           "amount": "680.54",
                     *           "currency": "DKK",
                     *           "description": "Card purchase Windler Group",
                     *           "bookingDate": "2026-03-01T11:36:53.804Z",
                     *           "valueDate": "2026-03-01T11:36:53.804Z",
                     *           "counterparty": {
                     *             "name": "Windler Group",
                     *             "iban": "DK4924709880931046"
                     *           },
                     *           "reference": "CARD-3078-729013",
                     *           "type": "debit",
                     *           "status": "pending"
                     *         },
                     *         {
                     *           "transactionId": "txn_54f63f3095e9_000319",
                     *           "amount": "1334.70",
                     *           "currency": "DKK",
                     *           "description": "Card purchase Nicolas - Kessler",
                     *           "bookingDate": "2026-02-27T05:01:18.045Z",
                     *           "valueDate": "2026-02-27T05:01:18.045Z",
                     *           "counterparty": {
                     *             "name": "Nicolas - Kessler",
                     *             "iban": "DK0324701647044485"
                     *           },
                     *           "reference": "CARD-6398-881401",
                     *           "type": "debit",
                     *           "status": "booked"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["TransactionsResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listAccountTransactionsInWindow: {
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
                    /**
                     * @example [
                     *       {
                     *         "transactionId": "txn_54f63f3095e9_000320",
                     *         "amount": "680.54",
                     *         "currency": "DKK",
                     *         "description": "Card purchase Windler Group",
                     *         "bookingDate": "2026-03-01T11:36:53.804Z",
                     *         "valueDate": "2026-03-01T11:36:53.804Z",
                     *         "counterparty": {
                     *           "name": "Windler Group",
                     *           "iban": "DK4924709880931046"
                     *         },
                     *         "reference": "CARD-3078-729013",
                     *         "type": "debit",
                     *         "status": "pending"
                     *       },
                     *       {
                     *         "transactionId": "txn_54f63f3095e9_000319",
                     *         "amount": "1334.70",
                     *         "currency": "DKK",
                     *         "description": "Card purchase Nicolas - Kessler",
                     *         "bookingDate": "2026-02-27T05:01:18.045Z",
                     *         "valueDate": "2026-02-27T05:01:18.045Z",
                     *         "counterparty": {
                     *           "name": "Nicolas - Kessler",
                     *           "iban": "DK0324701647044485"
                     *         },
                     *         "reference": "CARD-6398-881401",
                     *         "type": "debit",
                     *         "status": "booked"
                     *       },
                     *       {
                     *         "transactionId": "txn_54f63f3095e9_000318",
                     *         "amount": "817.64",
                     *         "currency": "DKK",
                     *         "description": "Card purchase Johnson LLC",
                     *         "bookingDate": "2026-02-24T08:31:00.343Z",
                     *         "valueDate": "2026-02-24T08:31:00.343Z",
                     *         "counterparty": {
                     *           "name": "Johnson LLC",
                     *           "iban": "DK6524708933074500"
                     *         },
                     *         "reference": "CARD-9021-779569",
                     *         "type": "debit",
                     *         "status": "booked"
                     *       },
                     *       {
                     *         "transactionId": "txn_54f63f3095e9_000317",
                     *         "amount": "823.60",
                     *         "currency": "DKK",
                     *         "description": "Card purchase Monahan, Rosenbaum and Hessel",
                     *         "bookingDate": "2026-02-23T08:00:37.618Z",
                     *         "valueDate": "2026-02-22T08:00:37.618Z",
                     *         "counterparty": {
                     *           "name": "Monahan, Rosenbaum and Hessel",
                     *           "iban": "DK2524702791768928"
                     *         },
                     *         "reference": "CARD-0638-262478",
                     *         "type": "debit",
                     *         "status": "booked"
                     *       },
                     *       {
                     *         "transactionId": "txn_54f63f3095e9_000316",
                     *         "amount": "1426.92",
                     *         "currency": "DKK",
                     *         "description": "Card purchase Farrell LLC",
                     *         "bookingDate": "2026-02-22T22:25:29.789Z",
                     *         "valueDate": "2026-02-22T22:25:29.789Z",
                     *         "counterparty": {
                     *           "name": "Farrell LLC",
                     *           "iban": "DK6024706493116220"
                     *         },
                     *         "reference": "CARD-6411-343506",
                     *         "type": "debit",
                     *         "status": "booked"
                     *       },
                     *       {
                     *         "transactionId": "txn_54f63f3095e9_000315",
                     *         "amount": "810.37",
                     *         "currency": "DKK",
                     *         "description": "Card purchase Windler Group",
                     *         "bookingDate": "2026-02-21T06:31:57.279Z",
                     *         "valueDate": "2026-02-21T06:31:57.279Z",
                     *         "counterparty": {
                     *           "name": "Windler Group",
                     *           "iban": "DK4924709880931046"
                     *         },
                     *         "reference": "CARD-9026-646797",
                     *         "type": "debit",
                     *         "status": "booked"
                     *       }
                     *     ]
                     */
                    "application/json": components["schemas"]["TransactionList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text exposition format 0.0.4 */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getHealth: {
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
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "environment": "sandbox",
                     *       "time": "2026-03-02T09:30:00.000Z"
                     *     }
                     */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
        };
    };
    listBanks: {
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "bankId": "nordlys-bank",
                     *           "name": "Nordlys Bank",
                     *           "bic": "NLYSDKKKXXX",
                     *           "country": "DK",
                     *           "currency": "DKK",
                     *           "health": "down",
                     *           "profile": {
                     *             "health": {
                     *               "status": "down",
                     *               "from": "2026-03-02T09:40:00.003Z",
                     *               "until": "2026-03-02T10:40:00.003Z",
                     *               "delaySeconds": 60
                     *             },
                     *             "authorization": {
                     *               "mode": "redirect",
                     *               "approvalDelaySeconds": 120
                     *             },
                     *             "settlement": {
                     *               "mode": "business_days",
                     *               "cutOff": "15:00"
                     *             },
                     *             "ais": {
                     *               "historyDays": null,
                     *               "pageSize": null,
                     *               "pendingTransactions": true,
                     *               "consentMaxDays": null
                     *             },
                     *             "failureRate": 0,
                     *             "seed": 7,
                     *             "profile": "weekend-settlement"
                     *           },
                     *           "setAt": "2026-03-02T09:40:00.003Z"
                     *         },
                     *         {
                     *           "bankId": "fjord-sparekasse",
                     *           "name": "Fjord Sparekasse",
                     *           "bic": "FJSPDK22XXX",
                     *           "country": "DK",
                     *           "currency": "DKK",
                     *           "health": "healthy",
                     *           "profile": null
                     *         },
                     *         {
                     *           "bankId": "baltic-credit",
                     *           "name": "Baltic Credit AB",
                     *           "bic": "BLCRSESSXXX",
                     *           "country": "SE",
                     *           "currency": "SEK",
                     *           "health": "healthy",
                     *           "profile": null
                     *         },
                     *         {
                     *           "bankId": "rhein-direktbank",
                     *           "name": "Rhein Direktbank",
                     *           "bic": "RHDBDEFFXXX",
                     *           "country": "DE",
                     *           "currency": "EUR",
                     *           "health": "healthy",
                     *           "profile": null
                     *         },
                     *         {
                     *           "bankId": "thames-mutual",
                     *           "name": "Thames Mutual",
                     *           "bic": "TMUTGB2LXXX",
                     *           "country": "GB",
                     *           "currency": "GBP",
                     *           "health": "healthy",
                     *           "profile": null
                     *         }
                     *       ],
                     *       "profiles": [
                     *         {
                     *           "name": "healthy",
                     *           "summary": "Behaves as a bank without a profile (a base for overrides)"
                     *         },
                     *         {
                     *           "name": "degraded",
                     *           "summary": "Answers approvals a minute late, and rejects a quarter of the payments approved at it"
                     *         },
                     *         {
                     *           "name": "down",
                     *           "summary": "Unavailable until the profile is changed: the hosted pages offer the other banks"
                     *         },
                     *         {
                     *           "name": "outage-1h",
                     *           "summary": "Unavailable for one hour of the sandbox clock from when it is set"
                     *         },
                     *         {
                     *           "name": "slow-app-approval",
                     *           "summary": "The payer approves in the bank app; the approval arrives ten minutes later"
                     *         },
                     *         {
                     *           "name": "app-approval-timeout",
                     *           "summary": "The payer is asked to approve in the bank app and never does: the payment expires"
                     *         },
                     *         {
                     *           "name": "weekend-settlement",
                     *           "summary": "Settles on business days only (15:00 cut-off, the country’s public holidays)"
                     *         },
                     *         {
                     *           "name": "strict-ais",
                     *           "summary": "90 days of history, 50 transactions an answer, no pending ones, consents of at most 90 days"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxBankList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getBank: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A sandbox bank id (GET /_sandbox/banks) */
                bankId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A sandbox bank and how it behaves in this sandbox: its profile (null: as every bank without one), and its health now. */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "bankId": "nordlys-bank",
                     *       "name": "Nordlys Bank",
                     *       "bic": "NLYSDKKKXXX",
                     *       "country": "DK",
                     *       "currency": "DKK",
                     *       "health": "down",
                     *       "profile": {
                     *         "health": {
                     *           "status": "down",
                     *           "from": "2026-03-02T09:40:00.003Z",
                     *           "until": "2026-03-02T10:40:00.003Z",
                     *           "delaySeconds": 60
                     *         },
                     *         "authorization": {
                     *           "mode": "redirect",
                     *           "approvalDelaySeconds": 120
                     *         },
                     *         "settlement": {
                     *           "mode": "business_days",
                     *           "cutOff": "15:00"
                     *         },
                     *         "ais": {
                     *           "historyDays": null,
                     *           "pageSize": null,
                     *           "pendingTransactions": true,
                     *           "consentMaxDays": null
                     *         },
                     *         "failureRate": 0,
                     *         "seed": 7,
                     *         "profile": "weekend-settlement"
                     *       },
                     *       "setAt": "2026-03-02T09:40:00.003Z"
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxBank"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    setBankProfile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A sandbox bank id (GET /_sandbox/banks) */
                bankId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "profile": "weekend-settlement",
                 *       "health": {
                 *         "status": "down",
                 *         "forSeconds": 3600
                 *       },
                 *       "seed": 7
                 *     }
                 */
                "application/json": components["schemas"]["BankProfileRequest"];
            };
        };
        responses: {
            /** @description A sandbox bank and how it behaves in this sandbox: its profile (null: as every bank without one), and its health now. */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "bankId": "nordlys-bank",
                     *       "name": "Nordlys Bank",
                     *       "bic": "NLYSDKKKXXX",
                     *       "country": "DK",
                     *       "currency": "DKK",
                     *       "health": "down",
                     *       "profile": {
                     *         "health": {
                     *           "status": "down",
                     *           "from": "2026-03-02T09:40:00.003Z",
                     *           "until": "2026-03-02T10:40:00.003Z",
                     *           "delaySeconds": 60
                     *         },
                     *         "authorization": {
                     *           "mode": "redirect",
                     *           "approvalDelaySeconds": 120
                     *         },
                     *         "settlement": {
                     *           "mode": "business_days",
                     *           "cutOff": "15:00"
                     *         },
                     *         "ais": {
                     *           "historyDays": null,
                     *           "pageSize": null,
                     *           "pendingTransactions": true,
                     *           "consentMaxDays": null
                     *         },
                     *         "failureRate": 0,
                     *         "seed": 7,
                     *         "profile": "weekend-settlement"
                     *       },
                     *       "setAt": "2026-03-02T09:40:00.003Z"
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxBank"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    clearBankProfile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A sandbox bank id (GET /_sandbox/banks) */
                bankId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A sandbox bank and how it behaves in this sandbox: its profile (null: as every bank without one), and its health now. */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "bankId": "nordlys-bank",
                     *       "name": "Nordlys Bank",
                     *       "bic": "NLYSDKKKXXX",
                     *       "country": "DK",
                     *       "currency": "DKK",
                     *       "health": "healthy",
                     *       "profile": null
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxBank"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getClock: {
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
                    /**
                     * @example {
                     *       "now": "2026-03-02T09:30:00.000Z",
                     *       "frozen": true,
                     *       "offsetMs": 0
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxClock"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    advanceClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "duration": "10m"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "now": "2026-03-02T09:40:00.003Z",
                     *       "fired": 0
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxClockAdvanceResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    freezeClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
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
                    /**
                     * @example {
                     *       "now": "2026-03-02T09:30:00.003Z",
                     *       "frozen": true,
                     *       "offsetMs": -23468798552
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxClock"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    resumeClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
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
                    /**
                     * @example {
                     *       "now": "2026-03-02T09:30:00.001Z",
                     *       "frozen": false,
                     *       "offsetMs": -23468798552
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxClock"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getPostmanCollection: {
        parameters: {
            query?: {
                /** @description The contract version whose served document the collection is made from (GET /_sandbox/contract/versions; default: the sandbox's pin, else base). Every provider request of it sends Obsim-Contract-Version: {{contractVersion}}. */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A Postman Collection v2.1 (https://schema.getpostman.com/json/collection/v2.1.0/collection.json) of the served document: converted by openapi-to-postmanv2 (a folder per tag, the example bodies), made runnable by obsim (variables, chained ids, checks, a Flows folder). */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    "content-disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "item": [
                     *         {
                     *           "name": "Flows",
                     *           "description": "The main stories, in order: run this folder alone (or the whole collection) against a fresh sandbox.",
                     *           "item": [
                     *             {
                     *               "name": "Account information: consent, accounts, balance, transactions",
                     *               "item": [
                     *                 {
                     *                   "name": "A bearer token for the user",
                     *                   "request": {
                     *                     "method": "POST",
                     *                     "url": "{{baseUrl}}/v1/auth/generate-token",
                     *                     "header": [
                     *                       {
                     *                         "key": "Content-Type",
                     *                         "value": "application/json"
                     *                       },
                     *                       {
                     *                         "key": "Accept",
                     *                         "value": "application/json"
                     *                       },
                     *                       {
                     *                         "key": "Obsim-Contract-Version",
                     *                         "value": "{{contractVersion}}",
                     *                         "description": "The contract version this collection was made for (docs/contract-versions.md)"
                     *                       },
                     *                       {
                     *                         "key": "X-Partner-Client-Id",
                     *                         "value": "{{partnerClientId}}"
                     *                       },
                     *                       {
                     *                         "key": "X-Partner-Client-Secret",
                     *                         "value": "{{partnerClientSecret}}"
                     *                       }
                     *                     ],
                     *                     "body": {
                     *                       "mode": "raw",
                     *                       "raw": "{\n  \"userId\": \"{{userId}}\",\n  \"merchantId\": {{merchantId}},\n  \"permissions\": [\n    \"ais:accounts:read\",\n    \"ais:balance:read\",\n    \"ais:transactions:read\"\n  ]\n}",
                     *                       "options": {
                     *                         "raw": {
                     *                           "language": "json"
                     *                         }
                     *                       }
                     *                     },
                     *                     "description": "POST /v1/auth/generate-token for the sandbox bank user with every AIS permission; the token goes to {{bearerToken}}."
                     *                   },
                     *                   "event": [
                     *                     {
                     *                       "listen": "test",
                     *                       "script": {
                     *                         "type": "text/javascript",
                     *                         "exec": [
                     *                           "// obsim: checks from the served document, and the ids chained to later requests",
                     *                           "function at(v, path) { return path.reduce(function (o, k) { return o == null ? undefined : o[k]; }, v); }",
                     *                           "var body = (function () { try { return pm.response.json(); } catch (e) { return undefined; } })();",
                     *                           "pm.test(\"answers 200\", function () { pm.expect(pm.response.code).to.be.oneOf([200]); });",
                     *                           "pm.test(\"the answer has every field base requires\", function () { [\"token\"].forEach(function (f) { pm.expect(body, f).to.have.property(f); }); });",
                     *                           "pm.test(\"{{bearerToken}} from /token\", function () { var v = at(body, [\"token\"]); pm.expect(v, \"/token\").to.not.equal(undefined); pm.collectionVariables.set(\"bearerToken\", String(v)); });"
                     *                         ]
                     *                       }
                     *                     }
                     *                   ]
                     *                 }
                     *               ]
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "event": [
                     *         {
                     *           "listen": "prerequest",
                     *           "script": {
                     *             "type": "text/javascript",
                     *             "exec": [
                     *               "// obsim: a bearer token from POST /v1/auth/generate-token when the environment has none",
                     *               "if (pm.request.auth && pm.request.auth.type === 'bearer' && !pm.variables.get('bearerToken')) {",
                     *               "  pm.sendRequest({",
                     *               "    url: pm.variables.replaceIn('{{baseUrl}}/v1/auth/generate-token'),",
                     *               "    method: 'POST',",
                     *               "    header: {",
                     *               "      'Content-Type': 'application/json',",
                     *               "      'X-Partner-Client-Id': pm.variables.get('partnerClientId'),",
                     *               "      'X-Partner-Client-Secret': pm.variables.get('partnerClientSecret'),",
                     *               "      'Obsim-Contract-Version': pm.variables.get('contractVersion')",
                     *               "    },",
                     *               "    body: { mode: 'raw', raw: JSON.stringify({ userId: pm.variables.get(\"userId\") || \"user-typical\", merchantId: Number(pm.variables.get(\"merchantId\")), permissions: [\"ais:accounts:read\",\"ais:balance:read\",\"ais:transactions:read\"] }) }",
                     *               "  }, function (err, res) {",
                     *               "    if (err) throw err;",
                     *               "    pm.collectionVariables.set('bearerToken', res.json().token);",
                     *               "  });",
                     *               "}"
                     *             ]
                     *           }
                     *         }
                     *       ],
                     *       "variable": [
                     *         {
                     *           "key": "baseUrl",
                     *           "value": "http://127.0.0.1:4010",
                     *           "type": "string",
                     *           "description": "The obsim address (the environment sets it)"
                     *         },
                     *         {
                     *           "key": "contractVersion",
                     *           "value": "base",
                     *           "type": "string",
                     *           "description": "Sent as Obsim-Contract-Version on every provider request"
                     *         },
                     *         {
                     *           "key": "userId",
                     *           "value": "user-typical",
                     *           "type": "string",
                     *           "description": "The sandbox bank user of the AIS requests"
                     *         },
                     *         {
                     *           "key": "onboardingMerchantId",
                     *           "value": "",
                     *           "type": "string",
                     *           "description": "Set by a test script"
                     *         },
                     *         {
                     *           "key": "testMerchantId",
                     *           "value": "",
                     *           "type": "string",
                     *           "description": "Set by a test script"
                     *         },
                     *         {
                     *           "key": "testMerchantClientId",
                     *           "value": "",
                     *           "type": "string",
                     *           "description": "Set by a test script"
                     *         },
                     *         {
                     *           "key": "paymentId",
                     *           "value": "",
                     *           "type": "string",
                     *           "description": "Set by a test script"
                     *         },
                     *         {
                     *           "key": "webhookId",
                     *           "value": "",
                     *           "type": "string",
                     *           "description": "Set by a test script"
                     *         },
                     *         {
                     *           "key": "bearerToken",
                     *           "value": "",
                     *           "type": "string",
                     *           "description": "Set by a test script"
                     *         },
                     *         {
                     *           "key": "consentRequestId",
                     *           "value": "",
                     *           "type": "string",
                     *           "description": "Set by a test script"
                     *         },
                     *         {
                     *           "key": "consentId",
                     *           "value": "",
                     *           "type": "string",
                     *           "description": "Set by a test script"
                     *         },
                     *         {
                     *           "key": "accountId",
                     *           "value": "",
                     *           "type": "string",
                     *           "description": "Set by a test script"
                     *         },
                     *         {
                     *           "key": "consentExpiresAt",
                     *           "value": "",
                     *           "type": "string",
                     *           "description": "Set by a test script"
                     *         },
                     *         {
                     *           "key": "transactionsFrom",
                     *           "value": "",
                     *           "type": "string",
                     *           "description": "Set by a test script"
                     *         },
                     *         {
                     *           "key": "fromDate",
                     *           "value": "",
                     *           "type": "string",
                     *           "description": "Set by a test script"
                     *         },
                     *         {
                     *           "key": "toDate",
                     *           "value": "",
                     *           "type": "string",
                     *           "description": "Set by a test script"
                     *         }
                     *       ],
                     *       "info": {
                     *         "_postman_id": "ac3e1b72-8ea3-409b-9d90-dc1316b1a804",
                     *         "name": "Open-banking provider API (obsim) — contract base",
                     *         "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
                     *         "description": {
                     *           "content": "The provider API as obsim simulates it: every /v1 path and the webhooks the provider sends. Generate a partner client from this document. Where the provider contract says \"not shown\", the choice obsim made is stated in the descriptions and in docs/decisions.md. obsim's own controls are a separate document: /_sandbox/openapi.json.\n\nContact Support:\n Name: obsim maintainers\nMade by obsim for contract version base from the document it serves (/openapi.json).\nConverted by openapi-to-postmanv2: the folders (one per tag), the requests, their example bodies, descriptions and example answers.\nAdded by obsim: partner headers and bearer auth from variables, the Obsim-Contract-Version header, the ids chained from answer to request, the checks of every answer, the token and sandbox-clock scripts, the consent step and the Flows folder. Run it with the environment of GET /_sandbox/collections/postman/environment (docs/partner-tools.md).",
                     *           "type": "text/plain"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["PostmanCollection"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getPostmanEnvironment: {
        parameters: {
            query?: {
                /** @description The contract version whose served document the collection is made from (GET /_sandbox/contract/versions; default: the sandbox's pin, else base). Every provider request of it sends Obsim-Contract-Version: {{contractVersion}}. */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A Postman environment for the caller's sandbox, as Postman exports one: where obsim answers, the credentials the request was made with (secret-typed), the default merchant, the contract version and the settlement delay. */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    "content-disposition"?: string;
                    "cache-control"?: "no-store";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "90aba9a8-6319-4479-91b4-8b355801cd07",
                     *       "name": "obsim default (base)",
                     *       "values": [
                     *         {
                     *           "key": "baseUrl",
                     *           "value": "http://localhost:4010",
                     *           "type": "default",
                     *           "enabled": true
                     *         },
                     *         {
                     *           "key": "partnerClientId",
                     *           "value": "sandbox-partner",
                     *           "type": "secret",
                     *           "enabled": true
                     *         },
                     *         {
                     *           "key": "partnerClientSecret",
                     *           "value": "sandbox-secret",
                     *           "type": "secret",
                     *           "enabled": true
                     *         },
                     *         {
                     *           "key": "merchantId",
                     *           "value": "100001",
                     *           "type": "default",
                     *           "enabled": true
                     *         },
                     *         {
                     *           "key": "merchantClientId",
                     *           "value": "954fdda0-e10b-42f9-9a42-d3746951c960",
                     *           "type": "default",
                     *           "enabled": true
                     *         },
                     *         {
                     *           "key": "userId",
                     *           "value": "user-typical",
                     *           "type": "default",
                     *           "enabled": true
                     *         },
                     *         {
                     *           "key": "contractVersion",
                     *           "value": "base",
                     *           "type": "default",
                     *           "enabled": true
                     *         },
                     *         {
                     *           "key": "settleDelayMs",
                     *           "value": "5000",
                     *           "type": "default",
                     *           "enabled": true
                     *         }
                     *       ],
                     *       "_postman_variable_scope": "environment",
                     *       "_postman_exported_at": "2026-03-02T09:40:00.001Z",
                     *       "_postman_exported_using": "obsim/0.1.0"
                     *     }
                     */
                    "application/json": components["schemas"]["PostmanEnvironment"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getBrunoCollection: {
        parameters: {
            query?: {
                /** @description The contract version whose served document the collection is made from (GET /_sandbox/contract/versions; default: the sandbox's pin, else base). Every provider request of it sends Obsim-Contract-Version: {{contractVersion}}. */
                version?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A zip of the collection folder */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    "content-disposition"?: string;
                    "cache-control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
            "4XX": {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
            "5XX": {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getContractChangelog: {
        parameters: {
            query: {
                /** @description The version upgraded from (`base`: the provider's document) */
                from: string;
                /** @description The version upgraded to */
                to: string;
                /** @description json: the document below; markdown: a table for a pull request or a changelog page (text/markdown) */
                format?: "json" | "markdown";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The changelog (JSON), or it as a Markdown table (format=markdown) */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "from": "base",
                     *       "to": "2027-03-01",
                     *       "summary": {
                     *         "changes": 20,
                     *         "breaking": 8
                     *       },
                     *       "changes": [
                     *         {
                     *           "id": "field-deprecated createMerchant /partnerRefId",
                     *           "kind": "field-deprecated",
                     *           "breaking": false,
                     *           "rule": "obsim-property-deprecated",
                     *           "source": "document",
                     *           "description": "createMerchant (POST /v1/partner/merchants): request field /partnerRefId deprecated",
                     *           "place": "request",
                     *           "operationId": "createMerchant",
                     *           "method": "POST",
                     *           "path": "/v1/partner/merchants",
                     *           "field": "/partnerRefId",
                     *           "fromPointer": "/components/schemas/CreateMerchantRequest/properties/partnerRefId",
                     *           "toPointer": "/components/schemas/CreateMerchantRequest/properties/partnerRefId"
                     *         },
                     *         {
                     *           "id": "operation-deprecated resendMerchantOnboarding",
                     *           "kind": "operation-deprecated",
                     *           "breaking": false,
                     *           "rule": "endpoint-deprecated",
                     *           "source": "document",
                     *           "description": "resendMerchantOnboarding (POST /v1/partner/merchants/{merchantId}/resend-onboarding): deprecated",
                     *           "operationId": "resendMerchantOnboarding",
                     *           "method": "POST",
                     *           "path": "/v1/partner/merchants/{merchantId}/resend-onboarding",
                     *           "fromPointer": "/paths/~1v1~1partner~1merchants~1{merchantId}~1resend-onboarding/post",
                     *           "toPointer": "/paths/~1v1~1partner~1merchants~1{merchantId}~1resend-onboarding/post/deprecated"
                     *         },
                     *         {
                     *           "id": "answer-field-removed createPayment 200 /merchantName",
                     *           "kind": "answer-field-removed",
                     *           "breaking": true,
                     *           "rule": "response-required-property-removed",
                     *           "source": "document",
                     *           "description": "createPayment (POST /v1/partner/payments): answer 200 field /merchantName removed",
                     *           "place": "answer",
                     *           "operationId": "createPayment",
                     *           "method": "POST",
                     *           "path": "/v1/partner/payments",
                     *           "status": "200",
                     *           "field": "/merchantName",
                     *           "fromPointer": "/components/schemas/Payment/properties/merchantName"
                     *         },
                     *         {
                     *           "id": "answer-field-added createPayment 200 /paymentReference",
                     *           "kind": "answer-field-added",
                     *           "breaking": false,
                     *           "rule": "response-required-property-added",
                     *           "source": "document",
                     *           "description": "createPayment (POST /v1/partner/payments): new answer 200 field /paymentReference",
                     *           "place": "answer",
                     *           "operationId": "createPayment",
                     *           "method": "POST",
                     *           "path": "/v1/partner/payments",
                     *           "status": "200",
                     *           "field": "/paymentReference",
                     *           "toPointer": "/components/schemas/Payment/properties/paymentReference"
                     *         },
                     *         {
                     *           "id": "enum-value-added createPayment 200 /status \"authorized\"",
                     *           "kind": "enum-value-added",
                     *           "breaking": true,
                     *           "rule": "response-property-enum-value-added",
                     *           "source": "document",
                     *           "description": "createPayment (POST /v1/partner/payments): answer 200 field /status takes the new value \"authorized\"",
                     *           "place": "answer",
                     *           "operationId": "createPayment",
                     *           "method": "POST",
                     *           "path": "/v1/partner/payments",
                     *           "status": "200",
                     *           "field": "/status",
                     *           "value": "authorized",
                     *           "fromPointer": "/components/schemas/Payment/properties/status/enum",
                     *           "toPointer": "/components/schemas/Payment/properties/status/enum/1"
                     *         },
                     *         {
                     *           "id": "answer-field-removed getPaymentStatus 200 /merchantName",
                     *           "kind": "answer-field-removed",
                     *           "breaking": true,
                     *           "rule": "response-required-property-removed",
                     *           "source": "document",
                     *           "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): answer 200 field /merchantName removed",
                     *           "place": "answer",
                     *           "operationId": "getPaymentStatus",
                     *           "method": "GET",
                     *           "path": "/v1/partner/payments/{paymentId}/status",
                     *           "status": "200",
                     *           "field": "/merchantName",
                     *           "fromPointer": "/components/schemas/Payment/properties/merchantName"
                     *         },
                     *         {
                     *           "id": "answer-field-added getPaymentStatus 200 /paymentReference",
                     *           "kind": "answer-field-added",
                     *           "breaking": false,
                     *           "rule": "response-required-property-added",
                     *           "source": "document",
                     *           "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): new answer 200 field /paymentReference",
                     *           "place": "answer",
                     *           "operationId": "getPaymentStatus",
                     *           "method": "GET",
                     *           "path": "/v1/partner/payments/{paymentId}/status",
                     *           "status": "200",
                     *           "field": "/paymentReference",
                     *           "toPointer": "/components/schemas/Payment/properties/paymentReference"
                     *         },
                     *         {
                     *           "id": "enum-value-added getPaymentStatus 200 /status \"authorized\"",
                     *           "kind": "enum-value-added",
                     *           "breaking": true,
                     *           "rule": "response-property-enum-value-added",
                     *           "source": "document",
                     *           "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): answer 200 field /status takes the new value \"authorized\"",
                     *           "place": "answer",
                     *           "operationId": "getPaymentStatus",
                     *           "method": "GET",
                     *           "path": "/v1/partner/payments/{paymentId}/status",
                     *           "status": "200",
                     *           "field": "/status",
                     *           "value": "authorized",
                     *           "fromPointer": "/components/schemas/Payment/properties/status/enum",
                     *           "toPointer": "/components/schemas/Payment/properties/status/enum/1"
                     *         },
                     *         {
                     *           "id": "status-added registerWebhook 201",
                     *           "kind": "status-added",
                     *           "breaking": false,
                     *           "rule": "response-success-status-added",
                     *           "source": "document",
                     *           "description": "registerWebhook (POST /v1/partner/webhooks): answers 201",
                     *           "operationId": "registerWebhook",
                     *           "method": "POST",
                     *           "path": "/v1/partner/webhooks",
                     *           "status": "201",
                     *           "toPointer": "/paths/~1v1~1partner~1webhooks/post/responses/201"
                     *         },
                     *         {
                     *           "id": "webhook-field-added payment.completed /data/paymentReference",
                     *           "kind": "webhook-field-added",
                     *           "breaking": false,
                     *           "rule": "response-optional-property-added",
                     *           "source": "document",
                     *           "description": "webhook payment.completed: new payload field /data/paymentReference",
                     *           "place": "webhook",
                     *           "event": "payment.completed",
                     *           "field": "/data/paymentReference",
                     *           "toPointer": "/components/schemas/PaymentEventData/properties/paymentReference"
                     *         },
                     *         {
                     *           "id": "webhook-field-added payment.failed /data/paymentReference",
                     *           "kind": "webhook-field-added",
                     *           "breaking": false,
                     *           "rule": "response-optional-property-added",
                     *           "source": "document",
                     *           "description": "webhook payment.failed: new payload field /data/paymentReference",
                     *           "place": "webhook",
                     *           "event": "payment.failed",
                     *           "field": "/data/paymentReference",
                     *           "toPointer": "/components/schemas/PaymentEventData/properties/paymentReference"
                     *         },
                     *         {
                     *           "id": "field-made createPayment /paymentReference",
                     *           "kind": "field-made",
                     *           "breaking": false,
                     *           "rule": "obsim-field-made",
                     *           "source": "switches",
                     *           "description": "createPayment (POST /v1/partner/payments): obsim now sends answer field /paymentReference",
                     *           "place": "answer",
                     *           "operationId": "createPayment",
                     *           "method": "POST",
                     *           "path": "/v1/partner/payments",
                     *           "field": "/paymentReference",
                     *           "toPointer": "/x-obsim/answers/0"
                     *         },
                     *         {
                     *           "id": "field-made getPaymentStatus /paymentReference",
                     *           "kind": "field-made",
                     *           "breaking": false,
                     *           "rule": "obsim-field-made",
                     *           "source": "switches",
                     *           "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): obsim now sends answer field /paymentReference",
                     *           "place": "answer",
                     *           "operationId": "getPaymentStatus",
                     *           "method": "GET",
                     *           "path": "/v1/partner/payments/{paymentId}/status",
                     *           "field": "/paymentReference",
                     *           "toPointer": "/x-obsim/answers/1"
                     *         },
                     *         {
                     *           "id": "value-now-sent getPaymentStatus /status \"authorized\"",
                     *           "kind": "value-now-sent",
                     *           "breaking": true,
                     *           "rule": "obsim-value-now-sent",
                     *           "source": "switches",
                     *           "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): obsim now sends \"authorized\" in answer field /status when /status is \"processing\"",
                     *           "place": "answer",
                     *           "operationId": "getPaymentStatus",
                     *           "method": "GET",
                     *           "path": "/v1/partner/payments/{paymentId}/status",
                     *           "field": "/status",
                     *           "value": "authorized",
                     *           "when": {
                     *             "field": "/status",
                     *             "equals": "processing"
                     *           },
                     *           "toPointer": "/x-obsim/answers/2"
                     *         },
                     *         {
                     *           "id": "field-no-longer-sent createPayment /merchantName",
                     *           "kind": "field-no-longer-sent",
                     *           "breaking": true,
                     *           "rule": "obsim-field-no-longer-sent",
                     *           "source": "switches",
                     *           "description": "createPayment (POST /v1/partner/payments): obsim no longer sends answer field /merchantName",
                     *           "place": "answer",
                     *           "operationId": "createPayment",
                     *           "method": "POST",
                     *           "path": "/v1/partner/payments",
                     *           "field": "/merchantName",
                     *           "toPointer": "/x-obsim/answers/3"
                     *         },
                     *         {
                     *           "id": "field-no-longer-sent getPaymentStatus /merchantName",
                     *           "kind": "field-no-longer-sent",
                     *           "breaking": true,
                     *           "rule": "obsim-field-no-longer-sent",
                     *           "source": "switches",
                     *           "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): obsim no longer sends answer field /merchantName",
                     *           "place": "answer",
                     *           "operationId": "getPaymentStatus",
                     *           "method": "GET",
                     *           "path": "/v1/partner/payments/{paymentId}/status",
                     *           "field": "/merchantName",
                     *           "toPointer": "/x-obsim/answers/4"
                     *         },
                     *         {
                     *           "id": "field-made payment.completed /data/paymentReference",
                     *           "kind": "field-made",
                     *           "breaking": false,
                     *           "rule": "obsim-field-made",
                     *           "source": "switches",
                     *           "description": "webhook payment.completed: obsim now sends payload field /data/paymentReference",
                     *           "place": "webhook",
                     *           "event": "payment.completed",
                     *           "field": "/data/paymentReference",
                     *           "toPointer": "/x-obsim/answers/5"
                     *         },
                     *         {
                     *           "id": "field-made payment.failed /data/paymentReference",
                     *           "kind": "field-made",
                     *           "breaking": false,
                     *           "rule": "obsim-field-made",
                     *           "source": "switches",
                     *           "description": "webhook payment.failed: obsim now sends payload field /data/paymentReference",
                     *           "place": "webhook",
                     *           "event": "payment.failed",
                     *           "field": "/data/paymentReference",
                     *           "toPointer": "/x-obsim/answers/6"
                     *         },
                     *         {
                     *           "id": "sunset resendMerchantOnboarding",
                     *           "kind": "sunset",
                     *           "breaking": false,
                     *           "rule": "api-sunset-date-changed",
                     *           "source": "switches",
                     *           "description": "resendMerchantOnboarding (POST /v1/partner/merchants/{merchantId}/resend-onboarding): sunset (— → 2027-09-01T00:00:00Z)",
                     *           "operationId": "resendMerchantOnboarding",
                     *           "method": "POST",
                     *           "path": "/v1/partner/merchants/{merchantId}/resend-onboarding",
                     *           "after": "2027-09-01T00:00:00Z",
                     *           "toPointer": "/x-obsim/operations/resendMerchantOnboarding/sunsetAt"
                     *         },
                     *         {
                     *           "id": "status-changed registerWebhook 200",
                     *           "kind": "status-changed",
                     *           "breaking": true,
                     *           "rule": "obsim-status-changed",
                     *           "source": "switches",
                     *           "description": "registerWebhook (POST /v1/partner/webhooks): answers 201 where it answered 200",
                     *           "operationId": "registerWebhook",
                     *           "method": "POST",
                     *           "path": "/v1/partner/webhooks",
                     *           "status": "200",
                     *           "before": "200",
                     *           "after": "201",
                     *           "toPointer": "/x-obsim/operations/registerWebhook/status/200"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ContractChangelog"];
                    "text/markdown": string;
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
            "4XX": {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                    "text/markdown": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
            "5XX": {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                    "text/markdown": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listContractVersions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contract versions this obsim serves, the base (the provider's document) first, then those of --contracts in name order. Each is served as its own document at /openapi.json?version=NAME. */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "name": "base",
                     *           "title": "The provider’s document",
                     *           "document": "/openapi.json",
                     *           "deprecations": [],
                     *           "sunsets": []
                     *         },
                     *         {
                     *           "name": "2027-03-01",
                     *           "title": "Example version (not the provider's): payments gain a reference and an authorized status, merchantName leaves payments, webhook registration answers 201, resending onboarding is deprecated",
                     *           "document": "/openapi.json?version=2027-03-01",
                     *           "deprecations": [
                     *             {
                     *               "operationId": "createMerchant",
                     *               "method": "POST",
                     *               "path": "/v1/partner/merchants",
                     *               "deprecatedAt": "2027-03-01T00:00:00Z",
                     *               "field": "/partnerRefId",
                     *               "in": "request"
                     *             },
                     *             {
                     *               "operationId": "resendMerchantOnboarding",
                     *               "method": "POST",
                     *               "path": "/v1/partner/merchants/{merchantId}/resend-onboarding",
                     *               "deprecatedAt": "2027-03-01T00:00:00Z"
                     *             }
                     *           ],
                     *           "sunsets": [
                     *             {
                     *               "operationId": "resendMerchantOnboarding",
                     *               "method": "POST",
                     *               "path": "/v1/partner/merchants/{merchantId}/resend-onboarding",
                     *               "sunsetAt": "2027-09-01T00:00:00Z"
                     *             }
                     *           ],
                     *           "file": "examples/contracts/2027-03-01.yaml"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ContractVersionList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    controlMerchant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                merchantId: number;
                action: "submit-onboarding" | "complete-fast-track" | "approve" | "reject" | "activate" | "deactivate" | "reactivate";
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
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
                    /**
                     * @example {
                     *       "merchantId": 100005,
                     *       "status": "awaiting_approval",
                     *       "previousStatus": "pending_onboarding"
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxMerchantActionResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    controlPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                paymentId: number;
                action: "approve" | "complete" | "fail" | "abandon" | "expire";
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "reason": "bank_rejected"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "paymentId": 5000002,
                     *       "status": "failed",
                     *       "bankPaymentStatus": "Rejected",
                     *       "failureReason": "bank_rejected",
                     *       "amount": 89,
                     *       "currency": "DKK",
                     *       "referenceNumber": "order-1002",
                     *       "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *       "merchantName": "Nørrebro Kaffe ApS",
                     *       "paymentUrl": "http://localhost:4010/pay/pay_5000002_bCLkhpJCYjk3sErrhd-ZVD",
                     *       "createdAt": "2026-03-02T09:30:00.000Z",
                     *       "updatedAt": "2026-03-02T09:30:00.000Z",
                     *       "expiresAt": "2026-03-02T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    controlConsent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                requestId: string;
                action: "authorize" | "deny" | "revoke" | "expire";
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "errorMessage": "The user cancelled at the bank"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "merchantId": 100002,
                     *       "userId": "user-typical",
                     *       "permissions": [
                     *         "ReadAccountsDetail",
                     *         "ReadBalances",
                     *         "ReadTransactionsDetail"
                     *       ],
                     *       "expirationDateTime": "2026-06-01T00:00:00.000Z",
                     *       "transactionFromDateTime": "2025-03-01T00:00:00.000Z",
                     *       "requestId": "6bbf9e76-d2e0-470d-b94f-e16c7ad273ec",
                     *       "status": "failed",
                     *       "createdAt": "2026-03-02T09:30:00.000Z",
                     *       "updatedAt": "2026-03-02T09:30:00.000Z",
                     *       "errorMessage": "The user cancelled at the bank"
                     *     }
                     */
                    "application/json": components["schemas"]["Consent"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listDeliveries: {
        parameters: {
            query?: {
                event?: string;
                webhookId?: string;
                state?: "pending" | "delivering" | "delivered" | "failed";
                /** @description Only attempts with this outcome (pending and in-flight deliveries have none) */
                outcome?: "delivered" | "timeout" | "connection_refused" | "connection_reset" | "non_2xx" | "redirect" | "error" | "chaos_drop";
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": 6,
                     *           "eventId": "evt_01a224bb8431b85ae0dd483a",
                     *           "event": "merchant.deactivated",
                     *           "webhookId": "wh_ac41e9c7f3777792bb08fba5",
                     *           "url": "https://partner.example/webhooks/obsim",
                     *           "state": "delivering",
                     *           "statusCode": null,
                     *           "outcome": null,
                     *           "error": null,
                     *           "durationMs": null,
                     *           "attemptedAt": "2026-03-02T09:40:00.003Z",
                     *           "createdAt": "2026-03-02T09:40:00.003Z",
                     *           "redeliveryOf": null,
                     *           "body": "{\"event\":\"merchant.deactivated\",\"timestamp\":\"2026-03-02T09:40:00.003Z\",\"data\":{\"merchantId\":100002,\"clientId\":\"31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd\",\"companyName\":\"Nørrebro Kaffe ApS\",\"status\":\"inactive\",\"previousStatus\":\"active\",\"timestamp\":\"2026-03-02T09:40:00.003Z\"}}",
                     *           "signature": "27f7cdbbf87bd0518d866e08dbbee5985048ac5ace237df6286c3c7d8edfe039",
                     *           "traceparent": "00-f55c07110dfeb60a99c10e0406abec6a-39081a642ab727aa-01"
                     *         },
                     *         {
                     *           "id": 5,
                     *           "eventId": "evt_01a224bb8430ac6dde466961",
                     *           "event": "merchant.onboarding.completed",
                     *           "webhookId": "wh_ac41e9c7f3777792bb08fba5",
                     *           "url": "https://partner.example/webhooks/obsim",
                     *           "state": "delivering",
                     *           "statusCode": null,
                     *           "outcome": null,
                     *           "error": null,
                     *           "durationMs": null,
                     *           "attemptedAt": "2026-03-02T09:40:00.003Z",
                     *           "createdAt": "2026-03-02T09:40:00.003Z",
                     *           "redeliveryOf": null,
                     *           "body": "{\"event\":\"merchant.onboarding.completed\",\"timestamp\":\"2026-03-02T09:40:00.003Z\",\"data\":{\"merchantId\":100005,\"clientId\":\"5cabaeb2-3613-4490-8494-f9ac0b330678\",\"companyName\":\"Frederiksberg Blomster ApS\",\"status\":\"awaiting_approval\",\"previousStatus\":\"pending_onboarding\",\"timestamp\":\"2026-03-02T09:40:00.003Z\"}}",
                     *           "signature": "ff1a9aa2566abab8ddc25f25648cf8abf151f519c1fb9a14ed654dbc2ac080bf",
                     *           "traceparent": "00-477895139926ed636fd55a538d24e043-98a97df27c29accd-01"
                     *         }
                     *       ],
                     *       "total": 6,
                     *       "totalCapped": false
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxDeliveryList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getDelivery: {
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
                    /**
                     * @example {
                     *       "id": 6,
                     *       "eventId": "evt_01a224bb8431b85ae0dd483a",
                     *       "event": "merchant.deactivated",
                     *       "webhookId": "wh_ac41e9c7f3777792bb08fba5",
                     *       "url": "https://partner.example/webhooks/obsim",
                     *       "state": "delivering",
                     *       "statusCode": null,
                     *       "outcome": null,
                     *       "error": null,
                     *       "durationMs": null,
                     *       "attemptedAt": "2026-03-02T09:40:00.003Z",
                     *       "createdAt": "2026-03-02T09:40:00.003Z",
                     *       "redeliveryOf": null,
                     *       "body": "{\"event\":\"merchant.deactivated\",\"timestamp\":\"2026-03-02T09:40:00.003Z\",\"data\":{\"merchantId\":100002,\"clientId\":\"31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd\",\"companyName\":\"Nørrebro Kaffe ApS\",\"status\":\"inactive\",\"previousStatus\":\"active\",\"timestamp\":\"2026-03-02T09:40:00.003Z\"}}",
                     *       "signature": "27f7cdbbf87bd0518d866e08dbbee5985048ac5ace237df6286c3c7d8edfe039",
                     *       "traceparent": "00-f55c07110dfeb60a99c10e0406abec6a-39081a642ab727aa-01"
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxDelivery"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    redeliverDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deliveryId: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
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
                    /**
                     * @example {
                     *       "id": 7,
                     *       "eventId": "evt_01a224bb8431b85ae0dd483a",
                     *       "event": "merchant.deactivated",
                     *       "webhookId": "wh_ac41e9c7f3777792bb08fba5",
                     *       "url": "https://partner.example/webhooks/obsim",
                     *       "state": "pending",
                     *       "statusCode": null,
                     *       "outcome": null,
                     *       "error": null,
                     *       "durationMs": null,
                     *       "attemptedAt": null,
                     *       "createdAt": "2026-03-02T09:40:00.003Z",
                     *       "redeliveryOf": 6,
                     *       "body": "{\"event\":\"merchant.deactivated\",\"timestamp\":\"2026-03-02T09:40:00.003Z\",\"data\":{\"merchantId\":100002,\"clientId\":\"31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd\",\"companyName\":\"Nørrebro Kaffe ApS\",\"status\":\"inactive\",\"previousStatus\":\"active\",\"timestamp\":\"2026-03-02T09:40:00.003Z\"}}",
                     *       "signature": "27f7cdbbf87bd0518d866e08dbbee5985048ac5ace237df6286c3c7d8edfe039"
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxDelivery"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getFaults: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The fault profile in force in a sandbox: its seed, the shipped profile it came from, its rules (a named profile's expanded: a window as instants), and the faults injected since it was set, by rule. */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "sandboxId": "default",
                     *       "active": true,
                     *       "rules": [
                     *         {
                     *           "kind": "error",
                     *           "rate": 1,
                     *           "window": {
                     *             "from": "2026-03-02T09:40:00.003Z",
                     *             "to": "2026-03-02T09:45:00.003Z"
                     *           },
                     *           "status": 503,
                     *           "retryAfterSeconds": 30,
                     *           "when": "instead"
                     *         },
                     *         {
                     *           "kind": "webhook_drop",
                     *           "rate": 1,
                     *           "window": {
                     *             "from": "2026-03-02T09:40:00.003Z",
                     *             "to": "2026-03-02T09:45:00.003Z"
                     *           }
                     *         },
                     *         {
                     *           "kind": "webhook_duplicate",
                     *           "rate": 0.1,
                     *           "event": "payment.completed"
                     *         }
                     *       ],
                     *       "injected": [
                     *         0,
                     *         0,
                     *         0
                     *       ],
                     *       "seed": 7,
                     *       "profile": "provider-outage",
                     *       "setAt": "2026-03-02T09:40:00.003Z"
                     *     }
                     */
                    "application/json": components["schemas"]["FaultProfile"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    setFaults: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "profile": "provider-outage",
                 *       "seed": 7,
                 *       "rules": [
                 *         {
                 *           "kind": "webhook_duplicate",
                 *           "event": "payment.completed",
                 *           "rate": 0.1
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["FaultProfileRequest"];
            };
        };
        responses: {
            /** @description The fault profile in force in a sandbox: its seed, the shipped profile it came from, its rules (a named profile's expanded: a window as instants), and the faults injected since it was set, by rule. */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "sandboxId": "default",
                     *       "active": true,
                     *       "rules": [
                     *         {
                     *           "kind": "error",
                     *           "rate": 1,
                     *           "window": {
                     *             "from": "2026-03-02T09:40:00.003Z",
                     *             "to": "2026-03-02T09:45:00.003Z"
                     *           },
                     *           "status": 503,
                     *           "retryAfterSeconds": 30,
                     *           "when": "instead"
                     *         },
                     *         {
                     *           "kind": "webhook_drop",
                     *           "rate": 1,
                     *           "window": {
                     *             "from": "2026-03-02T09:40:00.003Z",
                     *             "to": "2026-03-02T09:45:00.003Z"
                     *           }
                     *         },
                     *         {
                     *           "kind": "webhook_duplicate",
                     *           "rate": 0.1,
                     *           "event": "payment.completed"
                     *         }
                     *       ],
                     *       "injected": [
                     *         0,
                     *         0,
                     *         0
                     *       ],
                     *       "seed": 7,
                     *       "profile": "provider-outage",
                     *       "setAt": "2026-03-02T09:40:00.003Z"
                     *     }
                     */
                    "application/json": components["schemas"]["FaultProfile"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    clearFaults: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The fault profile in force in a sandbox: its seed, the shipped profile it came from, its rules (a named profile's expanded: a window as instants), and the faults injected since it was set, by rule. */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "sandboxId": "default",
                     *       "active": false,
                     *       "rules": [],
                     *       "injected": []
                     *     }
                     */
                    "application/json": components["schemas"]["FaultProfile"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listPactProviderStates: {
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "name": "a merchant",
                     *           "description": "A merchant of the partner: a test merchant (activated at creation), a standard one or a fast-tracked one, in the onboarding status asked for (driven there by the sandbox controls).",
                     *           "params": {
                     *             "kind": {
                     *               "type": "string",
                     *               "enum": [
                     *                 "test",
                     *                 "standard",
                     *                 "fast-track"
                     *               ],
                     *               "description": "How it was created; default: the one that reaches `status` (test for activated and inactive)"
                     *             },
                     *             "status": {
                     *               "type": "string",
                     *               "enum": [
                     *                 "pending_onboarding",
                     *                 "pending_completion",
                     *                 "pending_partner_ais",
                     *                 "awaiting_approval",
                     *                 "activated",
                     *                 "rejected",
                     *                 "inactive"
                     *               ],
                     *               "default": "activated",
                     *               "description": "Its onboarding status"
                     *             },
                     *             "companyName": {
                     *               "type": "string",
                     *               "default": "Pact Shop ApS",
                     *               "description": "Its company name"
                     *             },
                     *             "subTppStatus": {
                     *               "type": "string",
                     *               "enum": [
                     *                 "created",
                     *                 "failed"
                     *               ],
                     *               "description": "A fast-tracked merchant: failed makes its sub-TPP creation fail, so it onboards as a standard one"
                     *             }
                     *           },
                     *           "answers": {
                     *             "merchantId": "its merchantId",
                     *             "merchantClientId": "its clientId (what payments name as merchantClientId)",
                     *             "companyName": "its company name",
                     *             "status": "its status",
                     *             "onboardingToken": "its onboarding token (standard and fast-track merchants)"
                     *           },
                     *           "source": "built-in"
                     *         },
                     *         {
                     *           "name": "a payment",
                     *           "description": "A payment to an activated test merchant of the partner, in the status asked for: pending (as created), processing (approved at the bank), paid (approved and settled) or failed (with its failureReason). Its bankPaymentStatus is the one the status has.",
                     *           "params": {
                     *             "status": {
                     *               "type": "string",
                     *               "enum": [
                     *                 "pending",
                     *                 "processing",
                     *                 "paid",
                     *                 "failed"
                     *               ],
                     *               "default": "pending",
                     *               "description": "Its status"
                     *             },
                     *             "failureReason": {
                     *               "type": "string",
                     *               "enum": [
                     *                 "bank_rejected",
                     *                 "payer_abandoned",
                     *                 "expired"
                     *               ],
                     *               "description": "Why it failed (status failed; default bank_rejected)"
                     *             },
                     *             "amount": {
                     *               "type": "number",
                     *               "default": 100,
                     *               "description": "Its amount (DKK)"
                     *             },
                     *             "currency": {
                     *               "type": "string",
                     *               "enum": [
                     *                 "DKK"
                     *               ],
                     *               "default": "DKK",
                     *               "description": "Its currency (the provider pays in DKK only)"
                     *             },
                     *             "referenceNumber": {
                     *               "type": "string",
                     *               "default": "pact-order-1",
                     *               "description": "Its reference number"
                     *             }
                     *           },
                     *           "answers": {
                     *             "paymentId": "its paymentId",
                     *             "merchantId": "its merchant's merchantId",
                     *             "merchantClientId": "its merchant's clientId",
                     *             "referenceNumber": "its reference number",
                     *             "amount": "its amount",
                     *             "status": "its status",
                     *             "bankPaymentStatus": "its bankPaymentStatus",
                     *             "paymentUrl": "its hosted payment page"
                     *           },
                     *           "source": "built-in"
                     *         },
                     *         {
                     *           "name": "a webhook",
                     *           "description": "A webhook registration of the partner (POST /v1/partner/webhooks), for the events asked for.",
                     *           "params": {
                     *             "url": {
                     *               "type": "string",
                     *               "default": "https://partner.example.test/webhooks",
                     *               "description": "Where it delivers"
                     *             },
                     *             "events": {
                     *               "type": "array",
                     *               "items": {
                     *                 "type": "string",
                     *                 "enum": [
                     *                   "payment.completed",
                     *                   "payment.failed",
                     *                   "merchant.activated",
                     *                   "merchant.deactivated",
                     *                   "merchant.onboarding.completed"
                     *                 ]
                     *               },
                     *               "default": [
                     *                 "payment.completed",
                     *                 "payment.failed"
                     *               ],
                     *               "description": "The event names it is registered for"
                     *             }
                     *           },
                     *           "answers": {
                     *             "webhookId": "its id",
                     *             "url": "its URL"
                     *           },
                     *           "source": "built-in"
                     *         },
                     *         {
                     *           "name": "a consent",
                     *           "description": "An AIS consent of a bank user for an activated test merchant, in the status asked for (driven there by the sandbox controls), and a bearer token for the user and merchant.",
                     *           "params": {
                     *             "status": {
                     *               "type": "string",
                     *               "enum": [
                     *                 "pending",
                     *                 "authorized",
                     *                 "expired",
                     *                 "revoked",
                     *                 "failed"
                     *               ],
                     *               "default": "authorized",
                     *               "description": "Its status"
                     *             },
                     *             "userId": {
                     *               "type": "string",
                     *               "default": "user-typical",
                     *               "description": "The sandbox bank user (user-typical, user-no-accounts, user-multi-currency, user-100k, or any other id)"
                     *             },
                     *             "permissions": {
                     *               "type": "array",
                     *               "items": {
                     *                 "type": "string",
                     *                 "enum": [
                     *                   "ais:accounts:read",
                     *                   "ais:balance:read",
                     *                   "ais:transactions:read"
                     *                 ]
                     *               },
                     *               "default": [
                     *                 "ais:accounts:read",
                     *                 "ais:balance:read",
                     *                 "ais:transactions:read"
                     *               ],
                     *               "description": "The bearer token's permissions"
                     *             },
                     *             "token": {
                     *               "type": "string",
                     *               "enum": [
                     *                 "valid",
                     *                 "expired"
                     *               ],
                     *               "default": "valid",
                     *               "description": "expired: the sandbox's clock is moved past the bearer token's expiry (its exp claim) after it was made"
                     *             }
                     *           },
                     *           "answers": {
                     *             "consentRequestId": "its requestId",
                     *             "consentId": "its consentId (once authorized)",
                     *             "userId": "the bank user",
                     *             "merchantId": "the merchant's merchantId",
                     *             "token": "a bearer token for the user and merchant (generate-token)"
                     *           },
                     *           "source": "built-in"
                     *         },
                     *         {
                     *           "name": "a bank user with accounts and transactions",
                     *           "description": "A sandbox bank user whose accounts and transactions an activated test merchant may read: a bearer token and (unless consent is none) a consent in that status. The accounts and transactions are the sandbox bank's, the same for a user id everywhere.",
                     *           "params": {
                     *             "userId": {
                     *               "type": "string",
                     *               "default": "user-typical",
                     *               "description": "The sandbox bank user (user-typical, user-no-accounts, user-multi-currency, user-100k, or any other id)"
                     *             },
                     *             "consent": {
                     *               "type": "string",
                     *               "enum": [
                     *                 "none",
                     *                 "pending",
                     *                 "authorized",
                     *                 "expired",
                     *                 "revoked",
                     *                 "failed"
                     *               ],
                     *               "default": "authorized",
                     *               "description": "The status of the consent made for it, or none"
                     *             },
                     *             "permissions": {
                     *               "type": "array",
                     *               "items": {
                     *                 "type": "string",
                     *                 "enum": [
                     *                   "ais:accounts:read",
                     *                   "ais:balance:read",
                     *                   "ais:transactions:read"
                     *                 ]
                     *               },
                     *               "default": [
                     *                 "ais:accounts:read",
                     *                 "ais:balance:read",
                     *                 "ais:transactions:read"
                     *               ],
                     *               "description": "The bearer token's permissions"
                     *             },
                     *             "token": {
                     *               "type": "string",
                     *               "enum": [
                     *                 "valid",
                     *                 "expired"
                     *               ],
                     *               "default": "valid",
                     *               "description": "expired: the sandbox's clock is moved past the bearer token's expiry (its exp claim) after it was made"
                     *             }
                     *           },
                     *           "answers": {
                     *             "userId": "the bank user",
                     *             "merchantId": "the merchant's merchantId",
                     *             "token": "a bearer token for the user and merchant",
                     *             "consentRequestId": "the consent's requestId (unless consent is none)",
                     *             "accountId": "the user's first account (when the consent lets it be read)",
                     *             "iban": "that account's IBAN"
                     *           },
                     *           "source": "built-in"
                     *         },
                     *         {
                     *           "name": "no data",
                     *           "description": "The sandbox emptied (POST /_sandbox/reset): only its default merchant, as when it was created.",
                     *           "params": {},
                     *           "answers": {},
                     *           "source": "built-in"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxPactStateList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    changePactProviderState: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "state": "a payment",
                 *       "params": {
                 *         "status": "paid"
                 *       },
                 *       "action": "setup"
                 *     }
                 */
                "application/json": components["schemas"]["SandboxPactStateChange"];
            };
        };
        responses: {
            /** @description The values a state set up made (`{"merchantClientId": "…", "paymentId": 5000003}`): the verifier puts them where the pact says fromProviderState. Empty after a teardown or an empty state. */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "paymentId": 5000004,
                     *       "merchantId": 100010,
                     *       "merchantClientId": "9ae089ee-cabb-46b5-98fc-ed9a632442d6",
                     *       "referenceNumber": "pact-order-1",
                     *       "amount": 100,
                     *       "status": "paid",
                     *       "bankPaymentStatus": "AcceptedSettlementCompleted",
                     *       "paymentUrl": "http://localhost:4010/pay/pay_5000004_bylRdcMYdF-NrQ2WydNsUT"
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxPactStateValues"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    exportPact: {
        parameters: {
            query?: {
                /** @description The pact's consumer name */
                consumer?: string;
                /** @description The pact's provider name */
                provider?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A Pact Specification v4 file (https://github.com/pact-foundation/pact-specification/tree/version-4): one synchronous HTTP interaction per distinct operation and answer the sandbox's journal holds. */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "consumer": {
                     *         "name": "shop-app"
                     *       },
                     *       "provider": {
                     *         "name": "open-banking-provider"
                     *       },
                     *       "interactions": [
                     *         {
                     *           "type": "Synchronous/HTTP",
                     *           "description": "createTestMerchant answers 200 activated",
                     *           "providerStates": [],
                     *           "request": {
                     *             "method": "POST",
                     *             "path": "/v1/partner/merchants/test",
                     *             "body": {
                     *               "contentType": "application/json",
                     *               "encoded": false,
                     *               "content": {
                     *                 "companyName": "Pact Shop ApS"
                     *               }
                     *             },
                     *             "headers": {
                     *               "X-Partner-Client-Id": [
                     *                 "REDACTED"
                     *               ],
                     *               "X-Partner-Client-Secret": [
                     *                 "REDACTED"
                     *               ],
                     *               "Content-Type": [
                     *                 "application/json"
                     *               ]
                     *             }
                     *           },
                     *           "response": {
                     *             "status": 200,
                     *             "headers": {
                     *               "Content-Type": [
                     *                 "application/json"
                     *               ]
                     *             },
                     *             "body": {
                     *               "contentType": "application/json",
                     *               "encoded": false,
                     *               "content": {
                     *                 "merchantId": 100010,
                     *                 "clientId": "9ae089ee-cabb-46b5-98fc-ed9a632442d6",
                     *                 "companyName": "Pact Shop ApS",
                     *                 "status": "activated",
                     *                 "message": "Test merchant created and activated: it can accept payments at once (sandbox only)."
                     *               }
                     *             },
                     *             "matchingRules": {
                     *               "body": {
                     *                 "$.merchantId": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "integer"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.clientId": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "type"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.companyName": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "type"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.status": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "equality"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.message": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "type"
                     *                     }
                     *                   ]
                     *                 }
                     *               },
                     *               "header": {
                     *                 "Content-Type": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "regex",
                     *                       "regex": "^application/json.*"
                     *                     }
                     *                   ]
                     *                 }
                     *               }
                     *             }
                     *           },
                     *           "comments": {
                     *             "text": [
                     *               "From journal entry #87."
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "type": "Synchronous/HTTP",
                     *           "description": "createPayment answers 200 pending",
                     *           "providerStates": [
                     *             {
                     *               "name": "a merchant",
                     *               "params": {
                     *                 "kind": "test",
                     *                 "status": "activated"
                     *               }
                     *             }
                     *           ],
                     *           "request": {
                     *             "method": "POST",
                     *             "path": "/v1/partner/payments",
                     *             "body": {
                     *               "contentType": "application/json",
                     *               "encoded": false,
                     *               "content": {
                     *                 "merchantClientId": "9ae089ee-cabb-46b5-98fc-ed9a632442d6",
                     *                 "amount": 100,
                     *                 "referenceNumber": "pact-order-1"
                     *               }
                     *             },
                     *             "headers": {
                     *               "X-Partner-Client-Id": [
                     *                 "REDACTED"
                     *               ],
                     *               "X-Partner-Client-Secret": [
                     *                 "REDACTED"
                     *               ],
                     *               "Content-Type": [
                     *                 "application/json"
                     *               ]
                     *             },
                     *             "generators": {
                     *               "body": {
                     *                 "$.merchantClientId": {
                     *                   "type": "ProviderState",
                     *                   "expression": "${merchantClientId}",
                     *                   "dataType": "STRING"
                     *                 }
                     *               }
                     *             }
                     *           },
                     *           "response": {
                     *             "status": 200,
                     *             "headers": {
                     *               "Content-Type": [
                     *                 "application/json"
                     *               ]
                     *             },
                     *             "body": {
                     *               "contentType": "application/json",
                     *               "encoded": false,
                     *               "content": {
                     *                 "paymentId": 5000004,
                     *                 "status": "pending",
                     *                 "bankPaymentStatus": "Pending",
                     *                 "failureReason": null,
                     *                 "amount": 100,
                     *                 "currency": "DKK",
                     *                 "referenceNumber": "pact-order-1",
                     *                 "merchantClientId": "9ae089ee-cabb-46b5-98fc-ed9a632442d6",
                     *                 "merchantName": "Pact Shop ApS",
                     *                 "paymentUrl": "http://localhost:4010/pay/pay_5000004_bylRdcMYdF-NrQ2WydNsUT",
                     *                 "createdAt": "2026-03-02T09:40:00.001Z",
                     *                 "updatedAt": "2026-03-02T09:40:00.001Z",
                     *                 "expiresAt": "2026-03-02T10:10:00.001Z"
                     *               }
                     *             },
                     *             "matchingRules": {
                     *               "body": {
                     *                 "$.paymentId": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "integer"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.status": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "equality"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.bankPaymentStatus": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "type"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.failureReason": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "equality"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.amount": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "integer"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.currency": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "equality"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.referenceNumber": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "type"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.merchantClientId": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "type"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.merchantName": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "type"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.paymentUrl": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "type"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.createdAt": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "regex",
                     *                       "regex": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.updatedAt": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "regex",
                     *                       "regex": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.expiresAt": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "regex",
                     *                       "regex": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"
                     *                     }
                     *                   ]
                     *                 }
                     *               },
                     *               "header": {
                     *                 "Content-Type": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "regex",
                     *                       "regex": "^application/json.*"
                     *                     }
                     *                   ]
                     *                 }
                     *               }
                     *             }
                     *           },
                     *           "comments": {
                     *             "text": [
                     *               "From journal entry #88."
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "type": "Synchronous/HTTP",
                     *           "description": "getPaymentStatus answers 200 paid",
                     *           "providerStates": [
                     *             {
                     *               "name": "a payment",
                     *               "params": {
                     *                 "status": "paid"
                     *               }
                     *             }
                     *           ],
                     *           "request": {
                     *             "method": "GET",
                     *             "path": "/v1/partner/payments/5000004/status",
                     *             "headers": {
                     *               "X-Partner-Client-Id": [
                     *                 "REDACTED"
                     *               ],
                     *               "X-Partner-Client-Secret": [
                     *                 "REDACTED"
                     *               ]
                     *             },
                     *             "generators": {
                     *               "path": {
                     *                 "type": "ProviderState",
                     *                 "expression": "/v1/partner/payments/${paymentId}/status",
                     *                 "dataType": "STRING"
                     *               }
                     *             }
                     *           },
                     *           "response": {
                     *             "status": 200,
                     *             "headers": {
                     *               "Content-Type": [
                     *                 "application/json"
                     *               ]
                     *             },
                     *             "body": {
                     *               "contentType": "application/json",
                     *               "encoded": false,
                     *               "content": {
                     *                 "paymentId": 5000004,
                     *                 "status": "paid",
                     *                 "bankPaymentStatus": "AcceptedSettlementCompleted",
                     *                 "failureReason": null,
                     *                 "amount": 100,
                     *                 "currency": "DKK",
                     *                 "referenceNumber": "pact-order-1",
                     *                 "merchantClientId": "9ae089ee-cabb-46b5-98fc-ed9a632442d6",
                     *                 "merchantName": "Pact Shop ApS",
                     *                 "paymentUrl": "http://localhost:4010/pay/pay_5000004_bylRdcMYdF-NrQ2WydNsUT",
                     *                 "createdAt": "2026-03-02T09:40:00.001Z",
                     *                 "updatedAt": "2026-03-02T09:40:00.001Z",
                     *                 "expiresAt": "2026-03-02T10:10:00.001Z"
                     *               }
                     *             },
                     *             "matchingRules": {
                     *               "body": {
                     *                 "$.paymentId": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "integer"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.status": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "equality"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.bankPaymentStatus": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "type"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.failureReason": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "equality"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.amount": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "integer"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.currency": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "equality"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.referenceNumber": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "type"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.merchantClientId": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "type"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.merchantName": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "type"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.paymentUrl": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "type"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.createdAt": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "regex",
                     *                       "regex": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.updatedAt": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "regex",
                     *                       "regex": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"
                     *                     }
                     *                   ]
                     *                 },
                     *                 "$.expiresAt": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "regex",
                     *                       "regex": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"
                     *                     }
                     *                   ]
                     *                 }
                     *               },
                     *               "header": {
                     *                 "Content-Type": {
                     *                   "combine": "AND",
                     *                   "matchers": [
                     *                     {
                     *                       "match": "regex",
                     *                       "regex": "^application/json.*"
                     *                     }
                     *                   ]
                     *                 }
                     *               }
                     *             }
                     *           },
                     *           "comments": {
                     *             "text": [
                     *               "From journal entry #91."
                     *             ]
                     *           }
                     *         }
                     *       ],
                     *       "metadata": {
                     *         "pactSpecification": {
                     *           "version": "4.0"
                     *         },
                     *         "obsim": {
                     *           "exportedFrom": "default"
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxPact"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listReceiverChecks: {
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "webhookId": "wh_ac41e9c7f3777792bb08fba5",
                     *           "url": "https://partner.example/webhooks/obsim",
                     *           "startedAt": "2026-11-29T00:36:38.777Z",
                     *           "passed": 12,
                     *           "warned": 0,
                     *           "failed": 0,
                     *           "verdict": "passed",
                     *           "forgedAccepted": false,
                     *           "checks": [
                     *             {
                     *               "id": "event.payment.completed",
                     *               "title": "valid payment.completed",
                     *               "status": "pass",
                     *               "reason": "200 in 9 ms (limit 2000 ms)"
                     *             },
                     *             {
                     *               "id": "event.payment.failed",
                     *               "title": "valid payment.failed",
                     *               "status": "pass",
                     *               "reason": "200 in 4 ms (limit 2000 ms)"
                     *             },
                     *             {
                     *               "id": "event.merchant.activated",
                     *               "title": "valid merchant.activated",
                     *               "status": "pass",
                     *               "reason": "200 in 1 ms (limit 2000 ms)"
                     *             },
                     *             {
                     *               "id": "event.merchant.deactivated",
                     *               "title": "valid merchant.deactivated",
                     *               "status": "pass",
                     *               "reason": "200 in 5 ms (limit 2000 ms)"
                     *             },
                     *             {
                     *               "id": "event.merchant.onboarding.completed",
                     *               "title": "valid merchant.onboarding.completed",
                     *               "status": "pass",
                     *               "reason": "200 in 2 ms (limit 2000 ms)"
                     *             },
                     *             {
                     *               "id": "signature.tampered-body",
                     *               "title": "tampered body, original signature",
                     *               "status": "pass",
                     *               "reason": "refused with 401 in 2 ms"
                     *             },
                     *             {
                     *               "id": "signature.wrong-secret",
                     *               "title": "signed with another secret",
                     *               "status": "pass",
                     *               "reason": "refused with 401 in 0 ms"
                     *             },
                     *             {
                     *               "id": "signature.missing",
                     *               "title": "no X-Webhook-Signature",
                     *               "status": "pass",
                     *               "reason": "refused with 401 in 1 ms"
                     *             },
                     *             {
                     *               "id": "signature.truncated",
                     *               "title": "truncated signature (first 32 hex digits)",
                     *               "status": "pass",
                     *               "reason": "refused with 401 in 0 ms"
                     *             },
                     *             {
                     *               "id": "duplicate",
                     *               "title": "same X-Webhook-Id delivered twice",
                     *               "status": "pass",
                     *               "reason": "200, 200 in 0 ms, 0 ms (limit 2000 ms)"
                     *             },
                     *             {
                     *               "id": "out-of-order",
                     *               "title": "payment.failed after payment.completed (same payment)",
                     *               "status": "pass",
                     *               "reason": "200, 200 in 0 ms, 0 ms (limit 2000 ms)"
                     *             },
                     *             {
                     *               "id": "unknown-event",
                     *               "title": "an event the contract does not list (merchant.updated)",
                     *               "status": "pass",
                     *               "reason": "200 in 0 ms (limit 2000 ms)"
                     *             }
                     *           ],
                     *           "hints": []
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        items: components["schemas"]["SandboxReceiverCheck"][];
                    };
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    checkRegisteredReceiver: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "timeoutMs": 2000
                 *     }
                 */
                "application/json": {
                    /** @description The registered webhook to check; default: the newest */
                    webhookId?: string;
                    /** @default 10000 */
                    timeoutMs?: number;
                };
            };
        };
        responses: {
            /** @description A check-receiver run against a registered webhook (the checks of `obsim check-receiver`, signed with the webhook's own secret), as recorded for the readiness report. */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "webhookId": "wh_ac41e9c7f3777792bb08fba5",
                     *       "url": "https://partner.example/webhooks/obsim",
                     *       "startedAt": "2026-11-29T00:36:38.777Z",
                     *       "passed": 12,
                     *       "warned": 0,
                     *       "failed": 0,
                     *       "verdict": "passed",
                     *       "forgedAccepted": false,
                     *       "checks": [
                     *         {
                     *           "id": "event.payment.completed",
                     *           "title": "valid payment.completed",
                     *           "status": "pass",
                     *           "reason": "200 in 9 ms (limit 2000 ms)"
                     *         },
                     *         {
                     *           "id": "event.payment.failed",
                     *           "title": "valid payment.failed",
                     *           "status": "pass",
                     *           "reason": "200 in 4 ms (limit 2000 ms)"
                     *         },
                     *         {
                     *           "id": "event.merchant.activated",
                     *           "title": "valid merchant.activated",
                     *           "status": "pass",
                     *           "reason": "200 in 1 ms (limit 2000 ms)"
                     *         },
                     *         {
                     *           "id": "event.merchant.deactivated",
                     *           "title": "valid merchant.deactivated",
                     *           "status": "pass",
                     *           "reason": "200 in 5 ms (limit 2000 ms)"
                     *         },
                     *         {
                     *           "id": "event.merchant.onboarding.completed",
                     *           "title": "valid merchant.onboarding.completed",
                     *           "status": "pass",
                     *           "reason": "200 in 2 ms (limit 2000 ms)"
                     *         },
                     *         {
                     *           "id": "signature.tampered-body",
                     *           "title": "tampered body, original signature",
                     *           "status": "pass",
                     *           "reason": "refused with 401 in 2 ms"
                     *         },
                     *         {
                     *           "id": "signature.wrong-secret",
                     *           "title": "signed with another secret",
                     *           "status": "pass",
                     *           "reason": "refused with 401 in 0 ms"
                     *         },
                     *         {
                     *           "id": "signature.missing",
                     *           "title": "no X-Webhook-Signature",
                     *           "status": "pass",
                     *           "reason": "refused with 401 in 1 ms"
                     *         },
                     *         {
                     *           "id": "signature.truncated",
                     *           "title": "truncated signature (first 32 hex digits)",
                     *           "status": "pass",
                     *           "reason": "refused with 401 in 0 ms"
                     *         },
                     *         {
                     *           "id": "duplicate",
                     *           "title": "same X-Webhook-Id delivered twice",
                     *           "status": "pass",
                     *           "reason": "200, 200 in 0 ms, 0 ms (limit 2000 ms)"
                     *         },
                     *         {
                     *           "id": "out-of-order",
                     *           "title": "payment.failed after payment.completed (same payment)",
                     *           "status": "pass",
                     *           "reason": "200, 200 in 0 ms, 0 ms (limit 2000 ms)"
                     *         },
                     *         {
                     *           "id": "unknown-event",
                     *           "title": "an event the contract does not list (merchant.updated)",
                     *           "status": "pass",
                     *           "reason": "200 in 0 ms (limit 2000 ms)"
                     *         }
                     *       ],
                     *       "hints": []
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxReceiverCheck"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listRequests: {
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
                /** @description json: the entries (JournalList); har: the same page as HAR 1.2 (application/har+json), oldest first, with `log._nextCursor` for the next, older page: open it in a browser's developer tools or attach it to a bug */
                format?: "json" | "har";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entries (format=json), or the same page as HAR 1.2 (format=har) */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": 10,
                     *           "at": "2026-03-02T09:30:00.000Z",
                     *           "wallAt": "2026-11-29T00:36:38.156Z",
                     *           "method": "POST",
                     *           "path": "/v1/partner/payments",
                     *           "query": {},
                     *           "headers": {
                     *             "x-partner-client-id": "sandbox-partner",
                     *             "x-partner-client-secret": "[redacted]",
                     *             "user-agent": "lightMyRequest",
                     *             "content-type": "application/json",
                     *             "content-length": "102"
                     *           },
                     *           "requestBodyTruncated": false,
                     *           "status": 200,
                     *           "responseBodyTruncated": false,
                     *           "durationMs": 0.469,
                     *           "requestId": "req_e5208eea53c38bc68266458e",
                     *           "resources": {
                     *             "paymentId": 5000002
                     *           },
                     *           "requestBody": {
                     *             "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *             "amount": 89,
                     *             "referenceNumber": "order-1002"
                     *           },
                     *           "responseBody": {
                     *             "paymentId": 5000002,
                     *             "status": "pending",
                     *             "bankPaymentStatus": "Pending",
                     *             "failureReason": null,
                     *             "amount": 89,
                     *             "currency": "DKK",
                     *             "referenceNumber": "order-1002",
                     *             "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *             "merchantName": "Nørrebro Kaffe ApS",
                     *             "paymentUrl": "http://localhost:4010/pay/pay_5000002_bCLkhpJCYjk3sErrhd-ZVD",
                     *             "createdAt": "2026-03-02T09:30:00.000Z",
                     *             "updatedAt": "2026-03-02T09:30:00.000Z",
                     *             "expiresAt": "2026-03-02T10:00:00.000Z"
                     *           },
                     *           "traceId": "9f5e23833ab710d8958cd8adb373e4a7"
                     *         },
                     *         {
                     *           "id": 9,
                     *           "at": "2026-03-02T09:30:00.000Z",
                     *           "wallAt": "2026-11-29T00:36:38.155Z",
                     *           "method": "POST",
                     *           "path": "/v1/partner/payments",
                     *           "query": {},
                     *           "headers": {
                     *             "x-partner-client-id": "sandbox-partner",
                     *             "x-partner-client-secret": "[redacted]",
                     *             "user-agent": "lightMyRequest",
                     *             "content-type": "application/json",
                     *             "content-length": "106"
                     *           },
                     *           "requestBodyTruncated": false,
                     *           "status": 200,
                     *           "responseBodyTruncated": false,
                     *           "durationMs": 1.667,
                     *           "requestId": "req_a8402b951d3848f43ba29616",
                     *           "resources": {
                     *             "paymentId": 5000001
                     *           },
                     *           "requestBody": {
                     *             "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *             "amount": 149.95,
                     *             "referenceNumber": "order-1001"
                     *           },
                     *           "responseBody": {
                     *             "paymentId": 5000001,
                     *             "status": "pending",
                     *             "bankPaymentStatus": "Pending",
                     *             "failureReason": null,
                     *             "amount": 149.95,
                     *             "currency": "DKK",
                     *             "referenceNumber": "order-1001",
                     *             "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *             "merchantName": "Nørrebro Kaffe ApS",
                     *             "paymentUrl": "http://localhost:4010/pay/pay_5000001_Jaf4ocfSPiTz_tP_us_2cP",
                     *             "createdAt": "2026-03-02T09:30:00.000Z",
                     *             "updatedAt": "2026-03-02T09:30:00.000Z",
                     *             "expiresAt": "2026-03-02T10:00:00.000Z"
                     *           },
                     *           "traceId": "d9640455143a35b465f28b3f9abf30bc"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["JournalList"];
                    /**
                     * @example {
                     *       "log": {
                     *         "version": "1.2",
                     *         "creator": {
                     *           "name": "obsim",
                     *           "version": "0.1.0"
                     *         },
                     *         "entries": [
                     *           {
                     *             "startedDateTime": "2026-11-29T00:36:38.156Z",
                     *             "time": 0.469,
                     *             "cache": {},
                     *             "timings": {
                     *               "send": 0,
                     *               "wait": 0.469,
                     *               "receive": 0
                     *             },
                     *             "request": {
                     *               "method": "POST",
                     *               "url": "http://localhost:4010/v1/partner/payments",
                     *               "httpVersion": "HTTP/1.1",
                     *               "cookies": [],
                     *               "headers": [
                     *                 {
                     *                   "name": "x-partner-client-id",
                     *                   "value": "sandbox-partner"
                     *                 },
                     *                 {
                     *                   "name": "x-partner-client-secret",
                     *                   "value": "[redacted]"
                     *                 },
                     *                 {
                     *                   "name": "user-agent",
                     *                   "value": "lightMyRequest"
                     *                 },
                     *                 {
                     *                   "name": "content-type",
                     *                   "value": "application/json"
                     *                 },
                     *                 {
                     *                   "name": "content-length",
                     *                   "value": "102"
                     *                 }
                     *               ],
                     *               "queryString": [],
                     *               "headersSize": -1,
                     *               "bodySize": 102,
                     *               "postData": {
                     *                 "mimeType": "application/json",
                     *                 "text": "{\"merchantClientId\":\"31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd\",\"amount\":89,\"referenceNumber\":\"order-1002\"}"
                     *               }
                     *             },
                     *             "response": {
                     *               "status": 200,
                     *               "statusText": "",
                     *               "httpVersion": "HTTP/1.1",
                     *               "cookies": [],
                     *               "headers": [
                     *                 {
                     *                   "name": "x-request-id",
                     *                   "value": "req_e5208eea53c38bc68266458e"
                     *                 },
                     *                 {
                     *                   "name": "content-type",
                     *                   "value": "application/json"
                     *                 }
                     *               ],
                     *               "content": {
                     *                 "mimeType": "application/json",
                     *                 "text": "{\"paymentId\":5000002,\"status\":\"pending\",\"bankPaymentStatus\":\"Pending\",\"failureReason\":null,\"amount\":89,\"currency\":\"DKK\",\"referenceNumber\":\"order-1002\",\"merchantClientId\":\"31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd\",\"merchantName\":\"Nørrebro Kaffe ApS\",\"paymentUrl\":\"http://localhost:4010/pay/pay_5000002_bCLkhpJCYjk3sErrhd-ZVD\",\"createdAt\":\"2026-03-02T09:30:00.000Z\",\"updatedAt\":\"2026-03-02T09:30:00.000Z\",\"expiresAt\":\"2026-03-02T10:00:00.000Z\"}",
                     *                 "size": 439
                     *               },
                     *               "redirectURL": "",
                     *               "headersSize": -1,
                     *               "bodySize": 439
                     *             },
                     *             "comment": "journal entry 10, at 2026-03-02T09:30:00.000Z on the sandbox clock"
                     *           }
                     *         ],
                     *         "_nextCursor": "ajoxMA"
                     *       }
                     *     }
                     */
                    "application/har+json": components["schemas"]["JournalHar"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
            "4XX": {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                    "application/har+json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
            "5XX": {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                    "application/har+json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    clearRequests: {
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
                    /**
                     * @example {
                     *       "deleted": 62
                     *     }
                     */
                    "application/json": components["schemas"]["JournalCleared"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    streamRequests: {
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
                    /**
                     * @example event: request
                     *     data: {"id":42,"method":"POST","path":"/v1/partner/payments","status":200,"…":"a JournalEntry"}
                     */
                    "text/event-stream": string;
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getRequest: {
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
                    /**
                     * @example {
                     *       "id": 10,
                     *       "at": "2026-03-02T09:30:00.000Z",
                     *       "wallAt": "2026-11-29T00:36:38.156Z",
                     *       "method": "POST",
                     *       "path": "/v1/partner/payments",
                     *       "query": {},
                     *       "headers": {
                     *         "x-partner-client-id": "sandbox-partner",
                     *         "x-partner-client-secret": "[redacted]",
                     *         "user-agent": "lightMyRequest",
                     *         "content-type": "application/json",
                     *         "content-length": "102"
                     *       },
                     *       "requestBodyTruncated": false,
                     *       "status": 200,
                     *       "responseBodyTruncated": false,
                     *       "durationMs": 0.469,
                     *       "requestId": "req_e5208eea53c38bc68266458e",
                     *       "resources": {
                     *         "paymentId": 5000002
                     *       },
                     *       "requestBody": {
                     *         "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *         "amount": 89,
                     *         "referenceNumber": "order-1002"
                     *       },
                     *       "responseBody": {
                     *         "paymentId": 5000002,
                     *         "status": "pending",
                     *         "bankPaymentStatus": "Pending",
                     *         "failureReason": null,
                     *         "amount": 89,
                     *         "currency": "DKK",
                     *         "referenceNumber": "order-1002",
                     *         "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *         "merchantName": "Nørrebro Kaffe ApS",
                     *         "paymentUrl": "http://localhost:4010/pay/pay_5000002_bCLkhpJCYjk3sErrhd-ZVD",
                     *         "createdAt": "2026-03-02T09:30:00.000Z",
                     *         "updatedAt": "2026-03-02T09:30:00.000Z",
                     *         "expiresAt": "2026-03-02T10:00:00.000Z"
                     *       },
                     *       "traceId": "9f5e23833ab710d8958cd8adb373e4a7"
                     *     }
                     */
                    "application/json": components["schemas"]["JournalEntry"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    countRequests: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "request": {
                 *         "method": "POST",
                 *         "path": "/v1/partner/payments",
                 *         "body": {
                 *           "referenceNumber": "order-1001"
                 *         }
                 *       }
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "count": 1
                     *     }
                     */
                    "application/json": components["schemas"]["JournalCount"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    verifyRequests: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "request": {
                 *         "method": "POST",
                 *         "path": "/v1/partner/payments",
                 *         "body": {
                 *           "referenceNumber": "order-1001"
                 *         }
                 *       },
                 *       "count": 1
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "verified": true,
                     *       "actual": 1
                     *     }
                     */
                    "application/json": components["schemas"]["JournalVerifyResult"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    resetSandboxData: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
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
                    /**
                     * @example {
                     *       "deleted": {
                     *         "merchants": 5,
                     *         "payments": 2,
                     *         "stores": 1,
                     *         "webhooks": 1,
                     *         "events": 6,
                     *         "deliveries": 7,
                     *         "consents": 2,
                     *         "timers": 2,
                     *         "transitions": 15
                     *       },
                     *       "defaultMerchantId": 100009
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxResetResponse"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listMagicValues: {
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
                    /**
                     * @example {
                     *       "amounts": [
                     *         {
                     *           "amount": 666.66,
                     *           "outcome": "bank_rejected",
                     *           "description": "The bank rejects the payment at the settlement time: payment.failed, failureReason bank_rejected"
                     *         },
                     *         {
                     *           "amount": 777.77,
                     *           "outcome": "payer_abandoned",
                     *           "description": "The payer abandons at the settlement time: payment.failed, failureReason payer_abandoned"
                     *         },
                     *         {
                     *           "amount": 888.88,
                     *           "outcome": "expired",
                     *           "description": "Never settles by itself; expires after OBSIM_PAYMENT_EXPIRY: payment.failed, failureReason expired"
                     *         },
                     *         {
                     *           "amount": 999.99,
                     *           "outcome": "stay_pending",
                     *           "description": "Stays pending until the payer acts on paymentUrl or a control call completes or fails it (no expiry)"
                     *         }
                     *       ],
                     *       "fastTrack": [
                     *         {
                     *           "field": "registrationNumber",
                     *           "value": "00000000",
                     *           "description": "The company registry does not know the number: sub-TPP not created; the merchant must use the standard onboarding form at onboardingUrl",
                     *           "status": "pending_onboarding",
                     *           "subTppStatus": "failed",
                     *           "subTppMessage": "Company registry lookup failed: registration number not found"
                     *         },
                     *         {
                     *           "field": "registrationNumber",
                     *           "value": "99999999",
                     *           "description": "The company registry lists the company as dissolved/inactive: sub-TPP not created; standard onboarding at onboardingUrl",
                     *           "status": "pending_onboarding",
                     *           "subTppStatus": "failed",
                     *           "subTppMessage": "Sub-TPP creation rejected: the company is not active in the company registry"
                     *         }
                     *       ],
                     *       "users": [
                     *         {
                     *           "userId": "user-typical",
                     *           "description": "Typical user: 3 DKK accounts (current, savings, credit card), 416 transactions over the past year"
                     *         },
                     *         {
                     *           "userId": "user-no-accounts",
                     *           "description": "User with no accounts: the accounts list is empty (totalAccounts 0)"
                     *         },
                     *         {
                     *           "userId": "user-multi-currency",
                     *           "description": "Multi-currency user: current accounts in DKK, EUR, SEK and GBP at four banks, 300 transactions"
                     *         },
                     *         {
                     *           "userId": "user-100k",
                     *           "description": "Large user: one DKK current account holding 100,000 transactions over the past year (paging and date filters)"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxMagicValues"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getSandboxOverview: {
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
                    /**
                     * @example {
                     *       "environment": "sandbox",
                     *       "partnerId": "sandbox-partner",
                     *       "sandboxId": null,
                     *       "clock": {
                     *         "now": "2026-03-02T09:40:00.003Z",
                     *         "frozen": true,
                     *         "offsetMs": -23468798552
                     *       },
                     *       "merchants": {
                     *         "pending_onboarding": 1,
                     *         "pending_completion": 1,
                     *         "awaiting_approval": 1,
                     *         "activated": 1,
                     *         "rejected": 0,
                     *         "inactive": 1
                     *       },
                     *       "payments": {
                     *         "pending": 0,
                     *         "processing": 0,
                     *         "paid": 1,
                     *         "failed": 1
                     *       },
                     *       "consents": {
                     *         "pending": 0,
                     *         "authorized": 1,
                     *         "expired": 0,
                     *         "revoked": 0,
                     *         "failed": 1
                     *       },
                     *       "deliveries": {
                     *         "byState": {
                     *           "pending": 0,
                     *           "delivering": 0,
                     *           "delivered": 7,
                     *           "failed": 0
                     *         },
                     *         "byOutcome": {
                     *           "delivered": 7,
                     *           "timeout": 0,
                     *           "connection_refused": 0,
                     *           "connection_reset": 0,
                     *           "non_2xx": 0,
                     *           "redirect": 0,
                     *           "error": 0,
                     *           "chaos_drop": 0
                     *         }
                     *       },
                     *       "webhooks": 1
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxOverview"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listSandboxMerchants: {
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "merchant": {
                     *             "merchantId": 100005,
                     *             "clientId": "5cabaeb2-3613-4490-8494-f9ac0b330678",
                     *             "companyName": "Frederiksberg Blomster ApS",
                     *             "type": "standard",
                     *             "status": "awaiting_approval",
                     *             "subTppStatus": "created",
                     *             "createdAt": "2026-03-02T09:40:00.003Z",
                     *             "updatedAt": "2026-03-02T09:40:00.003Z",
                     *             "contactEmail": "hej@fblomster.dk",
                     *             "subTppId": "stpp_12b6c9acaaacb60de7c4"
                     *           },
                     *           "state": "awaiting_approval",
                     *           "actions": [
                     *             "approve",
                     *             "reject",
                     *             "activate"
                     *           ]
                     *         }
                     *       ],
                     *       "nextCursor": "100005"
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxMerchantList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getSandboxMerchant: {
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
                    /**
                     * @example {
                     *       "merchant": {
                     *         "merchantId": 100002,
                     *         "clientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *         "companyName": "Nørrebro Kaffe ApS",
                     *         "type": "test",
                     *         "status": "inactive",
                     *         "subTppStatus": "inactive",
                     *         "createdAt": "2026-03-02T09:30:00.000Z",
                     *         "updatedAt": "2026-03-02T09:40:00.003Z",
                     *         "subTppId": "stpp_41d1010b3a99eba04ecc"
                     *       },
                     *       "state": "inactive",
                     *       "states": [
                     *         "pending_onboarding",
                     *         "pending_completion",
                     *         "pending_partner_ais",
                     *         "awaiting_approval",
                     *         "activated",
                     *         "rejected",
                     *         "inactive"
                     *       ],
                     *       "actions": [
                     *         "reactivate"
                     *       ],
                     *       "onboardingUrl": null,
                     *       "onboardingExpiresAt": null,
                     *       "stores": [
                     *         {
                     *           "storeId": 1,
                     *           "merchantId": 100002,
                     *           "name": "Nørrebrogade 12",
                     *           "address": null,
                     *           "mccCode": "5814",
                     *           "partnerRefId": null,
                     *           "createdAt": "2026-03-02T09:30:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxMerchant"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listSandboxPayments: {
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "payment": {
                     *             "paymentId": 5000002,
                     *             "status": "failed",
                     *             "bankPaymentStatus": "Rejected",
                     *             "failureReason": "bank_rejected",
                     *             "amount": 89,
                     *             "currency": "DKK",
                     *             "referenceNumber": "order-1002",
                     *             "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *             "merchantName": "Nørrebro Kaffe ApS",
                     *             "paymentUrl": "http://localhost:4010/pay/pay_5000002_bCLkhpJCYjk3sErrhd-ZVD",
                     *             "createdAt": "2026-03-02T09:30:00.000Z",
                     *             "updatedAt": "2026-03-02T09:30:00.000Z",
                     *             "expiresAt": "2026-03-02T10:00:00.000Z"
                     *           },
                     *           "actions": []
                     *         }
                     *       ],
                     *       "nextCursor": "5000002"
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxPaymentList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getSandboxPayment: {
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
                    /**
                     * @example {
                     *       "payment": {
                     *         "paymentId": 5000001,
                     *         "status": "paid",
                     *         "bankPaymentStatus": "AcceptedSettlementCompleted",
                     *         "failureReason": null,
                     *         "amount": 149.95,
                     *         "currency": "DKK",
                     *         "referenceNumber": "order-1001",
                     *         "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                     *         "merchantName": "Nørrebro Kaffe ApS",
                     *         "paymentUrl": "http://localhost:4010/pay/pay_5000001_Jaf4ocfSPiTz_tP_us_2cP",
                     *         "createdAt": "2026-03-02T09:30:00.000Z",
                     *         "updatedAt": "2026-03-02T09:30:00.000Z",
                     *         "expiresAt": "2026-03-02T10:00:00.000Z"
                     *       },
                     *       "actions": [],
                     *       "timeline": [
                     *         {
                     *           "at": "2026-03-02T09:30:00.000Z",
                     *           "kind": "created",
                     *           "status": "pending",
                     *           "cause": {
                     *             "kind": "request",
                     *             "name": "createPayment",
                     *             "requestId": "req_a8402b951d3848f43ba29616"
                     *           },
                     *           "event": null,
                     *           "eventId": null,
                     *           "deliveries": []
                     *         },
                     *         {
                     *           "at": "2026-03-02T09:30:00.000Z",
                     *           "kind": "status_changed",
                     *           "status": "paid",
                     *           "cause": {
                     *             "kind": "control",
                     *             "name": "complete",
                     *             "requestId": "req_8891d90baeb5a9e2feb1f94e"
                     *           },
                     *           "event": null,
                     *           "eventId": null,
                     *           "deliveries": []
                     *         },
                     *         {
                     *           "at": "2026-03-02T09:30:00.000Z",
                     *           "kind": "event",
                     *           "status": null,
                     *           "cause": null,
                     *           "event": "payment.completed",
                     *           "eventId": "evt_01a224bb82975ed6354eda57",
                     *           "deliveries": [
                     *             {
                     *               "id": 3,
                     *               "state": "delivered",
                     *               "outcome": "delivered",
                     *               "statusCode": 200
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxPayment"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listSandboxConsents: {
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "consent": {
                     *             "merchantId": 100002,
                     *             "userId": "user-typical",
                     *             "permissions": [
                     *               "ReadAccountsDetail",
                     *               "ReadBalances",
                     *               "ReadTransactionsDetail"
                     *             ],
                     *             "expirationDateTime": "2026-06-01T00:00:00.000Z",
                     *             "transactionFromDateTime": "2025-03-01T00:00:00.000Z",
                     *             "requestId": "6ccde979-43c9-4f36-b61a-3c59013d21c9",
                     *             "status": "authorized",
                     *             "createdAt": "2026-03-02T09:30:00.000Z",
                     *             "updatedAt": "2026-03-02T09:30:00.000Z",
                     *             "consentId": "cns_db86786963154007943fd7fe81d764d7"
                     *           },
                     *           "actions": [
                     *             "revoke",
                     *             "expire"
                     *           ]
                     *         }
                     *       ],
                     *       "nextCursor": "2"
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxConsentList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listSandboxWebhooks: {
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": "wh_ac41e9c7f3777792bb08fba5",
                     *           "url": "https://partner.example/webhooks/obsim",
                     *           "events": [
                     *             "payment.completed",
                     *             "payment.failed",
                     *             "merchant.activated",
                     *             "merchant.deactivated",
                     *             "merchant.onboarding.completed"
                     *           ],
                     *           "secret": "whsec_108d6abfa54c429f025454b846f63c54476f516db5f14680",
                     *           "createdAt": "2026-03-02T09:30:00.000Z"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxWebhookList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    importHarScenario: {
        parameters: {
            query?: {
                /** @description The scenario's name (default imported-har) */
                name?: string;
                /** @description yaml: the scenario file itself (application/yaml), its summary in comments atop it. json: the file with its summary (SandboxHarImport). */
                format?: "yaml" | "json";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "log": {
                 *         "version": "1.2",
                 *         "creator": {
                 *           "name": "obsim",
                 *           "version": "0.1.0"
                 *         },
                 *         "entries": [
                 *           {
                 *             "startedDateTime": "2026-12-07T16:14:09.946Z",
                 *             "time": 1.094,
                 *             "cache": {},
                 *             "timings": {
                 *               "send": 0,
                 *               "wait": 1.094,
                 *               "receive": 0
                 *             },
                 *             "request": {
                 *               "method": "POST",
                 *               "url": "http://localhost:4010/v1/partner/payments",
                 *               "httpVersion": "HTTP/1.1",
                 *               "cookies": [],
                 *               "headers": [
                 *                 {
                 *                   "name": "x-partner-client-id",
                 *                   "value": "sandbox-partner"
                 *                 },
                 *                 {
                 *                   "name": "x-partner-client-secret",
                 *                   "value": "[redacted]"
                 *                 },
                 *                 {
                 *                   "name": "user-agent",
                 *                   "value": "lightMyRequest"
                 *                 },
                 *                 {
                 *                   "name": "content-type",
                 *                   "value": "application/json"
                 *                 },
                 *                 {
                 *                   "name": "content-length",
                 *                   "value": "102"
                 *                 }
                 *               ],
                 *               "queryString": [],
                 *               "headersSize": -1,
                 *               "bodySize": 102,
                 *               "postData": {
                 *                 "mimeType": "application/json",
                 *                 "text": "{\"merchantClientId\":\"9fc48f6e-3c5a-4cfd-988f-4578d0decc6e\",\"amount\":89,\"referenceNumber\":\"order-1002\"}"
                 *               }
                 *             },
                 *             "response": {
                 *               "status": 200,
                 *               "statusText": "",
                 *               "httpVersion": "HTTP/1.1",
                 *               "cookies": [],
                 *               "headers": [
                 *                 {
                 *                   "name": "x-request-id",
                 *                   "value": "req_3e6bb5105581199dcba4c4f7"
                 *                 },
                 *                 {
                 *                   "name": "content-type",
                 *                   "value": "application/json"
                 *                 }
                 *               ],
                 *               "content": {
                 *                 "mimeType": "application/json",
                 *                 "text": "{\"paymentId\":5000002,\"status\":\"pending\",\"bankPaymentStatus\":\"Pending\",\"failureReason\":null,\"amount\":89,\"currency\":\"DKK\",\"referenceNumber\":\"order-1002\",\"merchantClientId\":\"9fc48f6e-3c5a-4cfd-988f-4578d0decc6e\",\"merchantName\":\"Nørrebro Kaffe ApS\",\"paymentUrl\":\"http://localhost:4010/pay/pay_5000002_0k_sAhoB48oK2BTrz5qjsD\",\"createdAt\":\"2026-03-02T09:30:00.000Z\",\"updatedAt\":\"2026-03-02T09:30:00.000Z\",\"expiresAt\":\"2026-03-02T10:00:00.000Z\"}",
                 *                 "size": 439
                 *               },
                 *               "redirectURL": "",
                 *               "headersSize": -1,
                 *               "bodySize": 439
                 *             },
                 *             "comment": "journal entry 11, at 2026-03-02T09:30:00.000Z on the sandbox clock"
                 *           }
                 *         ],
                 *         "_nextCursor": "ajoxMQ"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["SandboxHarImportRequest"];
            };
        };
        responses: {
            /** @description The scenario file (format=yaml), or it with its summary (format=json) */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/yaml": string;
                    /**
                     * @example {
                     *       "yaml": "# Imported by obsim from the HAR posted (HAR 1.2 written by obsim 0.1.0, 1 entries).\n# 1 entries: 1 taken as 1 steps.\n# Variables captured: none.\n# Kept as written (no earlier answer handed it out): merchantClient 9fc48f6e-3c5a-4cfd-988f-4578d0decc6e (body /merchantClientId of entry #0, POST /v1/partner/payments).\n# Not expected: merchantClientId, paymentId, paymentUrl (an id or link the replay is handed anew (captured where a later request uses it)).\n# Not expected: amount, currency, merchantName, referenceNumber (not a state: an echo of what was sent, or a detail of this provider).\n# Not expected: createdAt, expiresAt, updatedAt (a time, or a value that changes on every call).\n\nname: one-payment\ndescription: Imported from the HAR posted (HAR 1.2 written by obsim 0.1.0, 1 entries).\ntags:\n  - imported\n  - har\nsteps:\n  - request:\n      method: POST\n      path: /v1/partner/payments\n      body:\n        merchantClientId: 9fc48f6e-3c5a-4cfd-988f-4578d0decc6e\n        amount: 89\n        referenceNumber: order-1002\n      expect:\n        status: 200\n        body:\n          status: pending\n          bankPaymentStatus: Pending\n          failureReason: null\n",
                     *       "summary": {
                     *         "entries": 1,
                     *         "taken": 1,
                     *         "steps": 1,
                     *         "leftOut": [],
                     *         "skipped": [],
                     *         "variables": [],
                     *         "notExpected": [
                     *           {
                     *             "reason": "an id or link the replay is handed anew (captured where a later request uses it)",
                     *             "keys": [
                     *               "merchantClientId",
                     *               "paymentId",
                     *               "paymentUrl"
                     *             ]
                     *           },
                     *           {
                     *             "reason": "not a state: an echo of what was sent, or a detail of this provider",
                     *             "keys": [
                     *               "amount",
                     *               "currency",
                     *               "merchantName",
                     *               "referenceNumber"
                     *             ]
                     *           },
                     *           {
                     *             "reason": "a time, or a value that changes on every call",
                     *             "keys": [
                     *               "createdAt",
                     *               "expiresAt",
                     *               "updatedAt"
                     *             ]
                     *           }
                     *         ],
                     *         "flagged": [],
                     *         "literals": [
                     *           "merchantClient 9fc48f6e-3c5a-4cfd-988f-4578d0decc6e (body /merchantClientId of entry #0, POST /v1/partner/payments)"
                     *         ],
                     *         "inferred": [],
                     *         "unseen": []
                     *       },
                     *       "lines": [
                     *         "1 entries: 1 taken as 1 steps.",
                     *         "Variables captured: none.",
                     *         "Kept as written (no earlier answer handed it out): merchantClient 9fc48f6e-3c5a-4cfd-988f-4578d0decc6e (body /merchantClientId of entry #0, POST /v1/partner/payments).",
                     *         "Not expected: merchantClientId, paymentId, paymentUrl (an id or link the replay is handed anew (captured where a later request uses it)).",
                     *         "Not expected: amount, currency, merchantName, referenceNumber (not a state: an echo of what was sent, or a detail of this provider).",
                     *         "Not expected: createdAt, expiresAt, updatedAt (a time, or a value that changes on every call)."
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxHarImport"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
            "4XX": {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/yaml": components["schemas"]["ErrorBody"];
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
            "5XX": {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/yaml": components["schemas"]["ErrorBody"];
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listScenarios: {
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "name": "app-approval-times-out",
                     *           "steps": 13,
                     *           "description": "The payer's bank asks for approval in its app (decoupled); the page waits, the approval never comes, and the payment expires with payment.failed (expired).",
                     *           "tags": [
                     *             "payment",
                     *             "bank",
                     *             "hosted",
                     *             "clock"
                     *           ],
                     *           "covers": [
                     *             "payment:pending",
                     *             "payment:failed",
                     *             "event:payment.failed"
                     *           ]
                     *         },
                     *         {
                     *           "name": "bank-outage-during-checkout",
                     *           "steps": 13,
                     *           "description": "Nordlys Bank goes down for an hour during checkout; the payer's choice of it is refused on the hosted page with the other banks offered, and paying with another bank completes the payment.",
                     *           "tags": [
                     *             "payment",
                     *             "bank",
                     *             "hosted"
                     *           ],
                     *           "covers": [
                     *             "payment:pending",
                     *             "payment:paid",
                     *             "event:payment.completed"
                     *           ]
                     *         },
                     *         {
                     *           "name": "consent-authorized-read",
                     *           "steps": 10,
                     *           "description": "A bank user authorizes a consent; the partner then reads the accounts, a balance and the transactions (both transaction endpoints).",
                     *           "tags": [
                     *             "ais",
                     *             "consent"
                     *           ],
                     *           "covers": [
                     *             "consent:pending",
                     *             "consent:authorized"
                     *           ]
                     *         },
                     *         {
                     *           "name": "consent-denied",
                     *           "steps": 7,
                     *           "description": "The bank user denies the consent; it fails with an errorMessage and account data stays unreadable.",
                     *           "tags": [
                     *             "ais",
                     *             "consent"
                     *           ],
                     *           "covers": [
                     *             "consent:pending",
                     *             "consent:failed"
                     *           ]
                     *         },
                     *         {
                     *           "name": "consent-expired-by-clock",
                     *           "steps": 10,
                     *           "description": "An authorized consent expires when the virtual clock passes expirationDateTime; reads are refused afterwards, even with a fresh token.",
                     *           "tags": [
                     *             "ais",
                     *             "consent",
                     *             "clock"
                     *           ],
                     *           "covers": [
                     *             "consent:authorized",
                     *             "consent:expired"
                     *           ]
                     *         },
                     *         {
                     *           "name": "consent-revoked",
                     *           "steps": 6,
                     *           "description": "An authorized consent is revoked; reads are refused from then on.",
                     *           "tags": [
                     *             "ais",
                     *             "consent"
                     *           ],
                     *           "covers": [
                     *             "consent:authorized",
                     *             "consent:revoked"
                     *           ]
                     *         },
                     *         {
                     *           "name": "fault-injection-prefer",
                     *           "steps": 3,
                     *           "description": "The Prefer header forces an error status (Prefer: code=503) without running the handler: no payment is created; the same call without it succeeds.",
                     *           "tags": [
                     *             "payment",
                     *             "fault-injection"
                     *           ],
                     *           "covers": [
                     *             "payment:pending"
                     *           ]
                     *         },
                     *         {
                     *           "name": "friday-evening-payment-settles-monday",
                     *           "steps": 14,
                     *           "description": "A bank that settles on business days takes a payment approved after its 15:00 cut-off on a Friday evening; the payment stays processing (AcceptedCustomerProfile) over the weekend and settles at 09:00 on Monday.",
                     *           "tags": [
                     *             "payment",
                     *             "bank",
                     *             "hosted",
                     *             "clock"
                     *           ],
                     *           "covers": [
                     *             "payment:pending",
                     *             "payment:processing",
                     *             "payment:paid",
                     *             "event:payment.completed"
                     *           ]
                     *         },
                     *         {
                     *           "name": "merchant-deactivated-reactivated",
                     *           "steps": 9,
                     *           "description": "An active merchant is deactivated (merchant.deactivated; payments refused with 409) and reactivated (merchant.activated; payments accepted again).",
                     *           "tags": [
                     *             "merchant"
                     *           ],
                     *           "covers": [
                     *             "merchant:activated",
                     *             "merchant:inactive",
                     *             "event:merchant.deactivated",
                     *             "event:merchant.activated"
                     *           ]
                     *         },
                     *         {
                     *           "name": "merchant-fast-track-sub-tpp-failure",
                     *           "steps": 8,
                     *           "description": "Fast-track with the magic registrationNumber 00000000 - sub-TPP creation fails (still HTTP 200) and the merchant falls back to standard onboarding.",
                     *           "tags": [
                     *             "merchant",
                     *             "fast-track",
                     *             "magic-value"
                     *           ],
                     *           "covers": [
                     *             "merchant:pending_onboarding",
                     *             "merchant:awaiting_approval",
                     *             "merchant:activated",
                     *             "event:merchant.onboarding.completed",
                     *             "event:merchant.activated"
                     *           ]
                     *         },
                     *         {
                     *           "name": "merchant-fast-track",
                     *           "steps": 7,
                     *           "description": "A fast-tracked merchant (sub-TPP created) is pending completion until it completes billing agreement and bank linking, then is approved and activated.",
                     *           "tags": [
                     *             "merchant",
                     *             "fast-track",
                     *             "clock"
                     *           ],
                     *           "covers": [
                     *             "merchant:pending_partner_ais",
                     *             "merchant:pending_completion",
                     *             "merchant:awaiting_approval",
                     *             "merchant:activated",
                     *             "event:merchant.onboarding.completed",
                     *             "event:merchant.activated"
                     *           ]
                     *         },
                     *         {
                     *           "name": "merchant-onboarding-hosted-form",
                     *           "steps": 8,
                     *           "description": "The merchant fills in the hosted onboarding form (an HTML form POST to onboardingUrl); the merchant awaits approval and is activated after the approval delay.",
                     *           "tags": [
                     *             "merchant",
                     *             "onboarding",
                     *             "hosted"
                     *           ],
                     *           "covers": [
                     *             "merchant:pending_onboarding",
                     *             "merchant:awaiting_approval",
                     *             "merchant:activated",
                     *             "event:merchant.onboarding.completed",
                     *             "event:merchant.activated"
                     *           ]
                     *         },
                     *         {
                     *           "name": "merchant-rejected",
                     *           "steps": 7,
                     *           "description": "A merchant awaiting approval is rejected; no activation follows, even after the approval delay.",
                     *           "tags": [
                     *             "merchant",
                     *             "onboarding"
                     *           ],
                     *           "covers": [
                     *             "merchant:awaiting_approval",
                     *             "merchant:rejected"
                     *           ]
                     *         },
                     *         {
                     *           "name": "merchant-standard-onboarding",
                     *           "steps": 10,
                     *           "description": "A standard merchant submits the onboarding form, waits for approval, and is activated after the approval delay.",
                     *           "tags": [
                     *             "merchant",
                     *             "onboarding",
                     *             "clock"
                     *           ],
                     *           "covers": [
                     *             "merchant:pending_onboarding",
                     *             "merchant:awaiting_approval",
                     *             "merchant:activated",
                     *             "event:merchant.onboarding.completed",
                     *             "event:merchant.activated"
                     *           ]
                     *         },
                     *         {
                     *           "name": "onboarding-link-expired-resent",
                     *           "steps": 8,
                     *           "description": "The onboarding link stops working after 7 days (HTTP 410); resend-onboarding issues a new link that works while the old one stays dead.",
                     *           "tags": [
                     *             "merchant",
                     *             "onboarding",
                     *             "clock",
                     *             "hosted"
                     *           ],
                     *           "covers": [
                     *             "merchant:pending_onboarding"
                     *           ]
                     *         },
                     *         {
                     *           "name": "payment-abandoned",
                     *           "steps": 5,
                     *           "description": "Magic amount 777.77 makes the payer abandon at the bank; payment.failed carries failureReason payer_abandoned.",
                     *           "tags": [
                     *             "payment",
                     *             "magic-amount"
                     *           ],
                     *           "covers": [
                     *             "payment:failed",
                     *             "event:payment.failed"
                     *           ]
                     *         },
                     *         {
                     *           "name": "payment-expired",
                     *           "steps": 8,
                     *           "description": "Magic amount 888.88 never settles; when the virtual clock passes expiresAt the payment fails with failureReason expired.",
                     *           "tags": [
                     *             "payment",
                     *             "magic-amount",
                     *             "clock"
                     *           ],
                     *           "covers": [
                     *             "payment:failed",
                     *             "event:payment.failed"
                     *           ]
                     *         },
                     *         {
                     *           "name": "payment-failed-bank-rejected",
                     *           "steps": 7,
                     *           "description": "Magic amount 666.66 makes the bank reject the payment at settlement time; payment.failed carries failureReason bank_rejected.",
                     *           "tags": [
                     *             "payment",
                     *             "magic-amount"
                     *           ],
                     *           "covers": [
                     *             "payment:pending",
                     *             "payment:failed",
                     *             "event:payment.failed"
                     *           ]
                     *         },
                     *         {
                     *           "name": "payment-paid",
                     *           "steps": 7,
                     *           "description": "A payment to a test merchant settles by itself after the settle delay; payment.completed is delivered, signed.",
                     *           "tags": [
                     *             "payment"
                     *           ],
                     *           "covers": [
                     *             "payment:pending",
                     *             "payment:paid",
                     *             "event:payment.completed",
                     *             "merchant:activated"
                     *           ]
                     *         },
                     *         {
                     *           "name": "payment-processing-paid",
                     *           "steps": 8,
                     *           "description": "The payer approves at the bank (control approve) so the payment is processing; completing it pays it and sends payment.completed.",
                     *           "tags": [
                     *             "payment",
                     *             "control"
                     *           ],
                     *           "covers": [
                     *             "payment:processing",
                     *             "payment:paid",
                     *             "event:payment.completed"
                     *           ]
                     *         },
                     *         {
                     *           "name": "token-permission-missing",
                     *           "steps": 8,
                     *           "description": "A token limited to ais:accounts:read lists accounts but gets 403 token_permission_missing on balance and transactions, even with an authorized consent.",
                     *           "tags": [
                     *             "ais",
                     *             "auth"
                     *           ],
                     *           "covers": [
                     *             "consent:authorized"
                     *           ]
                     *         },
                     *         {
                     *           "name": "webhook-redelivery",
                     *           "steps": 10,
                     *           "description": "A delivery is sent again from the delivery log (control redeliver); the redelivery carries the same X-Webhook-Id and body, so receivers can de-duplicate.",
                     *           "tags": [
                     *             "webhook",
                     *             "control"
                     *           ],
                     *           "covers": [
                     *             "event:payment.completed"
                     *           ]
                     *         },
                     *         {
                     *           "name": "webhook-test-delivery",
                     *           "steps": 4,
                     *           "description": "POST /v1/partner/webhooks/{id}/test queues a signed webhook.test delivery to the registered URL.",
                     *           "tags": [
                     *             "webhook"
                     *           ],
                     *           "covers": [
                     *             "event:webhook.test"
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxScenarioList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    runScenario: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "payment-paid",
                 *       "isolate": true
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "name": "payment-paid",
                     *       "runId": "aa490230",
                     *       "passed": true,
                     *       "durationMs": 370,
                     *       "startedAt": "2026-11-29T00:36:40.263Z",
                     *       "steps": [
                     *         {
                     *           "index": 1,
                     *           "kind": "request",
                     *           "label": "request POST /v1/partner/merchants/test",
                     *           "status": "passed",
                     *           "durationMs": 10,
                     *           "detail": "POST /v1/partner/merchants/test → 200 (captured merchant.id, merchant.clientId)"
                     *         },
                     *         {
                     *           "index": 2,
                     *           "kind": "registerWebhook",
                     *           "label": "registerWebhook payment.completed, payment.failed",
                     *           "status": "passed",
                     *           "durationMs": 2,
                     *           "detail": "wh_258a4d1a9475ca225f641cf9 → http://127.0.0.1:9/obsim-scenario/aa490230/1"
                     *         },
                     *         {
                     *           "index": 3,
                     *           "kind": "request",
                     *           "label": "request POST /v1/partner/payments",
                     *           "status": "passed",
                     *           "durationMs": 3,
                     *           "detail": "POST /v1/partner/payments → 200 (captured payment.id, payment.ref)"
                     *         },
                     *         {
                     *           "index": 4,
                     *           "kind": "advanceClock",
                     *           "label": "advanceClock +5s",
                     *           "status": "passed",
                     *           "durationMs": 6,
                     *           "detail": "now 2026-11-29T00:36:45.282Z, 1 transition(s) fired"
                     *         },
                     *         {
                     *           "index": 5,
                     *           "kind": "expectWebhook",
                     *           "label": "expectWebhook payment.completed",
                     *           "status": "passed",
                     *           "durationMs": 10,
                     *           "detail": "evt_01a224bb8ad93cce62758569 signature valid"
                     *         },
                     *         {
                     *           "index": 6,
                     *           "kind": "request",
                     *           "label": "request GET /v1/partner/payments/${payment.id}/status",
                     *           "status": "passed",
                     *           "durationMs": 2,
                     *           "detail": "GET /v1/partner/payments/5000003/status → 200"
                     *         },
                     *         {
                     *           "index": 7,
                     *           "kind": "expectNoWebhook",
                     *           "label": "expectNoWebhook payment.failed",
                     *           "status": "passed",
                     *           "durationMs": 335,
                     *           "detail": "none in 300ms"
                     *         }
                     *       ],
                     *       "description": "A payment to a test merchant settles by itself after the settle delay; payment.completed is delivered, signed."
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxScenarioRunResult"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listSnapshots: {
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "name": "after-first-payment",
                     *           "createdAt": "2026-11-29T00:36:40.232Z",
                     *           "clock": {
                     *             "now": "2026-03-02T09:40:00.003Z",
                     *             "frozen": true
                     *           },
                     *           "counts": {
                     *             "merchants": 5,
                     *             "stores": 1,
                     *             "payments": 2,
                     *             "consents": 2,
                     *             "webhooks": 1,
                     *             "events": 6,
                     *             "deliveries": 7,
                     *             "timers": 2,
                     *             "transitions": 15
                     *           }
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SnapshotList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    createSnapshot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "after-first-payment"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "name": "after-first-payment",
                     *       "createdAt": "2026-11-29T00:36:40.232Z",
                     *       "clock": {
                     *         "now": "2026-03-02T09:40:00.003Z",
                     *         "frozen": true
                     *       },
                     *       "counts": {
                     *         "merchants": 5,
                     *         "stores": 1,
                     *         "payments": 2,
                     *         "consents": 2,
                     *         "webhooks": 1,
                     *         "events": 6,
                     *         "deliveries": 7,
                     *         "timers": 2,
                     *         "transitions": 15
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Snapshot"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    restoreSnapshot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /** @example {} */
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
                    /**
                     * @example {
                     *       "name": "after-first-payment",
                     *       "createdAt": "2026-11-29T00:36:40.232Z",
                     *       "clock": {
                     *         "now": "2026-03-02T09:40:00.003Z",
                     *         "frozen": true
                     *       },
                     *       "counts": {
                     *         "merchants": 5,
                     *         "stores": 1,
                     *         "payments": 2,
                     *         "consents": 2,
                     *         "webhooks": 1,
                     *         "events": 6,
                     *         "deliveries": 7,
                     *         "timers": 2,
                     *         "transitions": 15
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Snapshot"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    deleteSnapshot: {
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
                    /**
                     * @example {
                     *       "name": "after-first-payment",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": {
                        name: string;
                        deleted: boolean;
                    };
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listPaymentTransitions: {
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": 5,
                     *           "resource": "payment",
                     *           "resourceId": "5000001",
                     *           "from": null,
                     *           "to": "pending",
                     *           "at": "2026-03-02T09:30:00.000Z",
                     *           "cause": {
                     *             "kind": "request",
                     *             "name": "createPayment",
                     *             "requestId": "req_a8402b951d3848f43ba29616"
                     *           },
                     *           "traceId": "d9640455143a35b465f28b3f9abf30bc"
                     *         },
                     *         {
                     *           "id": 8,
                     *           "resource": "payment",
                     *           "resourceId": "5000001",
                     *           "from": "pending",
                     *           "to": "paid",
                     *           "at": "2026-03-02T09:30:00.000Z",
                     *           "cause": {
                     *             "kind": "control",
                     *             "name": "complete",
                     *             "requestId": "req_8891d90baeb5a9e2feb1f94e"
                     *           },
                     *           "traceId": "bcac19283ca596e1127b6f84cff19d81"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxTransitionList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listMerchantTransitions: {
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": 13,
                     *           "resource": "merchant",
                     *           "resourceId": "100005",
                     *           "from": null,
                     *           "to": "pending_onboarding",
                     *           "at": "2026-03-02T09:40:00.003Z",
                     *           "cause": {
                     *             "kind": "request",
                     *             "name": "createMerchant",
                     *             "requestId": "req_109488d2ff4769ff16b5673d"
                     *           },
                     *           "traceId": "5926c35ea53c45bed62a0105cad31641"
                     *         },
                     *         {
                     *           "id": 14,
                     *           "resource": "merchant",
                     *           "resourceId": "100005",
                     *           "from": "pending_onboarding",
                     *           "to": "awaiting_approval",
                     *           "at": "2026-03-02T09:40:00.003Z",
                     *           "cause": {
                     *             "kind": "control",
                     *             "name": "submit-onboarding",
                     *             "requestId": "req_f96ea74bdbc3994af5b7c0bf"
                     *           },
                     *           "traceId": "477895139926ed636fd55a538d24e043"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxTransitionList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listConsentTransitions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                requestId: string;
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "id": 11,
                     *           "resource": "consent",
                     *           "resourceId": "6ccde979-43c9-4f36-b61a-3c59013d21c9",
                     *           "from": null,
                     *           "to": "pending",
                     *           "at": "2026-03-02T09:30:00.000Z",
                     *           "cause": {
                     *             "kind": "request",
                     *             "name": "createConsent",
                     *             "requestId": "req_cba0461aa945c74c5819c233"
                     *           },
                     *           "traceId": "887dc0da7a2cba158127776a9d770321"
                     *         },
                     *         {
                     *           "id": 12,
                     *           "resource": "consent",
                     *           "resourceId": "6ccde979-43c9-4f36-b61a-3c59013d21c9",
                     *           "from": "pending",
                     *           "to": "authorized",
                     *           "at": "2026-03-02T09:30:00.000Z",
                     *           "cause": {
                     *             "kind": "control",
                     *             "name": "authorize",
                     *             "requestId": "req_924d61f561776a74e284a5a2"
                     *           },
                     *           "traceId": "7339b2cc9c4176fa2309592506636bc5"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxTransitionList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    listSandboxes: {
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
                    /**
                     * @example {
                     *       "items": [
                     *         {
                     *           "sandboxId": "sbx_e63aa77f8c27828cd8b6",
                     *           "name": "checkout-tests",
                     *           "createdAt": "2026-11-29T00:36:40.644Z",
                     *           "expiresAt": "2026-11-29T02:36:40.644Z",
                     *           "ttlMs": 7200000,
                     *           "clock": {
                     *             "now": "2026-11-29T00:36:40.647Z",
                     *             "frozen": false,
                     *             "offsetMs": 0
                     *           },
                     *           "settings": {
                     *             "settleDelayMs": 5000,
                     *             "approvalDelayMs": 30000,
                     *             "paymentExpiryMs": 1800000
                     *           }
                     *         }
                     *       ],
                     *       "total": 1
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxList"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    createSandbox: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "name": "checkout-tests",
                 *       "ttl": "2h"
                 *     }
                 */
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
                    /**
                     * @example {
                     *       "sandboxId": "sbx_e63aa77f8c27828cd8b6",
                     *       "name": "checkout-tests",
                     *       "createdAt": "2026-11-29T00:36:40.644Z",
                     *       "expiresAt": "2026-11-29T02:36:40.644Z",
                     *       "ttlMs": 7200000,
                     *       "clock": {
                     *         "now": "2026-11-29T00:36:40.647Z",
                     *         "frozen": false,
                     *         "offsetMs": 0
                     *       },
                     *       "settings": {
                     *         "settleDelayMs": 5000,
                     *         "approvalDelayMs": 30000,
                     *         "paymentExpiryMs": 1800000
                     *       },
                     *       "credentials": {
                     *         "clientId": "sbx_e63aa77f8c27828cd8b6",
                     *         "clientSecret": "sbx_secret_1r-ao79PULyBMQVt42eXtihdwlYwZfGE"
                     *       },
                     *       "defaultMerchant": {
                     *         "merchantId": 100008,
                     *         "clientId": "49bb0a87-f2e2-404b-a400-6ae7cff7b108"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxCreated"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getSandbox: {
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
                    /**
                     * @example {
                     *       "sandboxId": "sbx_e63aa77f8c27828cd8b6",
                     *       "name": "checkout-tests",
                     *       "createdAt": "2026-11-29T00:36:40.644Z",
                     *       "expiresAt": "2026-11-29T02:36:40.644Z",
                     *       "ttlMs": 7200000,
                     *       "clock": {
                     *         "now": "2026-11-29T00:36:40.648Z",
                     *         "frozen": false,
                     *         "offsetMs": 0
                     *       },
                     *       "settings": {
                     *         "settleDelayMs": 5000,
                     *         "approvalDelayMs": 30000,
                     *         "paymentExpiryMs": 1800000
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Sandbox"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    deleteSandbox: {
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
                    /**
                     * @example {
                     *       "sandboxId": "sbx_e63aa77f8c27828cd8b6",
                     *       "deleted": {
                     *         "merchants": 1,
                     *         "payments": 0,
                     *         "stores": 0,
                     *         "webhooks": 0,
                     *         "events": 0,
                     *         "deliveries": 0,
                     *         "consents": 0,
                     *         "timers": 0,
                     *         "transitions": 1
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxDeleted"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getReadinessReport: {
        parameters: {
            query?: {
                /** @description With X-Obsim-Admin-Key (or on a server without one): the sandbox to report on; without it, the caller's own */
                sandbox?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What the sandbox saw, judged for go-live (docs/readiness.md): each partner-facing operation with the statuses it answered and those not yet met; the states and events reached; smells with the journal entries that prove them (GET /_sandbox/requests/{id}); the checklist and its verdict. Computed from the journal as it is kept: `journal.truncated` says older entries were dropped by the journal's bounds. */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "sandboxId": "sandbox-partner",
                     *       "generatedAt": "2026-11-29T00:36:38.831Z",
                     *       "verdict": "unmet",
                     *       "checklistSource": "default",
                     *       "journal": {
                     *         "entries": 42,
                     *         "truncated": false,
                     *         "faults": 0
                     *       },
                     *       "operations": [
                     *         {
                     *           "operationId": "createMerchant",
                     *           "method": "POST",
                     *           "path": "/v1/partner/merchants",
                     *           "called": true,
                     *           "calls": 2,
                     *           "statuses": {
                     *             "200": 2
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "401",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             31,
                     *             3
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               31,
                     *               3
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "createFastTrackMerchant",
                     *           "method": "POST",
                     *           "path": "/v1/partner/merchants/fast-track",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "401",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             4
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               4
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "createTestMerchant",
                     *           "method": "POST",
                     *           "path": "/v1/partner/merchants/test",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "401",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             2
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               2
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "getMerchantOnboardingStatus",
                     *           "method": "GET",
                     *           "path": "/v1/partner/merchants/{merchantId}/onboarding-status",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "401",
                     *             "404",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             6
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               6
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "listMerchants",
                     *           "method": "GET",
                     *           "path": "/v1/partner/merchants",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "401",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             5
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               5
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "resendMerchantOnboarding",
                     *           "method": "POST",
                     *           "path": "/v1/partner/merchants/{merchantId}/resend-onboarding",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "401",
                     *             "404",
                     *             "409",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             7
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               7
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "createMerchantStore",
                     *           "method": "POST",
                     *           "path": "/v1/partner/merchants/{merchantId}/stores",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "401",
                     *             "429",
                     *             "503",
                     *             "404",
                     *             "409"
                     *           ],
                     *           "evidence": [
                     *             8
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               8
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "createPayment",
                     *           "method": "POST",
                     *           "path": "/v1/partner/payments",
                     *           "called": true,
                     *           "calls": 2,
                     *           "statuses": {
                     *             "200": 2
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "401",
                     *             "429",
                     *             "503",
                     *             "404",
                     *             "409"
                     *           ],
                     *           "evidence": [
                     *             10,
                     *             9
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               10,
                     *               9
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "getPaymentStatus",
                     *           "method": "GET",
                     *           "path": "/v1/partner/payments/{paymentId}/status",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "401",
                     *             "404",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             13
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               13
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "registerWebhook",
                     *           "method": "POST",
                     *           "path": "/v1/partner/webhooks",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "401",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             1
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               1
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "testWebhook",
                     *           "method": "POST",
                     *           "path": "/v1/partner/webhooks/{id}/test",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "401",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             15
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               15
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "generateToken",
                     *           "method": "POST",
                     *           "path": "/v1/auth/generate-token",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "500"
                     *           ],
                     *           "evidence": [
                     *             17
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               17
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "createConsent",
                     *           "method": "POST",
                     *           "path": "/v1/ais/consents",
                     *           "called": true,
                     *           "calls": 2,
                     *           "statuses": {
                     *             "200": 2
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "401",
                     *             "403",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             20,
                     *             18
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               20,
                     *               18
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "listUserConsents",
                     *           "method": "GET",
                     *           "path": "/v1/ais/users/{userId}/consents",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "401",
                     *             "403",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             22
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               22
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "listAccounts",
                     *           "method": "POST",
                     *           "path": "/v1/ais/accounts",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "401",
                     *             "403",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             23
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               23
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "getAccountBalance",
                     *           "method": "POST",
                     *           "path": "/v1/ais/accounts/balance",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "401",
                     *             "403",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             24
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               24
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "listAccountTransactions",
                     *           "method": "POST",
                     *           "path": "/v1/ais/accounts/transactions",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "401",
                     *             "403",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             25
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               25
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "operationId": "listAccountTransactionsInWindow",
                     *           "method": "GET",
                     *           "path": "/v1/ais/accounts/{accountId}/transactions",
                     *           "called": true,
                     *           "calls": 1,
                     *           "statuses": {
                     *             "200": 1
                     *           },
                     *           "unseen": [
                     *             "400",
                     *             "401",
                     *             "403",
                     *             "429",
                     *             "503"
                     *           ],
                     *           "evidence": [
                     *             26
                     *           ],
                     *           "evidenceByStatus": {
                     *             "200": [
                     *               26
                     *             ]
                     *           }
                     *         }
                     *       ],
                     *       "lifecycles": {
                     *         "payments": {
                     *           "reached": {
                     *             "pending": 2,
                     *             "failed": 1,
                     *             "paid": 1
                     *           },
                     *           "unreached": [
                     *             "processing"
                     *           ]
                     *         },
                     *         "failureReasons": {
                     *           "reached": {
                     *             "bank_rejected": 1
                     *           },
                     *           "unreached": [
                     *             "payer_abandoned",
                     *             "expired"
                     *           ]
                     *         },
                     *         "merchants": {
                     *           "reached": {
                     *             "activated": 2,
                     *             "pending_completion": 1,
                     *             "pending_onboarding": 2,
                     *             "inactive": 1,
                     *             "awaiting_approval": 1
                     *           },
                     *           "unreached": [
                     *             "pending_partner_ais",
                     *             "rejected"
                     *           ]
                     *         },
                     *         "consents": {
                     *           "reached": {
                     *             "pending": 2,
                     *             "authorized": 1,
                     *             "failed": 1
                     *           },
                     *           "unreached": [
                     *             "expired",
                     *             "revoked"
                     *           ]
                     *         },
                     *         "transitions": {
                     *           "payments": {
                     *             "created -> pending": 2,
                     *             "pending -> failed (bank_rejected)": 1,
                     *             "pending -> paid": 1
                     *           },
                     *           "merchants": {
                     *             "created -> activated": 2,
                     *             "created -> pending_completion": 1,
                     *             "created -> pending_onboarding": 2,
                     *             "activated -> inactive": 1,
                     *             "pending_onboarding -> awaiting_approval": 1
                     *           },
                     *           "consents": {
                     *             "created -> pending": 2,
                     *             "pending -> authorized": 1,
                     *             "pending -> failed": 1
                     *           }
                     *         },
                     *         "bankRules": {},
                     *         "events": [
                     *           {
                     *             "event": "payment.completed",
                     *             "acknowledged": 1,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "event": "payment.failed",
                     *             "acknowledged": 1,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "event": "merchant.activated",
                     *             "acknowledged": 1,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "event": "merchant.deactivated",
                     *             "acknowledged": 2,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "event": "merchant.onboarding.completed",
                     *             "acknowledged": 1,
                     *             "failed": 0
                     *           },
                     *           {
                     *             "event": "webhook.test",
                     *             "acknowledged": 1,
                     *             "failed": 0
                     *           }
                     *         ],
                     *         "neverProduced": []
                     *       },
                     *       "smells": [],
                     *       "checklist": [
                     *         {
                     *           "id": "creates_payments",
                     *           "title": "Creates payments",
                     *           "status": "met",
                     *           "because": "POST /v1/partner/payments answered 2xx",
                     *           "evidence": [
                     *             10,
                     *             9
                     *           ]
                     *         },
                     *         {
                     *           "id": "handles_payment_completed",
                     *           "title": "Handles payment.completed",
                     *           "status": "met",
                     *           "because": "1 payment.completed delivery acknowledged with 2xx",
                     *           "evidence": []
                     *         },
                     *         {
                     *           "id": "handles_payment_failed",
                     *           "title": "Handles payment.failed",
                     *           "status": "met",
                     *           "because": "1 payment.failed delivery acknowledged with 2xx",
                     *           "evidence": []
                     *         },
                     *         {
                     *           "id": "handles_merchant_activated",
                     *           "title": "Handles merchant.activated",
                     *           "status": "met",
                     *           "because": "1 merchant.activated delivery acknowledged with 2xx",
                     *           "evidence": []
                     *         },
                     *         {
                     *           "id": "verifies_webhook_signatures",
                     *           "title": "Verifies webhook signatures",
                     *           "status": "met",
                     *           "because": "check-receiver passed against https://partner.example/webhooks/obsim at 2026-11-29T00:36:38.777Z",
                     *           "evidence": []
                     *         },
                     *         {
                     *           "id": "polls_when_delivery_fails",
                     *           "title": "Falls back to polling when a delivery fails",
                     *           "status": "unmet",
                     *           "because": "no payment webhook delivery has failed yet: fail one (a receiver answering 500) and read the status",
                     *           "evidence": []
                     *         },
                     *         {
                     *           "id": "reads_accounts_with_consent",
                     *           "title": "Reads accounts under an authorized consent",
                     *           "status": "met",
                     *           "because": "a consent was authorized and accounts were read",
                     *           "evidence": [
                     *             23,
                     *             24,
                     *             25,
                     *             26
                     *           ]
                     *         },
                     *         {
                     *           "id": "no_smells",
                     *           "title": "Does nothing the report flags",
                     *           "status": "met",
                     *           "because": "no smell found",
                     *           "evidence": []
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxReadinessReport"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
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
    getContractImpact: {
        parameters: {
            query: {
                /** @description The version to upgrade to */
                to: string;
                /** @description With X-Obsim-Admin-Key (or on a server without one): the sandbox whose traffic is read; without it, the caller's own */
                sandbox?: string;
                /** @description json: the document below; markdown: a table for a pull request or a changelog page (text/markdown); junit: one failing test case per touched breaking change (application/xml) */
                format?: "json" | "markdown" | "junit";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The impact report (JSON), or it as Markdown or JUnit XML */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "sandboxId": "sandbox-partner",
                     *       "to": "2027-03-01",
                     *       "generatedAt": "2026-12-07T17:16:52.049Z",
                     *       "traffic": {
                     *         "entries": 3,
                     *         "deliveries": 0,
                     *         "unreadBodies": 0,
                     *         "journalTruncated": false,
                     *         "versions": [
                     *           {
                     *             "name": "base",
                     *             "entries": 3,
                     *             "deliveries": 0
                     *           }
                     *         ],
                     *         "unknownVersions": []
                     *       },
                     *       "touched": [
                     *         {
                     *           "id": "answer-field-removed createPayment 200 /merchantName",
                     *           "kind": "answer-field-removed",
                     *           "breaking": true,
                     *           "rule": "response-required-property-removed",
                     *           "source": "document",
                     *           "description": "createPayment (POST /v1/partner/payments): answer 200 field /merchantName removed",
                     *           "from": "base",
                     *           "evidence": {
                     *             "entries": {
                     *               "count": 1,
                     *               "first": [
                     *                 87
                     *               ]
                     *             }
                     *           },
                     *           "place": "answer",
                     *           "operationId": "createPayment",
                     *           "method": "POST",
                     *           "path": "/v1/partner/payments",
                     *           "status": "200",
                     *           "field": "/merchantName",
                     *           "fromPointer": "/components/schemas/Payment/properties/merchantName"
                     *         },
                     *         {
                     *           "id": "answer-field-added createPayment 200 /paymentReference",
                     *           "kind": "answer-field-added",
                     *           "breaking": false,
                     *           "rule": "response-required-property-added",
                     *           "source": "document",
                     *           "description": "createPayment (POST /v1/partner/payments): new answer 200 field /paymentReference",
                     *           "from": "base",
                     *           "evidence": {
                     *             "entries": {
                     *               "count": 1,
                     *               "first": [
                     *                 87
                     *               ]
                     *             }
                     *           },
                     *           "place": "answer",
                     *           "operationId": "createPayment",
                     *           "method": "POST",
                     *           "path": "/v1/partner/payments",
                     *           "status": "200",
                     *           "field": "/paymentReference",
                     *           "toPointer": "/components/schemas/Payment/properties/paymentReference"
                     *         },
                     *         {
                     *           "id": "enum-value-added createPayment 200 /status \"authorized\"",
                     *           "kind": "enum-value-added",
                     *           "breaking": true,
                     *           "rule": "response-property-enum-value-added",
                     *           "source": "document",
                     *           "description": "createPayment (POST /v1/partner/payments): answer 200 field /status takes the new value \"authorized\"",
                     *           "from": "base",
                     *           "evidence": {
                     *             "entries": {
                     *               "count": 1,
                     *               "first": [
                     *                 87
                     *               ]
                     *             }
                     *           },
                     *           "place": "answer",
                     *           "operationId": "createPayment",
                     *           "method": "POST",
                     *           "path": "/v1/partner/payments",
                     *           "status": "200",
                     *           "field": "/status",
                     *           "value": "authorized",
                     *           "fromPointer": "/components/schemas/Payment/properties/status/enum",
                     *           "toPointer": "/components/schemas/Payment/properties/status/enum/1"
                     *         },
                     *         {
                     *           "id": "answer-field-removed getPaymentStatus 200 /merchantName",
                     *           "kind": "answer-field-removed",
                     *           "breaking": true,
                     *           "rule": "response-required-property-removed",
                     *           "source": "document",
                     *           "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): answer 200 field /merchantName removed",
                     *           "from": "base",
                     *           "evidence": {
                     *             "entries": {
                     *               "count": 1,
                     *               "first": [
                     *                 90
                     *               ]
                     *             }
                     *           },
                     *           "place": "answer",
                     *           "operationId": "getPaymentStatus",
                     *           "method": "GET",
                     *           "path": "/v1/partner/payments/{paymentId}/status",
                     *           "status": "200",
                     *           "field": "/merchantName",
                     *           "fromPointer": "/components/schemas/Payment/properties/merchantName"
                     *         },
                     *         {
                     *           "id": "answer-field-added getPaymentStatus 200 /paymentReference",
                     *           "kind": "answer-field-added",
                     *           "breaking": false,
                     *           "rule": "response-required-property-added",
                     *           "source": "document",
                     *           "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): new answer 200 field /paymentReference",
                     *           "from": "base",
                     *           "evidence": {
                     *             "entries": {
                     *               "count": 1,
                     *               "first": [
                     *                 90
                     *               ]
                     *             }
                     *           },
                     *           "place": "answer",
                     *           "operationId": "getPaymentStatus",
                     *           "method": "GET",
                     *           "path": "/v1/partner/payments/{paymentId}/status",
                     *           "status": "200",
                     *           "field": "/paymentReference",
                     *           "toPointer": "/components/schemas/Payment/properties/paymentReference"
                     *         },
                     *         {
                     *           "id": "enum-value-added getPaymentStatus 200 /status \"authorized\"",
                     *           "kind": "enum-value-added",
                     *           "breaking": true,
                     *           "rule": "response-property-enum-value-added",
                     *           "source": "document",
                     *           "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): answer 200 field /status takes the new value \"authorized\"",
                     *           "from": "base",
                     *           "evidence": {
                     *             "entries": {
                     *               "count": 1,
                     *               "first": [
                     *                 90
                     *               ]
                     *             }
                     *           },
                     *           "place": "answer",
                     *           "operationId": "getPaymentStatus",
                     *           "method": "GET",
                     *           "path": "/v1/partner/payments/{paymentId}/status",
                     *           "status": "200",
                     *           "field": "/status",
                     *           "value": "authorized",
                     *           "fromPointer": "/components/schemas/Payment/properties/status/enum",
                     *           "toPointer": "/components/schemas/Payment/properties/status/enum/1"
                     *         },
                     *         {
                     *           "id": "field-made createPayment /paymentReference",
                     *           "kind": "field-made",
                     *           "breaking": false,
                     *           "rule": "obsim-field-made",
                     *           "source": "switches",
                     *           "description": "createPayment (POST /v1/partner/payments): obsim now sends answer field /paymentReference",
                     *           "from": "base",
                     *           "evidence": {
                     *             "entries": {
                     *               "count": 1,
                     *               "first": [
                     *                 87
                     *               ]
                     *             }
                     *           },
                     *           "place": "answer",
                     *           "operationId": "createPayment",
                     *           "method": "POST",
                     *           "path": "/v1/partner/payments",
                     *           "field": "/paymentReference",
                     *           "toPointer": "/x-obsim/answers/0"
                     *         },
                     *         {
                     *           "id": "field-made getPaymentStatus /paymentReference",
                     *           "kind": "field-made",
                     *           "breaking": false,
                     *           "rule": "obsim-field-made",
                     *           "source": "switches",
                     *           "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): obsim now sends answer field /paymentReference",
                     *           "from": "base",
                     *           "evidence": {
                     *             "entries": {
                     *               "count": 1,
                     *               "first": [
                     *                 90
                     *               ]
                     *             }
                     *           },
                     *           "place": "answer",
                     *           "operationId": "getPaymentStatus",
                     *           "method": "GET",
                     *           "path": "/v1/partner/payments/{paymentId}/status",
                     *           "field": "/paymentReference",
                     *           "toPointer": "/x-obsim/answers/1"
                     *         },
                     *         {
                     *           "id": "field-no-longer-sent createPayment /merchantName",
                     *           "kind": "field-no-longer-sent",
                     *           "breaking": true,
                     *           "rule": "obsim-field-no-longer-sent",
                     *           "source": "switches",
                     *           "description": "createPayment (POST /v1/partner/payments): obsim no longer sends answer field /merchantName",
                     *           "from": "base",
                     *           "evidence": {
                     *             "entries": {
                     *               "count": 1,
                     *               "first": [
                     *                 87
                     *               ]
                     *             }
                     *           },
                     *           "place": "answer",
                     *           "operationId": "createPayment",
                     *           "method": "POST",
                     *           "path": "/v1/partner/payments",
                     *           "field": "/merchantName",
                     *           "toPointer": "/x-obsim/answers/3"
                     *         },
                     *         {
                     *           "id": "field-no-longer-sent getPaymentStatus /merchantName",
                     *           "kind": "field-no-longer-sent",
                     *           "breaking": true,
                     *           "rule": "obsim-field-no-longer-sent",
                     *           "source": "switches",
                     *           "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): obsim no longer sends answer field /merchantName",
                     *           "from": "base",
                     *           "evidence": {
                     *             "entries": {
                     *               "count": 1,
                     *               "first": [
                     *                 90
                     *               ]
                     *             }
                     *           },
                     *           "place": "answer",
                     *           "operationId": "getPaymentStatus",
                     *           "method": "GET",
                     *           "path": "/v1/partner/payments/{paymentId}/status",
                     *           "field": "/merchantName",
                     *           "toPointer": "/x-obsim/answers/4"
                     *         }
                     *       ],
                     *       "breaking": 6,
                     *       "untouched": {
                     *         "count": 10,
                     *         "breaking": 2
                     *       },
                     *       "verdict": "breaking"
                     *     }
                     */
                    "application/json": components["schemas"]["ContractImpact"];
                    "text/markdown": string;
                    "application/xml": string;
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
            "4XX": {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                    "text/markdown": components["schemas"]["ErrorBody"];
                    "application/xml": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
            "5XX": {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                    "text/markdown": components["schemas"]["ErrorBody"];
                    "application/xml": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getScenarioDraft: {
        parameters: {
            query?: {
                /** @description With X-Obsim-Admin-Key (or on a server without one): the sandbox to record; without it, the caller's own */
                sandbox?: string;
                /** @description A journal entry id (an integer, as `id` in GET /_sandbox/requests) or an entry's `requestId` (its x-request-id), inclusive; or an ISO 8601 instant on the sandbox clock: record from here on */
                since?: string;
                /** @description A journal entry id (an integer, as `id` in GET /_sandbox/requests) or an entry's `requestId` (its x-request-id), inclusive; or an ISO 8601 instant on the sandbox clock: record up to here */
                until?: string;
                /** @description The scenario's name (default recorded-<sandbox id>) */
                name?: string;
                /** @description yaml: the scenario file itself (application/yaml). json: the file with the number of steps, what was read and the warnings (SandboxScenarioDraft). */
                format?: "yaml" | "json";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The scenario file (format=yaml), or it with what was recorded (format=json) */
            200: {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/yaml": string;
                    /**
                     * @example {
                     *       "yaml": "# Recorded by obsim from sandbox sandbox-partner, journal entries #10–#10 (2026-03-02T09:30:00.000Z → 2026-03-02T09:30:00.000Z on its clock).\n# Deliveries to webhooks registered before the recorded range are not expected (a scenario can only watch webhooks it registers): merchant.activated (delivery 1), payment.failed (delivery 2), payment.completed (delivery 3), webhook.test (delivery 4).\n\nname: one-payment\ndescription: \"Recorded from sandbox sandbox-partner, journal entries #10–#10 (2026-03-02T09:30:00.000Z → 2026-03-02T09:30:00.000Z on its clock).\"\ntags:\n  - recorded\nsteps:\n  - request:\n      method: POST\n      path: /v1/partner/payments\n      body:\n        merchantClientId: 31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd\n        amount: 89\n        referenceNumber: order-1002\n      expect:\n        status: 200\n        body:\n          status: pending\n          bankPaymentStatus: Pending\n          failureReason: null\n",
                     *       "steps": 1,
                     *       "warnings": [
                     *         "Deliveries to webhooks registered before the recorded range are not expected (a scenario can only watch webhooks it registers): merchant.activated (delivery 1), payment.failed (delivery 2), payment.completed (delivery 3), webhook.test (delivery 4)."
                     *       ],
                     *       "entries": 1,
                     *       "deliveries": 4
                     *     }
                     */
                    "application/json": components["schemas"]["SandboxScenarioDraft"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
            "4XX": {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/yaml": components["schemas"]["ErrorBody"];
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The one error body of every obsim endpoint (the contract does not show one). `code` is stable and machine-readable; `field` and `in` say where the problem is when it is in one place. */
            "5XX": {
                headers: {
                    /** @description The request id: the x-request-id request header when it was sent and is 1-128 characters from A-Z a-z 0-9 . _ : -, otherwise a generated req_<24 hex>. Also the requestId of an ErrorBody. */
                    "x-request-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/yaml": components["schemas"]["ErrorBody"];
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    onPaymentCompleted: {
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
                /**
                 * @example {
                 *       "event": "payment.completed",
                 *       "timestamp": "2026-03-02T09:30:00.000Z",
                 *       "data": {
                 *         "paymentId": 5000001,
                 *         "referenceNumber": "order-1001",
                 *         "status": "paid",
                 *         "amount": 149.95,
                 *         "currency": "DKK",
                 *         "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                 *         "merchantName": "Nørrebro Kaffe ApS",
                 *         "bankPaymentStatus": "AcceptedSettlementCompleted",
                 *         "timestamp": "2026-03-02T09:30:00.000Z"
                 *       }
                 *     }
                 */
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
    onPaymentFailed: {
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
                /**
                 * @example {
                 *       "event": "payment.failed",
                 *       "timestamp": "2026-03-02T09:30:00.000Z",
                 *       "data": {
                 *         "paymentId": 5000002,
                 *         "referenceNumber": "order-1002",
                 *         "status": "failed",
                 *         "amount": 89,
                 *         "currency": "DKK",
                 *         "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                 *         "merchantName": "Nørrebro Kaffe ApS",
                 *         "bankPaymentStatus": "Rejected",
                 *         "timestamp": "2026-03-02T09:30:00.000Z",
                 *         "failureReason": "bank_rejected"
                 *       }
                 *     }
                 */
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
    onMerchantActivated: {
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
                /**
                 * @example {
                 *       "event": "merchant.activated",
                 *       "timestamp": "2026-03-02T09:30:00.000Z",
                 *       "data": {
                 *         "merchantId": 100002,
                 *         "clientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                 *         "companyName": "Nørrebro Kaffe ApS",
                 *         "status": "active",
                 *         "previousStatus": "pending_onboarding",
                 *         "timestamp": "2026-03-02T09:30:00.000Z"
                 *       }
                 *     }
                 */
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
    onMerchantDeactivated: {
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
                /**
                 * @example {
                 *       "event": "merchant.deactivated",
                 *       "timestamp": "2026-03-02T09:40:00.003Z",
                 *       "data": {
                 *         "merchantId": 100002,
                 *         "clientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
                 *         "companyName": "Nørrebro Kaffe ApS",
                 *         "status": "inactive",
                 *         "previousStatus": "active",
                 *         "timestamp": "2026-03-02T09:40:00.003Z"
                 *       }
                 *     }
                 */
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
    onMerchantOnboardingCompleted: {
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
                /**
                 * @example {
                 *       "event": "merchant.onboarding.completed",
                 *       "timestamp": "2026-03-02T09:40:00.003Z",
                 *       "data": {
                 *         "merchantId": 100005,
                 *         "clientId": "5cabaeb2-3613-4490-8494-f9ac0b330678",
                 *         "companyName": "Frederiksberg Blomster ApS",
                 *         "status": "awaiting_approval",
                 *         "previousStatus": "pending_onboarding",
                 *         "timestamp": "2026-03-02T09:40:00.003Z"
                 *       }
                 *     }
                 */
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
    onWebhookTest: {
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
                /**
                 * @example {
                 *       "event": "webhook.test",
                 *       "timestamp": "2026-03-02T09:30:00.000Z",
                 *       "data": {
                 *         "webhookId": "wh_ac41e9c7f3777792bb08fba5",
                 *         "message": "This is a test delivery from obsim. Verify X-Webhook-Signature with your webhook secret.",
                 *         "timestamp": "2026-03-02T09:30:00.000Z"
                 *       }
                 *     }
                 */
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
