/**
 * The drift catalogue: 50 seeded drifts of a provider, each a mutation the mutating proxy
 * (test/helpers/mutating-proxy.ts) applies to one answer or one webhook delivery of a shipped
 * scenario, and what the shadow must report for it (kind and pointer). test/drift/caught.test.ts
 * runs the short list in `npm test` and all 50 with OBSIM_DRIFT_ALL=1 (`npm run test:drift`);
 * `npm run bench:drift` counts how many are caught.
 */
import type { DriftKind } from '../../src/domain/drift.js';
import type { AnswerMutation, Mutation } from '../helpers/mutating-proxy.js';

export interface CatalogueEntry {
  id: string;
  scenario: string;
  mutation: Mutation;
  expect: { kind: DriftKind; pointer: string; detail?: DriftKind; webhook?: boolean };
  /** In the short list `npm test` runs (one of each kind). */
  short?: boolean;
}

const answer = (route: string, mutation: AnswerMutation, nth = 1): Mutation => ({ answer: { route, nth, mutation } });

const TEST_MERCHANT = 'POST /v1/partner/merchants/test';
const WEBHOOK = 'POST /v1/partner/webhooks';
const PAYMENT = 'POST /v1/partner/payments';
const STATUS = 'GET /v1/partner/payments/\\d+/status';
const TOKEN = 'POST /v1/auth/generate-token';
const CONSENT = 'POST /v1/ais/consents';
const ACCOUNTS = 'POST /v1/ais/accounts';
const BALANCE = 'POST /v1/ais/accounts/balance';
const TRANSACTIONS = 'POST /v1/ais/accounts/transactions';
const TRANSACTIONS_GET = 'GET /v1/ais/accounts/[^/]+/transactions';
const MERCHANT = 'POST /v1/partner/merchants';
const ONBOARDING = 'GET /v1/partner/merchants/\\d+/onboarding-status';

