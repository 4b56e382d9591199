/**
 * The lifecycle engine: what the routes call to change an aggregate, and what moves time.
 *
 * - merchant / payment / consent: apply one trigger now (control API, hosted pages), after
 *   firing that aggregate's own due timers; one store transaction (engine/lifecycle.ts).
 * - on*Created: called INSIDE the transaction that inserted the row (creation events, timers).
 * - consentAsOf: a consent read after its expiration instant is expired by the same transition
 *   its timer applies, at that instant (the timer may not have fired yet).
 * - advance / freeze / resume: the control API's clock moves; due timers fire in slices
 *   (engine/timers.ts) and the clock state is persisted (engine/clock-state.ts).
 */
import type { VirtualClock } from '../clock.js';
import { isDueToExpire, type ConsentTrigger } from '../domain/consent.js';
import type { MerchantTrigger } from '../domain/merchant.js';
import type { PaymentTrigger } from '../domain/payment.js';
import type { LifecycleSettings } from '../domain/settings.js';
import type { ConsentRow } from '../store/consents.js';
import type { MetaStore } from '../store/db.js';
import type { Store } from '../store/index.js';
import type { MerchantRow } from '../store/merchants.js';
import type { PaymentRow } from '../store/payments.js';
import { persistClock } from './clock-state.js';
import { createLifecycle, type ConsentOpts, type MerchantOpts, type PaymentOpts } from './lifecycle.js';
import { createTimerRuntime } from './timers.js';

export interface EngineDeps {
  store: Store;
  meta: MetaStore;
  clock: VirtualClock;
  settings: LifecycleSettings;
  log?: { error(obj: unknown, msg?: string): void };
}

export type Engine = ReturnType<typeof createEngine>;

export function createEngine({ store, meta, clock, settings, log }: EngineDeps) {
  const lifecycle = createLifecycle(store, settings);
  const runtime = createTimerRuntime({ store, clock, lifecycle, log });

  /** Set while advance() moves the clock: it fires the due timers itself, in slices. */
  let advancing = false;
  const offAdvance = clock.onAdvance((now) => {
    persistClock(clock, meta);
    if (advancing) return;
    runtime.fireDue(now);
    runtime.arm();
  });

  return {
    /** Apply a merchant trigger (control API, hosted onboarding page). Returns the updated row. */
    merchant(merchantId: number, trigger: MerchantTrigger, opts: MerchantOpts = {}): MerchantRow {
      runtime.catchUp('merchant', merchantId);
      return store.tx(() => lifecycle.merchant(merchantId, trigger, opts, clock.nowMs()));
    },
    /** Apply a payment trigger (control API, hosted payment page). Returns the updated row. */
    payment(paymentId: number, trigger: PaymentTrigger, opts: PaymentOpts = {}): PaymentRow {
      runtime.catchUp('payment', paymentId);
      return store.tx(() => lifecycle.payment(paymentId, trigger, opts, clock.nowMs()));
    },
    /**
     * The payer opened the hosted payment page (after its own due timers fired: a payment that
     * settled a moment ago shows as paid). Returns the current row.
     */
    paymentPageOpened(paymentId: number): PaymentRow | undefined {
      runtime.catchUp('payment', paymentId);
      return store.tx(() => lifecycle.paymentPageOpened(paymentId, clock.nowMs()));
    },
    /** Apply a consent trigger (control API, hosted consent page). Returns the updated row. */
    consent(requestId: string, trigger: ConsentTrigger, opts: ConsentOpts = {}): ConsentRow {
      runtime.catchUp('consent', requestId);
      return store.tx(() => lifecycle.consent(requestId, trigger, opts, clock.nowMs()));
    },
    /** The consent as it is now: expired at its expiration instant if that has passed. */
    consentAsOf(row: ConsentRow): ConsentRow {
      if (!isDueToExpire(row, clock.nowMs())) return row;
      return store.tx(() => lifecycle.consent(row.request_id, 'expire', {}, Date.parse(row.expiration_date_time)));
    },
    onPaymentCreated: (row: PaymentRow): void => lifecycle.paymentCreated(row),
    onMerchantCreated: (row: MerchantRow): void => lifecycle.merchantCreated(row),
    onConsentCreated: (row: ConsentRow, partnerId: string): void => lifecycle.consentCreated(row, partnerId),
    /** Fire everything due at `nowMs`, synchronously (start-up, tests). Returns how many fired. */
    runDue: (nowMs: number = clock.nowMs()): number => runtime.fireDue(nowMs).fired,
    /**
     * Move the clock forward by `ms` and fire every transition that fell due, earliest first, in
     * slices (other requests are served in between); resolves with how many fired meanwhile.
     */
    async advance(ms: number): Promise<number> {
      const before = runtime.firedTotal;
      advancing = true;
      try {
        clock.advance(ms);
      } finally {
        advancing = false;
      }
      await runtime.runSliced();
      runtime.arm();
      return runtime.firedTotal - before;
    },
    /** Freeze the clock at the current instant (nothing fires in real time any more). */
    freeze(): void {
      clock.freeze();
      persistClock(clock, meta);
      runtime.arm();
    },
    /** Let the clock run again from the current simulated instant. */
    resume(): void {
      clock.resume();
      persistClock(clock, meta);
      runtime.arm();
    },
    /** Timers fired since start. */
    get firedTotal(): number {
      return runtime.firedTotal;
    },
    /** Pending timers of one aggregate (tests, control API). */
    timersOf: store.timers.timersOf,
    /** Start: fire whatever fell due while obsim was down, then arm the real-time timer. */
    start(): void {
      runtime.fireDue(clock.nowMs());
      runtime.arm();
    },
    close(): void {
      runtime.close();
      offAdvance();
      if (store.open) persistClock(clock, meta);
    },
  };
}
