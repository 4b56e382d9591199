/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/routes/ais/consents.test.ts > TAP > POST /v1/ais/consents creates a pending consent with an authorization URL > created consent 1`] = `
Object {
  "authorizationUrl": "http://127.0.0.1:4010/consent/<token>",
  "createdAt": "2026-01-15T09:00:00.000Z",
  "expirationDateTime": "2026-04-15T07:00:00.000Z",
  "merchantId": "<merchantId>",
  "permissions": Array [
    "ReadAccountsDetail",
    "ReadBalances",
  ],
  "requestId": "<requestId>",
  "status": "pending",
  "transactionFromDateTime": "2025-07-01T00:00:00.000Z",
  "updatedAt": "2026-01-15T09:00:00.000Z",
  "userId": "user-typical",
}
`
