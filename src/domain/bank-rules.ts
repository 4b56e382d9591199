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
import { paymentTimer, type BankPaymentStatus, type PaymentChange, type PaymentRow, type PaymentTrigger } from './payment.js';
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
const HELD_FOR_BUSINESS_DAY: BankPaymentStatus = 'AcceptedCustomerProfile';

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
function processingRule(b: BankInForce, atMs: number, drawFailure: () => boolean): BankRule | null {
  if (healthAt(b.profile, atMs) === 'degraded') return drawFailure() ? 'degraded_failure' : 'degraded_delay';
  const { mode, cutOff } = b.profile.settlement;
  if (mode === 'business_days' && businessDaySettlement(atMs, b.bank.country, cutOff).deferred) return 'next_business_day';
  return null;
}

/**
 * A payment change at a profiled bank: the rule the transition names (the one the change ends, or
 * the one the payment now waits under) and the change with the rule it keeps. Entering
 * `processing`, the bank decides how it answers (processingRule; a held payment reports
 * HELD_FOR_BUSINESS_DAY); an approval from the app is named as such.
 */
export function atBank(
  row: PaymentRow,
  trigger: PaymentTrigger,
  change: PaymentChange,
  b: BankInForce,
  atMs: number,
  drawFailure: () => boolean,
): { change: PaymentChange; rule: BankRule | null } {
  const ending = endingRule(row, trigger);
  if (change.status !== 'processing') return { change: { ...change, bank_rule: ending }, rule: ending };
  const next = processingRule(b, atMs, drawFailure);
  const fromApp = ending === 'app_approval';
  return {
    change: {
      ...change,
      bank_rule: next ?? (fromApp ? ending : null),
      ...(next === 'next_business_day' ? { bank_payment_status: HELD_FOR_BUSINESS_DAY } : {}),
    },
    rule: fromApp ? ending : next,
  };
}

/** The rule the transition ending a wait names, by the trigger that ends it. */
function endingRule(row: Pick<PaymentRow, 'bank_rule'>, trigger: PaymentTrigger): BankRule | null {
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

/**
 * A transactions read as a profiled bank answers it (docs/banks.md, "Account data"): no older than
 * `historyDays` before `nowMs`, no pending transactions when it lists none (they are an account's
 * newest, fixtures/generate.ts: the booked ones end at the newest booked, `newestBooked`), and at
 * most `pageSize` of them. Booking-date windows are ISO 8601 strings (string order = time order).
 */
export function bankRead(
  ais: BankProfile['ais'],
  window: { from: string; to: string },
  limit: number,
  nowMs: number,
  newestBooked: () => string | undefined,
): { window: { from: string; to: string }; limit: number } {
  const kept = { ...window };
  const oldest = ais.historyDays === null ? undefined : new Date(nowMs - ais.historyDays * 86_400_000).toISOString();
  if (oldest !== undefined && kept.from < oldest) kept.from = oldest;
  if (!ais.pendingTransactions) kept.to = [kept.to, newestBooked() ?? ''].sort()[0];
  return { window: kept, limit: ais.pageSize === null ? limit : Math.min(limit, ais.pageSize) };
}
