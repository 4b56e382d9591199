/** Payment rules as pure functions: no database, no app. */
import t from 'tap';
import {
  decidePayment,
  newPayment,
  payerDecisionTriggers,
  paymentEventData,
  paymentLinkExpired,
  paymentTimer,
  payerOpensPage,
} from '../../src/domain/payment.js';
import { NOW, PRODUCTION, SANDBOX } from '../helpers/domain.js';
import type { PaymentRow } from '../../src/domain/payment.js';

function payment(amount: number, over: Partial<PaymentRow> = {}, settings = SANDBOX): PaymentRow {
  const p = newPayment(
    { partnerId: 'p', merchant: { id: 100001, client_id: 'c-1' }, amountMinor: Math.round(amount * 100), referenceNumber: 'r-1' },
    NOW,
    settings,
  );
  return {
    id: 5000001,
    ...p,
    page_opened_at: null,
    app_approval_requested_at: null,
    bank_rule: null,
    bank_unavailable_id: null,
    bank_unavailable_at: null,
    created_at: new Date(NOW).toISOString(),
    updated_at: new Date(NOW).toISOString(),
    ...over,
  };
}

t.test('a new payment is pending in DKK and expires after the payment expiry', async (t) => {
  t.match(payment(10), {
    status: 'pending',
    currency: 'DKK',
    bank_payment_status: 'Pending',
    failure_reason: null,
    expires_at: '2026-01-15T09:30:00.000Z',
  });
});

t.test('paymentTimer: one timer per state, magic amounts, production, ties', async (t) => {
  t.same(paymentTimer(payment(10), SANDBOX), { trigger: 'settle', dueAtMs: NOW + 5_000 }, 'untouched: settles after the settle delay');
  t.same(paymentTimer(payment(666.66), SANDBOX), { trigger: 'reject', dueAtMs: NOW + 5_000 });
  t.same(paymentTimer(payment(777.77), SANDBOX), { trigger: 'abandon', dueAtMs: NOW + 5_000 });
  t.same(paymentTimer(payment(888.88), SANDBOX), { trigger: 'expire', dueAtMs: NOW + 1_800_000 });
  t.equal(paymentTimer(payment(999.99), SANDBOX), undefined, '999.99 stays pending, no expiry');
  t.same(
    paymentTimer(payment(999.99, {}, PRODUCTION), PRODUCTION),
    { trigger: 'expire', dueAtMs: NOW + 1_800_000 },
    'no magic in production: it expires',
  );
  t.same(
    paymentTimer(payment(10, {}, PRODUCTION), PRODUCTION),
    { trigger: 'expire', dueAtMs: NOW + 1_800_000 },
    'nothing settles by itself in production',
  );
  const tie = { ...SANDBOX, settleDelayMs: 1_800_000 };
  t.same(paymentTimer(payment(10, {}, tie), tie), { trigger: 'expire', dueAtMs: NOW + 1_800_000 }, 'on a tie, expiry');
  const approved = payment(10, { status: 'processing', updated_at: new Date(NOW + 60_000).toISOString() });
  t.same(
    paymentTimer(approved, SANDBOX),
    { trigger: 'settle', dueAtMs: NOW + 65_000 },
    'processing: the bank settles after the delay from approval',
  );
  t.same(paymentTimer(payment(666.66, { status: 'processing' }), SANDBOX), { trigger: 'reject', dueAtMs: NOW + 5_000 });
  t.equal(paymentTimer(payment(10, { status: 'paid' }), SANDBOX), undefined);
});

t.test('decidePayment: failure reasons and bank statuses', async (t) => {
  const p = payment(10);
  t.match(decidePayment(p, 'settle', undefined, NOW).change, {
    status: 'paid',
    bank_payment_status: 'AcceptedSettlementCompleted',
    failure_reason: null,
  });
  t.match(decidePayment(p, 'reject', 'bank-1', NOW).change, {
    status: 'failed',
    bank_payment_status: 'Rejected',
    failure_reason: 'bank_rejected',
    bank_id: 'bank-1',
  });
  t.match(decidePayment(p, 'abandon', undefined, NOW).change, { failure_reason: 'payer_abandoned', bank_payment_status: 'Cancelled' });
  t.match(decidePayment(p, 'expire', undefined, NOW), { change: { failure_reason: 'expired' }, events: ['payment.failed'] });
  t.same(decidePayment(p, 'approve', 'bank-1', NOW).events, []);
  t.throws(() => decidePayment(payment(10, { status: 'paid' }), 'reject', undefined, NOW), { code: 'illegal_transition' });
});

