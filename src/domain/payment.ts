/**
 * Payment aggregate. The contract shows only `paid` (with bankPaymentStatus
 * AcceptedSettlementCompleted); the other states are obsim's documented choice:
 *
 *   pending     created, waiting for the payer to open paymentUrl and choose a bank
 *   processing  payer approved at the bank; settlement in progress
 *   paid        settled (payment.completed)
 *   failed      bank rejected, payer abandoned, or expired (payment.failed, with failureReason)
 */
import { defineMachine, type EventName } from './machine.js';
import { magicOutcome } from './magic.js';
import { isSandbox, isoOf, type LifecycleSettings, type TimerRequest } from './settings.js';

export interface PaymentRow {
  id: number;
  partner_id: string;
  merchant_id: number;
  merchant_client_id: string;
  amount_minor: number;
  currency: string;
  reference_number: string;
  status: PaymentStatus;
  bank_payment_status: string | null;
  failure_reason: FailureReason | null;
  bank_id: string | null;
  expires_at: string;
  /** When the payer first opened the hosted payment page while it was pending (093). */
  page_opened_at: string | null;
  /** When the payer was sent to approve in the bank's app (a decoupled bank, 105); null otherwise. */
  app_approval_requested_at: string | null;
  /** The bank profile rule governing what the payment waits for (src/domain/bank-rules.ts, 105). */
  bank_rule: string | null;
  /** The last bank the payer chose while it was down, and when (the payer then chose another or left; 105). */
  bank_unavailable_id: string | null;
  bank_unavailable_at: string | null;
  created_at: string;
  updated_at: string;
}

export type NewPayment = Omit<
  PaymentRow,
  | 'id'
  | 'page_opened_at'
  | 'app_approval_requested_at'
  | 'bank_rule'
  | 'bank_unavailable_id'
  | 'bank_unavailable_at'
  | 'created_at'
  | 'updated_at'
>;

