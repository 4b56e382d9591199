/* Generated from a scripted session by scripts/openapi-examples.ts (npm run openapi:examples). Do not edit. */
/** Request and response examples of the OpenAPI documents, by operationId: answers obsim really gave. */
export const OPERATION_EXAMPLES: Record<string, { request?: unknown; response?: unknown }> = {
  "getHealth": {
    "response": {
      "status": "ok",
      "environment": "sandbox",
      "time": "2026-03-02T09:30:00.000Z"
    }
  },
  "registerWebhook": {
    "request": {
      "url": "https://partner.example/webhooks/obsim",
      "events": [
        "payment.completed",
        "payment.failed",
        "merchant.activated",
        "merchant.deactivated",
        "merchant.onboarding.completed"
      ]
    },
    "response": {
      "id": "wh_dce115d0a4476cd70ec80aa2",
      "url": "https://partner.example/webhooks/obsim",
      "events": [
        "payment.completed",
        "payment.failed",
        "merchant.activated",
        "merchant.deactivated",
        "merchant.onboarding.completed"
      ],
      "secret": "whsec_67d92e7ecfd68125ef604991f27791e7448fe1a86fb8e57d",
      "createdAt": "2026-03-02T09:30:00.000Z"
    }
  },
  "createTestMerchant": {
    "request": {
      "companyName": "Nørrebro Kaffe ApS"
    },
    "response": {
      "merchantId": 100002,
      "clientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
      "companyName": "Nørrebro Kaffe ApS",
      "status": "activated",
      "message": "Test merchant created and activated: it can accept payments at once (sandbox only)."
    }
  },
  "createMerchant": {
    "request": {
      "companyName": "Vesterbro Cykler ApS",
      "contactEmail": "ejer@vesterbrocykler.dk",
      "contactPhone": "+4531234567",
      "partnerRefId": "crm-20931"
    },
    "response": {
      "merchantId": 100003,
      "clientId": "59fe372f-32fe-47b8-b031-d1cacf78ec66",
      "companyName": "Vesterbro Cykler ApS",
      "contactEmail": "ejer@vesterbrocykler.dk",
      "onboardingUrl": "http://localhost:4010/onboarding/onb_gpBcLaaiZQMXoq0EmMAfq_YY",
      "onboardingToken": "onb_gpBcLaaiZQMXoq0EmMAfq_YY",
      "status": "pending_onboarding",
      "expiresAt": "2026-03-09T09:30:00.000Z"
    }
  },
  "createFastTrackMerchant": {
    "request": {
      "companyName": "Amager Bageri ApS",
      "contactEmail": "kontakt@amagerbageri.dk",
      "registrationNumber": "38291045",
      "website": "https://amagerbageri.dk",
      "iban": "DK5000400440116243"
    },
    "response": {
      "merchantId": 100004,
      "clientId": "d30592e3-15e3-499d-a7f4-853129931d35",
      "companyName": "Amager Bageri ApS",
      "contactEmail": "kontakt@amagerbageri.dk",
      "subTppStatus": "created",
      "subTppMessage": null,
      "onboardingUrl": "http://localhost:4010/onboarding/onb_db_t-DNkcW2EkyGDXwKLjBes",
      "onboardingToken": "onb_db_t-DNkcW2EkyGDXwKLjBes",
      "status": "pending_partner_ais",
      "expiresAt": "2026-03-09T09:30:00.000Z",
      "subTppId": "stpp_bc6b9e7ad41c82243f37"
    }
  },
  "listMerchants": {
    "response": {
      "items": [
        {
          "merchantId": 100001,
          "clientId": "5a58ce53-e5bb-4acb-8952-17783eaa9a82",
          "companyName": "obsim Default Merchant ApS",
          "type": "test",
          "status": "activated",
          "subTppStatus": "active",
          "createdAt": "2026-03-02T09:30:00.000Z",
          "updatedAt": "2026-03-02T09:30:00.000Z",
          "contactEmail": "merchant@obsim.test",
          "partnerRefId": "obsim-default-merchant",
          "subTppId": "stpp_9c84d7f1d621a4e333a1"
        },
        {
          "merchantId": 100002,
          "clientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
          "companyName": "Nørrebro Kaffe ApS",
          "type": "test",
          "status": "activated",
          "subTppStatus": "active",
          "createdAt": "2026-03-02T09:30:00.000Z",
          "updatedAt": "2026-03-02T09:30:00.000Z",
          "subTppId": "stpp_df73f6e563311091523e"
        }
      ],
      "page": 1,
      "limit": 2,
      "total": 4
    }
  },
  "getMerchantOnboardingStatus": {
    "response": {
      "merchantId": 100002,
      "onboardingStatus": "activated",
      "subTppDetails": {
        "status": "active",
        "isActivated": true
      },
      "subTppId": "stpp_df73f6e563311091523e"
    }
  },
  "resendMerchantOnboarding": {
    "response": {
      "merchantId": 100004,
      "onboardingUrl": "http://localhost:4010/onboarding/onb_2zxq-1t-RQSTCxlym8EOJbDK",
      "onboardingToken": "onb_2zxq-1t-RQSTCxlym8EOJbDK",
      "expiresAt": "2026-03-09T09:30:00.000Z",
      "status": "pending_completion"
    }
  },
  "createMerchantStore": {
    "request": {
      "name": "Nørrebrogade 12",
      "mccCode": "5814"
    },
    "response": {
      "storeId": 1,
      "merchantId": 100002,
      "name": "Nørrebrogade 12",
      "address": null,
      "mccCode": "5814",
      "partnerRefId": null,
      "createdAt": "2026-03-02T09:30:00.000Z"
    }
  },
  "createPayment": {
    "request": {
      "merchantClientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
      "amount": 149.95,
      "referenceNumber": "order-1001"
    },
    "response": {
      "paymentId": 5000001,
      "status": "pending",
      "bankPaymentStatus": "Pending",
      "failureReason": null,
      "amount": 149.95,
      "currency": "DKK",
      "referenceNumber": "order-1001",
      "merchantClientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
      "merchantName": "Nørrebro Kaffe ApS",
      "paymentUrl": "http://localhost:4010/pay/pay_5000001_cYAGGUT1jM3jbFIKFZ9Qmb",
      "createdAt": "2026-03-02T09:30:00.000Z",
      "updatedAt": "2026-03-02T09:30:00.000Z",
      "expiresAt": "2026-03-02T10:00:00.000Z"
    }
  },
  "controlPayment": {
    "request": {
      "reason": "bank_rejected"
    },
    "response": {
      "paymentId": 5000002,
      "status": "failed",
      "bankPaymentStatus": "Rejected",
      "failureReason": "bank_rejected",
      "amount": 89,
      "currency": "DKK",
      "referenceNumber": "order-1002",
      "merchantClientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
      "merchantName": "Nørrebro Kaffe ApS",
      "paymentUrl": "http://localhost:4010/pay/pay_5000002_yTnRlUcoAc9jHxBJB8zq-1",
      "createdAt": "2026-03-02T09:30:00.000Z",
      "updatedAt": "2026-03-02T09:30:00.000Z",
      "expiresAt": "2026-03-02T10:00:00.000Z"
    }
  },
  "getPaymentStatus": {
    "response": {
      "paymentId": 5000001,
      "status": "paid",
      "bankPaymentStatus": "AcceptedSettlementCompleted",
      "failureReason": null,
      "amount": 149.95,
      "currency": "DKK",
      "referenceNumber": "order-1001",
      "merchantClientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
      "merchantName": "Nørrebro Kaffe ApS",
      "paymentUrl": "http://localhost:4010/pay/pay_5000001_cYAGGUT1jM3jbFIKFZ9Qmb",
      "createdAt": "2026-03-02T09:30:00.000Z",
      "updatedAt": "2026-03-02T09:30:00.000Z",
      "expiresAt": "2026-03-02T10:00:00.000Z"
    }
  },
  "listSandboxWebhooks": {
    "response": {
      "items": [
        {
          "id": "wh_dce115d0a4476cd70ec80aa2",
          "url": "https://partner.example/webhooks/obsim",
          "events": [
            "payment.completed",
            "payment.failed",
            "merchant.activated",
            "merchant.deactivated",
            "merchant.onboarding.completed"
          ],
          "secret": "whsec_67d92e7ecfd68125ef604991f27791e7448fe1a86fb8e57d",
          "createdAt": "2026-03-02T09:30:00.000Z"
        }
      ]
    }
  },
  "testWebhook": {
    "response": {
      "webhookId": "wh_dce115d0a4476cd70ec80aa2",
      "eventId": "evt_01a21567cd47bbba41d77836",
      "deliveryId": 4,
      "status": "queued"
    }
  },
  "generateToken": {
    "request": {
      "userId": "user-typical",
      "merchantId": 100002,
      "permissions": [
        "ais:accounts:read",
        "ais:balance:read",
        "ais:transactions:read"
      ]
    },
    "response": {
      "token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJtZXJjaGFudElkIjoxMDAwMDIsInBlcm1pc3Npb25zIjpbImFpczphY2NvdW50czpyZWFkIiwiYWlzOmJhbGFuY2U6cmVhZCIsImFpczp0cmFuc2FjdGlvbnM6cmVhZCJdLCJzdWIiOiJ1c2VyLXR5cGljYWwiLCJpc3MiOiJvYnNpbS1zYW5kYm94IiwiYXVkIjoib2JzaW0tYWlzIiwiaWF0IjoxNzcyNDQzODAwLCJleHAiOjE3NzI0NDc0MDAsImp0aSI6IjMwMTcyNGViLWJlMGUtNGFhYi05ZjY2LTRlNWUxNDQzOGMwMCJ9.d4osJCwaJKMsgUCMeekpw8aGP6tPkB-1RzXqVOKu6cE"
    }
  },
  "createConsent": {
    "request": {
      "userId": "user-typical",
      "merchantId": 100002,
      "permissions": [
        "ReadAccountsDetail",
        "ReadBalances",
        "ReadTransactionsDetail"
      ],
      "expirationDateTime": "2026-06-01T00:00:00.000Z",
      "transactionFromDateTime": "2025-03-01T00:00:00.000Z"
    },
    "response": {
      "merchantId": 100002,
      "userId": "user-typical",
      "permissions": [
        "ReadAccountsDetail",
        "ReadBalances",
        "ReadTransactionsDetail"
      ],
      "expirationDateTime": "2026-06-01T00:00:00.000Z",
      "transactionFromDateTime": "2025-03-01T00:00:00.000Z",
      "requestId": "2e493160-b40f-409c-bc6c-cd4e027a3e6e",
      "status": "pending",
      "createdAt": "2026-03-02T09:30:00.000Z",
      "updatedAt": "2026-03-02T09:30:00.000Z",
      "authorizationUrl": "http://localhost:4010/consent/ctk_XZiPNP8As8N-d4bvc-x2iftr9oPE8m1y"
    }
  },
  "controlConsent": {
    "request": {
      "errorMessage": "The user cancelled at the bank"
    },
    "response": {
      "merchantId": 100002,
      "userId": "user-typical",
      "permissions": [
        "ReadAccountsDetail",
        "ReadBalances",
        "ReadTransactionsDetail"
      ],
      "expirationDateTime": "2026-06-01T00:00:00.000Z",
      "transactionFromDateTime": "2025-03-01T00:00:00.000Z",
      "requestId": "2e493160-b40f-409c-bc6c-cd4e027a3e6e",
      "status": "failed",
      "createdAt": "2026-03-02T09:30:00.000Z",
      "updatedAt": "2026-03-02T09:30:00.000Z",
      "errorMessage": "The user cancelled at the bank"
    }
  },
  "listUserConsents": {
    "response": [
      {
        "merchantId": 100002,
        "userId": "user-typical",
        "permissions": [
          "ReadAccountsDetail",
          "ReadBalances",
          "ReadTransactionsDetail"
        ],
        "expirationDateTime": "2026-06-01T00:00:00.000Z",
        "transactionFromDateTime": "2025-03-01T00:00:00.000Z",
        "requestId": "af2bdac9-df1f-497e-83d9-a21dd954a77a",
        "status": "authorized",
        "createdAt": "2026-03-02T09:30:00.000Z",
        "updatedAt": "2026-03-02T09:30:00.000Z",
        "consentId": "cns_374e208537cd44f6a5d3cfe044ca9574"
      },
      {
        "merchantId": 100002,
        "userId": "user-typical",
        "permissions": [
          "ReadAccountsDetail",
          "ReadBalances",
          "ReadTransactionsDetail"
        ],
        "expirationDateTime": "2026-06-01T00:00:00.000Z",
        "transactionFromDateTime": "2025-03-01T00:00:00.000Z",
        "requestId": "2e493160-b40f-409c-bc6c-cd4e027a3e6e",
        "status": "failed",
        "createdAt": "2026-03-02T09:30:00.000Z",
        "updatedAt": "2026-03-02T09:30:00.000Z",
        "errorMessage": "The user cancelled at the bank"
      }
    ]
  },
  "listAccounts": {
    "request": {
      "userId": "user-typical",
      "merchantId": 100002
    },
    "response": {
      "userId": "user-typical",
      "merchantId": 100002,
      "clientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
      "consentId": "cns_374e208537cd44f6a5d3cfe044ca9574",
      "accounts": [
        {
          "accountId": "acc_54f63f3095e9a20a1475",
          "bankId": "nordlys-bank",
          "accountHolderName": "Sheri Bartell",
          "iban": "DK6824703628921513",
          "currency": "DKK",
          "balance": "7204.90",
          "accountType": "current",
          "accountDetails": {
            "bankName": "Nordlys Bank",
            "bic": "NLYSDKKKXXX",
            "bban": "24703628921513",
            "productName": "Everyday Account",
            "ownerType": "private",
            "openedDate": "2021-09-03"
          }
        },
        {
          "accountId": "acc_a4ba4793c7fd525c00f0",
          "bankId": "nordlys-bank",
          "accountHolderName": "Sheri Bartell",
          "iban": "DK1624707131145376",
          "currency": "DKK",
          "balance": "189072.58",
          "accountType": "savings",
          "accountDetails": {
            "bankName": "Nordlys Bank",
            "bic": "NLYSDKKKXXX",
            "bban": "24707131145376",
            "productName": "High Interest Savings",
            "ownerType": "private",
            "openedDate": "2018-08-03"
          }
        },
        {
          "accountId": "acc_249c4ebe5224190b1b81",
          "bankId": "fjord-sparekasse",
          "accountHolderName": "Sheri Bartell",
          "iban": "DK3191350197224183",
          "currency": "DKK",
          "balance": "-3121.75",
          "accountType": "credit_card",
          "accountDetails": {
            "bankName": "Fjord Sparekasse",
            "bic": "FJSPDK22XXX",
            "bban": "91350197224183",
            "productName": "Fjord Mastercard",
            "ownerType": "private",
            "openedDate": "2023-09-11"
          }
        }
      ],
      "totalAccounts": 3
    }
  },
  "getAccountBalance": {
    "request": {
      "userId": "user-typical",
      "merchantId": 100002,
      "accountId": "acc_54f63f3095e9a20a1475"
    },
    "response": {
      "userId": "user-typical",
      "merchantId": 100002,
      "accountId": "acc_54f63f3095e9a20a1475",
      "balance": {
        "value": "7204.90",
        "currency": "DKK",
        "lastUpdated": "2026-03-02T00:00:00.000Z"
      },
      "accountDetails": {
        "iban": "DK6824703628921513",
        "accountHolderName": "Sheri Bartell",
        "bankId": "nordlys-bank"
      }
    }
  },
  "listAccountTransactions": {
    "request": {
      "userId": "user-typical",
      "merchantId": 100002,
      "accountId": "acc_54f63f3095e9a20a1475",
      "pageLimit": 2
    },
    "response": {
      "userId": "user-typical",
      "merchantId": 100002,
      "accountId": "acc_54f63f3095e9a20a1475",
      "totalTransactions": 320,
      "pageLimit": 2,
      "transactions": [
        {
          "transactionId": "txn_54f63f3095e9_000320",
          "amount": "680.54",
          "currency": "DKK",
          "description": "Card purchase Windler Group",
          "bookingDate": "2026-03-01T11:36:53.804Z",
          "valueDate": "2026-03-01T11:36:53.804Z",
          "counterparty": {
            "name": "Windler Group",
            "iban": "DK4924709880931046"
          },
          "reference": "CARD-3078-729013",
          "type": "debit",
          "status": "pending"
        },
        {
          "transactionId": "txn_54f63f3095e9_000319",
          "amount": "1334.70",
          "currency": "DKK",
          "description": "Card purchase Nicolas - Kessler",
          "bookingDate": "2026-02-27T05:01:18.045Z",
          "valueDate": "2026-02-27T05:01:18.045Z",
          "counterparty": {
            "name": "Nicolas - Kessler",
            "iban": "DK0324701647044485"
          },
          "reference": "CARD-6398-881401",
          "type": "debit",
          "status": "booked"
        }
      ]
    }
  },
  "listAccountTransactionsInWindow": {
    "response": [
      {
        "transactionId": "txn_54f63f3095e9_000320",
        "amount": "680.54",
        "currency": "DKK",
        "description": "Card purchase Windler Group",
        "bookingDate": "2026-03-01T11:36:53.804Z",
        "valueDate": "2026-03-01T11:36:53.804Z",
        "counterparty": {
          "name": "Windler Group",
          "iban": "DK4924709880931046"
        },
        "reference": "CARD-3078-729013",
        "type": "debit",
        "status": "pending"
      },
      {
        "transactionId": "txn_54f63f3095e9_000319",
        "amount": "1334.70",
        "currency": "DKK",
        "description": "Card purchase Nicolas - Kessler",
        "bookingDate": "2026-02-27T05:01:18.045Z",
        "valueDate": "2026-02-27T05:01:18.045Z",
        "counterparty": {
          "name": "Nicolas - Kessler",
          "iban": "DK0324701647044485"
        },
        "reference": "CARD-6398-881401",
        "type": "debit",
        "status": "booked"
      },
      {
        "transactionId": "txn_54f63f3095e9_000318",
        "amount": "817.64",
        "currency": "DKK",
        "description": "Card purchase Johnson LLC",
        "bookingDate": "2026-02-24T08:31:00.343Z",
        "valueDate": "2026-02-24T08:31:00.343Z",
        "counterparty": {
          "name": "Johnson LLC",
          "iban": "DK6524708933074500"
        },
        "reference": "CARD-9021-779569",
        "type": "debit",
        "status": "booked"
      },
      {
        "transactionId": "txn_54f63f3095e9_000317",
        "amount": "823.60",
        "currency": "DKK",
        "description": "Card purchase Monahan, Rosenbaum and Hessel",
        "bookingDate": "2026-02-23T08:00:37.618Z",
        "valueDate": "2026-02-22T08:00:37.618Z",
        "counterparty": {
          "name": "Monahan, Rosenbaum and Hessel",
          "iban": "DK2524702791768928"
        },
        "reference": "CARD-0638-262478",
        "type": "debit",
        "status": "booked"
      },
      {
        "transactionId": "txn_54f63f3095e9_000316",
        "amount": "1426.92",
        "currency": "DKK",
        "description": "Card purchase Farrell LLC",
        "bookingDate": "2026-02-22T22:25:29.789Z",
        "valueDate": "2026-02-22T22:25:29.789Z",
        "counterparty": {
          "name": "Farrell LLC",
          "iban": "DK6024706493116220"
        },
        "reference": "CARD-6411-343506",
        "type": "debit",
        "status": "booked"
      },
      {
        "transactionId": "txn_54f63f3095e9_000315",
        "amount": "810.37",
        "currency": "DKK",
        "description": "Card purchase Windler Group",
        "bookingDate": "2026-02-21T06:31:57.279Z",
        "valueDate": "2026-02-21T06:31:57.279Z",
        "counterparty": {
          "name": "Windler Group",
          "iban": "DK4924709880931046"
        },
        "reference": "CARD-9026-646797",
        "type": "debit",
        "status": "booked"
      }
    ]
  },
  "getClock": {
    "response": {
      "now": "2026-03-02T09:30:00.000Z",
      "frozen": true,
      "offsetMs": 0
    }
  },
  "resumeClock": {
    "request": {},
    "response": {
      "now": "2026-03-02T09:30:00.000Z",
      "frozen": false,
      "offsetMs": -23211654379
    }
  },
  "freezeClock": {
    "request": {},
    "response": {
      "now": "2026-03-02T09:30:00.002Z",
      "frozen": true,
      "offsetMs": -23211654379
    }
  },
  "advanceClock": {
    "request": {
      "duration": "10m"
    },
    "response": {
      "now": "2026-03-02T09:40:00.002Z",
      "fired": 0
    }
  },
  "controlMerchant": {
    "response": {
      "merchantId": 100005,
      "status": "awaiting_approval",
      "previousStatus": "pending_onboarding"
    }
  },
  "listDeliveries": {
    "response": {
      "items": [
        {
          "id": 6,
          "eventId": "evt_01a21567ceb521e8bef41ec3",
          "event": "merchant.deactivated",
          "webhookId": "wh_dce115d0a4476cd70ec80aa2",
          "url": "https://partner.example/webhooks/obsim",
          "state": "delivering",
          "statusCode": null,
          "outcome": null,
          "error": null,
          "durationMs": null,
          "attemptedAt": "2026-03-02T09:40:00.002Z",
          "createdAt": "2026-03-02T09:40:00.002Z",
          "redeliveryOf": null,
          "body": "{\"event\":\"merchant.deactivated\",\"timestamp\":\"2026-03-02T09:40:00.002Z\",\"data\":{\"merchantId\":100002,\"clientId\":\"8402d1a4-9184-4b67-ab70-a4e5348fb1b1\",\"companyName\":\"Nørrebro Kaffe ApS\",\"status\":\"inactive\",\"previousStatus\":\"active\",\"timestamp\":\"2026-03-02T09:40:00.002Z\"}}",
          "signature": "ccded42e43e9677813efa56138efe3c7b276b5846216f0132b9b18072b0e517b"
        },
        {
          "id": 5,
          "eventId": "evt_01a21567ceb2f82b2574cf00",
          "event": "merchant.onboarding.completed",
          "webhookId": "wh_dce115d0a4476cd70ec80aa2",
          "url": "https://partner.example/webhooks/obsim",
          "state": "delivering",
          "statusCode": null,
          "outcome": null,
          "error": null,
          "durationMs": null,
          "attemptedAt": "2026-03-02T09:40:00.002Z",
          "createdAt": "2026-03-02T09:40:00.002Z",
          "redeliveryOf": null,
          "body": "{\"event\":\"merchant.onboarding.completed\",\"timestamp\":\"2026-03-02T09:40:00.002Z\",\"data\":{\"merchantId\":100005,\"clientId\":\"64342cc1-432d-4817-9e4b-5f020c7786a8\",\"companyName\":\"Frederiksberg Blomster ApS\",\"status\":\"awaiting_approval\",\"previousStatus\":\"pending_onboarding\",\"timestamp\":\"2026-03-02T09:40:00.002Z\"}}",
          "signature": "466edbd479b70bd8ead56d5f2f5f43a50ab9b29399a9b2071e6b52e673bd145b"
        }
      ],
      "total": 6,
      "totalCapped": false
    }
  },
  "getDelivery": {
    "response": {
      "id": 6,
      "eventId": "evt_01a21567ceb521e8bef41ec3",
      "event": "merchant.deactivated",
      "webhookId": "wh_dce115d0a4476cd70ec80aa2",
      "url": "https://partner.example/webhooks/obsim",
      "state": "delivering",
      "statusCode": null,
      "outcome": null,
      "error": null,
      "durationMs": null,
      "attemptedAt": "2026-03-02T09:40:00.002Z",
      "createdAt": "2026-03-02T09:40:00.002Z",
      "redeliveryOf": null,
      "body": "{\"event\":\"merchant.deactivated\",\"timestamp\":\"2026-03-02T09:40:00.002Z\",\"data\":{\"merchantId\":100002,\"clientId\":\"8402d1a4-9184-4b67-ab70-a4e5348fb1b1\",\"companyName\":\"Nørrebro Kaffe ApS\",\"status\":\"inactive\",\"previousStatus\":\"active\",\"timestamp\":\"2026-03-02T09:40:00.002Z\"}}",
      "signature": "ccded42e43e9677813efa56138efe3c7b276b5846216f0132b9b18072b0e517b"
    }
  },
  "redeliverDelivery": {
    "response": {
      "id": 7,
      "eventId": "evt_01a21567ceb521e8bef41ec3",
      "event": "merchant.deactivated",
      "webhookId": "wh_dce115d0a4476cd70ec80aa2",
      "url": "https://partner.example/webhooks/obsim",
      "state": "pending",
      "statusCode": null,
      "outcome": null,
      "error": null,
      "durationMs": null,
      "attemptedAt": null,
      "createdAt": "2026-03-02T09:40:00.002Z",
      "redeliveryOf": 6,
      "body": "{\"event\":\"merchant.deactivated\",\"timestamp\":\"2026-03-02T09:40:00.002Z\",\"data\":{\"merchantId\":100002,\"clientId\":\"8402d1a4-9184-4b67-ab70-a4e5348fb1b1\",\"companyName\":\"Nørrebro Kaffe ApS\",\"status\":\"inactive\",\"previousStatus\":\"active\",\"timestamp\":\"2026-03-02T09:40:00.002Z\"}}",
      "signature": "ccded42e43e9677813efa56138efe3c7b276b5846216f0132b9b18072b0e517b"
    }
  },
  "listRequests": {
    "response": {
      "items": [
        {
          "id": 10,
          "at": "2026-03-02T09:30:00.000Z",
          "wallAt": "2026-11-26T01:10:54.009Z",
          "method": "POST",
          "path": "/v1/partner/payments",
          "query": {},
          "headers": {
            "content-length": "102",
            "content-type": "application/json",
            "user-agent": "lightMyRequest",
            "x-partner-client-id": "sandbox-partner",
            "x-partner-client-secret": "[redacted]"
          },
          "requestBodyTruncated": false,
          "status": 200,
          "responseBodyTruncated": false,
          "durationMs": 1.539,
          "requestId": "req_c2a75baeec532bea1b96e801",
          "resources": {
            "paymentId": 5000002
          },
          "requestBody": {
            "merchantClientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
            "amount": 89,
            "referenceNumber": "order-1002"
          },
          "responseBody": {
            "paymentId": 5000002,
            "status": "pending",
            "bankPaymentStatus": "Pending",
            "failureReason": null,
            "amount": 89,
            "currency": "DKK",
            "referenceNumber": "order-1002",
            "merchantClientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
            "merchantName": "Nørrebro Kaffe ApS",
            "paymentUrl": "http://localhost:4010/pay/pay_5000002_yTnRlUcoAc9jHxBJB8zq-1",
            "createdAt": "2026-03-02T09:30:00.000Z",
            "updatedAt": "2026-03-02T09:30:00.000Z",
            "expiresAt": "2026-03-02T10:00:00.000Z"
          }
        },
        {
          "id": 9,
          "at": "2026-03-02T09:30:00.000Z",
          "wallAt": "2026-11-26T01:10:54.006Z",
          "method": "POST",
          "path": "/v1/partner/payments",
          "query": {},
          "headers": {
            "content-length": "106",
            "content-type": "application/json",
            "user-agent": "lightMyRequest",
            "x-partner-client-id": "sandbox-partner",
            "x-partner-client-secret": "[redacted]"
          },
          "requestBodyTruncated": false,
          "status": 200,
          "responseBodyTruncated": false,
          "durationMs": 3.686,
          "requestId": "req_b77fcfc143e4ede4648b6ba7",
          "resources": {
            "paymentId": 5000001
          },
          "requestBody": {
            "merchantClientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
            "amount": 149.95,
            "referenceNumber": "order-1001"
          },
          "responseBody": {
            "paymentId": 5000001,
            "status": "pending",
            "bankPaymentStatus": "Pending",
            "failureReason": null,
            "amount": 149.95,
            "currency": "DKK",
            "referenceNumber": "order-1001",
            "merchantClientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
            "merchantName": "Nørrebro Kaffe ApS",
            "paymentUrl": "http://localhost:4010/pay/pay_5000001_cYAGGUT1jM3jbFIKFZ9Qmb",
            "createdAt": "2026-03-02T09:30:00.000Z",
            "updatedAt": "2026-03-02T09:30:00.000Z",
            "expiresAt": "2026-03-02T10:00:00.000Z"
          }
        }
      ]
    }
  },
  "getRequest": {
    "response": {
      "id": 10,
      "at": "2026-03-02T09:30:00.000Z",
      "wallAt": "2026-11-26T01:10:54.009Z",
      "method": "POST",
      "path": "/v1/partner/payments",
      "query": {},
      "headers": {
        "content-length": "102",
        "content-type": "application/json",
        "user-agent": "lightMyRequest",
        "x-partner-client-id": "sandbox-partner",
        "x-partner-client-secret": "[redacted]"
      },
      "requestBodyTruncated": false,
      "status": 200,
      "responseBodyTruncated": false,
      "durationMs": 1.539,
      "requestId": "req_c2a75baeec532bea1b96e801",
      "resources": {
        "paymentId": 5000002
      },
      "requestBody": {
        "merchantClientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
        "amount": 89,
        "referenceNumber": "order-1002"
      },
      "responseBody": {
        "paymentId": 5000002,
        "status": "pending",
        "bankPaymentStatus": "Pending",
        "failureReason": null,
        "amount": 89,
        "currency": "DKK",
        "referenceNumber": "order-1002",
        "merchantClientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
        "merchantName": "Nørrebro Kaffe ApS",
        "paymentUrl": "http://localhost:4010/pay/pay_5000002_yTnRlUcoAc9jHxBJB8zq-1",
        "createdAt": "2026-03-02T09:30:00.000Z",
        "updatedAt": "2026-03-02T09:30:00.000Z",
        "expiresAt": "2026-03-02T10:00:00.000Z"
      }
    }
  },
  "countRequests": {
    "request": {
      "request": {
        "method": "POST",
        "path": "/v1/partner/payments",
        "body": {
          "referenceNumber": "order-1001"
        }
      }
    },
    "response": {
      "count": 1
    }
  },
  "verifyRequests": {
    "request": {
      "request": {
        "method": "POST",
        "path": "/v1/partner/payments",
        "body": {
          "referenceNumber": "order-1001"
        }
      },
      "count": 1
    },
    "response": {
      "verified": true,
      "actual": 1
    }
  },
  "listMagicValues": {
    "response": {
      "amounts": [
        {
          "amount": 666.66,
          "outcome": "bank_rejected",
          "description": "The bank rejects the payment at the settlement time: payment.failed, failureReason bank_rejected"
        },
        {
          "amount": 777.77,
          "outcome": "payer_abandoned",
          "description": "The payer abandons at the settlement time: payment.failed, failureReason payer_abandoned"
        },
        {
          "amount": 888.88,
          "outcome": "expired",
          "description": "Never settles by itself; expires after OBSIM_PAYMENT_EXPIRY: payment.failed, failureReason expired"
        },
        {
          "amount": 999.99,
          "outcome": "stay_pending",
          "description": "Stays pending until the payer acts on paymentUrl or a control call completes or fails it (no expiry)"
        }
      ],
      "fastTrack": [
        {
          "field": "registrationNumber",
          "value": "00000000",
          "description": "The company registry does not know the number: sub-TPP not created; the merchant must use the standard onboarding form at onboardingUrl",
          "status": "pending_onboarding",
          "subTppStatus": "failed",
          "subTppMessage": "Company registry lookup failed: registration number not found"
        },
        {
          "field": "registrationNumber",
          "value": "99999999",
          "description": "The company registry lists the company as dissolved/inactive: sub-TPP not created; standard onboarding at onboardingUrl",
          "status": "pending_onboarding",
          "subTppStatus": "failed",
          "subTppMessage": "Sub-TPP creation rejected: the company is not active in the company registry"
        }
      ],
      "users": [
        {
          "userId": "user-typical",
          "description": "Typical user: 3 DKK accounts (current, savings, credit card), 416 transactions over the past year"
        },
        {
          "userId": "user-no-accounts",
          "description": "User with no accounts: the accounts list is empty (totalAccounts 0)"
        },
        {
          "userId": "user-multi-currency",
          "description": "Multi-currency user: current accounts in DKK, EUR, SEK and GBP at four banks, 300 transactions"
        },
        {
          "userId": "user-100k",
          "description": "Large user: one DKK current account holding 100,000 transactions over the past year (paging and date filters)"
        }
      ]
    }
  },
  "getSandboxOverview": {
    "response": {
      "environment": "sandbox",
      "partnerId": "sandbox-partner",
      "sandboxId": null,
      "clock": {
        "now": "2026-03-02T09:40:00.002Z",
        "frozen": true,
        "offsetMs": -23211654379
      },
      "merchants": {
        "pending_onboarding": 1,
        "pending_completion": 1,
        "awaiting_approval": 1,
        "activated": 1,
        "rejected": 0,
        "inactive": 1
      },
      "payments": {
        "pending": 0,
        "processing": 0,
        "paid": 1,
        "failed": 1
      },
      "consents": {
        "pending": 0,
        "authorized": 1,
        "expired": 0,
        "revoked": 0,
        "failed": 1
      },
      "deliveries": {
        "byState": {
          "pending": 0,
          "delivering": 1,
          "delivered": 6,
          "failed": 0
        },
        "byOutcome": {
          "delivered": 6,
          "timeout": 0,
          "connection_refused": 0,
          "connection_reset": 0,
          "non_2xx": 0,
          "redirect": 0,
          "error": 0
        }
      },
      "webhooks": 1
    }
  },
  "listSandboxMerchants": {
    "response": {
      "items": [
        {
          "merchant": {
            "merchantId": 100005,
            "clientId": "64342cc1-432d-4817-9e4b-5f020c7786a8",
            "companyName": "Frederiksberg Blomster ApS",
            "type": "standard",
            "status": "awaiting_approval",
            "subTppStatus": "created",
            "createdAt": "2026-03-02T09:40:00.002Z",
            "updatedAt": "2026-03-02T09:40:00.002Z",
            "contactEmail": "hej@fblomster.dk",
            "subTppId": "stpp_83c8f74ea266d5d577f6"
          },
          "state": "awaiting_approval",
          "actions": [
            "approve",
            "reject",
            "activate"
          ]
        }
      ],
      "nextCursor": "100005"
    }
  },
  "getSandboxMerchant": {
    "response": {
      "merchant": {
        "merchantId": 100002,
        "clientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
        "companyName": "Nørrebro Kaffe ApS",
        "type": "test",
        "status": "inactive",
        "subTppStatus": "inactive",
        "createdAt": "2026-03-02T09:30:00.000Z",
        "updatedAt": "2026-03-02T09:40:00.002Z",
        "subTppId": "stpp_df73f6e563311091523e"
      },
      "state": "inactive",
      "states": [
        "pending_onboarding",
        "pending_completion",
        "pending_partner_ais",
        "awaiting_approval",
        "activated",
        "rejected",
        "inactive"
      ],
      "actions": [
        "reactivate"
      ],
      "onboardingUrl": null,
      "onboardingExpiresAt": null,
      "stores": [
        {
          "storeId": 1,
          "merchantId": 100002,
          "name": "Nørrebrogade 12",
          "address": null,
          "mccCode": "5814",
          "partnerRefId": null,
          "createdAt": "2026-03-02T09:30:00.000Z"
        }
      ]
    }
  },
  "listSandboxPayments": {
    "response": {
      "items": [
        {
          "payment": {
            "paymentId": 5000002,
            "status": "failed",
            "bankPaymentStatus": "Rejected",
            "failureReason": "bank_rejected",
            "amount": 89,
            "currency": "DKK",
            "referenceNumber": "order-1002",
            "merchantClientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
            "merchantName": "Nørrebro Kaffe ApS",
            "paymentUrl": "http://localhost:4010/pay/pay_5000002_yTnRlUcoAc9jHxBJB8zq-1",
            "createdAt": "2026-03-02T09:30:00.000Z",
            "updatedAt": "2026-03-02T09:30:00.000Z",
            "expiresAt": "2026-03-02T10:00:00.000Z"
          },
          "actions": []
        }
      ],
      "nextCursor": "5000002"
    }
  },
  "getSandboxPayment": {
    "response": {
      "payment": {
        "paymentId": 5000001,
        "status": "paid",
        "bankPaymentStatus": "AcceptedSettlementCompleted",
        "failureReason": null,
        "amount": 149.95,
        "currency": "DKK",
        "referenceNumber": "order-1001",
        "merchantClientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
        "merchantName": "Nørrebro Kaffe ApS",
        "paymentUrl": "http://localhost:4010/pay/pay_5000001_cYAGGUT1jM3jbFIKFZ9Qmb",
        "createdAt": "2026-03-02T09:30:00.000Z",
        "updatedAt": "2026-03-02T09:30:00.000Z",
        "expiresAt": "2026-03-02T10:00:00.000Z"
      },
      "actions": [],
      "timeline": [
        {
          "at": "2026-03-02T09:30:00.000Z",
          "kind": "created",
          "status": "pending",
          "event": null,
          "eventId": null,
          "deliveries": []
        },
        {
          "at": "2026-03-02T09:30:00.000Z",
          "kind": "status_changed",
          "status": "paid",
          "event": null,
          "eventId": null,
          "deliveries": []
        },
        {
          "at": "2026-03-02T09:30:00.000Z",
          "kind": "event",
          "status": null,
          "event": "payment.completed",
          "eventId": "evt_01a21567cd3fdc55cb3515fd",
          "deliveries": [
            {
              "id": 3,
              "state": "delivered",
              "outcome": "delivered",
              "statusCode": 200
            }
          ]
        }
      ]
    }
  },
  "listSandboxConsents": {
    "response": {
      "items": [
        {
          "consent": {
            "merchantId": 100002,
            "userId": "user-typical",
            "permissions": [
              "ReadAccountsDetail",
              "ReadBalances",
              "ReadTransactionsDetail"
            ],
            "expirationDateTime": "2026-06-01T00:00:00.000Z",
            "transactionFromDateTime": "2025-03-01T00:00:00.000Z",
            "requestId": "af2bdac9-df1f-497e-83d9-a21dd954a77a",
            "status": "authorized",
            "createdAt": "2026-03-02T09:30:00.000Z",
            "updatedAt": "2026-03-02T09:30:00.000Z",
            "consentId": "cns_374e208537cd44f6a5d3cfe044ca9574"
          },
          "actions": [
            "revoke",
            "expire"
          ]
        }
      ],
      "nextCursor": "2"
    }
  },
  "listScenarios": {
    "response": {
      "items": [
        {
          "name": "consent-authorized-read",
          "steps": 10,
          "description": "A bank user authorizes a consent; the partner then reads the accounts, a balance and the transactions (both transaction endpoints).",
          "tags": [
            "ais",
            "consent"
          ],
          "covers": [
            "consent:pending",
            "consent:authorized"
          ]
        },
        {
          "name": "consent-denied",
          "steps": 7,
          "description": "The bank user denies the consent; it fails with an errorMessage and account data stays unreadable.",
          "tags": [
            "ais",
            "consent"
          ],
          "covers": [
            "consent:pending",
            "consent:failed"
          ]
        },
        {
          "name": "consent-expired-by-clock",
          "steps": 10,
          "description": "An authorized consent expires when the virtual clock passes expirationDateTime; reads are refused afterwards, even with a fresh token.",
          "tags": [
            "ais",
            "consent",
            "clock"
          ],
          "covers": [
            "consent:authorized",
            "consent:expired"
          ]
        },
        {
          "name": "consent-revoked",
          "steps": 6,
          "description": "An authorized consent is revoked; reads are refused from then on.",
          "tags": [
            "ais",
            "consent"
          ],
          "covers": [
            "consent:authorized",
            "consent:revoked"
          ]
        },
        {
          "name": "fault-injection-prefer",
          "steps": 3,
          "description": "The Prefer header forces an error status (Prefer: code=503) without running the handler: no payment is created; the same call without it succeeds.",
          "tags": [
            "payment",
            "fault-injection"
          ],
          "covers": [
            "payment:pending"
          ]
        },
        {
          "name": "merchant-deactivated-reactivated",
          "steps": 9,
          "description": "An active merchant is deactivated (merchant.deactivated; payments refused with 409) and reactivated (merchant.activated; payments accepted again).",
          "tags": [
            "merchant"
          ],
          "covers": [
            "merchant:activated",
            "merchant:inactive",
            "event:merchant.deactivated",
            "event:merchant.activated"
          ]
        },
        {
          "name": "merchant-fast-track-sub-tpp-failure",
          "steps": 8,
          "description": "Fast-track with the magic registrationNumber 00000000 - sub-TPP creation fails (still HTTP 200) and the merchant falls back to standard onboarding.",
          "tags": [
            "merchant",
            "fast-track",
            "magic-value"
          ],
          "covers": [
            "merchant:pending_onboarding",
            "merchant:awaiting_approval",
            "merchant:activated",
            "event:merchant.onboarding.completed",
            "event:merchant.activated"
          ]
        },
        {
          "name": "merchant-fast-track",
          "steps": 7,
          "description": "A fast-tracked merchant (sub-TPP created) is pending completion until it completes billing agreement and bank linking, then is approved and activated.",
          "tags": [
            "merchant",
            "fast-track",
            "clock"
          ],
          "covers": [
            "merchant:pending_partner_ais",
            "merchant:pending_completion",
            "merchant:awaiting_approval",
            "merchant:activated",
            "event:merchant.onboarding.completed",
            "event:merchant.activated"
          ]
        },
        {
          "name": "merchant-onboarding-hosted-form",
          "steps": 8,
          "description": "The merchant fills in the hosted onboarding form (an HTML form POST to onboardingUrl); the merchant awaits approval and is activated after the approval delay.",
          "tags": [
            "merchant",
            "onboarding",
            "hosted"
          ],
          "covers": [
            "merchant:pending_onboarding",
            "merchant:awaiting_approval",
            "merchant:activated",
            "event:merchant.onboarding.completed",
            "event:merchant.activated"
          ]
        },
        {
          "name": "merchant-rejected",
          "steps": 7,
          "description": "A merchant awaiting approval is rejected; no activation follows, even after the approval delay.",
          "tags": [
            "merchant",
            "onboarding"
          ],
          "covers": [
            "merchant:awaiting_approval",
            "merchant:rejected"
          ]
        },
        {
          "name": "merchant-standard-onboarding",
          "steps": 10,
          "description": "A standard merchant submits the onboarding form, waits for approval, and is activated after the approval delay.",
          "tags": [
            "merchant",
            "onboarding",
            "clock"
          ],
          "covers": [
            "merchant:pending_onboarding",
            "merchant:awaiting_approval",
            "merchant:activated",
            "event:merchant.onboarding.completed",
            "event:merchant.activated"
          ]
        },
        {
          "name": "onboarding-link-expired-resent",
          "steps": 8,
          "description": "The onboarding link stops working after 7 days (HTTP 410); resend-onboarding issues a new link that works while the old one stays dead.",
          "tags": [
            "merchant",
            "onboarding",
            "clock",
            "hosted"
          ],
          "covers": [
            "merchant:pending_onboarding"
          ]
        },
        {
          "name": "payment-abandoned",
          "steps": 5,
          "description": "Magic amount 777.77 makes the payer abandon at the bank; payment.failed carries failureReason payer_abandoned.",
          "tags": [
            "payment",
            "magic-amount"
          ],
          "covers": [
            "payment:failed",
            "event:payment.failed"
          ]
        },
        {
          "name": "payment-expired",
          "steps": 8,
          "description": "Magic amount 888.88 never settles; when the virtual clock passes expiresAt the payment fails with failureReason expired.",
          "tags": [
            "payment",
            "magic-amount",
            "clock"
          ],
          "covers": [
            "payment:failed",
            "event:payment.failed"
          ]
        },
        {
          "name": "payment-failed-bank-rejected",
          "steps": 7,
          "description": "Magic amount 666.66 makes the bank reject the payment at settlement time; payment.failed carries failureReason bank_rejected.",
          "tags": [
            "payment",
            "magic-amount"
          ],
          "covers": [
            "payment:pending",
            "payment:failed",
            "event:payment.failed"
          ]
        },
        {
          "name": "payment-paid",
          "steps": 7,
          "description": "A payment to a test merchant settles by itself after the settle delay; payment.completed is delivered, signed.",
          "tags": [
            "payment"
          ],
          "covers": [
            "payment:pending",
            "payment:paid",
            "event:payment.completed",
            "merchant:activated"
          ]
        },
        {
          "name": "payment-processing-paid",
          "steps": 8,
          "description": "The payer approves at the bank (control approve) so the payment is processing; completing it pays it and sends payment.completed.",
          "tags": [
            "payment",
            "control"
          ],
          "covers": [
            "payment:processing",
            "payment:paid",
            "event:payment.completed"
          ]
        },
        {
          "name": "token-permission-missing",
          "steps": 8,
          "description": "A token limited to ais:accounts:read lists accounts but gets 403 token_permission_missing on balance and transactions, even with an authorized consent.",
          "tags": [
            "ais",
            "auth"
          ],
          "covers": [
            "consent:authorized"
          ]
        },
        {
          "name": "webhook-redelivery",
          "steps": 10,
          "description": "A delivery is sent again from the delivery log (control redeliver); the redelivery carries the same X-Webhook-Id and body, so receivers can de-duplicate.",
          "tags": [
            "webhook",
            "control"
          ],
          "covers": [
            "event:payment.completed"
          ]
        },
        {
          "name": "webhook-test-delivery",
          "steps": 4,
          "description": "POST /v1/partner/webhooks/{id}/test queues a signed webhook.test delivery to the registered URL.",
          "tags": [
            "webhook"
          ],
          "covers": [
            "event:webhook.test"
          ]
        }
      ]
    }
  },
  "createSnapshot": {
    "request": {
      "name": "after-first-payment"
    },
    "response": {
      "name": "after-first-payment",
      "createdAt": "2026-11-26T01:10:54.733Z",
      "clock": {
        "now": "2026-03-02T09:40:00.002Z",
        "frozen": true
      },
      "counts": {
        "merchants": 5,
        "stores": 1,
        "payments": 2,
        "consents": 2,
        "webhooks": 1,
        "events": 6,
        "deliveries": 7,
        "timers": 2
      }
    }
  },
  "listSnapshots": {
    "response": {
      "items": [
        {
          "name": "after-first-payment",
          "createdAt": "2026-11-26T01:10:54.733Z",
          "clock": {
            "now": "2026-03-02T09:40:00.002Z",
            "frozen": true
          },
          "counts": {
            "merchants": 5,
            "stores": 1,
            "payments": 2,
            "consents": 2,
            "webhooks": 1,
            "events": 6,
            "deliveries": 7,
            "timers": 2
          }
        }
      ]
    }
  },
  "restoreSnapshot": {
    "request": {},
    "response": {
      "name": "after-first-payment",
      "createdAt": "2026-11-26T01:10:54.733Z",
      "clock": {
        "now": "2026-03-02T09:40:00.002Z",
        "frozen": true
      },
      "counts": {
        "merchants": 5,
        "stores": 1,
        "payments": 2,
        "consents": 2,
        "webhooks": 1,
        "events": 6,
        "deliveries": 7,
        "timers": 2
      }
    }
  },
  "deleteSnapshot": {
    "response": {
      "name": "after-first-payment",
      "deleted": true
    }
  },
  "runScenario": {
    "request": {
      "name": "payment-paid",
      "isolate": true
    },
    "response": {
      "name": "payment-paid",
      "runId": "ef216a4d",
      "passed": true,
      "durationMs": 320,
      "startedAt": "2026-11-26T01:10:54.749Z",
      "steps": [
        {
          "index": 1,
          "kind": "request",
          "label": "request POST /v1/partner/merchants/test",
          "status": "passed",
          "durationMs": 2,
          "detail": "POST /v1/partner/merchants/test → 200 (captured merchant.id, merchant.clientId)"
        },
        {
          "index": 2,
          "kind": "registerWebhook",
          "label": "registerWebhook payment.completed, payment.failed",
          "status": "passed",
          "durationMs": 2,
          "detail": "wh_9cd14a8c829d99d98a673baa → http://127.0.0.1:9/obsim-scenario/ef216a4d/1"
        },
        {
          "index": 3,
          "kind": "request",
          "label": "request POST /v1/partner/payments",
          "status": "passed",
          "durationMs": 2,
          "detail": "POST /v1/partner/payments → 200 (captured payment.id, payment.ref)"
        },
        {
          "index": 4,
          "kind": "advanceClock",
          "label": "advanceClock +5s",
          "status": "passed",
          "durationMs": 3,
          "detail": "now 2026-11-26T01:10:59.759Z, 1 transition(s) fired"
        },
        {
          "index": 5,
          "kind": "expectWebhook",
          "label": "expectWebhook payment.completed",
          "status": "passed",
          "durationMs": 3,
          "detail": "evt_01a21567d0263e5297c7f724 signature valid"
        },
        {
          "index": 6,
          "kind": "request",
          "label": "request GET /v1/partner/payments/${payment.id}/status",
          "status": "passed",
          "durationMs": 1,
          "detail": "GET /v1/partner/payments/5000003/status → 200"
        },
        {
          "index": 7,
          "kind": "expectNoWebhook",
          "label": "expectNoWebhook payment.failed",
          "status": "passed",
          "durationMs": 305,
          "detail": "none in 300ms"
        }
      ],
      "description": "A payment to a test merchant settles by itself after the settle delay; payment.completed is delivered, signed."
    }
  },
  "createSandbox": {
    "request": {
      "name": "checkout-tests",
      "ttl": "2h"
    },
    "response": {
      "sandboxId": "sbx_06f198e5fc4b38ca1cb2",
      "name": "checkout-tests",
      "createdAt": "2026-11-26T01:10:55.075Z",
      "expiresAt": "2026-11-26T03:10:55.075Z",
      "ttlMs": 7200000,
      "clock": {
        "now": "2026-11-26T01:10:55.075Z",
        "frozen": false,
        "offsetMs": 0
      },
      "settings": {
        "settleDelayMs": 5000,
        "approvalDelayMs": 30000,
        "paymentExpiryMs": 1800000
      },
      "credentials": {
        "clientId": "sbx_06f198e5fc4b38ca1cb2",
        "clientSecret": "sbx_secret_MHi8Im5YwBmaBP1H4L3xpo56sjfvDYgh"
      },
      "defaultMerchant": {
        "merchantId": 100008,
        "clientId": "7f9d7f96-0a93-488f-a084-5e465085bb0d"
      }
    }
  },
  "listSandboxes": {
    "response": {
      "items": [
        {
          "sandboxId": "sbx_06f198e5fc4b38ca1cb2",
          "name": "checkout-tests",
          "createdAt": "2026-11-26T01:10:55.075Z",
          "expiresAt": "2026-11-26T03:10:55.075Z",
          "ttlMs": 7200000,
          "clock": {
            "now": "2026-11-26T01:10:55.078Z",
            "frozen": false,
            "offsetMs": 0
          },
          "settings": {
            "settleDelayMs": 5000,
            "approvalDelayMs": 30000,
            "paymentExpiryMs": 1800000
          }
        }
      ],
      "total": 1
    }
  },
  "getSandbox": {
    "response": {
      "sandboxId": "sbx_06f198e5fc4b38ca1cb2",
      "name": "checkout-tests",
      "createdAt": "2026-11-26T01:10:55.075Z",
      "expiresAt": "2026-11-26T03:10:55.075Z",
      "ttlMs": 7200000,
      "clock": {
        "now": "2026-11-26T01:10:55.079Z",
        "frozen": false,
        "offsetMs": 0
      },
      "settings": {
        "settleDelayMs": 5000,
        "approvalDelayMs": 30000,
        "paymentExpiryMs": 1800000
      }
    }
  },
  "deleteSandbox": {
    "response": {
      "sandboxId": "sbx_06f198e5fc4b38ca1cb2",
      "deleted": {
        "merchants": 1,
        "payments": 0,
        "stores": 0,
        "webhooks": 0,
        "events": 0,
        "deliveries": 0,
        "consents": 0,
        "timers": 0
      }
    }
  },
  "clearRequests": {
    "response": {
      "deleted": 50
    }
  },
  "resetSandboxData": {
    "request": {},
    "response": {
      "deleted": {
        "merchants": 5,
        "payments": 2,
        "stores": 1,
        "webhooks": 1,
        "events": 6,
        "deliveries": 7,
        "consents": 2,
        "timers": 2
      },
      "defaultMerchantId": 100009
    }
  },
  "onPaymentCompleted": {
    "request": {
      "event": "payment.completed",
      "timestamp": "2026-03-02T09:30:00.000Z",
      "data": {
        "paymentId": 5000001,
        "referenceNumber": "order-1001",
        "status": "paid",
        "amount": 149.95,
        "currency": "DKK",
        "merchantClientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
        "merchantName": "Nørrebro Kaffe ApS",
        "bankPaymentStatus": "AcceptedSettlementCompleted",
        "timestamp": "2026-03-02T09:30:00.000Z"
      }
    }
  },
  "onPaymentFailed": {
    "request": {
      "event": "payment.failed",
      "timestamp": "2026-03-02T09:30:00.000Z",
      "data": {
        "paymentId": 5000002,
        "referenceNumber": "order-1002",
        "status": "failed",
        "amount": 89,
        "currency": "DKK",
        "merchantClientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
        "merchantName": "Nørrebro Kaffe ApS",
        "bankPaymentStatus": "Rejected",
        "timestamp": "2026-03-02T09:30:00.000Z",
        "failureReason": "bank_rejected"
      }
    }
  },
  "onMerchantActivated": {
    "request": {
      "event": "merchant.activated",
      "timestamp": "2026-03-02T09:30:00.000Z",
      "data": {
        "merchantId": 100002,
        "clientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
        "companyName": "Nørrebro Kaffe ApS",
        "status": "active",
        "previousStatus": "pending_onboarding",
        "timestamp": "2026-03-02T09:30:00.000Z"
      }
    }
  },
  "onMerchantDeactivated": {
    "request": {
      "event": "merchant.deactivated",
      "timestamp": "2026-03-02T09:40:00.002Z",
      "data": {
        "merchantId": 100002,
        "clientId": "8402d1a4-9184-4b67-ab70-a4e5348fb1b1",
        "companyName": "Nørrebro Kaffe ApS",
        "status": "inactive",
        "previousStatus": "active",
        "timestamp": "2026-03-02T09:40:00.002Z"
      }
    }
  },
  "onMerchantOnboardingCompleted": {
    "request": {
      "event": "merchant.onboarding.completed",
      "timestamp": "2026-03-02T09:40:00.002Z",
      "data": {
        "merchantId": 100005,
        "clientId": "64342cc1-432d-4817-9e4b-5f020c7786a8",
        "companyName": "Frederiksberg Blomster ApS",
        "status": "awaiting_approval",
        "previousStatus": "pending_onboarding",
        "timestamp": "2026-03-02T09:40:00.002Z"
      }
    }
  },
  "onWebhookTest": {
    "request": {
      "event": "webhook.test",
      "timestamp": "2026-03-02T09:30:00.000Z",
      "data": {
        "webhookId": "wh_dce115d0a4476cd70ec80aa2",
        "message": "This is a test delivery from obsim. Verify X-Webhook-Signature with your webhook secret.",
        "timestamp": "2026-03-02T09:30:00.000Z"
      }
    }
  },
  "streamRequests": {
    "response": "event: request\ndata: {\"id\":42,\"method\":\"POST\",\"path\":\"/v1/partner/payments\",\"status\":200,\"…\":\"a JournalEntry\"}\n\n"
  }
};