t.test('the hosted link expires with the payment, never for 999.99', async (t) => {
  const at = NOW + 1_800_000;
  t.notOk(paymentLinkExpired(payment(10), at - 1, SANDBOX));
  t.ok(paymentLinkExpired(payment(10), at, SANDBOX), 'pending past its expiry, before the timer fired');
  t.notOk(paymentLinkExpired(payment(999.99), at + 1e9, SANDBOX));
  t.ok(paymentLinkExpired(payment(10, { status: 'failed', failure_reason: 'expired' }), NOW, SANDBOX));
  t.notOk(paymentLinkExpired(payment(10, { status: 'failed', failure_reason: 'bank_rejected' }), at + 1, SANDBOX));
  t.notOk(paymentLinkExpired(payment(10, { status: 'paid' }), at + 1, SANDBOX));
});

t.test("the payer's decision: approving settles at once (666.66: the bank rejects)", async (t) => {
  t.same(payerDecisionTriggers(payment(10), 'approve', SANDBOX), ['approve', 'settle']);
  t.same(payerDecisionTriggers(payment(666.66), 'approve', SANDBOX), ['approve', 'reject']);
  t.same(payerDecisionTriggers(payment(666.66), 'approve', PRODUCTION), ['approve', 'settle']);
  t.same(payerDecisionTriggers(payment(10), 'reject', SANDBOX), ['reject']);
  t.same(payerDecisionTriggers(payment(10), 'abandon', SANDBOX), ['abandon']);
});

t.test('payment event data: the contract table, failureReason when failed', async (t) => {
  t.same(paymentEventData(payment(149.95, { status: 'paid', bank_payment_status: 'AcceptedSettlementCompleted' }), 'Shop', 'T'), {
    paymentId: 5000001,
    referenceNumber: 'r-1',
    status: 'paid',
    amount: 149.95,
    currency: 'DKK',
    merchantClientId: 'c-1',
    merchantName: 'Shop',
    bankPaymentStatus: 'AcceptedSettlementCompleted',
    timestamp: 'T',
  });
  t.equal(paymentEventData(payment(1, { status: 'failed', failure_reason: 'expired' }), 'Shop', 'T').failureReason, 'expired');
});

t.test('a payer who opens the page is in control: no automatic outcome, only the expiry', async (t) => {
  const opened = (amount: number) => payment(amount, { page_opened_at: new Date(NOW + 1000).toISOString() });
  t.same(
    paymentTimer(opened(10), SANDBOX),
    { trigger: 'expire', dueAtMs: NOW + 1_800_000 },
    'the settlement is cancelled; it expires unless the payer decides',
  );
  t.same(
    paymentTimer(opened(666.66), SANDBOX),
    { trigger: 'expire', dueAtMs: NOW + 1_800_000 },
    'magic outcomes are automatic too: cancelled',
  );
  t.equal(paymentTimer(opened(999.99), SANDBOX), undefined, '999.99 still never expires');
  t.same(paymentTimer(opened(10), PRODUCTION), { trigger: 'expire', dueAtMs: NOW + 1_800_000 });

  t.same(payerOpensPage(payment(10), NOW + 1000, SANDBOX), { page_opened_at: '2026-01-15T09:00:01.000Z' }, 'the first opening is recorded');
  t.equal(payerOpensPage(opened(10), NOW + 2000, SANDBOX), undefined, 'later openings change nothing');
  t.equal(payerOpensPage(payment(10, { status: 'paid' }), NOW, SANDBOX), undefined, 'a settled payment is only shown');
  t.equal(payerOpensPage(payment(10), NOW + 1_800_000, SANDBOX), undefined, 'an expired link is only shown');
});