export const PAYMENT_STATUSES = ['pending', 'processing', 'paid', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_TRIGGERS = ['approve', 'settle', 'reject', 'abandon', 'expire'] as const;
export type PaymentTrigger = (typeof PAYMENT_TRIGGERS)[number];

export const FAILURE_REASONS = ['bank_rejected', 'payer_abandoned', 'expired'] as const;

/**
 * Every bankPaymentStatus obsim sends (ISO 20022 style names, as the contract's
 * AcceptedSettlementCompleted), in the order a payment meets them: AcceptedCustomerProfile is a
 * payment a business-days bank holds to its next business day (docs/banks.md).
 */
export const BANK_PAYMENT_STATUSES = [
  'Pending',
  'AcceptedCustomerProfile',
  'AcceptedSettlementInProcess',
  'AcceptedSettlementCompleted',
  'Rejected',
  'Cancelled',
] as const;
export type BankPaymentStatus = (typeof BANK_PAYMENT_STATUSES)[number];

/** The documents' words for BANK_PAYMENT_STATUSES (a description: the contract gives the field no enum). */
export const BANK_PAYMENT_STATUS_TEXT =
  'One of: Pending (created), AcceptedCustomerProfile (approved; a bank that settles on business days holds it to its next business day), AcceptedSettlementInProcess (approved, settling), AcceptedSettlementCompleted (paid), Rejected (the bank rejected it), Cancelled (abandoned or expired)';
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** Payments are in Danish kroner (the provider's sandbox banks are Nordic; the contract shows no currency field in requests). */
export const PAYMENT_CURRENCY = 'DKK' as const;

export const paymentMachine = defineMachine<PaymentStatus, PaymentTrigger>('payment', PAYMENT_STATUSES, PAYMENT_TRIGGERS, [
  { from: ['pending'], trigger: 'approve', to: 'processing', events: [], note: 'payer approved at the bank' },
  {
    from: ['pending', 'processing'],
    trigger: 'settle',
    to: 'paid',
    events: ['payment.completed'],
    note: 'settlement completed (sandbox: after OBSIM_SETTLE_DELAY, or control call)',
  },
  {
    from: ['pending', 'processing'],
    trigger: 'reject',
    to: 'failed',
    events: ['payment.failed'],
    note: 'bank rejected (failureReason bank_rejected)',
  },
  {
    from: ['pending'],
    trigger: 'abandon',
    to: 'failed',
    events: ['payment.failed'],
    note: 'payer abandoned (failureReason payer_abandoned)',
  },
  { from: ['pending'], trigger: 'expire', to: 'failed', events: ['payment.failed'], note: 'link expired (failureReason expired)' },
]);

/** bankPaymentStatus per state (ISO 20022 style names, as the contract's AcceptedSettlementCompleted). */
export function bankPaymentStatus(status: PaymentStatus, reason: FailureReason | null): BankPaymentStatus {
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

/** The trigger that fails a payment with `reason` (control API `fail`). */
export const TRIGGER_BY_FAILURE_REASON: Record<FailureReason, PaymentTrigger> = {
  bank_rejected: 'reject',
  payer_abandoned: 'abandon',
  expired: 'expire',
};

/** Still waiting for the payer on the hosted page. */
export const awaitsPayer = (row: Pick<PaymentRow, 'status'>): boolean => row.status === 'pending';

/** The sandbox outcome a payment's amount forces (magic amounts), never in production. */
function magicOf(row: Pick<PaymentRow, 'amount_minor'>, settings: LifecycleSettings) {
  return isSandbox(settings) ? magicOutcome(row.amount_minor / 100) : undefined;
}

/** A new pending payment of an activated merchant; its link expires after the payment expiry. */
export function newPayment(
  input: { partnerId: string; merchant: { id: number; client_id: string }; amountMinor: number; referenceNumber: string },
  nowMs: number,
  settings: LifecycleSettings,
): NewPayment {
  return {
    partner_id: input.partnerId,
    merchant_id: input.merchant.id,
    merchant_client_id: input.merchant.client_id,
    amount_minor: input.amountMinor,
    currency: PAYMENT_CURRENCY,
    reference_number: input.referenceNumber,
    status: 'pending',
    bank_payment_status: bankPaymentStatus('pending', null),
    failure_reason: null,
    bank_id: null,
    expires_at: isoOf(nowMs + settings.paymentExpiryMs),
  };
}

export interface PaymentChange {
  status: PaymentStatus;
  bank_payment_status: string;
  failure_reason: FailureReason | null;
  /** Set when the payer chose a bank; null keeps the stored one. */
  bank_id: string | null;
  /** The bank rule the new state waits under (null: none; the lifecycle sets it at a profiled bank). */
  bank_rule: string | null;
  updated_at: string;
}

/** Apply `trigger` at `atMs`: next status, its bank status and failure reason (409 when illegal), and the events. */
export function decidePayment(
  row: PaymentRow,
  trigger: PaymentTrigger,
  bankId: string | undefined,
  atMs: number,
): { change: PaymentChange; events: readonly EventName[] } {
  const { to, events } = paymentMachine.transition(row.status, trigger);
  const reason = to === 'failed' ? (FAILURE_REASON_BY_TRIGGER[trigger] ?? null) : null;
  return {
    change: {
      status: to,
      bank_payment_status: bankPaymentStatus(to, reason),
      failure_reason: reason,
      bank_id: bankId ?? null,
      bank_rule: null,
      updated_at: isoOf(atMs),
    },
    events,
  };
}

/**
 * The one timer a payment needs in its current state (`row.updated_at` is when it entered it).
 * A pending payment has two possible timed endings, its sandbox outcome (settle / reject /
 * abandon after the settle delay) and its expiry; whichever comes first moves it out of
 * `pending`, which makes the other illegal, so only the earlier is asked for (on a tie, expiry).
 * Magic 999.99 (stay_pending) never expires; in production nothing settles by itself. Once the
 * payer has opened the hosted page, the payer is in control: no automatic outcome any more, the
 * payment waits for the payer's decision or its expiry. A processing payment (the payer approved)
 * is settled by the bank after the settle delay (magic 666.66: rejected instead).
 */
export function paymentTimer(row: PaymentRow, settings: LifecycleSettings): TimerRequest<PaymentTrigger> | undefined {
  const magic = magicOf(row, settings);
  if (row.status === 'pending') {
    const expiry = magic === 'stay_pending' ? undefined : Date.parse(row.expires_at);
    const outcome: PaymentTrigger | undefined =
      !isSandbox(settings) || row.page_opened_at !== null
        ? undefined
        : magic === undefined
          ? 'settle'
          : magic === 'bank_rejected'
            ? 'reject'
            : magic === 'payer_abandoned'
              ? 'abandon'
              : undefined;
    const outcomeAt = Date.parse(row.created_at) + settings.settleDelayMs;
    if (outcome && (expiry === undefined || outcomeAt < expiry)) return { trigger: outcome, dueAtMs: outcomeAt };
    if (expiry !== undefined) return { trigger: 'expire', dueAtMs: expiry };
    return undefined;
  }
  if (row.status === 'processing') {
    return { trigger: magic === 'bank_rejected' ? 'reject' : 'settle', dueAtMs: Date.parse(row.updated_at) + settings.settleDelayMs };
  }
  return undefined;
}

/**
 * The hosted payment link no longer works: the payment expired, or it is pending past its
 * expiry instant (the expiry timer may not have fired yet). Magic 999.99 never expires.
 */
export function paymentLinkExpired(row: PaymentRow, nowMs: number, settings: LifecycleSettings): boolean {
  if (row.status === 'failed') return row.failure_reason === 'expired';
  if (row.status !== 'pending') return false;
  if (magicOf(row, settings) === 'stay_pending') return false;
  return Date.parse(row.expires_at) <= nowMs;
}

/**
 * The payer opens the hosted page: the first opening of a pending, unexpired payment is
 * recorded (its timer then becomes the expiry only: paymentTimer). Later openings, and openings
 * of a payment that is no longer pending, change nothing (undefined).
 */
export function payerOpensPage(row: PaymentRow, nowMs: number, settings: LifecycleSettings): { page_opened_at: string } | undefined {
  if (!awaitsPayer(row) || row.page_opened_at !== null || paymentLinkExpired(row, nowMs, settings)) return undefined;
  return { page_opened_at: isoOf(nowMs) };
}

export const PAYER_DECISIONS = ['approve', 'reject', 'abandon'] as const;
export type PayerDecision = (typeof PAYER_DECISIONS)[number];

/**
 * What the payer's choice on the hosted page does, in order: approving moves the payment to
 * processing and the sandbox bank settles it at once (so the payer sees the result), or rejects
 * it for the magic amount 666.66; rejecting and cancelling fail it.
 */
export function payerDecisionTriggers(row: PaymentRow, decision: PayerDecision, settings: LifecycleSettings): PaymentTrigger[] {
  if (decision === 'approve') return ['approve', magicOf(row, settings) === 'bank_rejected' ? 'reject' : 'settle'];
  return [decision];
}

/** `data` of payment.completed / payment.failed (schemas/webhooks.ts: the contract table, plus failureReason when failed). */
/**
 * `data` of payment.completed and payment.failed. schemas/webhooks.ts describes the same shape as
 * a JSON Schema and fails the typecheck if the two drift apart.
 */
export interface PaymentEventData {
  paymentId: number;
  referenceNumber: string;
  status: PaymentStatus;
  amount: number;
  currency: typeof PAYMENT_CURRENCY;
  merchantClientId: string;
  merchantName: string;
  bankPaymentStatus: string;
  timestamp: string;
  failureReason?: FailureReason;
}

export function paymentEventData(row: PaymentRow, merchantName: string, atIso: string): PaymentEventData {
  const data: PaymentEventData = {
    paymentId: row.id,
    referenceNumber: row.reference_number,
    status: row.status,
    amount: row.amount_minor / 100,
    currency: PAYMENT_CURRENCY,
    merchantClientId: row.merchant_client_id,
    merchantName,
    bankPaymentStatus: row.bank_payment_status ?? bankPaymentStatus(row.status, row.failure_reason),
    timestamp: atIso,
  };
  if (row.status === 'failed' && row.failure_reason !== null) data.failureReason = row.failure_reason;
  return data;
}
