/**
 * What a bank's profile does to a payment (docs/banks.md). A payment keeps the rule that governs
 * what it is waiting for (`bank_rule`): the transition that ends the wait names it, so the
 * timelines, the journal's transitions and the readiness report can say which bank and which
 * rule were behind it.
 *
 *   bank_down             the payer chose a bank that is down; the page offered the others
 *   app_approval          the payer was sent to approve in the bank's app (decoupled)
 *   app_approval_expired  ... and the approval never came before the payment expired
 *   degraded_delay        a degraded bank answers an approval late, then settles
 *   degraded_failure      ... or rejects it (drawn from the profile's seed at its failureRate)
 *   next_business_day     approved after the cut-off or on a day the bank is shut: settles on
 *                         the next business day
 *   consent_max_days      the bank granted a shorter consent than was asked for
 *
 * None of this changes the contract: the statuses, failure reasons and events are the ones a
 * payment has without a profile; only when, and which of them, changes.
 */
import { businessDaySettlement, type BankCountry } from './bank-calendar.js';
import { backUpAt, healthAt, type BankProfile } from './bank-profiles.js';
import { magicOutcome } from './magic.js';
import { paymentTimer, type PaymentRow, type PaymentTrigger } from './payment.js';
import { isSandbox, type LifecycleSettings, type TimerRequest } from './settings.js';

export const BANK_RULES = [
  'bank_down',
  'app_approval',
  'app_approval_expired',
  'degraded_delay',
  'degraded_failure',
  'next_business_day',
  'consent_max_days',
] as const;
export type BankRule = (typeof BANK_RULES)[number];

/** The bank and rule behind a change: on its transition and on the events it sent (docs/banks.md). */
export interface BankNote {
  bankId: string;
  rule: BankRule;
}

/** A bank with a profile in force in one sandbox. */
export interface BankInForce {
  bank: { bankId: string; country: BankCountry };
  profile: BankProfile;
}

/** bankPaymentStatus of a payment held for the next business day (ISO 20022 ACCP: accepted, not yet settling). */
export const HELD_FOR_BUSINESS_DAY = 'AcceptedCustomerProfile';

/** What the payer's approval on the hosted page meets at a profiled bank. */
export type PayerApproval = 'unavailable' | 'app' | 'approve';

export function payerApproval(b: BankInForce, nowMs: number): PayerApproval {
  if (healthAt(b.profile, nowMs) === 'down') return 'unavailable';
  return b.profile.authorization.mode === 'decoupled' ? 'app' : 'approve';
}

/**
 * The rule a payment entering `processing` at `atMs` is held by, if any: a degraded bank draws
 * its answer (`drawFailure`, the profile's seeded stream: called only here, once per approval at
 * a degraded bank, so the same seed and sequence give the same failures); a business-days bank
 * holds an approval after its cut-off or on a shut day.
 */
export function processingRule(b: BankInForce, atMs: number, drawFailure: () => boolean): BankRule | null {
  if (healthAt(b.profile, atMs) === 'degraded') return drawFailure() ? 'degraded_failure' : 'degraded_delay';
  const { mode, cutOff } = b.profile.settlement;
  if (mode === 'business_days' && businessDaySettlement(atMs, b.bank.country, cutOff).deferred) return 'next_business_day';
  return null;
}

/** The rule the transition ending a wait names, by the trigger that ends it. */
export function endingRule(row: Pick<PaymentRow, 'bank_rule'>, trigger: PaymentTrigger): BankRule | null {
  const rule = row.bank_rule as BankRule | null;
  if (rule === 'app_approval' && trigger === 'expire') return 'app_approval_expired';
  // the payer chose another bank after a down one: the down one is behind nothing any more
  if (rule === 'bank_down' && trigger !== 'expire' && trigger !== 'abandon') return null;
  return rule;
}

const settleOrReject = (row: PaymentRow, settings: LifecycleSettings): PaymentTrigger =>
  isSandbox(settings) && magicOutcome(row.amount_minor / 100) === 'bank_rejected' ? 'reject' : 'settle';

/** The instant a business-days bank settles what it takes at `atMs`. */
function settlesAt(b: BankInForce, atMs: number): number {
  const { mode, cutOff } = b.profile.settlement;
  return mode === 'business_days' ? businessDaySettlement(atMs, b.bank.country, cutOff).atMs : atMs;
}

/**
 * The one timer a payment at a profiled bank needs (paymentTimer's, where the profile changes
 * nothing): the app approval or the expiry of a payment waiting in the app, and the bank's late
 * answer or next-business-day settlement of a processing one.
 */
export function bankPaymentTimer(row: PaymentRow, b: BankInForce, settings: LifecycleSettings): TimerRequest<PaymentTrigger> | undefined {
  const rule = row.bank_rule as BankRule | null;
  if (row.status === 'pending' && row.app_approval_requested_at !== null) {
    const expiry = isSandbox(settings) && magicOutcome(row.amount_minor / 100) === 'stay_pending' ? undefined : Date.parse(row.expires_at);
    const delay = b.profile.authorization.approvalDelaySeconds;
    let at = delay === null ? undefined : Date.parse(row.app_approval_requested_at) + delay * 1000;
    // a down bank's app sends nothing until the bank is back
    if (at !== undefined && healthAt(b.profile, at) === 'down') at = backUpAt(b.profile, at);
    if (at !== undefined && (expiry === undefined || at < expiry)) return { trigger: 'approve', dueAtMs: at };
    return expiry === undefined ? undefined : { trigger: 'expire', dueAtMs: expiry };
  }
  if (row.status === 'processing' && rule !== null) {
    const enteredMs = Date.parse(row.updated_at);
    const lateMs = enteredMs + b.profile.health.delaySeconds * 1000;
    if (rule === 'degraded_failure') return { trigger: 'reject', dueAtMs: lateMs };
    if (rule === 'degraded_delay') return { trigger: settleOrReject(row, settings), dueAtMs: settlesAt(b, lateMs) };
    if (rule === 'next_business_day' || rule === 'app_approval')
      return { trigger: settleOrReject(row, settings), dueAtMs: settlesAt(b, enteredMs) };
  }
  return paymentTimer(row, settings);
}
