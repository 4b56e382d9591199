/**
 * Applying a trigger to one aggregate, inside the caller's store transaction:
 *
 *   load row -> domain decides (next state + events, or 409) -> store writes the row
 *            -> the transition is recorded with its cause -> outbox records the events
 *            -> the aggregate's timer is replaced
 *
 * Every change has a cause (src/domain/transitions.ts): the request, control action, page,
 * scenario step or timer that made it. Its trace context goes with it onto the events (every
 * delivery continues the trace) and the timer it schedules (the timed transition does too).
 *
 * Nothing here decides anything: the rules are in src/domain, the SQL in src/store. A timed
 * transition uses the timer's due instant as `atMs` (updated_at, event timestamps), so a big
 * clock advance produces the same history as waiting would have.
 */
import { atBank, bankPaymentTimer, payerApproval } from '../domain/bank-rules.js';
import type { BankInForce, BankNote, BankRule, PayerApproval } from '../domain/bank-rules.js';
import { consentTimer, decideConsent, grantedExpiry, type ConsentTrigger } from '../domain/consent.js';
import { ApiError } from '../domain/errors.js';
import { parseTraceContext, traceHeaders, type TraceHeaders } from '../domain/trace-context.js';
import { timerCause, type Cause } from '../domain/transitions.js';
import { envelope } from '../domain/events.js';
import type { EventName } from '../domain/machine.js';
import { creationEvents, decideMerchant, merchantEventData, merchantTimer, type MerchantTrigger } from '../domain/merchant.js';
import { decidePayment, payerDecisionTriggers, payerOpensPage, paymentEventData, paymentMachine, paymentTimer } from '../domain/payment.js';
import type { PayerDecision, PaymentTrigger } from '../domain/payment.js';
import { isoOf, type LifecycleSettings, type TimerRequest } from '../domain/settings.js';
import type { ConsentRow } from '../domain/consent.js';
import type { Store } from '../store/index.js';
import type { MerchantRow } from '../domain/merchant.js';
import type { PaymentRow } from '../domain/payment.js';
import type { TimerAggregate } from '../store/timers.js';
import type { BankBook } from './banks.js';
import type { NewTransition } from '../store/transitions.js';

export interface MerchantOpts {
  /** Only this partner's merchant (control API); otherwise any (hosted pages, timers). */
  partnerId?: string;
  /** Merged into merchants.details (onboarding form data). */
  data?: Record<string, unknown>;
  /** What makes the change (recorded with its transition). */
  cause: Cause;
}
export interface PaymentOpts {
  partnerId?: string;
  bankId?: string;
  cause: Cause;
}
export interface ConsentOpts {
  partnerId?: string;
  errorMessage?: string;
  bankId?: string;
  cause: Cause;
}

/** Told of every transition recorded, inside the transaction that records it (spans, metrics). */
export type TransitionObserver = (transition: NewTransition & { id: number }) => void;

export type Lifecycle = ReturnType<typeof createLifecycle>;

