/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > fast-track merchant 1`] = `
Object {
  "body": Object {
    "clientId": "<uuid>",
    "companyName": "Fast Co ApS",
    "contactEmail": "ops@fast.test",
    "expiresAt": "2026-01-22T09:00:00.000Z",
    "merchantId": 100003,
    "onboardingToken": "onb_<token>",
    "onboardingUrl": "http://127.0.0.1:4010/onboarding/onb_<token>",
    "status": "pending_partner_ais",
    "subTppId": "stpp_<hex>",
    "subTppMessage": null,
    "subTppStatus": "created",
  },
  "status": 200,
}
`

exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > fast-track sub-TPP failure 1`] = `
Object {
  "body": Object {
    "clientId": "<uuid>",
    "companyName": "Fast Co ApS",
    "contactEmail": "ops@fast.test",
    "expiresAt": "2026-01-22T09:00:00.000Z",
    "merchantId": 100004,
    "onboardingToken": "onb_<token>",
    "onboardingUrl": "http://127.0.0.1:4010/onboarding/onb_<token>",
    "status": "pending_onboarding",
    "subTppMessage": "Company registry lookup failed: registration number not found",
    "subTppStatus": "failed",
  },
  "status": 200,
}
`

exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > merchant list 1`] = `
Object {
  "body": Object {
    "items": Array [
      Object {
        "clientId": "<uuid>",
        "companyName": "obsim Default Merchant ApS",
        "contactEmail": "merchant@obsim.test",
        "createdAt": "2026-01-15T09:00:00.000Z",
        "merchantId": 100001,
        "partnerRefId": "obsim-default-merchant",
        "status": "activated",
        "subTppId": "stpp_<hex>",
        "subTppStatus": "active",
        "type": "test",
        "updatedAt": "2026-01-15T09:00:00.000Z",
      },
      Object {
        "clientId": "<uuid>",
        "companyName": "Acme ApS",
        "contactEmail": "ops@acme.test",
        "createdAt": "2026-01-15T09:00:00.000Z",
        "merchantId": 100002,
        "status": "pending_onboarding",
        "subTppStatus": "not_created",
        "type": "standard",
        "updatedAt": "2026-01-15T09:00:00.000Z",
      },
      Object {
        "clientId": "<uuid>",
        "companyName": "Fast Co ApS",
        "contactEmail": "ops@fast.test",
        "createdAt": "2026-01-15T09:00:00.000Z",
        "merchantId": 100003,
        "status": "pending_completion",
        "subTppId": "stpp_<hex>",
        "subTppStatus": "created",
        "type": "fast_track",
        "updatedAt": "2026-01-15T09:00:00.000Z",
      },
    ],
    "limit": 3,
    "page": 1,
    "total": 5,
  },
  "status": 200,
}
`

exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > not activated 1`] = `
Object {
  "body": Object {
    "code": "merchant_not_activated",
    "message": "Merchant 100003 is pending_completion; stores can be added once it is activated",
    "requestId": "req_<hex>",
    "status": 409,
  },
  "status": 409,
}
`

exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > not found 1`] = `
Object {
  "body": Object {
    "code": "payment_not_found",
    "message": "Payment 1 not found",
    "requestId": "req_<hex>",
    "status": 404,
  },
  "status": 404,
}
`

exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > onboarding status (fast-track) 1`] = `
Object {
  "body": Object {
    "merchantId": 100003,
    "onboardingStatus": "pending_completion",
    "subTppDetails": Object {
      "isActivated": false,
      "status": "created",
    },
    "subTppId": "stpp_<hex>",
  },
  "status": 200,
}
`

exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > payment 1`] = `
Object {
  "body": Object {
    "amount": 149.95,
    "bankPaymentStatus": "Pending",
    "createdAt": "2026-01-15T09:00:00.000Z",
    "currency": "DKK",
    "expiresAt": "2026-01-15T09:30:00.000Z",
    "failureReason": null,
    "merchantClientId": "<uuid>",
    "merchantName": "Shop ApS",
    "paymentId": 5000001,
    "paymentUrl": "http://127.0.0.1:4010/pay/pay_<token>",
    "referenceNumber": "order-1001",
    "status": "pending",
    "updatedAt": "2026-01-15T09:00:00.000Z",
  },
  "status": 200,
}
`

exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > payment status 1`] = `
Object {
  "body": Object {
    "amount": 149.95,
    "bankPaymentStatus": "Pending",
    "createdAt": "2026-01-15T09:00:00.000Z",
    "currency": "DKK",
    "expiresAt": "2026-01-15T09:30:00.000Z",
    "failureReason": null,
    "merchantClientId": "<uuid>",
    "merchantName": "Shop ApS",
    "paymentId": 5000001,
    "paymentUrl": "http://127.0.0.1:4010/pay/pay_<token>",
    "referenceNumber": "order-1001",
    "status": "pending",
    "updatedAt": "2026-01-15T09:00:00.000Z",
  },
  "status": 200,
}
`

exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > resend onboarding 1`] = `
Object {
  "body": Object {
    "expiresAt": "2026-01-22T09:00:00.000Z",
    "merchantId": 100003,
    "onboardingToken": "onb_<token>",
    "onboardingUrl": "http://127.0.0.1:4010/onboarding/onb_<token>",
    "status": "pending_completion",
  },
  "status": 200,
}
`

exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > standard merchant 1`] = `
Object {
  "body": Object {
    "clientId": "<uuid>",
    "companyName": "Acme ApS",
    "contactEmail": "ops@acme.test",
    "expiresAt": "2026-01-22T09:00:00.000Z",
    "merchantId": 100002,
    "onboardingToken": "onb_<token>",
    "onboardingUrl": "http://127.0.0.1:4010/onboarding/onb_<token>",
    "status": "pending_onboarding",
  },
  "status": 200,
}
`

exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > store 1`] = `
Object {
  "body": Object {
    "address": Object {
      "countryCode": "DK",
      "street": "Strøget 1",
    },
    "createdAt": "2026-01-15T09:00:00.000Z",
    "mccCode": "5812",
    "merchantId": 100005,
    "name": "Main Street",
    "partnerRefId": null,
    "storeId": 1,
  },
  "status": 200,
}
`

exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > test merchant 1`] = `
Object {
  "body": Object {
    "clientId": "<uuid>",
    "companyName": "Shop ApS",
    "merchantId": 100005,
    "message": "Test merchant created and activated: it can accept payments at once (sandbox only).",
    "status": "activated",
  },
  "status": 200,
}
`

exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > validation error 1`] = `
Object {
  "body": Object {
    "code": "validation_failed",
    "details": Array [
      Object {
        "field": "/amount",
        "in": "body",
        "message": "amount must have at most 2 decimal places",
      },
    ],
    "field": "/amount",
    "in": "body",
    "message": "amount must have at most 2 decimal places",
    "requestId": "req_<hex>",
    "status": 400,
  },
  "status": 400,
}
`

exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > webhook 1`] = `
Object {
  "body": Object {
    "createdAt": "2026-01-15T09:00:00.000Z",
    "events": Array [
      "payment.completed",
      "payment.failed",
    ],
    "id": "wh_<hex>",
    "secret": "whsec_<hex>",
    "url": "https://partner.example/hooks",
  },
  "status": 200,
}
`

exports[`test/routes/partner/snapshots.test.ts > TAP > partner API responses > webhook test 1`] = `
Object {
  "body": Object {
    "deliveryId": 1,
    "eventId": "evt_<hex>",
    "status": "queued",
    "webhookId": "wh_<hex>",
  },
  "status": 200,
}
`