export const CATALOGUE: CatalogueEntry[] = [
  // the test merchant
  {
    id: 'merchant-message-removed',
    scenario: 'payment-paid',
    mutation: answer(TEST_MERCHANT, { op: 'remove', pointer: '/message' }),
    expect: { kind: 'field_missing', pointer: '/message' },
    short: true,
  },
  {
    id: 'merchant-field-added',
    scenario: 'payment-paid',
    mutation: answer(TEST_MERCHANT, { op: 'add', pointer: '/region', value: 'eu-north' }),
    expect: { kind: 'field_added', pointer: '/region' },
    short: true,
  },
  {
    id: 'merchant-status-enum',
    scenario: 'payment-paid',
    mutation: answer(TEST_MERCHANT, { op: 'set', pointer: '/status', value: 'ACTIVATED' }),
    expect: { kind: 'enum_value', pointer: '/status' },
    short: true,
  },
  {
    id: 'merchant-id-retyped',
    scenario: 'payment-paid',
    mutation: answer(TEST_MERCHANT, { op: 'set', pointer: '/merchantId', value: 'm-100002' }),
    expect: { kind: 'type', pointer: '/merchantId' },
    short: true,
  },
  // the webhook registration
  {
    id: 'webhook-created-removed',
    scenario: 'payment-paid',
    mutation: answer(WEBHOOK, { op: 'remove', pointer: '/createdAt' }),
    expect: { kind: 'field_missing', pointer: '/createdAt' },
  },
  {
    id: 'webhook-created-format',
    scenario: 'payment-paid',
    mutation: answer(WEBHOOK, { op: 'set', pointer: '/createdAt', value: '2026-11-27' }),
    expect: { kind: 'format', pointer: '/createdAt' },
    short: true,
  },
  {
    id: 'webhook-status-201',
    scenario: 'payment-paid',
    mutation: answer(WEBHOOK, { op: 'status', status: 201 }),
    expect: { kind: 'status', pointer: '' },
    short: true,
  },
  // the payment
  {
    id: 'payment-amount-string',
    scenario: 'payment-paid',
    mutation: answer(PAYMENT, { op: 'set', pointer: '/amount', value: '125.50' }),
    expect: { kind: 'type', pointer: '/amount' },
  },
  {
    id: 'payment-bank-status-value',
    scenario: 'payment-paid',
    mutation: answer(PAYMENT, { op: 'set', pointer: '/bankPaymentStatus', value: 'PDNG' }),
    expect: { kind: 'value', pointer: '/bankPaymentStatus' },
    short: true,
  },
  {
    id: 'payment-expires-removed',
    scenario: 'payment-paid',
    mutation: answer(PAYMENT, { op: 'remove', pointer: '/expiresAt' }),
    expect: { kind: 'field_missing', pointer: '/expiresAt' },
  },
  {
    id: 'payment-reference-renamed',
    scenario: 'payment-paid',
    mutation: answer(PAYMENT, { op: 'rename', pointer: '/referenceNumber', to: 'reference' }),
    expect: { kind: 'field_added', pointer: '/reference' },
  },
  {
    id: 'payment-fees-added',
    scenario: 'payment-paid',
    mutation: answer(PAYMENT, { op: 'add', pointer: '/fees', value: { amount: 1.25 } }),
    expect: { kind: 'field_added', pointer: '/fees' },
  },
  {
    id: 'payment-created-format',
    scenario: 'payment-paid',
    mutation: answer(PAYMENT, { op: 'set', pointer: '/createdAt', value: '2026-11-27 18:10:10' }),
    expect: { kind: 'format', pointer: '/createdAt' },
  },
  {
    id: 'payment-request-id-header-dropped',
    scenario: 'payment-paid',
    mutation: answer(PAYMENT, { op: 'header', name: 'x-request-id' }),
    expect: { kind: 'header', pointer: 'x-request-id' },
    short: true,
  },
  {
    id: 'payment-currency-enum',
    scenario: 'payment-paid',
    mutation: answer(PAYMENT, { op: 'set', pointer: '/currency', value: 'EUR' }),
    expect: { kind: 'enum_value', pointer: '/currency' },
  },
  // the payment's status
  {
    id: 'status-failure-reason-removed',
    scenario: 'payment-paid',
    mutation: answer(STATUS, { op: 'remove', pointer: '/failureReason' }),
    expect: { kind: 'field_missing', pointer: '/failureReason' },
  },
  {
    id: 'status-failure-reason-retyped',
    scenario: 'payment-paid',
    mutation: answer(STATUS, { op: 'set', pointer: '/failureReason', value: '' }),
    expect: { kind: 'type', pointer: '/failureReason' },
  },
  {
    id: 'status-paid-enum',
    scenario: 'payment-paid',
    mutation: answer(STATUS, { op: 'set', pointer: '/status', value: 'settled' }),
    expect: { kind: 'enum_value', pointer: '/status' },
  },
  {
    id: 'status-settled-at-only-when-paid',
    scenario: 'payment-paid',
    mutation: answer(STATUS, {
      op: 'add',
      pointer: '/settledAt',
      value: '2026-11-27T18:10:15.421Z',
      when: { pointer: '/status', equals: 'paid' },
    }),
    expect: { kind: 'field_added', pointer: '/settledAt' },
    short: true,
  },
  {
    id: 'status-content-type',
    scenario: 'payment-paid',
    mutation: answer(STATUS, { op: 'header', name: 'content-type', value: 'application/problem+json' }),
    expect: { kind: 'header', pointer: 'content-type' },
  },
  {
    id: 'status-code-202',
    scenario: 'payment-paid',
    mutation: answer(STATUS, { op: 'status', status: 202 }),
    expect: { kind: 'status', pointer: '' },
  },
  // AIS: the token, the consent, accounts, balance, transactions
  {
    id: 'token-expires-in-added',
    scenario: 'consent-authorized-read',
    mutation: answer(TOKEN, { op: 'add', pointer: '/expiresIn', value: 3600 }),
    expect: { kind: 'field_added', pointer: '/expiresIn' },
  },
  {
    id: 'token-renamed',
    scenario: 'consent-authorized-read',
    mutation: answer(TOKEN, { op: 'rename', pointer: '/token', to: 'accessToken' }),
    expect: { kind: 'field_added', pointer: '/accessToken' },
  },
  {
    id: 'consent-authorization-url-removed',
    scenario: 'consent-authorized-read',
    mutation: answer(CONSENT, { op: 'remove', pointer: '/authorizationUrl' }),
    expect: { kind: 'field_missing', pointer: '/authorizationUrl' },
  },
  {
    id: 'consent-status-enum',
    scenario: 'consent-authorized-read',
    mutation: answer(CONSENT, { op: 'set', pointer: '/status', value: 'Pending' }),
    expect: { kind: 'enum_value', pointer: '/status' },
  },
  {
    id: 'consent-expiry-format',
    scenario: 'consent-authorized-read',
    mutation: answer(CONSENT, { op: 'set', pointer: '/expirationDateTime', value: '2027-02-25' }),
    expect: { kind: 'format', pointer: '/expirationDateTime' },
  },
  {
    id: 'accounts-iban-removed',
    scenario: 'consent-authorized-read',
    mutation: answer(ACCOUNTS, { op: 'remove', pointer: '/accounts/0/iban' }, 2),
    expect: { kind: 'field_missing', pointer: '/accounts/0/iban' },
    short: true,
  },
  {
    id: 'accounts-balance-number',
    scenario: 'consent-authorized-read',
    mutation: answer(ACCOUNTS, { op: 'set', pointer: '/accounts/0/balance', value: 7204.9 }, 2),
    expect: { kind: 'type', pointer: '/accounts/0/balance' },
  },
  {
    id: 'accounts-status-added',
    scenario: 'consent-authorized-read',
    mutation: answer(ACCOUNTS, { op: 'add', pointer: '/accounts/0/status', value: 'enabled' }, 2),
    expect: { kind: 'field_added', pointer: '/accounts/0/status' },
  },
  {
    id: 'accounts-balance-format',
    scenario: 'consent-authorized-read',
    mutation: answer(ACCOUNTS, { op: 'set', pointer: '/accounts/0/balance', value: '7,204.90' }, 2),
    expect: { kind: 'format', pointer: '/accounts/0/balance' },
  },
  {
    id: 'balance-updated-removed',
    scenario: 'consent-authorized-read',
    mutation: answer(BALANCE, { op: 'remove', pointer: '/balance/lastUpdated' }),
    expect: { kind: 'field_missing', pointer: '/balance/lastUpdated' },
  },
  {
    id: 'balance-value-number',
    scenario: 'consent-authorized-read',
    mutation: answer(BALANCE, { op: 'set', pointer: '/balance/value', value: 7204.9 }),
    expect: { kind: 'type', pointer: '/balance/value' },
  },
  {
    id: 'transactions-total-removed',
    scenario: 'consent-authorized-read',
    mutation: answer(TRANSACTIONS, { op: 'remove', pointer: '/totalTransactions' }),
    expect: { kind: 'field_missing', pointer: '/totalTransactions' },
  },
  {
    id: 'transactions-type-enum',
    scenario: 'consent-authorized-read',
    mutation: answer(TRANSACTIONS, { op: 'set', pointer: '/transactions/0/type', value: 'DBIT' }),
    expect: { kind: 'enum_value', pointer: '/transactions/0/type' },
  },
  {
    id: 'transactions-booking-format',
    scenario: 'consent-authorized-read',
    mutation: answer(TRANSACTIONS, { op: 'set', pointer: '/transactions/0/bookingDate', value: '2026-11-26' }),
    expect: { kind: 'format', pointer: '/transactions/0/bookingDate' },
  },
  {
    id: 'transactions-list-counterparty-removed',
    scenario: 'consent-authorized-read',
    mutation: answer(TRANSACTIONS_GET, { op: 'remove', pointer: '/0/counterparty' }),
    expect: { kind: 'field_missing', pointer: '/0/counterparty' },
  },
  // standard onboarding
  {
    id: 'merchant-onboarding-token-removed',
    scenario: 'merchant-standard-onboarding',
    mutation: answer(MERCHANT, { op: 'remove', pointer: '/onboardingToken' }),
    expect: { kind: 'field_missing', pointer: '/onboardingToken' },
  },
  {
    id: 'merchant-dashboard-url-added',
    scenario: 'merchant-standard-onboarding',
    mutation: answer(MERCHANT, { op: 'add', pointer: '/dashboardUrl', value: 'https://dashboard.example/m/1' }),
    expect: { kind: 'field_added', pointer: '/dashboardUrl' },
  },
  {
    id: 'onboarding-activated-at-only-when-active',
    scenario: 'merchant-standard-onboarding',
    mutation: answer(
      ONBOARDING,
      {
        op: 'add',
        pointer: '/activatedAt',
        value: '2026-11-27T18:10:41.000Z',
        when: { pointer: '/onboardingStatus', equals: 'activated' },
      },
      3,
    ),
    expect: { kind: 'field_added', pointer: '/activatedAt' },
  },
  {
    id: 'onboarding-sub-tpp-enum',
    scenario: 'merchant-standard-onboarding',
    mutation: answer(ONBOARDING, { op: 'set', pointer: '/subTppDetails/status', value: 'ACTIVE' }, 3),
    expect: { kind: 'enum_value', pointer: '/subTppDetails/status' },
  },
  {
    id: 'onboarding-is-activated-string',
    scenario: 'merchant-standard-onboarding',
    mutation: answer(ONBOARDING, { op: 'set', pointer: '/subTppDetails/isActivated', value: 'true' }, 3),
    expect: { kind: 'type', pointer: '/subTppDetails/isActivated' },
  },
  // webhooks
  {
    id: 'webhook-dropped',
    scenario: 'payment-paid',
    mutation: { webhook: { event: 'payment.completed', mutation: { op: 'drop' } } },
    expect: { kind: 'event_missing', pointer: '', webhook: true },
    short: true,
  },
  {
    id: 'webhook-duplicated',
    scenario: 'payment-paid',
    mutation: { webhook: { event: 'payment.completed', mutation: { op: 'duplicate' } } },
    expect: { kind: 'event_extra', pointer: '', webhook: true },
    short: true,
  },
  {
    id: 'webhook-delayed',
    scenario: 'payment-paid',
    mutation: { webhook: { event: 'payment.completed', mutation: { op: 'delay', ms: 1000 } } },
    expect: { kind: 'event_late', pointer: '', webhook: true },
    short: true,
  },
  {
    id: 'webhook-wrong-key',
    scenario: 'payment-paid',
    mutation: { webhook: { event: 'payment.completed', mutation: { op: 'resign' } } },
    expect: { kind: 'event_signature', pointer: 'x-webhook-signature', webhook: true },
    short: true,
  },
  {
    id: 'webhook-renamed',
    scenario: 'payment-paid',
    mutation: {
      webhook: {
        event: 'payment.completed',
        mutation: { op: 'payload', mutation: { op: 'set', pointer: '/event', value: 'payment.settled' } },
      },
    },
    expect: { kind: 'event_payload', pointer: '/event', detail: 'enum_value', webhook: true },
    short: true,
  },
  {
    id: 'webhook-bank-status-removed',
    scenario: 'payment-paid',
    mutation: {
      webhook: { event: 'payment.completed', mutation: { op: 'payload', mutation: { op: 'remove', pointer: '/data/bankPaymentStatus' } } },
    },
    expect: { kind: 'event_payload', pointer: '/data/bankPaymentStatus', detail: 'field_missing', webhook: true },
  },
  {
    id: 'webhook-reordered',
    scenario: 'merchant-deactivated-reactivated',
    mutation: { webhook: { event: 'merchant.deactivated', mutation: { op: 'reorder' } } },
    expect: { kind: 'event_order', pointer: '', webhook: true },
    short: true,
  },
  {
    id: 'webhook-field-added',
    scenario: 'merchant-standard-onboarding',
    mutation: {
      webhook: {
        event: 'merchant.activated',
        mutation: { op: 'payload', mutation: { op: 'add', pointer: '/data/onboardingStage', value: 'done' } },
      },
    },
    expect: { kind: 'event_payload', pointer: '/data/onboardingStage', detail: 'field_added', webhook: true },
  },
  {
    id: 'webhook-amount-string',
    scenario: 'payment-failed-bank-rejected',
    mutation: {
      webhook: { event: 'payment.failed', mutation: { op: 'payload', mutation: { op: 'set', pointer: '/data/amount', value: '666.66' } } },
    },
    expect: { kind: 'event_payload', pointer: '/data/amount', detail: 'type', webhook: true },
  },
];
