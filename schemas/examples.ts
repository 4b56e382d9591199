/* Generated from a scripted session by scripts/openapi-examples.ts (npm run openapi:examples). Do not edit. */
/** Request and response examples of the OpenAPI documents, by operationId: answers obsim really gave. */
export const OPERATION_EXAMPLES: Record<string, { request?: unknown; response?: unknown; media?: Record<string, unknown> }> = {
  "getHealth": {
    "response": {
      "status": "ok",
      "environment": "sandbox",
      "time": "2026-03-02T09:30:00.000Z"
    }
  },
  "listContractVersions": {
    "response": {
      "items": [
        {
          "name": "base",
          "title": "The provider’s document",
          "document": "/openapi.json",
          "deprecations": [],
          "sunsets": []
        },
        {
          "name": "2027-03-01",
          "title": "Example version (not the provider's): payments gain a reference and an authorized status, merchantName leaves payments, webhook registration answers 201, resending onboarding is deprecated",
          "document": "/openapi.json?version=2027-03-01",
          "deprecations": [
            {
              "operationId": "createMerchant",
              "method": "POST",
              "path": "/v1/partner/merchants",
              "deprecatedAt": "2027-03-01T00:00:00Z",
              "field": "/partnerRefId",
              "in": "request"
            },
            {
              "operationId": "resendMerchantOnboarding",
              "method": "POST",
              "path": "/v1/partner/merchants/{merchantId}/resend-onboarding",
              "deprecatedAt": "2027-03-01T00:00:00Z"
            }
          ],
          "sunsets": [
            {
              "operationId": "resendMerchantOnboarding",
              "method": "POST",
              "path": "/v1/partner/merchants/{merchantId}/resend-onboarding",
              "sunsetAt": "2027-09-01T00:00:00Z"
            }
          ],
          "file": "examples/contracts/2027-03-01.yaml"
        }
      ]
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
      "id": "wh_ac41e9c7f3777792bb08fba5",
      "url": "https://partner.example/webhooks/obsim",
      "events": [
        "payment.completed",
        "payment.failed",
        "merchant.activated",
        "merchant.deactivated",
        "merchant.onboarding.completed"
      ],
      "secret": "whsec_108d6abfa54c429f025454b846f63c54476f516db5f14680",
      "createdAt": "2026-03-02T09:30:00.000Z"
    }
  },
  "createTestMerchant": {
    "request": {
      "companyName": "Nørrebro Kaffe ApS"
    },
    "response": {
      "merchantId": 100002,
      "clientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
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
      "clientId": "54a9fc15-c9fc-45eb-bc76-4ea7cbc6b979",
      "companyName": "Vesterbro Cykler ApS",
      "contactEmail": "ejer@vesterbrocykler.dk",
      "onboardingUrl": "http://localhost:4010/onboarding/onb_JOT6auqGx4Yb8a7ua01_FudA",
      "onboardingToken": "onb_JOT6auqGx4Yb8a7ua01_FudA",
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
      "clientId": "f6519351-f623-4051-b9f2-4de52b91b0f0",
      "companyName": "Amager Bageri ApS",
      "contactEmail": "kontakt@amagerbageri.dk",
      "subTppStatus": "created",
      "subTppMessage": null,
      "onboardingUrl": "http://localhost:4010/onboarding/onb_ZEkdYsH0a34iOSg4Xcx5Ss76",
      "onboardingToken": "onb_ZEkdYsH0a34iOSg4Xcx5Ss76",
      "status": "pending_partner_ais",
      "expiresAt": "2026-03-09T09:30:00.000Z",
      "subTppId": "stpp_449613dc53d850de9c4f"
    }
  },
  "listMerchants": {
    "response": {
      "items": [
        {
          "merchantId": 100001,
          "clientId": "467cf20b-8d06-4dde-991f-1d534a621c3d",
          "companyName": "obsim Default Merchant ApS",
          "type": "test",
          "status": "activated",
          "subTppStatus": "active",
          "createdAt": "2026-03-02T09:30:00.000Z",
          "updatedAt": "2026-03-02T09:30:00.000Z",
          "contactEmail": "merchant@obsim.test",
          "partnerRefId": "obsim-default-merchant",
          "subTppId": "stpp_f1651c21f7bd69d58703"
        },
        {
          "merchantId": 100002,
          "clientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
          "companyName": "Nørrebro Kaffe ApS",
          "type": "test",
          "status": "activated",
          "subTppStatus": "active",
          "createdAt": "2026-03-02T09:30:00.000Z",
          "updatedAt": "2026-03-02T09:30:00.000Z",
          "subTppId": "stpp_41d1010b3a99eba04ecc"
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
      "subTppId": "stpp_41d1010b3a99eba04ecc"
    }
  },
  "resendMerchantOnboarding": {
    "response": {
      "merchantId": 100004,
      "onboardingUrl": "http://localhost:4010/onboarding/onb_2nCxVCK0fqhpiywlFOBXYQ9i",
      "onboardingToken": "onb_2nCxVCK0fqhpiywlFOBXYQ9i",
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
      "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
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
      "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
      "merchantName": "Nørrebro Kaffe ApS",
      "paymentUrl": "http://localhost:4010/pay/pay_5000001_Jaf4ocfSPiTz_tP_us_2cP",
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
      "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
      "merchantName": "Nørrebro Kaffe ApS",
      "paymentUrl": "http://localhost:4010/pay/pay_5000002_bCLkhpJCYjk3sErrhd-ZVD",
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
      "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
      "merchantName": "Nørrebro Kaffe ApS",
      "paymentUrl": "http://localhost:4010/pay/pay_5000001_Jaf4ocfSPiTz_tP_us_2cP",
      "createdAt": "2026-03-02T09:30:00.000Z",
      "updatedAt": "2026-03-02T09:30:00.000Z",
      "expiresAt": "2026-03-02T10:00:00.000Z"
    }
  },
  "listSandboxWebhooks": {
    "response": {
      "items": [
        {
          "id": "wh_ac41e9c7f3777792bb08fba5",
          "url": "https://partner.example/webhooks/obsim",
          "events": [
            "payment.completed",
            "payment.failed",
            "merchant.activated",
            "merchant.deactivated",
            "merchant.onboarding.completed"
          ],
          "secret": "whsec_108d6abfa54c429f025454b846f63c54476f516db5f14680",
          "createdAt": "2026-03-02T09:30:00.000Z"
        }
      ]
    }
  },
  "testWebhook": {
    "response": {
      "webhookId": "wh_ac41e9c7f3777792bb08fba5",
      "eventId": "evt_01a224bb829b0dd4686e1e27",
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
      "token": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJtZXJjaGFudElkIjoxMDAwMDIsInBlcm1pc3Npb25zIjpbImFpczphY2NvdW50czpyZWFkIiwiYWlzOmJhbGFuY2U6cmVhZCIsImFpczp0cmFuc2FjdGlvbnM6cmVhZCJdLCJzdWIiOiJ1c2VyLXR5cGljYWwiLCJpc3MiOiJvYnNpbS1zYW5kYm94IiwiYXVkIjoib2JzaW0tYWlzIiwiaWF0IjoxNzcyNDQzODAwLCJleHAiOjE3NzI0NDc0MDAsImp0aSI6IjgzYzUxNzZkLWYxZjktNGU0OS05ODM4LTVhODgzNGRhOTNmNyJ9.lcK7wTOdlqHS7J_6S2Ae7El4UL4lKeQlLc6lULZa1Lo"
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
      "requestId": "6bbf9e76-d2e0-470d-b94f-e16c7ad273ec",
      "status": "pending",
      "createdAt": "2026-03-02T09:30:00.000Z",
      "updatedAt": "2026-03-02T09:30:00.000Z",
      "authorizationUrl": "http://localhost:4010/consent/ctk_QTZkNLzknZMr6LZcexpLNTfZPeNsVFkb"
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
      "requestId": "6bbf9e76-d2e0-470d-b94f-e16c7ad273ec",
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
        "requestId": "6ccde979-43c9-4f36-b61a-3c59013d21c9",
        "status": "authorized",
        "createdAt": "2026-03-02T09:30:00.000Z",
        "updatedAt": "2026-03-02T09:30:00.000Z",
        "consentId": "cns_db86786963154007943fd7fe81d764d7"
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
        "requestId": "6bbf9e76-d2e0-470d-b94f-e16c7ad273ec",
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
      "clientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
      "consentId": "cns_db86786963154007943fd7fe81d764d7",
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
      "now": "2026-03-02T09:30:00.001Z",
      "frozen": false,
      "offsetMs": -23468798552
    }
  },
  "freezeClock": {
    "request": {},
    "response": {
      "now": "2026-03-02T09:30:00.003Z",
      "frozen": true,
      "offsetMs": -23468798552
    }
  },
  "advanceClock": {
    "request": {
      "duration": "10m"
    },
    "response": {
      "now": "2026-03-02T09:40:00.003Z",
      "fired": 0
    }
  },
  "controlMerchant": {
    "request": {},
    "response": {
      "merchantId": 100005,
      "status": "awaiting_approval",
      "previousStatus": "pending_onboarding"
    }
  },
  "listMerchantTransitions": {
    "response": {
      "items": [
        {
          "id": 13,
          "resource": "merchant",
          "resourceId": "100005",
          "from": null,
          "to": "pending_onboarding",
          "at": "2026-03-02T09:40:00.003Z",
          "cause": {
            "kind": "request",
            "name": "createMerchant",
            "requestId": "req_109488d2ff4769ff16b5673d"
          },
          "traceId": "5926c35ea53c45bed62a0105cad31641"
        },
        {
          "id": 14,
          "resource": "merchant",
          "resourceId": "100005",
          "from": "pending_onboarding",
          "to": "awaiting_approval",
          "at": "2026-03-02T09:40:00.003Z",
          "cause": {
            "kind": "control",
            "name": "submit-onboarding",
            "requestId": "req_f96ea74bdbc3994af5b7c0bf"
          },
          "traceId": "477895139926ed636fd55a538d24e043"
        }
      ]
    }
  },
  "listPaymentTransitions": {
    "response": {
      "items": [
        {
          "id": 5,
          "resource": "payment",
          "resourceId": "5000001",
          "from": null,
          "to": "pending",
          "at": "2026-03-02T09:30:00.000Z",
          "cause": {
            "kind": "request",
            "name": "createPayment",
            "requestId": "req_a8402b951d3848f43ba29616"
          },
          "traceId": "d9640455143a35b465f28b3f9abf30bc"
        },
        {
          "id": 8,
          "resource": "payment",
          "resourceId": "5000001",
          "from": "pending",
          "to": "paid",
          "at": "2026-03-02T09:30:00.000Z",
          "cause": {
            "kind": "control",
            "name": "complete",
            "requestId": "req_8891d90baeb5a9e2feb1f94e"
          },
          "traceId": "bcac19283ca596e1127b6f84cff19d81"
        }
      ]
    }
  },
  "listConsentTransitions": {
    "response": {
      "items": [
        {
          "id": 11,
          "resource": "consent",
          "resourceId": "6ccde979-43c9-4f36-b61a-3c59013d21c9",
          "from": null,
          "to": "pending",
          "at": "2026-03-02T09:30:00.000Z",
          "cause": {
            "kind": "request",
            "name": "createConsent",
            "requestId": "req_cba0461aa945c74c5819c233"
          },
          "traceId": "887dc0da7a2cba158127776a9d770321"
        },
        {
          "id": 12,
          "resource": "consent",
          "resourceId": "6ccde979-43c9-4f36-b61a-3c59013d21c9",
          "from": "pending",
          "to": "authorized",
          "at": "2026-03-02T09:30:00.000Z",
          "cause": {
            "kind": "control",
            "name": "authorize",
            "requestId": "req_924d61f561776a74e284a5a2"
          },
          "traceId": "7339b2cc9c4176fa2309592506636bc5"
        }
      ]
    }
  },
  "listDeliveries": {
    "response": {
      "items": [
        {
          "id": 6,
          "eventId": "evt_01a224bb8431b85ae0dd483a",
          "event": "merchant.deactivated",
          "webhookId": "wh_ac41e9c7f3777792bb08fba5",
          "url": "https://partner.example/webhooks/obsim",
          "state": "delivering",
          "statusCode": null,
          "outcome": null,
          "error": null,
          "durationMs": null,
          "attemptedAt": "2026-03-02T09:40:00.003Z",
          "createdAt": "2026-03-02T09:40:00.003Z",
          "redeliveryOf": null,
          "body": "{\"event\":\"merchant.deactivated\",\"timestamp\":\"2026-03-02T09:40:00.003Z\",\"data\":{\"merchantId\":100002,\"clientId\":\"31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd\",\"companyName\":\"Nørrebro Kaffe ApS\",\"status\":\"inactive\",\"previousStatus\":\"active\",\"timestamp\":\"2026-03-02T09:40:00.003Z\"}}",
          "signature": "27f7cdbbf87bd0518d866e08dbbee5985048ac5ace237df6286c3c7d8edfe039",
          "traceparent": "00-f55c07110dfeb60a99c10e0406abec6a-39081a642ab727aa-01"
        },
        {
          "id": 5,
          "eventId": "evt_01a224bb8430ac6dde466961",
          "event": "merchant.onboarding.completed",
          "webhookId": "wh_ac41e9c7f3777792bb08fba5",
          "url": "https://partner.example/webhooks/obsim",
          "state": "delivering",
          "statusCode": null,
          "outcome": null,
          "error": null,
          "durationMs": null,
          "attemptedAt": "2026-03-02T09:40:00.003Z",
          "createdAt": "2026-03-02T09:40:00.003Z",
          "redeliveryOf": null,
          "body": "{\"event\":\"merchant.onboarding.completed\",\"timestamp\":\"2026-03-02T09:40:00.003Z\",\"data\":{\"merchantId\":100005,\"clientId\":\"5cabaeb2-3613-4490-8494-f9ac0b330678\",\"companyName\":\"Frederiksberg Blomster ApS\",\"status\":\"awaiting_approval\",\"previousStatus\":\"pending_onboarding\",\"timestamp\":\"2026-03-02T09:40:00.003Z\"}}",
          "signature": "ff1a9aa2566abab8ddc25f25648cf8abf151f519c1fb9a14ed654dbc2ac080bf",
          "traceparent": "00-477895139926ed636fd55a538d24e043-98a97df27c29accd-01"
        }
      ],
      "total": 6,
      "totalCapped": false
    }
  },
  "getDelivery": {
    "response": {
      "id": 6,
      "eventId": "evt_01a224bb8431b85ae0dd483a",
      "event": "merchant.deactivated",
      "webhookId": "wh_ac41e9c7f3777792bb08fba5",
      "url": "https://partner.example/webhooks/obsim",
      "state": "delivering",
      "statusCode": null,
      "outcome": null,
      "error": null,
      "durationMs": null,
      "attemptedAt": "2026-03-02T09:40:00.003Z",
      "createdAt": "2026-03-02T09:40:00.003Z",
      "redeliveryOf": null,
      "body": "{\"event\":\"merchant.deactivated\",\"timestamp\":\"2026-03-02T09:40:00.003Z\",\"data\":{\"merchantId\":100002,\"clientId\":\"31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd\",\"companyName\":\"Nørrebro Kaffe ApS\",\"status\":\"inactive\",\"previousStatus\":\"active\",\"timestamp\":\"2026-03-02T09:40:00.003Z\"}}",
      "signature": "27f7cdbbf87bd0518d866e08dbbee5985048ac5ace237df6286c3c7d8edfe039",
      "traceparent": "00-f55c07110dfeb60a99c10e0406abec6a-39081a642ab727aa-01"
    }
  },
  "redeliverDelivery": {
    "request": {},
    "response": {
      "id": 7,
      "eventId": "evt_01a224bb8431b85ae0dd483a",
      "event": "merchant.deactivated",
      "webhookId": "wh_ac41e9c7f3777792bb08fba5",
      "url": "https://partner.example/webhooks/obsim",
      "state": "pending",
      "statusCode": null,
      "outcome": null,
      "error": null,
      "durationMs": null,
      "attemptedAt": null,
      "createdAt": "2026-03-02T09:40:00.003Z",
      "redeliveryOf": 6,
      "body": "{\"event\":\"merchant.deactivated\",\"timestamp\":\"2026-03-02T09:40:00.003Z\",\"data\":{\"merchantId\":100002,\"clientId\":\"31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd\",\"companyName\":\"Nørrebro Kaffe ApS\",\"status\":\"inactive\",\"previousStatus\":\"active\",\"timestamp\":\"2026-03-02T09:40:00.003Z\"}}",
      "signature": "27f7cdbbf87bd0518d866e08dbbee5985048ac5ace237df6286c3c7d8edfe039"
    }
  },
  "listRequests": {
    "response": {
      "items": [
        {
          "id": 10,
          "at": "2026-03-02T09:30:00.000Z",
          "wallAt": "2026-11-29T00:36:38.156Z",
          "method": "POST",
          "path": "/v1/partner/payments",
          "query": {},
          "headers": {
            "x-partner-client-id": "sandbox-partner",
            "x-partner-client-secret": "[redacted]",
            "user-agent": "lightMyRequest",
            "content-type": "application/json",
            "content-length": "102"
          },
          "requestBodyTruncated": false,
          "status": 200,
          "responseBodyTruncated": false,
          "durationMs": 0.469,
          "requestId": "req_e5208eea53c38bc68266458e",
          "resources": {
            "paymentId": 5000002
          },
          "requestBody": {
            "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
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
            "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
            "merchantName": "Nørrebro Kaffe ApS",
            "paymentUrl": "http://localhost:4010/pay/pay_5000002_bCLkhpJCYjk3sErrhd-ZVD",
            "createdAt": "2026-03-02T09:30:00.000Z",
            "updatedAt": "2026-03-02T09:30:00.000Z",
            "expiresAt": "2026-03-02T10:00:00.000Z"
          },
          "traceId": "9f5e23833ab710d8958cd8adb373e4a7"
        },
        {
          "id": 9,
          "at": "2026-03-02T09:30:00.000Z",
          "wallAt": "2026-11-29T00:36:38.155Z",
          "method": "POST",
          "path": "/v1/partner/payments",
          "query": {},
          "headers": {
            "x-partner-client-id": "sandbox-partner",
            "x-partner-client-secret": "[redacted]",
            "user-agent": "lightMyRequest",
            "content-type": "application/json",
            "content-length": "106"
          },
          "requestBodyTruncated": false,
          "status": 200,
          "responseBodyTruncated": false,
          "durationMs": 1.667,
          "requestId": "req_a8402b951d3848f43ba29616",
          "resources": {
            "paymentId": 5000001
          },
          "requestBody": {
            "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
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
            "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
            "merchantName": "Nørrebro Kaffe ApS",
            "paymentUrl": "http://localhost:4010/pay/pay_5000001_Jaf4ocfSPiTz_tP_us_2cP",
            "createdAt": "2026-03-02T09:30:00.000Z",
            "updatedAt": "2026-03-02T09:30:00.000Z",
            "expiresAt": "2026-03-02T10:00:00.000Z"
          },
          "traceId": "d9640455143a35b465f28b3f9abf30bc"
        }
      ]
    },
    "media": {
      "application/har+json": {
        "log": {
          "version": "1.2",
          "creator": {
            "name": "obsim",
            "version": "0.1.0"
          },
          "entries": [
            {
              "startedDateTime": "2026-11-29T00:36:38.156Z",
              "time": 0.469,
              "cache": {},
              "timings": {
                "send": 0,
                "wait": 0.469,
                "receive": 0
              },
              "request": {
                "method": "POST",
                "url": "http://localhost:4010/v1/partner/payments",
                "httpVersion": "HTTP/1.1",
                "cookies": [],
                "headers": [
                  {
                    "name": "x-partner-client-id",
                    "value": "sandbox-partner"
                  },
                  {
                    "name": "x-partner-client-secret",
                    "value": "[redacted]"
                  },
                  {
                    "name": "user-agent",
                    "value": "lightMyRequest"
                  },
                  {
                    "name": "content-type",
                    "value": "application/json"
                  },
                  {
                    "name": "content-length",
                    "value": "102"
                  }
                ],
                "queryString": [],
                "headersSize": -1,
                "bodySize": 102,
                "postData": {
                  "mimeType": "application/json",
                  "text": "{\"merchantClientId\":\"31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd\",\"amount\":89,\"referenceNumber\":\"order-1002\"}"
                }
              },
              "response": {
                "status": 200,
                "statusText": "",
                "httpVersion": "HTTP/1.1",
                "cookies": [],
                "headers": [
                  {
                    "name": "x-request-id",
                    "value": "req_e5208eea53c38bc68266458e"
                  },
                  {
                    "name": "content-type",
                    "value": "application/json"
                  }
                ],
                "content": {
                  "mimeType": "application/json",
                  "text": "{\"paymentId\":5000002,\"status\":\"pending\",\"bankPaymentStatus\":\"Pending\",\"failureReason\":null,\"amount\":89,\"currency\":\"DKK\",\"referenceNumber\":\"order-1002\",\"merchantClientId\":\"31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd\",\"merchantName\":\"Nørrebro Kaffe ApS\",\"paymentUrl\":\"http://localhost:4010/pay/pay_5000002_bCLkhpJCYjk3sErrhd-ZVD\",\"createdAt\":\"2026-03-02T09:30:00.000Z\",\"updatedAt\":\"2026-03-02T09:30:00.000Z\",\"expiresAt\":\"2026-03-02T10:00:00.000Z\"}",
                  "size": 439
                },
                "redirectURL": "",
                "headersSize": -1,
                "bodySize": 439
              },
              "comment": "journal entry 10, at 2026-03-02T09:30:00.000Z on the sandbox clock"
            }
          ],
          "_nextCursor": "ajoxMA"
        }
      }
    }
  },
  "getRequest": {
    "response": {
      "id": 10,
      "at": "2026-03-02T09:30:00.000Z",
      "wallAt": "2026-11-29T00:36:38.156Z",
      "method": "POST",
      "path": "/v1/partner/payments",
      "query": {},
      "headers": {
        "x-partner-client-id": "sandbox-partner",
        "x-partner-client-secret": "[redacted]",
        "user-agent": "lightMyRequest",
        "content-type": "application/json",
        "content-length": "102"
      },
      "requestBodyTruncated": false,
      "status": 200,
      "responseBodyTruncated": false,
      "durationMs": 0.469,
      "requestId": "req_e5208eea53c38bc68266458e",
      "resources": {
        "paymentId": 5000002
      },
      "requestBody": {
        "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
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
        "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
        "merchantName": "Nørrebro Kaffe ApS",
        "paymentUrl": "http://localhost:4010/pay/pay_5000002_bCLkhpJCYjk3sErrhd-ZVD",
        "createdAt": "2026-03-02T09:30:00.000Z",
        "updatedAt": "2026-03-02T09:30:00.000Z",
        "expiresAt": "2026-03-02T10:00:00.000Z"
      },
      "traceId": "9f5e23833ab710d8958cd8adb373e4a7"
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
  "checkRegisteredReceiver": {
    "request": {
      "timeoutMs": 2000
    },
    "response": {
      "webhookId": "wh_ac41e9c7f3777792bb08fba5",
      "url": "https://partner.example/webhooks/obsim",
      "startedAt": "2026-11-29T00:36:38.777Z",
      "passed": 12,
      "warned": 0,
      "failed": 0,
      "verdict": "passed",
      "forgedAccepted": false,
      "checks": [
        {
          "id": "event.payment.completed",
          "title": "valid payment.completed",
          "status": "pass",
          "reason": "200 in 9 ms (limit 2000 ms)"
        },
        {
          "id": "event.payment.failed",
          "title": "valid payment.failed",
          "status": "pass",
          "reason": "200 in 4 ms (limit 2000 ms)"
        },
        {
          "id": "event.merchant.activated",
          "title": "valid merchant.activated",
          "status": "pass",
          "reason": "200 in 1 ms (limit 2000 ms)"
        },
        {
          "id": "event.merchant.deactivated",
          "title": "valid merchant.deactivated",
          "status": "pass",
          "reason": "200 in 5 ms (limit 2000 ms)"
        },
        {
          "id": "event.merchant.onboarding.completed",
          "title": "valid merchant.onboarding.completed",
          "status": "pass",
          "reason": "200 in 2 ms (limit 2000 ms)"
        },
        {
          "id": "signature.tampered-body",
          "title": "tampered body, original signature",
          "status": "pass",
          "reason": "refused with 401 in 2 ms"
        },
        {
          "id": "signature.wrong-secret",
          "title": "signed with another secret",
          "status": "pass",
          "reason": "refused with 401 in 0 ms"
        },
        {
          "id": "signature.missing",
          "title": "no X-Webhook-Signature",
          "status": "pass",
          "reason": "refused with 401 in 1 ms"
        },
        {
          "id": "signature.truncated",
          "title": "truncated signature (first 32 hex digits)",
          "status": "pass",
          "reason": "refused with 401 in 0 ms"
        },
        {
          "id": "duplicate",
          "title": "same X-Webhook-Id delivered twice",
          "status": "pass",
          "reason": "200, 200 in 0 ms, 0 ms (limit 2000 ms)"
        },
        {
          "id": "out-of-order",
          "title": "payment.failed after payment.completed (same payment)",
          "status": "pass",
          "reason": "200, 200 in 0 ms, 0 ms (limit 2000 ms)"
        },
        {
          "id": "unknown-event",
          "title": "an event the contract does not list (merchant.updated)",
          "status": "pass",
          "reason": "200 in 0 ms (limit 2000 ms)"
        }
      ],
      "hints": []
    }
  },
  "listReceiverChecks": {
    "response": {
      "items": [
        {
          "webhookId": "wh_ac41e9c7f3777792bb08fba5",
          "url": "https://partner.example/webhooks/obsim",
          "startedAt": "2026-11-29T00:36:38.777Z",
          "passed": 12,
          "warned": 0,
          "failed": 0,
          "verdict": "passed",
          "forgedAccepted": false,
          "checks": [
            {
              "id": "event.payment.completed",
              "title": "valid payment.completed",
              "status": "pass",
              "reason": "200 in 9 ms (limit 2000 ms)"
            },
            {
              "id": "event.payment.failed",
              "title": "valid payment.failed",
              "status": "pass",
              "reason": "200 in 4 ms (limit 2000 ms)"
            },
            {
              "id": "event.merchant.activated",
              "title": "valid merchant.activated",
              "status": "pass",
              "reason": "200 in 1 ms (limit 2000 ms)"
            },
            {
              "id": "event.merchant.deactivated",
              "title": "valid merchant.deactivated",
              "status": "pass",
              "reason": "200 in 5 ms (limit 2000 ms)"
            },
            {
              "id": "event.merchant.onboarding.completed",
              "title": "valid merchant.onboarding.completed",
              "status": "pass",
              "reason": "200 in 2 ms (limit 2000 ms)"
            },
            {
              "id": "signature.tampered-body",
              "title": "tampered body, original signature",
              "status": "pass",
              "reason": "refused with 401 in 2 ms"
            },
            {
              "id": "signature.wrong-secret",
              "title": "signed with another secret",
              "status": "pass",
              "reason": "refused with 401 in 0 ms"
            },
            {
              "id": "signature.missing",
              "title": "no X-Webhook-Signature",
              "status": "pass",
              "reason": "refused with 401 in 1 ms"
            },
            {
              "id": "signature.truncated",
              "title": "truncated signature (first 32 hex digits)",
              "status": "pass",
              "reason": "refused with 401 in 0 ms"
            },
            {
              "id": "duplicate",
              "title": "same X-Webhook-Id delivered twice",
              "status": "pass",
              "reason": "200, 200 in 0 ms, 0 ms (limit 2000 ms)"
            },
            {
              "id": "out-of-order",
              "title": "payment.failed after payment.completed (same payment)",
              "status": "pass",
              "reason": "200, 200 in 0 ms, 0 ms (limit 2000 ms)"
            },
            {
              "id": "unknown-event",
              "title": "an event the contract does not list (merchant.updated)",
              "status": "pass",
              "reason": "200 in 0 ms (limit 2000 ms)"
            }
          ],
          "hints": []
        }
      ]
    }
  },
  "getReadinessReport": {
    "response": {
      "sandboxId": "sandbox-partner",
      "generatedAt": "2026-11-29T00:36:38.831Z",
      "verdict": "unmet",
      "checklistSource": "default",
      "journal": {
        "entries": 42,
        "truncated": false,
        "faults": 0
      },
      "operations": [
        {
          "operationId": "createMerchant",
          "method": "POST",
          "path": "/v1/partner/merchants",
          "called": true,
          "calls": 2,
          "statuses": {
            "200": 2
          },
          "unseen": [
            "400",
            "401",
            "429",
            "503"
          ],
          "evidence": [
            31,
            3
          ],
          "evidenceByStatus": {
            "200": [
              31,
              3
            ]
          }
        },
        {
          "operationId": "createFastTrackMerchant",
          "method": "POST",
          "path": "/v1/partner/merchants/fast-track",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "400",
            "401",
            "429",
            "503"
          ],
          "evidence": [
            4
          ],
          "evidenceByStatus": {
            "200": [
              4
            ]
          }
        },
        {
          "operationId": "createTestMerchant",
          "method": "POST",
          "path": "/v1/partner/merchants/test",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "400",
            "401",
            "429",
            "503"
          ],
          "evidence": [
            2
          ],
          "evidenceByStatus": {
            "200": [
              2
            ]
          }
        },
        {
          "operationId": "getMerchantOnboardingStatus",
          "method": "GET",
          "path": "/v1/partner/merchants/{merchantId}/onboarding-status",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "401",
            "404",
            "429",
            "503"
          ],
          "evidence": [
            6
          ],
          "evidenceByStatus": {
            "200": [
              6
            ]
          }
        },
        {
          "operationId": "listMerchants",
          "method": "GET",
          "path": "/v1/partner/merchants",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "400",
            "401",
            "429",
            "503"
          ],
          "evidence": [
            5
          ],
          "evidenceByStatus": {
            "200": [
              5
            ]
          }
        },
        {
          "operationId": "resendMerchantOnboarding",
          "method": "POST",
          "path": "/v1/partner/merchants/{merchantId}/resend-onboarding",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "401",
            "404",
            "409",
            "429",
            "503"
          ],
          "evidence": [
            7
          ],
          "evidenceByStatus": {
            "200": [
              7
            ]
          }
        },
        {
          "operationId": "createMerchantStore",
          "method": "POST",
          "path": "/v1/partner/merchants/{merchantId}/stores",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "400",
            "401",
            "429",
            "503",
            "404",
            "409"
          ],
          "evidence": [
            8
          ],
          "evidenceByStatus": {
            "200": [
              8
            ]
          }
        },
        {
          "operationId": "createPayment",
          "method": "POST",
          "path": "/v1/partner/payments",
          "called": true,
          "calls": 2,
          "statuses": {
            "200": 2
          },
          "unseen": [
            "400",
            "401",
            "429",
            "503",
            "404",
            "409"
          ],
          "evidence": [
            10,
            9
          ],
          "evidenceByStatus": {
            "200": [
              10,
              9
            ]
          }
        },
        {
          "operationId": "getPaymentStatus",
          "method": "GET",
          "path": "/v1/partner/payments/{paymentId}/status",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "401",
            "404",
            "429",
            "503"
          ],
          "evidence": [
            13
          ],
          "evidenceByStatus": {
            "200": [
              13
            ]
          }
        },
        {
          "operationId": "registerWebhook",
          "method": "POST",
          "path": "/v1/partner/webhooks",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "400",
            "401",
            "429",
            "503"
          ],
          "evidence": [
            1
          ],
          "evidenceByStatus": {
            "200": [
              1
            ]
          }
        },
        {
          "operationId": "testWebhook",
          "method": "POST",
          "path": "/v1/partner/webhooks/{id}/test",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "400",
            "401",
            "429",
            "503"
          ],
          "evidence": [
            15
          ],
          "evidenceByStatus": {
            "200": [
              15
            ]
          }
        },
        {
          "operationId": "generateToken",
          "method": "POST",
          "path": "/v1/auth/generate-token",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "400",
            "500"
          ],
          "evidence": [
            17
          ],
          "evidenceByStatus": {
            "200": [
              17
            ]
          }
        },
        {
          "operationId": "createConsent",
          "method": "POST",
          "path": "/v1/ais/consents",
          "called": true,
          "calls": 2,
          "statuses": {
            "200": 2
          },
          "unseen": [
            "400",
            "401",
            "403",
            "429",
            "503"
          ],
          "evidence": [
            20,
            18
          ],
          "evidenceByStatus": {
            "200": [
              20,
              18
            ]
          }
        },
        {
          "operationId": "listUserConsents",
          "method": "GET",
          "path": "/v1/ais/users/{userId}/consents",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "400",
            "401",
            "403",
            "429",
            "503"
          ],
          "evidence": [
            22
          ],
          "evidenceByStatus": {
            "200": [
              22
            ]
          }
        },
        {
          "operationId": "listAccounts",
          "method": "POST",
          "path": "/v1/ais/accounts",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "400",
            "401",
            "403",
            "429",
            "503"
          ],
          "evidence": [
            23
          ],
          "evidenceByStatus": {
            "200": [
              23
            ]
          }
        },
        {
          "operationId": "getAccountBalance",
          "method": "POST",
          "path": "/v1/ais/accounts/balance",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "400",
            "401",
            "403",
            "429",
            "503"
          ],
          "evidence": [
            24
          ],
          "evidenceByStatus": {
            "200": [
              24
            ]
          }
        },
        {
          "operationId": "listAccountTransactions",
          "method": "POST",
          "path": "/v1/ais/accounts/transactions",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "400",
            "401",
            "403",
            "429",
            "503"
          ],
          "evidence": [
            25
          ],
          "evidenceByStatus": {
            "200": [
              25
            ]
          }
        },
        {
          "operationId": "listAccountTransactionsInWindow",
          "method": "GET",
          "path": "/v1/ais/accounts/{accountId}/transactions",
          "called": true,
          "calls": 1,
          "statuses": {
            "200": 1
          },
          "unseen": [
            "400",
            "401",
            "403",
            "429",
            "503"
          ],
          "evidence": [
            26
          ],
          "evidenceByStatus": {
            "200": [
              26
            ]
          }
        }
      ],
      "lifecycles": {
        "payments": {
          "reached": {
            "pending": 2,
            "failed": 1,
            "paid": 1
          },
          "unreached": [
            "processing"
          ]
        },
        "failureReasons": {
          "reached": {
            "bank_rejected": 1
          },
          "unreached": [
            "payer_abandoned",
            "expired"
          ]
        },
        "merchants": {
          "reached": {
            "activated": 2,
            "pending_completion": 1,
            "pending_onboarding": 2,
            "inactive": 1,
            "awaiting_approval": 1
          },
          "unreached": [
            "pending_partner_ais",
            "rejected"
          ]
        },
        "consents": {
          "reached": {
            "pending": 2,
            "authorized": 1,
            "failed": 1
          },
          "unreached": [
            "expired",
            "revoked"
          ]
        },
        "transitions": {
          "payments": {
            "created -> pending": 2,
            "pending -> failed (bank_rejected)": 1,
            "pending -> paid": 1
          },
          "merchants": {
            "created -> activated": 2,
            "created -> pending_completion": 1,
            "created -> pending_onboarding": 2,
            "activated -> inactive": 1,
            "pending_onboarding -> awaiting_approval": 1
          },
          "consents": {
            "created -> pending": 2,
            "pending -> authorized": 1,
            "pending -> failed": 1
          }
        },
        "bankRules": {},
        "events": [
          {
            "event": "payment.completed",
            "acknowledged": 1,
            "failed": 0
          },
          {
            "event": "payment.failed",
            "acknowledged": 1,
            "failed": 0
          },
          {
            "event": "merchant.activated",
            "acknowledged": 1,
            "failed": 0
          },
          {
            "event": "merchant.deactivated",
            "acknowledged": 2,
            "failed": 0
          },
          {
            "event": "merchant.onboarding.completed",
            "acknowledged": 1,
            "failed": 0
          },
          {
            "event": "webhook.test",
            "acknowledged": 1,
            "failed": 0
          }
        ],
        "neverProduced": []
      },
      "smells": [],
      "checklist": [
        {
          "id": "creates_payments",
          "title": "Creates payments",
          "status": "met",
          "because": "POST /v1/partner/payments answered 2xx",
          "evidence": [
            10,
            9
          ]
        },
        {
          "id": "handles_payment_completed",
          "title": "Handles payment.completed",
          "status": "met",
          "because": "1 payment.completed delivery acknowledged with 2xx",
          "evidence": []
        },
        {
          "id": "handles_payment_failed",
          "title": "Handles payment.failed",
          "status": "met",
          "because": "1 payment.failed delivery acknowledged with 2xx",
          "evidence": []
        },
        {
          "id": "handles_merchant_activated",
          "title": "Handles merchant.activated",
          "status": "met",
          "because": "1 merchant.activated delivery acknowledged with 2xx",
          "evidence": []
        },
        {
          "id": "verifies_webhook_signatures",
          "title": "Verifies webhook signatures",
          "status": "met",
          "because": "check-receiver passed against https://partner.example/webhooks/obsim at 2026-11-29T00:36:38.777Z",
          "evidence": []
        },
        {
          "id": "polls_when_delivery_fails",
          "title": "Falls back to polling when a delivery fails",
          "status": "unmet",
          "because": "no payment webhook delivery has failed yet: fail one (a receiver answering 500) and read the status",
          "evidence": []
        },
        {
          "id": "reads_accounts_with_consent",
          "title": "Reads accounts under an authorized consent",
          "status": "met",
          "because": "a consent was authorized and accounts were read",
          "evidence": [
            23,
            24,
            25,
            26
          ]
        },
        {
          "id": "no_smells",
          "title": "Does nothing the report flags",
          "status": "met",
          "because": "no smell found",
          "evidence": []
        }
      ]
    }
  },
  "getScenarioDraft": {
    "response": {
      "yaml": "# Recorded by obsim from sandbox sandbox-partner, journal entries #10–#10 (2026-03-02T09:30:00.000Z → 2026-03-02T09:30:00.000Z on its clock).\n# Deliveries to webhooks registered before the recorded range are not expected (a scenario can only watch webhooks it registers): merchant.activated (delivery 1), payment.failed (delivery 2), payment.completed (delivery 3), webhook.test (delivery 4).\n\nname: one-payment\ndescription: \"Recorded from sandbox sandbox-partner, journal entries #10–#10 (2026-03-02T09:30:00.000Z → 2026-03-02T09:30:00.000Z on its clock).\"\ntags:\n  - recorded\nsteps:\n  - request:\n      method: POST\n      path: /v1/partner/payments\n      body:\n        merchantClientId: 31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd\n        amount: 89\n        referenceNumber: order-1002\n      expect:\n        status: 200\n        body:\n          status: pending\n          bankPaymentStatus: Pending\n          failureReason: null\n",
      "steps": 1,
      "warnings": [
        "Deliveries to webhooks registered before the recorded range are not expected (a scenario can only watch webhooks it registers): merchant.activated (delivery 1), payment.failed (delivery 2), payment.completed (delivery 3), webhook.test (delivery 4)."
      ],
      "entries": 1,
      "deliveries": 4
    }
  },
  "setFaults": {
    "request": {
      "profile": "provider-outage",
      "seed": 7,
      "rules": [
        {
          "kind": "webhook_duplicate",
          "event": "payment.completed",
          "rate": 0.1
        }
      ]
    },
    "response": {
      "sandboxId": "default",
      "active": true,
      "rules": [
        {
          "kind": "error",
          "rate": 1,
          "window": {
            "from": "2026-03-02T09:40:00.003Z",
            "to": "2026-03-02T09:45:00.003Z"
          },
          "status": 503,
          "retryAfterSeconds": 30,
          "when": "instead"
        },
        {
          "kind": "webhook_drop",
          "rate": 1,
          "window": {
            "from": "2026-03-02T09:40:00.003Z",
            "to": "2026-03-02T09:45:00.003Z"
          }
        },
        {
          "kind": "webhook_duplicate",
          "rate": 0.1,
          "event": "payment.completed"
        }
      ],
      "injected": [
        0,
        0,
        0
      ],
      "seed": 7,
      "profile": "provider-outage",
      "setAt": "2026-03-02T09:40:00.003Z"
    }
  },
  "getFaults": {
    "response": {
      "sandboxId": "default",
      "active": true,
      "rules": [
        {
          "kind": "error",
          "rate": 1,
          "window": {
            "from": "2026-03-02T09:40:00.003Z",
            "to": "2026-03-02T09:45:00.003Z"
          },
          "status": 503,
          "retryAfterSeconds": 30,
          "when": "instead"
        },
        {
          "kind": "webhook_drop",
          "rate": 1,
          "window": {
            "from": "2026-03-02T09:40:00.003Z",
            "to": "2026-03-02T09:45:00.003Z"
          }
        },
        {
          "kind": "webhook_duplicate",
          "rate": 0.1,
          "event": "payment.completed"
        }
      ],
      "injected": [
        0,
        0,
        0
      ],
      "seed": 7,
      "profile": "provider-outage",
      "setAt": "2026-03-02T09:40:00.003Z"
    }
  },
  "clearFaults": {
    "response": {
      "sandboxId": "default",
      "active": false,
      "rules": [],
      "injected": []
    }
  },
  "setBankProfile": {
    "request": {
      "profile": "weekend-settlement",
      "health": {
        "status": "down",
        "forSeconds": 3600
      },
      "seed": 7
    },
    "response": {
      "bankId": "nordlys-bank",
      "name": "Nordlys Bank",
      "bic": "NLYSDKKKXXX",
      "country": "DK",
      "currency": "DKK",
      "health": "down",
      "profile": {
        "health": {
          "status": "down",
          "from": "2026-03-02T09:40:00.003Z",
          "until": "2026-03-02T10:40:00.003Z",
          "delaySeconds": 60
        },
        "authorization": {
          "mode": "redirect",
          "approvalDelaySeconds": 120
        },
        "settlement": {
          "mode": "business_days",
          "cutOff": "15:00"
        },
        "ais": {
          "historyDays": null,
          "pageSize": null,
          "pendingTransactions": true,
          "consentMaxDays": null
        },
        "failureRate": 0,
        "seed": 7,
        "profile": "weekend-settlement"
      },
      "setAt": "2026-03-02T09:40:00.003Z"
    }
  },
  "getBank": {
    "response": {
      "bankId": "nordlys-bank",
      "name": "Nordlys Bank",
      "bic": "NLYSDKKKXXX",
      "country": "DK",
      "currency": "DKK",
      "health": "down",
      "profile": {
        "health": {
          "status": "down",
          "from": "2026-03-02T09:40:00.003Z",
          "until": "2026-03-02T10:40:00.003Z",
          "delaySeconds": 60
        },
        "authorization": {
          "mode": "redirect",
          "approvalDelaySeconds": 120
        },
        "settlement": {
          "mode": "business_days",
          "cutOff": "15:00"
        },
        "ais": {
          "historyDays": null,
          "pageSize": null,
          "pendingTransactions": true,
          "consentMaxDays": null
        },
        "failureRate": 0,
        "seed": 7,
        "profile": "weekend-settlement"
      },
      "setAt": "2026-03-02T09:40:00.003Z"
    }
  },
  "listBanks": {
    "response": {
      "items": [
        {
          "bankId": "nordlys-bank",
          "name": "Nordlys Bank",
          "bic": "NLYSDKKKXXX",
          "country": "DK",
          "currency": "DKK",
          "health": "down",
          "profile": {
            "health": {
              "status": "down",
              "from": "2026-03-02T09:40:00.003Z",
              "until": "2026-03-02T10:40:00.003Z",
              "delaySeconds": 60
            },
            "authorization": {
              "mode": "redirect",
              "approvalDelaySeconds": 120
            },
            "settlement": {
              "mode": "business_days",
              "cutOff": "15:00"
            },
            "ais": {
              "historyDays": null,
              "pageSize": null,
              "pendingTransactions": true,
              "consentMaxDays": null
            },
            "failureRate": 0,
            "seed": 7,
            "profile": "weekend-settlement"
          },
          "setAt": "2026-03-02T09:40:00.003Z"
        },
        {
          "bankId": "fjord-sparekasse",
          "name": "Fjord Sparekasse",
          "bic": "FJSPDK22XXX",
          "country": "DK",
          "currency": "DKK",
          "health": "healthy",
          "profile": null
        },
        {
          "bankId": "baltic-credit",
          "name": "Baltic Credit AB",
          "bic": "BLCRSESSXXX",
          "country": "SE",
          "currency": "SEK",
          "health": "healthy",
          "profile": null
        },
        {
          "bankId": "rhein-direktbank",
          "name": "Rhein Direktbank",
          "bic": "RHDBDEFFXXX",
          "country": "DE",
          "currency": "EUR",
          "health": "healthy",
          "profile": null
        },
        {
          "bankId": "thames-mutual",
          "name": "Thames Mutual",
          "bic": "TMUTGB2LXXX",
          "country": "GB",
          "currency": "GBP",
          "health": "healthy",
          "profile": null
        }
      ],
      "profiles": [
        {
          "name": "healthy",
          "summary": "Behaves as a bank without a profile (a base for overrides)"
        },
        {
          "name": "degraded",
          "summary": "Answers approvals a minute late, and rejects a quarter of the payments approved at it"
        },
        {
          "name": "down",
          "summary": "Unavailable until the profile is changed: the hosted pages offer the other banks"
        },
        {
          "name": "outage-1h",
          "summary": "Unavailable for one hour of the sandbox clock from when it is set"
        },
        {
          "name": "slow-app-approval",
          "summary": "The payer approves in the bank app; the approval arrives ten minutes later"
        },
        {
          "name": "app-approval-timeout",
          "summary": "The payer is asked to approve in the bank app and never does: the payment expires"
        },
        {
          "name": "weekend-settlement",
          "summary": "Settles on business days only (15:00 cut-off, the country’s public holidays)"
        },
        {
          "name": "strict-ais",
          "summary": "90 days of history, 50 transactions an answer, no pending ones, consents of at most 90 days"
        }
      ]
    }
  },
  "clearBankProfile": {
    "response": {
      "bankId": "nordlys-bank",
      "name": "Nordlys Bank",
      "bic": "NLYSDKKKXXX",
      "country": "DK",
      "currency": "DKK",
      "health": "healthy",
      "profile": null
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
        "now": "2026-03-02T09:40:00.003Z",
        "frozen": true,
        "offsetMs": -23468798552
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
          "delivering": 0,
          "delivered": 7,
          "failed": 0
        },
        "byOutcome": {
          "delivered": 7,
          "timeout": 0,
          "connection_refused": 0,
          "connection_reset": 0,
          "non_2xx": 0,
          "redirect": 0,
          "error": 0,
          "chaos_drop": 0
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
            "clientId": "5cabaeb2-3613-4490-8494-f9ac0b330678",
            "companyName": "Frederiksberg Blomster ApS",
            "type": "standard",
            "status": "awaiting_approval",
            "subTppStatus": "created",
            "createdAt": "2026-03-02T09:40:00.003Z",
            "updatedAt": "2026-03-02T09:40:00.003Z",
            "contactEmail": "hej@fblomster.dk",
            "subTppId": "stpp_12b6c9acaaacb60de7c4"
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
        "clientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
        "companyName": "Nørrebro Kaffe ApS",
        "type": "test",
        "status": "inactive",
        "subTppStatus": "inactive",
        "createdAt": "2026-03-02T09:30:00.000Z",
        "updatedAt": "2026-03-02T09:40:00.003Z",
        "subTppId": "stpp_41d1010b3a99eba04ecc"
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
            "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
            "merchantName": "Nørrebro Kaffe ApS",
            "paymentUrl": "http://localhost:4010/pay/pay_5000002_bCLkhpJCYjk3sErrhd-ZVD",
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
        "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
        "merchantName": "Nørrebro Kaffe ApS",
        "paymentUrl": "http://localhost:4010/pay/pay_5000001_Jaf4ocfSPiTz_tP_us_2cP",
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
          "cause": {
            "kind": "request",
            "name": "createPayment",
            "requestId": "req_a8402b951d3848f43ba29616"
          },
          "event": null,
          "eventId": null,
          "deliveries": []
        },
        {
          "at": "2026-03-02T09:30:00.000Z",
          "kind": "status_changed",
          "status": "paid",
          "cause": {
            "kind": "control",
            "name": "complete",
            "requestId": "req_8891d90baeb5a9e2feb1f94e"
          },
          "event": null,
          "eventId": null,
          "deliveries": []
        },
        {
          "at": "2026-03-02T09:30:00.000Z",
          "kind": "event",
          "status": null,
          "cause": null,
          "event": "payment.completed",
          "eventId": "evt_01a224bb82975ed6354eda57",
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
            "requestId": "6ccde979-43c9-4f36-b61a-3c59013d21c9",
            "status": "authorized",
            "createdAt": "2026-03-02T09:30:00.000Z",
            "updatedAt": "2026-03-02T09:30:00.000Z",
            "consentId": "cns_db86786963154007943fd7fe81d764d7"
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
          "name": "app-approval-times-out",
          "steps": 13,
          "description": "The payer's bank asks for approval in its app (decoupled); the page waits, the approval never comes, and the payment expires with payment.failed (expired).",
          "tags": [
            "payment",
            "bank",
            "hosted",
            "clock"
          ],
          "covers": [
            "payment:pending",
            "payment:failed",
            "event:payment.failed"
          ]
        },
        {
          "name": "bank-outage-during-checkout",
          "steps": 13,
          "description": "Nordlys Bank goes down for an hour during checkout; the payer's choice of it is refused on the hosted page with the other banks offered, and paying with another bank completes the payment.",
          "tags": [
            "payment",
            "bank",
            "hosted"
          ],
          "covers": [
            "payment:pending",
            "payment:paid",
            "event:payment.completed"
          ]
        },
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
          "name": "friday-evening-payment-settles-monday",
          "steps": 14,
          "description": "A bank that settles on business days takes a payment approved after its 15:00 cut-off on a Friday evening; the payment stays processing (AcceptedCustomerProfile) over the weekend and settles at 09:00 on Monday.",
          "tags": [
            "payment",
            "bank",
            "hosted",
            "clock"
          ],
          "covers": [
            "payment:pending",
            "payment:processing",
            "payment:paid",
            "event:payment.completed"
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
      "createdAt": "2026-11-29T00:36:40.232Z",
      "clock": {
        "now": "2026-03-02T09:40:00.003Z",
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
        "timers": 2,
        "transitions": 15
      }
    }
  },
  "listSnapshots": {
    "response": {
      "items": [
        {
          "name": "after-first-payment",
          "createdAt": "2026-11-29T00:36:40.232Z",
          "clock": {
            "now": "2026-03-02T09:40:00.003Z",
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
            "timers": 2,
            "transitions": 15
          }
        }
      ]
    }
  },
  "restoreSnapshot": {
    "request": {},
    "response": {
      "name": "after-first-payment",
      "createdAt": "2026-11-29T00:36:40.232Z",
      "clock": {
        "now": "2026-03-02T09:40:00.003Z",
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
        "timers": 2,
        "transitions": 15
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
      "runId": "aa490230",
      "passed": true,
      "durationMs": 370,
      "startedAt": "2026-11-29T00:36:40.263Z",
      "steps": [
        {
          "index": 1,
          "kind": "request",
          "label": "request POST /v1/partner/merchants/test",
          "status": "passed",
          "durationMs": 10,
          "detail": "POST /v1/partner/merchants/test → 200 (captured merchant.id, merchant.clientId)"
        },
        {
          "index": 2,
          "kind": "registerWebhook",
          "label": "registerWebhook payment.completed, payment.failed",
          "status": "passed",
          "durationMs": 2,
          "detail": "wh_258a4d1a9475ca225f641cf9 → http://127.0.0.1:9/obsim-scenario/aa490230/1"
        },
        {
          "index": 3,
          "kind": "request",
          "label": "request POST /v1/partner/payments",
          "status": "passed",
          "durationMs": 3,
          "detail": "POST /v1/partner/payments → 200 (captured payment.id, payment.ref)"
        },
        {
          "index": 4,
          "kind": "advanceClock",
          "label": "advanceClock +5s",
          "status": "passed",
          "durationMs": 6,
          "detail": "now 2026-11-29T00:36:45.282Z, 1 transition(s) fired"
        },
        {
          "index": 5,
          "kind": "expectWebhook",
          "label": "expectWebhook payment.completed",
          "status": "passed",
          "durationMs": 10,
          "detail": "evt_01a224bb8ad93cce62758569 signature valid"
        },
        {
          "index": 6,
          "kind": "request",
          "label": "request GET /v1/partner/payments/${payment.id}/status",
          "status": "passed",
          "durationMs": 2,
          "detail": "GET /v1/partner/payments/5000003/status → 200"
        },
        {
          "index": 7,
          "kind": "expectNoWebhook",
          "label": "expectNoWebhook payment.failed",
          "status": "passed",
          "durationMs": 335,
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
      "sandboxId": "sbx_e63aa77f8c27828cd8b6",
      "name": "checkout-tests",
      "createdAt": "2026-11-29T00:36:40.644Z",
      "expiresAt": "2026-11-29T02:36:40.644Z",
      "ttlMs": 7200000,
      "clock": {
        "now": "2026-11-29T00:36:40.647Z",
        "frozen": false,
        "offsetMs": 0
      },
      "settings": {
        "settleDelayMs": 5000,
        "approvalDelayMs": 30000,
        "paymentExpiryMs": 1800000
      },
      "credentials": {
        "clientId": "sbx_e63aa77f8c27828cd8b6",
        "clientSecret": "sbx_secret_1r-ao79PULyBMQVt42eXtihdwlYwZfGE"
      },
      "defaultMerchant": {
        "merchantId": 100008,
        "clientId": "49bb0a87-f2e2-404b-a400-6ae7cff7b108"
      }
    }
  },
  "listSandboxes": {
    "response": {
      "items": [
        {
          "sandboxId": "sbx_e63aa77f8c27828cd8b6",
          "name": "checkout-tests",
          "createdAt": "2026-11-29T00:36:40.644Z",
          "expiresAt": "2026-11-29T02:36:40.644Z",
          "ttlMs": 7200000,
          "clock": {
            "now": "2026-11-29T00:36:40.647Z",
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
      "sandboxId": "sbx_e63aa77f8c27828cd8b6",
      "name": "checkout-tests",
      "createdAt": "2026-11-29T00:36:40.644Z",
      "expiresAt": "2026-11-29T02:36:40.644Z",
      "ttlMs": 7200000,
      "clock": {
        "now": "2026-11-29T00:36:40.648Z",
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
      "sandboxId": "sbx_e63aa77f8c27828cd8b6",
      "deleted": {
        "merchants": 1,
        "payments": 0,
        "stores": 0,
        "webhooks": 0,
        "events": 0,
        "deliveries": 0,
        "consents": 0,
        "timers": 0,
        "transitions": 1
      }
    }
  },
  "clearRequests": {
    "response": {
      "deleted": 62
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
        "timers": 2,
        "transitions": 15
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
        "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
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
        "merchantClientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
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
        "clientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
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
      "timestamp": "2026-03-02T09:40:00.003Z",
      "data": {
        "merchantId": 100002,
        "clientId": "31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd",
        "companyName": "Nørrebro Kaffe ApS",
        "status": "inactive",
        "previousStatus": "active",
        "timestamp": "2026-03-02T09:40:00.003Z"
      }
    }
  },
  "onMerchantOnboardingCompleted": {
    "request": {
      "event": "merchant.onboarding.completed",
      "timestamp": "2026-03-02T09:40:00.003Z",
      "data": {
        "merchantId": 100005,
        "clientId": "5cabaeb2-3613-4490-8494-f9ac0b330678",
        "companyName": "Frederiksberg Blomster ApS",
        "status": "awaiting_approval",
        "previousStatus": "pending_onboarding",
        "timestamp": "2026-03-02T09:40:00.003Z"
      }
    }
  },
  "onWebhookTest": {
    "request": {
      "event": "webhook.test",
      "timestamp": "2026-03-02T09:30:00.000Z",
      "data": {
        "webhookId": "wh_ac41e9c7f3777792bb08fba5",
        "message": "This is a test delivery from obsim. Verify X-Webhook-Signature with your webhook secret.",
        "timestamp": "2026-03-02T09:30:00.000Z"
      }
    }
  },
  "streamRequests": {
    "response": "event: request\ndata: {\"id\":42,\"method\":\"POST\",\"path\":\"/v1/partner/payments\",\"status\":200,\"…\":\"a JournalEntry\"}\n\n"
  },
  "getPostmanEnvironment": {
    "response": {
      "id": "90aba9a8-6319-4479-91b4-8b355801cd07",
      "name": "obsim default (base)",
      "values": [
        {
          "key": "baseUrl",
          "value": "http://localhost:4010",
          "type": "default",
          "enabled": true
        },
        {
          "key": "partnerClientId",
          "value": "sandbox-partner",
          "type": "secret",
          "enabled": true
        },
        {
          "key": "partnerClientSecret",
          "value": "sandbox-secret",
          "type": "secret",
          "enabled": true
        },
        {
          "key": "merchantId",
          "value": "100001",
          "type": "default",
          "enabled": true
        },
        {
          "key": "merchantClientId",
          "value": "954fdda0-e10b-42f9-9a42-d3746951c960",
          "type": "default",
          "enabled": true
        },
        {
          "key": "userId",
          "value": "user-typical",
          "type": "default",
          "enabled": true
        },
        {
          "key": "contractVersion",
          "value": "base",
          "type": "default",
          "enabled": true
        },
        {
          "key": "settleDelayMs",
          "value": "5000",
          "type": "default",
          "enabled": true
        }
      ],
      "_postman_variable_scope": "environment",
      "_postman_exported_at": "2026-03-02T09:40:00.001Z",
      "_postman_exported_using": "obsim/0.1.0"
    }
  },
  "getPostmanCollection": {
    "response": {
      "item": [
        {
          "name": "Flows",
          "description": "The main stories, in order: run this folder alone (or the whole collection) against a fresh sandbox.",
          "item": [
            {
              "name": "Account information: consent, accounts, balance, transactions",
              "item": [
                {
                  "name": "A bearer token for the user",
                  "request": {
                    "method": "POST",
                    "url": "{{baseUrl}}/v1/auth/generate-token",
                    "header": [
                      {
                        "key": "Content-Type",
                        "value": "application/json"
                      },
                      {
                        "key": "Accept",
                        "value": "application/json"
                      },
                      {
                        "key": "Obsim-Contract-Version",
                        "value": "{{contractVersion}}",
                        "description": "The contract version this collection was made for (docs/contract-versions.md)"
                      },
                      {
                        "key": "X-Partner-Client-Id",
                        "value": "{{partnerClientId}}"
                      },
                      {
                        "key": "X-Partner-Client-Secret",
                        "value": "{{partnerClientSecret}}"
                      }
                    ],
                    "body": {
                      "mode": "raw",
                      "raw": "{\n  \"userId\": \"{{userId}}\",\n  \"merchantId\": {{merchantId}},\n  \"permissions\": [\n    \"ais:accounts:read\",\n    \"ais:balance:read\",\n    \"ais:transactions:read\"\n  ]\n}",
                      "options": {
                        "raw": {
                          "language": "json"
                        }
                      }
                    },
                    "description": "POST /v1/auth/generate-token for the sandbox bank user with every AIS permission; the token goes to {{bearerToken}}."
                  },
                  "event": [
                    {
                      "listen": "test",
                      "script": {
                        "type": "text/javascript",
                        "exec": [
                          "// obsim: checks from the served document, and the ids chained to later requests",
                          "function at(v, path) { return path.reduce(function (o, k) { return o == null ? undefined : o[k]; }, v); }",
                          "var body = (function () { try { return pm.response.json(); } catch (e) { return undefined; } })();",
                          "pm.test(\"answers 200\", function () { pm.expect(pm.response.code).to.be.oneOf([200]); });",
                          "pm.test(\"the answer has every field base requires\", function () { [\"token\"].forEach(function (f) { pm.expect(body, f).to.have.property(f); }); });",
                          "pm.test(\"{{bearerToken}} from /token\", function () { var v = at(body, [\"token\"]); pm.expect(v, \"/token\").to.not.equal(undefined); pm.collectionVariables.set(\"bearerToken\", String(v)); });"
                        ]
                      }
                    }
                  ]
                }
              ]
            }
          ]
        }
      ],
      "event": [
        {
          "listen": "prerequest",
          "script": {
            "type": "text/javascript",
            "exec": [
              "// obsim: a bearer token from POST /v1/auth/generate-token when the environment has none",
              "if (pm.request.auth && pm.request.auth.type === 'bearer' && !pm.variables.get('bearerToken')) {",
              "  pm.sendRequest({",
              "    url: pm.variables.replaceIn('{{baseUrl}}/v1/auth/generate-token'),",
              "    method: 'POST',",
              "    header: {",
              "      'Content-Type': 'application/json',",
              "      'X-Partner-Client-Id': pm.variables.get('partnerClientId'),",
              "      'X-Partner-Client-Secret': pm.variables.get('partnerClientSecret'),",
              "      'Obsim-Contract-Version': pm.variables.get('contractVersion')",
              "    },",
              "    body: { mode: 'raw', raw: JSON.stringify({ userId: pm.variables.get(\"userId\") || \"user-typical\", merchantId: Number(pm.variables.get(\"merchantId\")), permissions: [\"ais:accounts:read\",\"ais:balance:read\",\"ais:transactions:read\"] }) }",
              "  }, function (err, res) {",
              "    if (err) throw err;",
              "    pm.collectionVariables.set('bearerToken', res.json().token);",
              "  });",
              "}"
            ]
          }
        }
      ],
      "variable": [
        {
          "key": "baseUrl",
          "value": "http://127.0.0.1:4010",
          "type": "string",
          "description": "The obsim address (the environment sets it)"
        },
        {
          "key": "contractVersion",
          "value": "base",
          "type": "string",
          "description": "Sent as Obsim-Contract-Version on every provider request"
        },
        {
          "key": "userId",
          "value": "user-typical",
          "type": "string",
          "description": "The sandbox bank user of the AIS requests"
        },
        {
          "key": "onboardingMerchantId",
          "value": "",
          "type": "string",
          "description": "Set by a test script"
        },
        {
          "key": "testMerchantId",
          "value": "",
          "type": "string",
          "description": "Set by a test script"
        },
        {
          "key": "testMerchantClientId",
          "value": "",
          "type": "string",
          "description": "Set by a test script"
        },
        {
          "key": "paymentId",
          "value": "",
          "type": "string",
          "description": "Set by a test script"
        },
        {
          "key": "webhookId",
          "value": "",
          "type": "string",
          "description": "Set by a test script"
        },
        {
          "key": "bearerToken",
          "value": "",
          "type": "string",
          "description": "Set by a test script"
        },
        {
          "key": "consentRequestId",
          "value": "",
          "type": "string",
          "description": "Set by a test script"
        },
        {
          "key": "consentId",
          "value": "",
          "type": "string",
          "description": "Set by a test script"
        },
        {
          "key": "accountId",
          "value": "",
          "type": "string",
          "description": "Set by a test script"
        },
        {
          "key": "consentExpiresAt",
          "value": "",
          "type": "string",
          "description": "Set by a test script"
        },
        {
          "key": "transactionsFrom",
          "value": "",
          "type": "string",
          "description": "Set by a test script"
        },
        {
          "key": "fromDate",
          "value": "",
          "type": "string",
          "description": "Set by a test script"
        },
        {
          "key": "toDate",
          "value": "",
          "type": "string",
          "description": "Set by a test script"
        }
      ],
      "info": {
        "_postman_id": "ac3e1b72-8ea3-409b-9d90-dc1316b1a804",
        "name": "Open-banking provider API (obsim) — contract base",
        "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
        "description": {
          "content": "The provider API as obsim simulates it: every /v1 path and the webhooks the provider sends. Generate a partner client from this document. Where the provider contract says \"not shown\", the choice obsim made is stated in the descriptions and in docs/decisions.md. obsim's own controls are a separate document: /_sandbox/openapi.json.\n\nContact Support:\n Name: obsim maintainers\nMade by obsim for contract version base from the document it serves (/openapi.json).\nConverted by openapi-to-postmanv2: the folders (one per tag), the requests, their example bodies, descriptions and example answers.\nAdded by obsim: partner headers and bearer auth from variables, the Obsim-Contract-Version header, the ids chained from answer to request, the checks of every answer, the token and sandbox-clock scripts, the consent step and the Flows folder. Run it with the environment of GET /_sandbox/collections/postman/environment (docs/partner-tools.md).",
          "type": "text/plain"
        }
      }
    }
  },
  "importHarScenario": {
    "request": {
      "log": {
        "version": "1.2",
        "creator": {
          "name": "obsim",
          "version": "0.1.0"
        },
        "entries": [
          {
            "startedDateTime": "2026-12-07T16:14:09.946Z",
            "time": 1.094,
            "cache": {},
            "timings": {
              "send": 0,
              "wait": 1.094,
              "receive": 0
            },
            "request": {
              "method": "POST",
              "url": "http://localhost:4010/v1/partner/payments",
              "httpVersion": "HTTP/1.1",
              "cookies": [],
              "headers": [
                {
                  "name": "x-partner-client-id",
                  "value": "sandbox-partner"
                },
                {
                  "name": "x-partner-client-secret",
                  "value": "[redacted]"
                },
                {
                  "name": "user-agent",
                  "value": "lightMyRequest"
                },
                {
                  "name": "content-type",
                  "value": "application/json"
                },
                {
                  "name": "content-length",
                  "value": "102"
                }
              ],
              "queryString": [],
              "headersSize": -1,
              "bodySize": 102,
              "postData": {
                "mimeType": "application/json",
                "text": "{\"merchantClientId\":\"9fc48f6e-3c5a-4cfd-988f-4578d0decc6e\",\"amount\":89,\"referenceNumber\":\"order-1002\"}"
              }
            },
            "response": {
              "status": 200,
              "statusText": "",
              "httpVersion": "HTTP/1.1",
              "cookies": [],
              "headers": [
                {
                  "name": "x-request-id",
                  "value": "req_3e6bb5105581199dcba4c4f7"
                },
                {
                  "name": "content-type",
                  "value": "application/json"
                }
              ],
              "content": {
                "mimeType": "application/json",
                "text": "{\"paymentId\":5000002,\"status\":\"pending\",\"bankPaymentStatus\":\"Pending\",\"failureReason\":null,\"amount\":89,\"currency\":\"DKK\",\"referenceNumber\":\"order-1002\",\"merchantClientId\":\"9fc48f6e-3c5a-4cfd-988f-4578d0decc6e\",\"merchantName\":\"Nørrebro Kaffe ApS\",\"paymentUrl\":\"http://localhost:4010/pay/pay_5000002_0k_sAhoB48oK2BTrz5qjsD\",\"createdAt\":\"2026-03-02T09:30:00.000Z\",\"updatedAt\":\"2026-03-02T09:30:00.000Z\",\"expiresAt\":\"2026-03-02T10:00:00.000Z\"}",
                "size": 439
              },
              "redirectURL": "",
              "headersSize": -1,
              "bodySize": 439
            },
            "comment": "journal entry 11, at 2026-03-02T09:30:00.000Z on the sandbox clock"
          }
        ],
        "_nextCursor": "ajoxMQ"
      }
    },
    "response": {
      "yaml": "# Imported by obsim from the HAR posted (HAR 1.2 written by obsim 0.1.0, 1 entries).\n# 1 entries: 1 taken as 1 steps.\n# Variables captured: none.\n# Kept as written (no earlier answer handed it out): merchantClient 9fc48f6e-3c5a-4cfd-988f-4578d0decc6e (body /merchantClientId of entry #0, POST /v1/partner/payments).\n# Not expected: merchantClientId, paymentId, paymentUrl (an id or link the replay is handed anew (captured where a later request uses it)).\n# Not expected: amount, currency, merchantName, referenceNumber (not a state: an echo of what was sent, or a detail of this provider).\n# Not expected: createdAt, expiresAt, updatedAt (a time, or a value that changes on every call).\n\nname: one-payment\ndescription: Imported from the HAR posted (HAR 1.2 written by obsim 0.1.0, 1 entries).\ntags:\n  - imported\n  - har\nsteps:\n  - request:\n      method: POST\n      path: /v1/partner/payments\n      body:\n        merchantClientId: 9fc48f6e-3c5a-4cfd-988f-4578d0decc6e\n        amount: 89\n        referenceNumber: order-1002\n      expect:\n        status: 200\n        body:\n          status: pending\n          bankPaymentStatus: Pending\n          failureReason: null\n",
      "summary": {
        "entries": 1,
        "taken": 1,
        "steps": 1,
        "leftOut": [],
        "skipped": [],
        "variables": [],
        "notExpected": [
          {
            "reason": "an id or link the replay is handed anew (captured where a later request uses it)",
            "keys": [
              "merchantClientId",
              "paymentId",
              "paymentUrl"
            ]
          },
          {
            "reason": "not a state: an echo of what was sent, or a detail of this provider",
            "keys": [
              "amount",
              "currency",
              "merchantName",
              "referenceNumber"
            ]
          },
          {
            "reason": "a time, or a value that changes on every call",
            "keys": [
              "createdAt",
              "expiresAt",
              "updatedAt"
            ]
          }
        ],
        "flagged": [],
        "literals": [
          "merchantClient 9fc48f6e-3c5a-4cfd-988f-4578d0decc6e (body /merchantClientId of entry #0, POST /v1/partner/payments)"
        ],
        "inferred": [],
        "unseen": []
      },
      "lines": [
        "1 entries: 1 taken as 1 steps.",
        "Variables captured: none.",
        "Kept as written (no earlier answer handed it out): merchantClient 9fc48f6e-3c5a-4cfd-988f-4578d0decc6e (body /merchantClientId of entry #0, POST /v1/partner/payments).",
        "Not expected: merchantClientId, paymentId, paymentUrl (an id or link the replay is handed anew (captured where a later request uses it)).",
        "Not expected: amount, currency, merchantName, referenceNumber (not a state: an echo of what was sent, or a detail of this provider).",
        "Not expected: createdAt, expiresAt, updatedAt (a time, or a value that changes on every call)."
      ]
    }
  },
  "listPactProviderStates": {
    "response": {
      "items": [
        {
          "name": "a merchant",
          "description": "A merchant of the partner: a test merchant (activated at creation), a standard one or a fast-tracked one, in the onboarding status asked for (driven there by the sandbox controls).",
          "params": {
            "kind": {
              "type": "string",
              "enum": [
                "test",
                "standard",
                "fast-track"
              ],
              "description": "How it was created; default: the one that reaches `status` (test for activated and inactive)"
            },
            "status": {
              "type": "string",
              "enum": [
                "pending_onboarding",
                "pending_completion",
                "pending_partner_ais",
                "awaiting_approval",
                "activated",
                "rejected",
                "inactive"
              ],
              "default": "activated",
              "description": "Its onboarding status"
            },
            "companyName": {
              "type": "string",
              "default": "Pact Shop ApS",
              "description": "Its company name"
            },
            "subTppStatus": {
              "type": "string",
              "enum": [
                "created",
                "failed"
              ],
              "description": "A fast-tracked merchant: failed makes its sub-TPP creation fail, so it onboards as a standard one"
            }
          },
          "answers": {
            "merchantId": "its merchantId",
            "merchantClientId": "its clientId (what payments name as merchantClientId)",
            "companyName": "its company name",
            "status": "its status",
            "onboardingToken": "its onboarding token (standard and fast-track merchants)"
          },
          "source": "built-in"
        },
        {
          "name": "a payment",
          "description": "A payment to an activated test merchant of the partner, in the status asked for: pending (as created), processing (approved at the bank), paid (approved and settled) or failed (with its failureReason). Its bankPaymentStatus is the one the status has.",
          "params": {
            "status": {
              "type": "string",
              "enum": [
                "pending",
                "processing",
                "paid",
                "failed"
              ],
              "default": "pending",
              "description": "Its status"
            },
            "failureReason": {
              "type": "string",
              "enum": [
                "bank_rejected",
                "payer_abandoned",
                "expired"
              ],
              "description": "Why it failed (status failed; default bank_rejected)"
            },
            "amount": {
              "type": "number",
              "default": 100,
              "description": "Its amount (DKK)"
            },
            "currency": {
              "type": "string",
              "enum": [
                "DKK"
              ],
              "default": "DKK",
              "description": "Its currency (the provider pays in DKK only)"
            },
            "referenceNumber": {
              "type": "string",
              "default": "pact-order-1",
              "description": "Its reference number"
            }
          },
          "answers": {
            "paymentId": "its paymentId",
            "merchantId": "its merchant's merchantId",
            "merchantClientId": "its merchant's clientId",
            "referenceNumber": "its reference number",
            "amount": "its amount",
            "status": "its status",
            "bankPaymentStatus": "its bankPaymentStatus",
            "paymentUrl": "its hosted payment page"
          },
          "source": "built-in"
        },
        {
          "name": "a webhook",
          "description": "A webhook registration of the partner (POST /v1/partner/webhooks), for the events asked for.",
          "params": {
            "url": {
              "type": "string",
              "default": "https://partner.example.test/webhooks",
              "description": "Where it delivers"
            },
            "events": {
              "type": "array",
              "items": {
                "type": "string",
                "enum": [
                  "payment.completed",
                  "payment.failed",
                  "merchant.activated",
                  "merchant.deactivated",
                  "merchant.onboarding.completed"
                ]
              },
              "default": [
                "payment.completed",
                "payment.failed"
              ],
              "description": "The event names it is registered for"
            }
          },
          "answers": {
            "webhookId": "its id",
            "url": "its URL"
          },
          "source": "built-in"
        },
        {
          "name": "a consent",
          "description": "An AIS consent of a bank user for an activated test merchant, in the status asked for (driven there by the sandbox controls), and a bearer token for the user and merchant.",
          "params": {
            "status": {
              "type": "string",
              "enum": [
                "pending",
                "authorized",
                "expired",
                "revoked",
                "failed"
              ],
              "default": "authorized",
              "description": "Its status"
            },
            "userId": {
              "type": "string",
              "default": "user-typical",
              "description": "The sandbox bank user (user-typical, user-no-accounts, user-multi-currency, user-100k, or any other id)"
            },
            "permissions": {
              "type": "array",
              "items": {
                "type": "string",
                "enum": [
                  "ais:accounts:read",
                  "ais:balance:read",
                  "ais:transactions:read"
                ]
              },
              "default": [
                "ais:accounts:read",
                "ais:balance:read",
                "ais:transactions:read"
              ],
              "description": "The bearer token's permissions"
            },
            "token": {
              "type": "string",
              "enum": [
                "valid",
                "expired"
              ],
              "default": "valid",
              "description": "expired: the sandbox's clock is moved past the bearer token's expiry (its exp claim) after it was made"
            }
          },
          "answers": {
            "consentRequestId": "its requestId",
            "consentId": "its consentId (once authorized)",
            "userId": "the bank user",
            "merchantId": "the merchant's merchantId",
            "token": "a bearer token for the user and merchant (generate-token)"
          },
          "source": "built-in"
        },
        {
          "name": "a bank user with accounts and transactions",
          "description": "A sandbox bank user whose accounts and transactions an activated test merchant may read: a bearer token and (unless consent is none) a consent in that status. The accounts and transactions are the sandbox bank's, the same for a user id everywhere.",
          "params": {
            "userId": {
              "type": "string",
              "default": "user-typical",
              "description": "The sandbox bank user (user-typical, user-no-accounts, user-multi-currency, user-100k, or any other id)"
            },
            "consent": {
              "type": "string",
              "enum": [
                "none",
                "pending",
                "authorized",
                "expired",
                "revoked",
                "failed"
              ],
              "default": "authorized",
              "description": "The status of the consent made for it, or none"
            },
            "permissions": {
              "type": "array",
              "items": {
                "type": "string",
                "enum": [
                  "ais:accounts:read",
                  "ais:balance:read",
                  "ais:transactions:read"
                ]
              },
              "default": [
                "ais:accounts:read",
                "ais:balance:read",
                "ais:transactions:read"
              ],
              "description": "The bearer token's permissions"
            },
            "token": {
              "type": "string",
              "enum": [
                "valid",
                "expired"
              ],
              "default": "valid",
              "description": "expired: the sandbox's clock is moved past the bearer token's expiry (its exp claim) after it was made"
            }
          },
          "answers": {
            "userId": "the bank user",
            "merchantId": "the merchant's merchantId",
            "token": "a bearer token for the user and merchant",
            "consentRequestId": "the consent's requestId (unless consent is none)",
            "accountId": "the user's first account (when the consent lets it be read)",
            "iban": "that account's IBAN"
          },
          "source": "built-in"
        },
        {
          "name": "no data",
          "description": "The sandbox emptied (POST /_sandbox/reset): only its default merchant, as when it was created.",
          "params": {},
          "answers": {},
          "source": "built-in"
        }
      ]
    }
  },
  "changePactProviderState": {
    "request": {
      "state": "a payment",
      "params": {
        "status": "paid"
      },
      "action": "setup"
    },
    "response": {
      "paymentId": 5000004,
      "merchantId": 100010,
      "merchantClientId": "9ae089ee-cabb-46b5-98fc-ed9a632442d6",
      "referenceNumber": "pact-order-1",
      "amount": 100,
      "status": "paid",
      "bankPaymentStatus": "AcceptedSettlementCompleted",
      "paymentUrl": "http://localhost:4010/pay/pay_5000004_bylRdcMYdF-NrQ2WydNsUT"
    }
  },
  "exportPact": {
    "response": {
      "consumer": {
        "name": "shop-app"
      },
      "provider": {
        "name": "open-banking-provider"
      },
      "interactions": [
        {
          "type": "Synchronous/HTTP",
          "description": "createTestMerchant answers 200 activated",
          "providerStates": [],
          "request": {
            "method": "POST",
            "path": "/v1/partner/merchants/test",
            "body": {
              "contentType": "application/json",
              "encoded": false,
              "content": {
                "companyName": "Pact Shop ApS"
              }
            },
            "headers": {
              "X-Partner-Client-Id": [
                "REDACTED"
              ],
              "X-Partner-Client-Secret": [
                "REDACTED"
              ],
              "Content-Type": [
                "application/json"
              ]
            }
          },
          "response": {
            "status": 200,
            "headers": {
              "Content-Type": [
                "application/json"
              ]
            },
            "body": {
              "contentType": "application/json",
              "encoded": false,
              "content": {
                "merchantId": 100010,
                "clientId": "9ae089ee-cabb-46b5-98fc-ed9a632442d6",
                "companyName": "Pact Shop ApS",
                "status": "activated",
                "message": "Test merchant created and activated: it can accept payments at once (sandbox only)."
              }
            },
            "matchingRules": {
              "body": {
                "$.merchantId": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "integer"
                    }
                  ]
                },
                "$.clientId": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "type"
                    }
                  ]
                },
                "$.companyName": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "type"
                    }
                  ]
                },
                "$.status": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "equality"
                    }
                  ]
                },
                "$.message": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "type"
                    }
                  ]
                }
              },
              "header": {
                "Content-Type": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "regex",
                      "regex": "^application/json.*"
                    }
                  ]
                }
              }
            }
          },
          "comments": {
            "text": [
              "From journal entry #87."
            ]
          }
        },
        {
          "type": "Synchronous/HTTP",
          "description": "createPayment answers 200 pending",
          "providerStates": [
            {
              "name": "a merchant",
              "params": {
                "kind": "test",
                "status": "activated"
              }
            }
          ],
          "request": {
            "method": "POST",
            "path": "/v1/partner/payments",
            "body": {
              "contentType": "application/json",
              "encoded": false,
              "content": {
                "merchantClientId": "9ae089ee-cabb-46b5-98fc-ed9a632442d6",
                "amount": 100,
                "referenceNumber": "pact-order-1"
              }
            },
            "headers": {
              "X-Partner-Client-Id": [
                "REDACTED"
              ],
              "X-Partner-Client-Secret": [
                "REDACTED"
              ],
              "Content-Type": [
                "application/json"
              ]
            },
            "generators": {
              "body": {
                "$.merchantClientId": {
                  "type": "ProviderState",
                  "expression": "${merchantClientId}",
                  "dataType": "STRING"
                }
              }
            }
          },
          "response": {
            "status": 200,
            "headers": {
              "Content-Type": [
                "application/json"
              ]
            },
            "body": {
              "contentType": "application/json",
              "encoded": false,
              "content": {
                "paymentId": 5000004,
                "status": "pending",
                "bankPaymentStatus": "Pending",
                "failureReason": null,
                "amount": 100,
                "currency": "DKK",
                "referenceNumber": "pact-order-1",
                "merchantClientId": "9ae089ee-cabb-46b5-98fc-ed9a632442d6",
                "merchantName": "Pact Shop ApS",
                "paymentUrl": "http://localhost:4010/pay/pay_5000004_bylRdcMYdF-NrQ2WydNsUT",
                "createdAt": "2026-03-02T09:40:00.001Z",
                "updatedAt": "2026-03-02T09:40:00.001Z",
                "expiresAt": "2026-03-02T10:10:00.001Z"
              }
            },
            "matchingRules": {
              "body": {
                "$.paymentId": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "integer"
                    }
                  ]
                },
                "$.status": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "equality"
                    }
                  ]
                },
                "$.bankPaymentStatus": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "type"
                    }
                  ]
                },
                "$.failureReason": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "equality"
                    }
                  ]
                },
                "$.amount": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "integer"
                    }
                  ]
                },
                "$.currency": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "equality"
                    }
                  ]
                },
                "$.referenceNumber": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "type"
                    }
                  ]
                },
                "$.merchantClientId": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "type"
                    }
                  ]
                },
                "$.merchantName": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "type"
                    }
                  ]
                },
                "$.paymentUrl": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "type"
                    }
                  ]
                },
                "$.createdAt": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "regex",
                      "regex": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"
                    }
                  ]
                },
                "$.updatedAt": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "regex",
                      "regex": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"
                    }
                  ]
                },
                "$.expiresAt": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "regex",
                      "regex": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"
                    }
                  ]
                }
              },
              "header": {
                "Content-Type": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "regex",
                      "regex": "^application/json.*"
                    }
                  ]
                }
              }
            }
          },
          "comments": {
            "text": [
              "From journal entry #88."
            ]
          }
        },
        {
          "type": "Synchronous/HTTP",
          "description": "getPaymentStatus answers 200 paid",
          "providerStates": [
            {
              "name": "a payment",
              "params": {
                "status": "paid"
              }
            }
          ],
          "request": {
            "method": "GET",
            "path": "/v1/partner/payments/5000004/status",
            "headers": {
              "X-Partner-Client-Id": [
                "REDACTED"
              ],
              "X-Partner-Client-Secret": [
                "REDACTED"
              ]
            },
            "generators": {
              "path": {
                "type": "ProviderState",
                "expression": "/v1/partner/payments/${paymentId}/status",
                "dataType": "STRING"
              }
            }
          },
          "response": {
            "status": 200,
            "headers": {
              "Content-Type": [
                "application/json"
              ]
            },
            "body": {
              "contentType": "application/json",
              "encoded": false,
              "content": {
                "paymentId": 5000004,
                "status": "paid",
                "bankPaymentStatus": "AcceptedSettlementCompleted",
                "failureReason": null,
                "amount": 100,
                "currency": "DKK",
                "referenceNumber": "pact-order-1",
                "merchantClientId": "9ae089ee-cabb-46b5-98fc-ed9a632442d6",
                "merchantName": "Pact Shop ApS",
                "paymentUrl": "http://localhost:4010/pay/pay_5000004_bylRdcMYdF-NrQ2WydNsUT",
                "createdAt": "2026-03-02T09:40:00.001Z",
                "updatedAt": "2026-03-02T09:40:00.001Z",
                "expiresAt": "2026-03-02T10:10:00.001Z"
              }
            },
            "matchingRules": {
              "body": {
                "$.paymentId": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "integer"
                    }
                  ]
                },
                "$.status": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "equality"
                    }
                  ]
                },
                "$.bankPaymentStatus": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "type"
                    }
                  ]
                },
                "$.failureReason": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "equality"
                    }
                  ]
                },
                "$.amount": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "integer"
                    }
                  ]
                },
                "$.currency": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "equality"
                    }
                  ]
                },
                "$.referenceNumber": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "type"
                    }
                  ]
                },
                "$.merchantClientId": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "type"
                    }
                  ]
                },
                "$.merchantName": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "type"
                    }
                  ]
                },
                "$.paymentUrl": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "type"
                    }
                  ]
                },
                "$.createdAt": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "regex",
                      "regex": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"
                    }
                  ]
                },
                "$.updatedAt": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "regex",
                      "regex": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"
                    }
                  ]
                },
                "$.expiresAt": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "regex",
                      "regex": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$"
                    }
                  ]
                }
              },
              "header": {
                "Content-Type": {
                  "combine": "AND",
                  "matchers": [
                    {
                      "match": "regex",
                      "regex": "^application/json.*"
                    }
                  ]
                }
              }
            }
          },
          "comments": {
            "text": [
              "From journal entry #91."
            ]
          }
        }
      ],
      "metadata": {
        "pactSpecification": {
          "version": "4.0"
        },
        "obsim": {
          "exportedFrom": "default"
        }
      }
    }
  },
  "getContractChangelog": {
    "response": {
      "from": "base",
      "to": "2027-03-01",
      "summary": {
        "changes": 20,
        "breaking": 8
      },
      "changes": [
        {
          "id": "field-deprecated createMerchant /partnerRefId",
          "kind": "field-deprecated",
          "breaking": false,
          "rule": "obsim-property-deprecated",
          "source": "document",
          "description": "createMerchant (POST /v1/partner/merchants): request field /partnerRefId deprecated",
          "place": "request",
          "operationId": "createMerchant",
          "method": "POST",
          "path": "/v1/partner/merchants",
          "field": "/partnerRefId",
          "fromPointer": "/components/schemas/CreateMerchantRequest/properties/partnerRefId",
          "toPointer": "/components/schemas/CreateMerchantRequest/properties/partnerRefId"
        },
        {
          "id": "operation-deprecated resendMerchantOnboarding",
          "kind": "operation-deprecated",
          "breaking": false,
          "rule": "endpoint-deprecated",
          "source": "document",
          "description": "resendMerchantOnboarding (POST /v1/partner/merchants/{merchantId}/resend-onboarding): deprecated",
          "operationId": "resendMerchantOnboarding",
          "method": "POST",
          "path": "/v1/partner/merchants/{merchantId}/resend-onboarding",
          "fromPointer": "/paths/~1v1~1partner~1merchants~1{merchantId}~1resend-onboarding/post",
          "toPointer": "/paths/~1v1~1partner~1merchants~1{merchantId}~1resend-onboarding/post/deprecated"
        },
        {
          "id": "answer-field-removed createPayment 200 /merchantName",
          "kind": "answer-field-removed",
          "breaking": true,
          "rule": "response-required-property-removed",
          "source": "document",
          "description": "createPayment (POST /v1/partner/payments): answer 200 field /merchantName removed",
          "place": "answer",
          "operationId": "createPayment",
          "method": "POST",
          "path": "/v1/partner/payments",
          "status": "200",
          "field": "/merchantName",
          "fromPointer": "/components/schemas/Payment/properties/merchantName"
        },
        {
          "id": "answer-field-added createPayment 200 /paymentReference",
          "kind": "answer-field-added",
          "breaking": false,
          "rule": "response-required-property-added",
          "source": "document",
          "description": "createPayment (POST /v1/partner/payments): new answer 200 field /paymentReference",
          "place": "answer",
          "operationId": "createPayment",
          "method": "POST",
          "path": "/v1/partner/payments",
          "status": "200",
          "field": "/paymentReference",
          "toPointer": "/components/schemas/Payment/properties/paymentReference"
        },
        {
          "id": "enum-value-added createPayment 200 /status \"authorized\"",
          "kind": "enum-value-added",
          "breaking": true,
          "rule": "response-property-enum-value-added",
          "source": "document",
          "description": "createPayment (POST /v1/partner/payments): answer 200 field /status takes the new value \"authorized\"",
          "place": "answer",
          "operationId": "createPayment",
          "method": "POST",
          "path": "/v1/partner/payments",
          "status": "200",
          "field": "/status",
          "value": "authorized",
          "fromPointer": "/components/schemas/Payment/properties/status/enum",
          "toPointer": "/components/schemas/Payment/properties/status/enum/1"
        },
        {
          "id": "answer-field-removed getPaymentStatus 200 /merchantName",
          "kind": "answer-field-removed",
          "breaking": true,
          "rule": "response-required-property-removed",
          "source": "document",
          "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): answer 200 field /merchantName removed",
          "place": "answer",
          "operationId": "getPaymentStatus",
          "method": "GET",
          "path": "/v1/partner/payments/{paymentId}/status",
          "status": "200",
          "field": "/merchantName",
          "fromPointer": "/components/schemas/Payment/properties/merchantName"
        },
        {
          "id": "answer-field-added getPaymentStatus 200 /paymentReference",
          "kind": "answer-field-added",
          "breaking": false,
          "rule": "response-required-property-added",
          "source": "document",
          "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): new answer 200 field /paymentReference",
          "place": "answer",
          "operationId": "getPaymentStatus",
          "method": "GET",
          "path": "/v1/partner/payments/{paymentId}/status",
          "status": "200",
          "field": "/paymentReference",
          "toPointer": "/components/schemas/Payment/properties/paymentReference"
        },
        {
          "id": "enum-value-added getPaymentStatus 200 /status \"authorized\"",
          "kind": "enum-value-added",
          "breaking": true,
          "rule": "response-property-enum-value-added",
          "source": "document",
          "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): answer 200 field /status takes the new value \"authorized\"",
          "place": "answer",
          "operationId": "getPaymentStatus",
          "method": "GET",
          "path": "/v1/partner/payments/{paymentId}/status",
          "status": "200",
          "field": "/status",
          "value": "authorized",
          "fromPointer": "/components/schemas/Payment/properties/status/enum",
          "toPointer": "/components/schemas/Payment/properties/status/enum/1"
        },
        {
          "id": "status-added registerWebhook 201",
          "kind": "status-added",
          "breaking": false,
          "rule": "response-success-status-added",
          "source": "document",
          "description": "registerWebhook (POST /v1/partner/webhooks): answers 201",
          "operationId": "registerWebhook",
          "method": "POST",
          "path": "/v1/partner/webhooks",
          "status": "201",
          "toPointer": "/paths/~1v1~1partner~1webhooks/post/responses/201"
        },
        {
          "id": "webhook-field-added payment.completed /data/paymentReference",
          "kind": "webhook-field-added",
          "breaking": false,
          "rule": "response-optional-property-added",
          "source": "document",
          "description": "webhook payment.completed: new payload field /data/paymentReference",
          "place": "webhook",
          "event": "payment.completed",
          "field": "/data/paymentReference",
          "toPointer": "/components/schemas/PaymentEventData/properties/paymentReference"
        },
        {
          "id": "webhook-field-added payment.failed /data/paymentReference",
          "kind": "webhook-field-added",
          "breaking": false,
          "rule": "response-optional-property-added",
          "source": "document",
          "description": "webhook payment.failed: new payload field /data/paymentReference",
          "place": "webhook",
          "event": "payment.failed",
          "field": "/data/paymentReference",
          "toPointer": "/components/schemas/PaymentEventData/properties/paymentReference"
        },
        {
          "id": "field-made createPayment /paymentReference",
          "kind": "field-made",
          "breaking": false,
          "rule": "obsim-field-made",
          "source": "switches",
          "description": "createPayment (POST /v1/partner/payments): obsim now sends answer field /paymentReference",
          "place": "answer",
          "operationId": "createPayment",
          "method": "POST",
          "path": "/v1/partner/payments",
          "field": "/paymentReference",
          "toPointer": "/x-obsim/answers/0"
        },
        {
          "id": "field-made getPaymentStatus /paymentReference",
          "kind": "field-made",
          "breaking": false,
          "rule": "obsim-field-made",
          "source": "switches",
          "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): obsim now sends answer field /paymentReference",
          "place": "answer",
          "operationId": "getPaymentStatus",
          "method": "GET",
          "path": "/v1/partner/payments/{paymentId}/status",
          "field": "/paymentReference",
          "toPointer": "/x-obsim/answers/1"
        },
        {
          "id": "value-now-sent getPaymentStatus /status \"authorized\"",
          "kind": "value-now-sent",
          "breaking": true,
          "rule": "obsim-value-now-sent",
          "source": "switches",
          "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): obsim now sends \"authorized\" in answer field /status when /status is \"processing\"",
          "place": "answer",
          "operationId": "getPaymentStatus",
          "method": "GET",
          "path": "/v1/partner/payments/{paymentId}/status",
          "field": "/status",
          "value": "authorized",
          "when": {
            "field": "/status",
            "equals": "processing"
          },
          "toPointer": "/x-obsim/answers/2"
        },
        {
          "id": "field-no-longer-sent createPayment /merchantName",
          "kind": "field-no-longer-sent",
          "breaking": true,
          "rule": "obsim-field-no-longer-sent",
          "source": "switches",
          "description": "createPayment (POST /v1/partner/payments): obsim no longer sends answer field /merchantName",
          "place": "answer",
          "operationId": "createPayment",
          "method": "POST",
          "path": "/v1/partner/payments",
          "field": "/merchantName",
          "toPointer": "/x-obsim/answers/3"
        },
        {
          "id": "field-no-longer-sent getPaymentStatus /merchantName",
          "kind": "field-no-longer-sent",
          "breaking": true,
          "rule": "obsim-field-no-longer-sent",
          "source": "switches",
          "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): obsim no longer sends answer field /merchantName",
          "place": "answer",
          "operationId": "getPaymentStatus",
          "method": "GET",
          "path": "/v1/partner/payments/{paymentId}/status",
          "field": "/merchantName",
          "toPointer": "/x-obsim/answers/4"
        },
        {
          "id": "field-made payment.completed /data/paymentReference",
          "kind": "field-made",
          "breaking": false,
          "rule": "obsim-field-made",
          "source": "switches",
          "description": "webhook payment.completed: obsim now sends payload field /data/paymentReference",
          "place": "webhook",
          "event": "payment.completed",
          "field": "/data/paymentReference",
          "toPointer": "/x-obsim/answers/5"
        },
        {
          "id": "field-made payment.failed /data/paymentReference",
          "kind": "field-made",
          "breaking": false,
          "rule": "obsim-field-made",
          "source": "switches",
          "description": "webhook payment.failed: obsim now sends payload field /data/paymentReference",
          "place": "webhook",
          "event": "payment.failed",
          "field": "/data/paymentReference",
          "toPointer": "/x-obsim/answers/6"
        },
        {
          "id": "sunset resendMerchantOnboarding",
          "kind": "sunset",
          "breaking": false,
          "rule": "api-sunset-date-changed",
          "source": "switches",
          "description": "resendMerchantOnboarding (POST /v1/partner/merchants/{merchantId}/resend-onboarding): sunset (— → 2027-09-01T00:00:00Z)",
          "operationId": "resendMerchantOnboarding",
          "method": "POST",
          "path": "/v1/partner/merchants/{merchantId}/resend-onboarding",
          "after": "2027-09-01T00:00:00Z",
          "toPointer": "/x-obsim/operations/resendMerchantOnboarding/sunsetAt"
        },
        {
          "id": "status-changed registerWebhook 200",
          "kind": "status-changed",
          "breaking": true,
          "rule": "obsim-status-changed",
          "source": "switches",
          "description": "registerWebhook (POST /v1/partner/webhooks): answers 201 where it answered 200",
          "operationId": "registerWebhook",
          "method": "POST",
          "path": "/v1/partner/webhooks",
          "status": "200",
          "before": "200",
          "after": "201",
          "toPointer": "/x-obsim/operations/registerWebhook/status/200"
        }
      ]
    }
  },
  "getContractImpact": {
    "response": {
      "sandboxId": "sandbox-partner",
      "to": "2027-03-01",
      "generatedAt": "2026-12-07T17:16:52.049Z",
      "traffic": {
        "entries": 3,
        "deliveries": 0,
        "unreadBodies": 0,
        "journalTruncated": false,
        "versions": [
          {
            "name": "base",
            "entries": 3,
            "deliveries": 0
          }
        ],
        "unknownVersions": []
      },
      "touched": [
        {
          "id": "answer-field-removed createPayment 200 /merchantName",
          "kind": "answer-field-removed",
          "breaking": true,
          "rule": "response-required-property-removed",
          "source": "document",
          "description": "createPayment (POST /v1/partner/payments): answer 200 field /merchantName removed",
          "from": "base",
          "evidence": {
            "entries": {
              "count": 1,
              "first": [
                87
              ]
            }
          },
          "place": "answer",
          "operationId": "createPayment",
          "method": "POST",
          "path": "/v1/partner/payments",
          "status": "200",
          "field": "/merchantName",
          "fromPointer": "/components/schemas/Payment/properties/merchantName"
        },
        {
          "id": "answer-field-added createPayment 200 /paymentReference",
          "kind": "answer-field-added",
          "breaking": false,
          "rule": "response-required-property-added",
          "source": "document",
          "description": "createPayment (POST /v1/partner/payments): new answer 200 field /paymentReference",
          "from": "base",
          "evidence": {
            "entries": {
              "count": 1,
              "first": [
                87
              ]
            }
          },
          "place": "answer",
          "operationId": "createPayment",
          "method": "POST",
          "path": "/v1/partner/payments",
          "status": "200",
          "field": "/paymentReference",
          "toPointer": "/components/schemas/Payment/properties/paymentReference"
        },
        {
          "id": "enum-value-added createPayment 200 /status \"authorized\"",
          "kind": "enum-value-added",
          "breaking": true,
          "rule": "response-property-enum-value-added",
          "source": "document",
          "description": "createPayment (POST /v1/partner/payments): answer 200 field /status takes the new value \"authorized\"",
          "from": "base",
          "evidence": {
            "entries": {
              "count": 1,
              "first": [
                87
              ]
            }
          },
          "place": "answer",
          "operationId": "createPayment",
          "method": "POST",
          "path": "/v1/partner/payments",
          "status": "200",
          "field": "/status",
          "value": "authorized",
          "fromPointer": "/components/schemas/Payment/properties/status/enum",
          "toPointer": "/components/schemas/Payment/properties/status/enum/1"
        },
        {
          "id": "answer-field-removed getPaymentStatus 200 /merchantName",
          "kind": "answer-field-removed",
          "breaking": true,
          "rule": "response-required-property-removed",
          "source": "document",
          "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): answer 200 field /merchantName removed",
          "from": "base",
          "evidence": {
            "entries": {
              "count": 1,
              "first": [
                90
              ]
            }
          },
          "place": "answer",
          "operationId": "getPaymentStatus",
          "method": "GET",
          "path": "/v1/partner/payments/{paymentId}/status",
          "status": "200",
          "field": "/merchantName",
          "fromPointer": "/components/schemas/Payment/properties/merchantName"
        },
        {
          "id": "answer-field-added getPaymentStatus 200 /paymentReference",
          "kind": "answer-field-added",
          "breaking": false,
          "rule": "response-required-property-added",
          "source": "document",
          "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): new answer 200 field /paymentReference",
          "from": "base",
          "evidence": {
            "entries": {
              "count": 1,
              "first": [
                90
              ]
            }
          },
          "place": "answer",
          "operationId": "getPaymentStatus",
          "method": "GET",
          "path": "/v1/partner/payments/{paymentId}/status",
          "status": "200",
          "field": "/paymentReference",
          "toPointer": "/components/schemas/Payment/properties/paymentReference"
        },
        {
          "id": "enum-value-added getPaymentStatus 200 /status \"authorized\"",
          "kind": "enum-value-added",
          "breaking": true,
          "rule": "response-property-enum-value-added",
          "source": "document",
          "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): answer 200 field /status takes the new value \"authorized\"",
          "from": "base",
          "evidence": {
            "entries": {
              "count": 1,
              "first": [
                90
              ]
            }
          },
          "place": "answer",
          "operationId": "getPaymentStatus",
          "method": "GET",
          "path": "/v1/partner/payments/{paymentId}/status",
          "status": "200",
          "field": "/status",
          "value": "authorized",
          "fromPointer": "/components/schemas/Payment/properties/status/enum",
          "toPointer": "/components/schemas/Payment/properties/status/enum/1"
        },
        {
          "id": "field-made createPayment /paymentReference",
          "kind": "field-made",
          "breaking": false,
          "rule": "obsim-field-made",
          "source": "switches",
          "description": "createPayment (POST /v1/partner/payments): obsim now sends answer field /paymentReference",
          "from": "base",
          "evidence": {
            "entries": {
              "count": 1,
              "first": [
                87
              ]
            }
          },
          "place": "answer",
          "operationId": "createPayment",
          "method": "POST",
          "path": "/v1/partner/payments",
          "field": "/paymentReference",
          "toPointer": "/x-obsim/answers/0"
        },
        {
          "id": "field-made getPaymentStatus /paymentReference",
          "kind": "field-made",
          "breaking": false,
          "rule": "obsim-field-made",
          "source": "switches",
          "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): obsim now sends answer field /paymentReference",
          "from": "base",
          "evidence": {
            "entries": {
              "count": 1,
              "first": [
                90
              ]
            }
          },
          "place": "answer",
          "operationId": "getPaymentStatus",
          "method": "GET",
          "path": "/v1/partner/payments/{paymentId}/status",
          "field": "/paymentReference",
          "toPointer": "/x-obsim/answers/1"
        },
        {
          "id": "field-no-longer-sent createPayment /merchantName",
          "kind": "field-no-longer-sent",
          "breaking": true,
          "rule": "obsim-field-no-longer-sent",
          "source": "switches",
          "description": "createPayment (POST /v1/partner/payments): obsim no longer sends answer field /merchantName",
          "from": "base",
          "evidence": {
            "entries": {
              "count": 1,
              "first": [
                87
              ]
            }
          },
          "place": "answer",
          "operationId": "createPayment",
          "method": "POST",
          "path": "/v1/partner/payments",
          "field": "/merchantName",
          "toPointer": "/x-obsim/answers/3"
        },
        {
          "id": "field-no-longer-sent getPaymentStatus /merchantName",
          "kind": "field-no-longer-sent",
          "breaking": true,
          "rule": "obsim-field-no-longer-sent",
          "source": "switches",
          "description": "getPaymentStatus (GET /v1/partner/payments/{paymentId}/status): obsim no longer sends answer field /merchantName",
          "from": "base",
          "evidence": {
            "entries": {
              "count": 1,
              "first": [
                90
              ]
            }
          },
          "place": "answer",
          "operationId": "getPaymentStatus",
          "method": "GET",
          "path": "/v1/partner/payments/{paymentId}/status",
          "field": "/merchantName",
          "toPointer": "/x-obsim/answers/4"
        }
      ],
      "breaking": 6,
      "untouched": {
        "count": 10,
        "breaking": 2
      },
      "verdict": "breaking"
    }
  }
};
