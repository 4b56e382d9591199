/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/journal/large-bodies.test.ts > TAP > a 100-transaction page is read back byte for byte: the entry, verify, and after a restart > the entry (two of its transactions) 1`] = `
Object {
  "at": "2026-01-15T09:00:00.000Z",
  "headers": Object {
    "authorization": "Bearer [redacted]",
    "content-length": "100",
    "content-type": "application/json",
    "user-agent": "lightMyRequest",
  },
  "id": 6,
  "method": "POST",
  "path": "/v1/ais/accounts/transactions",
  "query": Object {},
  "requestBody": Object {
    "accountId": "acc_54f63f3095e9a20a1475",
    "merchantId": "<merchantId>",
    "pageLimit": 100,
    "userId": "user-typical",
  },
  "requestBodyTruncated": false,
  "requestId": "<requestId>",
  "resources": Object {},
  "responseBody": Object {
    "accountId": "acc_54f63f3095e9a20a1475",
    "merchantId": "<merchantId>",
    "pageLimit": 100,
    "totalTransactions": 320,
    "transactions": Array [
      Object {
        "amount": "680.54",
        "bookingDate": "2026-01-14T11:36:53.804Z",
        "counterparty": Object {
          "iban": "DK4924709880931046",
          "name": "Windler Group",
        },
        "currency": "DKK",
        "description": "Card purchase Windler Group",
        "reference": "CARD-3078-729013",
        "status": "pending",
        "transactionId": "txn_54f63f3095e9_000320",
        "type": "debit",
        "valueDate": "2026-01-14T11:36:53.804Z",
      },
      Object {
        "amount": "1334.70",
        "bookingDate": "2026-01-12T05:01:18.045Z",
        "counterparty": Object {
          "iban": "DK0324701647044485",
          "name": "Nicolas - Kessler",
        },
        "currency": "DKK",
        "description": "Card purchase Nicolas - Kessler",
        "reference": "CARD-6398-881401",
        "status": "booked",
        "transactionId": "txn_54f63f3095e9_000319",
        "type": "debit",
        "valueDate": "2026-01-12T05:01:18.045Z",
      },
    ],
    "userId": "user-typical",
  },
  "responseBodyTruncated": false,
  "status": 200,
}
`