/** The lifecycle of one sandbox: its settings, and its id on every timer it schedules. */
export function createLifecycle(
  store: Store,
  settings: LifecycleSettings,
  sandboxId: string,
  observe?: TransitionObserver,
  banks?: BankBook,
) {
  const { timers, outbox } = store;
  const bankOf = (bankId: string | null | undefined): BankInForce | undefined => banks?.of(sandboxId, bankId);
  /** A payment's timer: its bank's profile decides it where the bank has one. */
  const timerOf = (row: PaymentRow): TimerRequest | undefined => {
    const b = bankOf(row.bank_id);
    return b ? bankPaymentTimer(row, b, settings) : paymentTimer(row, settings);
  };
  const noteOf = (bankId: string | null, rule: BankRule | null): BankNote | null => (bankId && rule ? { bankId, rule } : null);
  const bankNote = (bankId: string | null, rule: BankRule | null) => {
    const bank = noteOf(bankId, rule);
    return bank ? { bank } : {};
  };

  function emit(
    partnerId: string,
    events: readonly EventName[],
    data: object,
    atIso: string,
    trace: TraceHeaders | null,
    bank: BankNote | null = null,
  ): void {
    for (const name of events) outbox.emit(partnerId, envelope(name, data, atIso) as Parameters<typeof outbox.emit>[1], trace, bank);
  }

  /** Replace the aggregate's timer with the one its new state asks for (if any), in the change's trace. */
  function reschedule(
    partnerId: string,
    aggregate: TimerAggregate,
    id: string | number,
    timer: TimerRequest | undefined,
    trace: TraceHeaders | null,
    isNew = false,
  ): void {
    if (!isNew) timers.cancel(aggregate, id);
    if (timer) timers.schedule(sandboxId, partnerId, aggregate, id, timer.trigger, timer.dueAtMs, trace);
  }

  /** Record a change of state (nothing when the state stays: a page opened, details merged). */
  function transition(t: NewTransition): void {
    if (t.from === t.to) return;
    const id = store.transitions.record(t);
    observe?.({ ...t, id });
  }

  const traceOf = (cause: Cause): TraceHeaders | null => (cause.trace ? traceHeaders(cause.trace) : null);

  function merchant(id: number, trigger: MerchantTrigger, opts: MerchantOpts, atMs: number): MerchantRow {
    const row = store.merchants.getAny(id);
    if (!row || (opts.partnerId !== undefined && row.partner_id !== opts.partnerId)) throw new ApiError('merchant_not_found');
    const { change, events } = decideMerchant(row, trigger, opts.data, atMs);
    const updated = store.merchants.update(id, change);
    const { cause } = opts;
    transition({
      partnerId: row.partner_id,
      resource: 'merchant',
      resourceId: id,
      from: row.status,
      to: updated.status,
      at: change.updated_at,
      cause,
    });
    emit(row.partner_id, events, merchantEventData(updated, row.status, change.updated_at), change.updated_at, traceOf(cause));
    reschedule(row.partner_id, 'merchant', id, merchantTimer(updated, settings, atMs), traceOf(cause));
    return updated;
  }

  function payment(id: number, trigger: PaymentTrigger, opts: PaymentOpts, atMs: number): PaymentRow {
    const row = store.payments.getAny(id);
    if (!row || (opts.partnerId !== undefined && row.partner_id !== opts.partnerId)) throw new ApiError('payment_not_found');
    const decided = decidePayment(row, trigger, opts.bankId, atMs);
    const { events } = decided;
    const bankId = decided.change.bank_id ?? row.bank_id;
    const b = bankOf(bankId);
    const { change, rule } = b
      ? atBank(row, trigger, decided.change, b, atMs, () => banks!.drawFailure(sandboxId, b.bank.bankId))
      : { change: decided.change, rule: null };
    const updated = store.payments.update(id, change);
    const { cause } = opts;
    transition({
      partnerId: row.partner_id,
      resource: 'payment',
      resourceId: id,
      from: row.status,
      to: updated.status,
      reason: updated.failure_reason,
      at: change.updated_at,
      cause,
      ...bankNote(bankId, rule),
    });
    if (events.length > 0) {
      const merchantName = store.merchants.getAny(updated.merchant_id)?.company_name ?? '';
      const data = paymentEventData(updated, merchantName, change.updated_at);
      emit(row.partner_id, events, data, change.updated_at, traceOf(cause), noteOf(bankId, rule));
    }
    reschedule(row.partner_id, 'payment', id, timerOf(updated), traceOf(cause));
    return updated;
  }

  /**
   * The payer's decision on the hosted page at the bank they chose. Without a bank profile:
   * approving approves and, in the same transaction, settles (666.66: rejects), so the payer sees
   * the result; rejecting and cancelling fail the payment. A profiled bank may be down
   * ('unavailable': the payment is unchanged but for the bank noted, the page offers the other
   * banks), send the payer to its app ('app': the approval arrives on the sandbox clock, or never),
   * or hold the approved payment (a late answer, the next business day).
   */
  function payerDecides(id: number, decision: PayerDecision, bankId: string | undefined, cause: Cause, atMs: number): PayerApproval {
    const row = store.payments.getAny(id);
    if (!row) throw new ApiError('payment_not_found');
    const b = decision === 'abandon' ? undefined : bankOf(bankId);
    const plan = b ? payerApproval(b, atMs) : 'approve';
    if (plan === 'unavailable' || (plan === 'app' && decision === 'approve')) {
      paymentMachine.transition(row.status, 'approve'); // 409 once the payment has moved on
      const { bankId: chosen } = b!.bank;
      const updated =
        plan === 'app' ? store.payments.noteAppApproval(id, chosen, isoOf(atMs)) : store.payments.noteUnavailable(id, chosen, isoOf(atMs));
      reschedule(row.partner_id, 'payment', id, timerOf(updated), traceOf(cause));
      return plan;
    }
    const [first, then] = payerDecisionTriggers(row, decision, settings);
    const updated = payment(id, first, { ...(bankId !== undefined ? { bankId } : {}), cause }, atMs);
    if (then && updated.status === 'processing' && updated.bank_rule === null) payment(id, then, { cause }, atMs);
    return 'approve';
  }

  /** The payer opened the hosted page: recorded once, and the payment's timer becomes its expiry. */
  function paymentPageOpened(id: number, atMs: number, cause: Cause): PaymentRow | undefined {
    const row = store.payments.getAny(id);
    const change = row && payerOpensPage(row, atMs, settings);
    if (!row || !change) return row;
    const updated = store.payments.markPageOpened(id, change.page_opened_at);
    reschedule(row.partner_id, 'payment', id, timerOf(updated), traceOf(cause));
    return updated;
  }

  function consent(requestId: string, trigger: ConsentTrigger, opts: ConsentOpts, atMs: number): ConsentRow {
    const found = store.consents.getWithPartner(requestId);
    if (!found || (opts.partnerId !== undefined && found.partnerId !== opts.partnerId)) throw new ApiError('consent_not_found');
    const change = decideConsent(found.row, trigger, opts, atMs);
    // a bank that grants shorter consents than asked shortens this one as it is authorized
    const granted =
      trigger === 'authorize' ? grantedExpiry(found.row, bankOf(opts.bankId)?.profile.ais.consentMaxDays ?? null, atMs) : undefined;
    if (granted) change.expiration_date_time = granted;
    const updated = store.consents.update(requestId, change);
    const { cause } = opts;
    transition({
      partnerId: found.partnerId,
      resource: 'consent',
      resourceId: requestId,
      from: found.row.status,
      to: updated.status,
      at: updated.updated_at,
      cause,
      ...bankNote(opts.bankId ?? null, granted ? 'consent_max_days' : null),
    });
    reschedule(found.partnerId, 'consent', requestId, consentTimer(updated), traceOf(cause));
    return updated;
  }

  return {
    merchant,
    payment,
    payerDecides,
    paymentPageOpened,
    consent,
    /** Fire one timer: its trigger on its aggregate at its due instant, in the trace of the change that scheduled it. */
    fire(aggregate: TimerAggregate, aggregateId: string, trigger: string, atMs: number, trace: TraceHeaders | null): void {
      const cause = timerCause(trigger, parseTraceContext(trace?.traceparent, trace?.tracestate));
      if (aggregate === 'merchant') merchant(Number(aggregateId), trigger as MerchantTrigger, { cause }, atMs);
      else if (aggregate === 'payment') payment(Number(aggregateId), trigger as PaymentTrigger, { cause }, atMs);
      else consent(aggregateId, trigger as ConsentTrigger, { cause }, atMs);
    },
    /** Call inside the transaction that inserted the payment: its creation and its settlement or expiry timer. */
    paymentCreated(row: PaymentRow, cause: Cause): void {
      transition({
        partnerId: row.partner_id,
        resource: 'payment',
        resourceId: row.id,
        from: null,
        to: row.status,
        at: row.created_at,
        cause,
      });
      reschedule(row.partner_id, 'payment', row.id, timerOf(row), traceOf(cause), true);
    },
    /** Call inside the transaction that inserted the merchant: its creation, creation events (a test merchant is activated) and its timer. */
    merchantCreated(row: MerchantRow, cause: Cause): void {
      transition({
        partnerId: row.partner_id,
        resource: 'merchant',
        resourceId: row.id,
        from: null,
        to: row.status,
        at: row.created_at,
        cause,
      });
      for (const e of creationEvents(row)) emit(row.partner_id, [e.name], e.data, row.created_at, traceOf(cause));
      reschedule(row.partner_id, 'merchant', row.id, merchantTimer(row, settings, Date.parse(row.created_at)), traceOf(cause));
    },
    /** Call inside the transaction that inserted the consent: its creation and its expiry timer. */
    consentCreated(row: ConsentRow, partnerId: string, cause: Cause): void {
      transition({ partnerId, resource: 'consent', resourceId: row.request_id, from: null, to: row.status, at: row.created_at, cause });
      reschedule(partnerId, 'consent', row.request_id, consentTimer(row), traceOf(cause), true);
    },
  };
}
