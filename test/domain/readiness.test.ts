/**
 * The readiness report's rules (src/domain/readiness.ts): coverage lists exactly what was not
 * called, each smell is found when committed (with the entries that prove it) and absent from a
 * clean run, and the checklist's verdict follows its items.
 */
import t from 'tap';
import { readinessReport } from '../../src/domain/readiness.js';
import type { ReadinessInput, ReportEntry } from '../../src/domain/readiness-input.js';

const OPERATIONS = [
  { operationId: 'createPayment', method: 'POST', path: '/v1/partner/payments' },
  { operationId: 'getPaymentStatus', method: 'GET', path: '/v1/partner/payments/{paymentId}/status' },
  { operationId: 'createMerchant', method: 'POST', path: '/v1/partner/merchants' },
  { operationId: 'getAccounts', method: 'POST', path: '/v1/ais/accounts' },
];

let nextId = 1;
const at = (s: number) => new Date(Date.UTC(2026, 10, 26, 10, 0, 0) + s * 1000).toISOString();
const entry = (s: number, method: string, path: string, status: number, extra: Partial<ReportEntry> = {}): ReportEntry => ({
  id: nextId++,
  at: at(s),
  wallAt: at(s),
  method,
  path,
  status,
  ...extra,
});

function input(over: Partial<ReadinessInput>): ReadinessInput {
  return {
    operations: OPERATIONS,
    entries: [],
    deliveries: [],
    payments: {},
    failureReasons: {},
    merchants: {},
    consents: {},
    receiverChecks: [],
    ...over,
  };
}

/** A partner that pays, handles both payment events, polls after a failed delivery, and passed check-receiver. */
function cleanRun(): ReadinessInput {
  const entries = [
    entry(0, 'POST', '/v1/partner/payments', 201, { requestBody: { referenceNumber: 'order-1' } }),
    entry(1, 'POST', '/v1/partner/payments', 201, { requestBody: { referenceNumber: 'order-2' } }),
    entry(20, 'GET', '/v1/partner/payments/5000002/status', 200),
  ];
  return input({
    entries,
    deliveries: [
      { event: 'payment.completed', paymentId: 5000001, state: 'delivered', at: at(6) },
      { event: 'payment.failed', paymentId: 5000002, state: 'delivered', at: at(7) },
      { event: 'payment.failed', paymentId: 5000002, state: 'failed', at: at(8) },
    ],
    payments: { paid: 1, failed: 1 },
    failureReasons: { bank_rejected: 1 },
    receiverChecks: [{ url: 'http://127.0.0.1:9/hooks', passed: true, forgedAccepted: false, checkedAt: at(9) }],
  });
}

t.test('coverage: the operations called, with their statuses; exactly the others unseen', async (t) => {
  const r = readinessReport(cleanRun());
  t.same(
    r.operations.filter((o) => !o.called).map((o) => o.operationId),
    ['createMerchant', 'getAccounts'],
  );
  const create = r.operations.find((o) => o.operationId === 'createPayment')!;
  t.same(create.statuses, { '201': 2 });
  t.equal(create.calls, 2);
  t.same(create.evidence, [2, 1], 'newest first');
  t.same(r.operations.find((o) => o.operationId === 'getPaymentStatus')!.statuses, { '200': 1 }, 'a path template matches an id');
});

t.test('a clean run: no smell, every item met or not applicable, verdict met', async (t) => {
  const r = readinessReport(cleanRun());
  t.same(r.smells, []);
  t.same(
    r.checklist.map((i) => [i.id, i.status]),
    [
      ['creates_payments', 'met'],
      ['handles_payment_completed', 'met'],
      ['handles_payment_failed', 'met'],
      ['handles_merchant_activated', 'not_applicable'],
      ['verifies_webhook_signatures', 'met'],
      ['polls_when_delivery_fails', 'met'],
      ['reads_accounts_with_consent', 'not_applicable'],
      ['no_smells', 'met'],
    ],
  );
  t.equal(r.verdict, 'met');
  t.same(r.lifecycles.events, [
    { event: 'payment.completed', acknowledged: 1, failed: 0 },
    { event: 'payment.failed', acknowledged: 1, failed: 1 },
    { event: 'merchant.activated', acknowledged: 0, failed: 0 },
    { event: 'merchant.deactivated', acknowledged: 0, failed: 0 },
    { event: 'merchant.onboarding.completed', acknowledged: 0, failed: 0 },
  ]);
  t.same(r.lifecycles.neverProduced, ['merchant.activated', 'merchant.deactivated', 'merchant.onboarding.completed']);
  t.same(r.lifecycles.payments, { reached: { paid: 1, failed: 1 }, unreached: ['pending', 'processing'] });
  t.same(r.lifecycles.failureReasons.unreached, ['payer_abandoned', 'expired']);
});

