/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/routes/ais/accounts.test.ts > TAP > POST /v1/ais/accounts returns the envelope with every Account field > accounts of user-typical 1`] = `
Object {
  "accounts": Array [
    Object {
      "accountDetails": Object {
        "bankName": "Nordlys Bank",
        "bban": "24703628921513",
        "bic": "NLYSDKKKXXX",
        "openedDate": "2021-07-19",
        "ownerType": "private",
        "productName": "Everyday Account",
      },
      "accountHolderName": "Sheri Bartell",
      "accountId": "acc_54f63f3095e9a20a1475",
      "accountType": "current",
      "balance": "7204.90",
      "bankId": "nordlys-bank",
      "currency": "DKK",
      "iban": "DK6824703628921513",
    },
    Object {
      "accountDetails": Object {
        "bankName": "Nordlys Bank",
        "bban": "24707131145376",
        "bic": "NLYSDKKKXXX",
        "openedDate": "2018-06-18",
        "ownerType": "private",
        "productName": "High Interest Savings",
      },
      "accountHolderName": "Sheri Bartell",
      "accountId": "acc_a4ba4793c7fd525c00f0",
      "accountType": "savings",
      "balance": "189072.58",
      "bankId": "nordlys-bank",
      "currency": "DKK",
      "iban": "DK1624707131145376",
    },
    Object {
      "accountDetails": Object {
        "bankName": "Fjord Sparekasse",
        "bban": "91350197224183",
        "bic": "FJSPDK22XXX",
        "openedDate": "2023-07-27",
        "ownerType": "private",
        "productName": "Fjord Mastercard",
      },
      "accountHolderName": "Sheri Bartell",
      "accountId": "acc_249c4ebe5224190b1b81",
      "accountType": "credit_card",
      "balance": "-3121.75",
      "bankId": "fjord-sparekasse",
      "currency": "DKK",
      "iban": "DK3191350197224183",
    },
  ],
  "clientId": "<clientId>",
  "consentId": "<consentId>",
  "merchantId": "<merchantId>",
  "totalAccounts": 3,
  "userId": "user-typical",
}
`

exports[`test/routes/ais/accounts.test.ts > TAP > POST /v1/ais/accounts/balance > balance 1`] = `
Object {
  "accountDetails": Object {
    "accountHolderName": "Sheri Bartell",
    "bankId": "nordlys-bank",
    "iban": "DK6824703628921513",
  },
  "accountId": "acc_54f63f3095e9a20a1475",
  "balance": Object {
    "currency": "DKK",
    "lastUpdated": "2026-01-15T00:00:00.000Z",
    "value": "7204.90",
  },
  "merchantId": "<merchantId>",
  "userId": "user-typical",
}
`

exports[`test/routes/ais/accounts.test.ts > TAP > POST /v1/ais/accounts/transactions: paging, filters, consent window, newest first > transactions page 1`] = `
Object {
  "accountId": "acc_54f63f3095e9a20a1475",
  "merchantId": "<merchantId>",
  "pageLimit": 5,
  "totalTransactions": 27,
  "transactions": Array [
    Object {
      "amount": "1949.34",
      "bookingDate": "2025-09-28T19:54:08.802Z",
      "counterparty": Object {
        "iban": "DK0924706889495028",
        "name": "Eddie Wintheiser",
      },
      "currency": "DKK",
      "description": "Transfer from Eddie Wintheiser",
      "reference": "TRF81468030",
      "status": "booked",
      "transactionId": "txn_54f63f3095e9_000244",
      "type": "credit",
      "valueDate": "2025-09-28T19:54:08.802Z",
    },
    Object {
      "amount": "7951.61",
      "bookingDate": "2025-09-28T18:59:48.004Z",
      "counterparty": Object {
        "iban": "DK9024705030864930",
        "name": "Manor Close Housing",
      },
      "currency": "DKK",
      "description": "Rent Manor Close Housing",
      "reference": "RENT 2025-09",
      "status": "booked",
      "transactionId": "txn_54f63f3095e9_000243",
      "type": "debit",
      "valueDate": "2025-09-28T18:59:48.004Z",
    },
  ],
  "userId": "user-typical",
}
`
