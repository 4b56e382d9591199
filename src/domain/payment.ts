/**
 * Payment aggregate. The contract shows only `paid` (with bankPaymentStatus
 * AcceptedSettlementCompleted); the other states are obsim's documented choice:
 *
 *   pending     created, waiting for the payer to open paymentUrl and choose a bank
 *   processing  payer approved at the bank; settlement in progress
 *   paid        settled (payment.completed)
 *   failed      bank rejected, payer abandoned, or expired (payment.failed, with failureReason)
 */
import { defineMachine } from './machine.js';

export const PAYMENT_STATUSES = ['pending', 'processing', 'paid', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_TRIGGERS = ['approve', 'settle', 'reject', 'abandon', 'expire'] as const;
export type PaymentTrigger = (typeof PAYMENT_TRIGGERS)[number];

export const FAILURE_REASONS = ['bank_rejected', 'payer_abandoned', 'expired'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export const paymentMachine = defineMachine<PaymentStatus, PaymentTrigger>('payment', PAYMENT_STATUSES, PAYMENT_TRIGGERS, [
  { from: ['pending'], trigger: 'approve', to: 'processing', events: [], note: 'payer approved at the bank' },
  { from: ['pending', 'processing'], trigger: 'settle', to: 'paid', events: ['payment.completed'], note: 'settlement completed (sandbox: after OBSIM_SETTLE_DELAY, or control call)' },
  { from: ['pending', 'processing'], trigger: 'reject', to: 'failed', events: ['payment.failed'], note: 'bank rejected (failureReason bank_rejected)' },
  { from: ['pending'], trigger: 'abandon', to: 'failed', events: ['payment.failed'], note: 'payer abandoned (failureReason payer_abandoned)' },
  { from: ['pending'], trigger: 'expire', to: 'failed', events: ['payment.failed'], note: 'link expired (failureReason expired)' },
]);

/** bankPaymentStatus per state (ISO 20022 style names, as the contract's AcceptedSettlementCompleted). */
export function bankPaymentStatus(status: PaymentStatus, reason: FailureReason | null): string {
  switch (status) {
    case 'pending':
      return 'Pending';
    case 'processing':
      return 'AcceptedSettlementInProcess';
    case 'paid':
      return 'AcceptedSettlementCompleted';
    case 'failed':
      return reason === 'bank_rejected' ? 'Rejected' : 'Cancelled';
  }
}

export const FAILURE_REASON_BY_TRIGGER: Partial<Record<PaymentTrigger, FailureReason>> = {
  reject: 'bank_rejected',
  abandon: 'payer_abandoned',
  expire: 'expired',
};

/**
 * Magic amounts (sandbox): an amount that forces an outcome instead of the automatic settlement.
 * Served at GET /_sandbox/magic-values and listed in the README.
 */
export const MAGIC_AMOUNTS = [
  { amount: 666.66, outcome: 'bank_rejected', description: 'The bank rejects the payment at the settlement time: payment.failed, failureReason bank_rejected' },
  { amount: 777.77, outcome: 'payer_abandoned', description: 'The payer abandons at the settlement time: payment.failed, failureReason payer_abandoned' },
  { amount: 888.88, outcome: 'expired', description: 'Never settles by itself; expires after OBSIM_PAYMENT_EXPIRY: payment.failed, failureReason expired' },
  { amount: 999.99, outcome: 'stay_pending', description: 'Stays pending until the payer acts on paymentUrl or a control call completes or fails it (no expiry)' },
] as const;
export type MagicOutcome = (typeof MAGIC_AMOUNTS)[number]['outcome'];

export function magicOutcome(amount: number): MagicOutcome | undefined {
  return MAGIC_AMOUNTS.find((m) => m.amount === amount)?.outcome;
}