t.test('each smell, committed, is found with the entries that prove it', async (t) => {
  const dup = [
    entry(0, 'POST', '/v1/partner/payments', 201, { requestBody: { referenceNumber: 'order-9' } }),
    entry(1, 'POST', '/v1/partner/payments', 201, { requestBody: { referenceNumber: 'order-9' } }),
  ];
  const bad = [
    entry(2, 'POST', '/v1/partner/payments', 400, { code: 'validation_failed', field: 'amount' }),
    entry(3, 'POST', '/v1/partner/payments', 400, { code: 'validation_failed', field: 'amount' }),
  ];
  const limited = [
    entry(4, 'GET', '/v1/partner/payments/1/status', 429, { code: 'rate_limited' }),
    entry(4.2, 'GET', '/v1/partner/payments/1/status', 200),
  ];
  const expired = [
    entry(5, 'POST', '/v1/ais/accounts', 401, { code: 'token_expired' }),
    entry(6, 'POST', '/v1/ais/accounts', 401, { code: 'token_expired' }),
  ];
  const polls = [entry(30, 'GET', '/v1/partner/payments/7/status', 200), entry(30.3, 'GET', '/v1/partner/payments/7/status', 200)];
  const r = readinessReport(
    input({
      entries: [...dup, ...bad, ...limited, ...expired, ...polls],
      deliveries: [{ event: 'payment.completed', paymentId: 7, state: 'delivered', at: at(29) }],
      receiverChecks: [{ url: 'http://127.0.0.1:9/hooks', passed: false, forgedAccepted: true, checkedAt: at(9) }],
    }),
  );
  const ids = (entries: ReportEntry[]) => entries.map((e) => e.id);
  t.same(Object.fromEntries(r.smells.map((s) => [s.code, s.evidence])), {
    duplicate_reference_number: ids(dup),
    repeated_validation_error: ids(bad),
    retry_before_retry_after: ids(limited),
    expired_token_reused: ids(expired),
    polling_after_webhook: [polls[1].id],
    forged_signature_accepted: [],
  });
  for (const s of r.smells) {
    t.match(s.docs, /^docs\/readiness\.md#[a-z-]+$/, `${s.code} links its docs section`);
    t.ok(s.message.length > 20, `${s.code} explains itself`);
  }
  t.equal(r.checklist.find((i) => i.id === 'no_smells')?.status, 'unmet');
  t.equal(
    r.checklist.find((i) => i.id === 'verifies_webhook_signatures')?.status,
    'unmet',
    'a check that let a forged signature through proves nothing',
  );
  t.equal(r.verdict, 'unmet');
});

t.test('what is not smelly: different references, a retry after Retry-After, one expired token, slow polling', async (t) => {
  const r = readinessReport(
    input({
      entries: [
        entry(0, 'POST', '/v1/partner/payments', 201, { requestBody: { referenceNumber: 'a' } }),
        entry(1, 'POST', '/v1/partner/payments', 201, { requestBody: { referenceNumber: 'b' } }),
        entry(2, 'POST', '/v1/partner/payments', 400, { code: 'validation_failed', field: 'amount' }),
        entry(3, 'POST', '/v1/partner/payments', 400, { code: 'validation_failed', field: 'referenceNumber' }),
        entry(4, 'GET', '/v1/partner/payments/1/status', 503, { code: 'storage_unavailable' }),
        entry(5.5, 'GET', '/v1/partner/payments/1/status', 200),
        entry(6, 'POST', '/v1/ais/accounts', 401, { code: 'token_expired' }),
        entry(31, 'GET', '/v1/partner/payments/7/status', 200),
        entry(33, 'GET', '/v1/partner/payments/7/status', 200),
      ],
      deliveries: [{ event: 'payment.completed', paymentId: 7, state: 'delivered', at: at(30) }],
    }),
  );
  t.same(r.smells, []);
});

t.test('the checklist: unmet until shown, not applicable only where the partner ruled it out', async (t) => {
  const nothing = readinessReport(input({}));
  t.equal(nothing.verdict, 'unmet');
  t.same(
    nothing.checklist.filter((i) => i.status === 'unmet').map((i) => i.id),
    ['creates_payments', 'handles_payment_completed', 'handles_payment_failed', 'verifies_webhook_signatures', 'polls_when_delivery_fails'],
  );
  const ais = readinessReport(input({ consents: { pending: 1 } }));
  t.equal(ais.checklist.find((i) => i.id === 'reads_accounts_with_consent')?.status, 'unmet', 'asked for a consent: AIS applies');
  const merchant = readinessReport(input({ entries: [entry(0, 'POST', '/v1/partner/merchants', 200)], operations: [...OPERATIONS] }));
  t.equal(merchant.checklist.find((i) => i.id === 'handles_merchant_activated')?.status, 'unmet', 'onboarded a merchant: its events apply');
});
