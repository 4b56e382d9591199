/**
 * One sandbox's world: its clock, settings, lifecycle and timer runtime. What the routes call to
 * change an aggregate of that sandbox, and what moves that sandbox's time.
 *
 * - merchant / payment / consent: apply one trigger now (control API, hosted pages), after
 *   firing that aggregate's own due timers; one store transaction (engine/lifecycle.ts).
 * - on*Created: called INSIDE the transaction that inserted the row (creation events, timers).
 * - consentAsOf: a consent read after its expiration instant is expired by the same transition
 *   its timer applies, at that instant (the timer may not have fired yet).
 * - advance: the clock moves with what it fires. Due timers fire in slices (other requests are
 *   served in between); after each slice the clock is moved to the last fired instant and saved
 *   in the same turn, so the same COMMIT holds both. A firing that fails leaves the clock at the
 *   last instant whose firings committed, never past a timer that did not fire.
 */
import type { VirtualClock, ClockState } from '../clock.js';
import { isDueToExpire, type ConsentTrigger } from '../domain/consent.js';
import type { MerchantTrigger } from '../domain/merchant.js';
import type { PayerDecision, PaymentTrigger } from '../domain/payment.js';
import type { PayerApproval } from '../domain/bank-rules.js';
import type { LifecycleSettings } from '../domain/settings.js';
import type { ConsentRow } from '../domain/consent.js';
import type { Store } from '../store/index.js';
import type { MerchantRow } from '../domain/merchant.js';
import type { PaymentRow } from '../domain/payment.js';
import { timerCause, type Cause } from '../domain/transitions.js';
import type { BankBook } from './banks.js';
import { createLifecycle, type ConsentOpts, type MerchantOpts, type PaymentOpts, type TransitionObserver } from './lifecycle.js';
import { createTimerRuntime } from './timers.js';
import type { Traffic } from './traffic.js';

export interface WorldDeps {
  id: string;
  store: Store;
  clock: VirtualClock;
  settings: LifecycleSettings;
  /** Persist the clock state (called inside the transaction of what moved it). */
  saveClock: (state: ClockState) => void;
  /** HTTP requests being served (the timer runtime gives way to them). */
  traffic?: Traffic;
  log?: { error(obj: unknown, msg?: string): void };
  /** Timers of this world fired (engine.onTimersFired). */
  onFired?: (fired: number) => void;
  /** Told of every transition (spans, metrics). */
  onTransition?: TransitionObserver;
  /** The bank profiles in force (docs/banks.md). */
  banks?: BankBook;
  /** The contract version the sandbox is pinned to (docs/contract-versions.md); undefined: the base. */
  contractVersion?: string;
}

export type World = ReturnType<typeof createWorld>;

export function createWorld({
  id,
  store,
  clock,
  settings,
  saveClock,
  traffic,
  log,
  onFired,
  onTransition,
  banks,
  contractVersion,
}: WorldDeps) {
  const lifecycle = createLifecycle(store, settings, id, onTransition, banks);
  const runtime = createTimerRuntime({ store, sandboxId: id, clock, lifecycle, traffic, log, onFired });
  const save = () => store.tx(() => saveClock(clock.state()));

  /** Set while advance() moves the clock: it fires the due timers itself, in slices. */
  let advancing = false;
  // the clock moved by someone else (tests advancing it directly): save it, fire what fell due
  const offAdvance = clock.onAdvance((now) => {
    if (advancing) return;
    save();
    runtime.fireDue(now);
    runtime.arm();
  });

  /** Move the clock forward by `ms` without the listener above (advance() fires itself). */
  const moveClock = (ms: number) => {
    if (ms <= 0) return;
    advancing = true;
    try {
      clock.advance(ms);
    } finally {
      advancing = false;
    }
  };

  return {
    id,
    clock,
    settings,
    contractVersion,
    /** Apply a merchant trigger (control API, hosted onboarding page). Returns the updated row. */
    merchant: (merchantId: number, trigger: MerchantTrigger, opts: MerchantOpts): MerchantRow => {
      runtime.catchUp('merchant', merchantId);
      return store.tx(() => lifecycle.merchant(merchantId, trigger, opts, clock.nowMs()));
    },
    /** Apply a payment trigger (control API, hosted payment page). Returns the updated row. */
    payment: (paymentId: number, trigger: PaymentTrigger, opts: PaymentOpts): PaymentRow => {
      runtime.catchUp('payment', paymentId);
      return store.tx(() => lifecycle.payment(paymentId, trigger, opts, clock.nowMs()));
    },
    /** The payer's decision on the hosted payment page, at the bank they chose (lifecycle.payerDecides). */
    payerDecides: (paymentId: number, decision: PayerDecision, bankId: string | undefined, cause: Cause): PayerApproval => {
      runtime.catchUp('payment', paymentId);
      return store.tx(() => lifecycle.payerDecides(paymentId, decision, bankId, cause, clock.nowMs()));
    },
    /**
     * The payer opened the hosted payment page (after its own due timers fired: a payment that
     * settled a moment ago shows as paid). Returns the current row.
     */
    paymentPageOpened: (paymentId: number, cause: Cause): PaymentRow | undefined => {
      runtime.catchUp('payment', paymentId);
      return store.tx(() => lifecycle.paymentPageOpened(paymentId, clock.nowMs(), cause));
    },
    /** Apply a consent trigger (control API, hosted consent page). Returns the updated row. */
    consent: (requestId: string, trigger: ConsentTrigger, opts: ConsentOpts): ConsentRow => {
      runtime.catchUp('consent', requestId);
      return store.tx(() => lifecycle.consent(requestId, trigger, opts, clock.nowMs()));
    },
    /**
     * The consent as it is now: expired at its expiration instant if that has passed, by its own
     * timer when it is still there (the expiry continues the trace of the change that set it).
     */
    consentAsOf: (row: ConsentRow): ConsentRow => {
      if (!isDueToExpire(row, clock.nowMs())) return row;
      runtime.catchUp('consent', row.request_id);
      const now = store.consents.getWithPartner(row.request_id)?.row;
      if (now && !isDueToExpire(now, clock.nowMs())) return now;
      const cause = timerCause('expire', undefined);
      return store.tx(() => lifecycle.consent(row.request_id, 'expire', { cause }, Date.parse(row.expiration_date_time)));
    },
    onPaymentCreated: (row: PaymentRow, cause: Cause): void => lifecycle.paymentCreated(row, cause),
    onMerchantCreated: (row: MerchantRow, cause: Cause): void => lifecycle.merchantCreated(row, cause),
    onConsentCreated: (row: ConsentRow, partnerId: string, cause: Cause): void => lifecycle.consentCreated(row, partnerId, cause),
    /** Fire everything due at `nowMs`, synchronously (start-up, tests). Returns how many fired. */
    runDue: (nowMs: number = clock.nowMs()): number => runtime.fireDue(nowMs).fired,
    /**
     * Move the clock forward by `ms` and fire every transition that falls due, earliest first, in
     * slices; the clock follows the firings (see the header). Resolves with how many fired.
     */
    advance: async (ms: number): Promise<number> => {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
      const target = clock.nowMs() + ms;
      // how far this call has moved the clock so far (a running clock also moves by itself)
      let moved = 0;
      const fired = await runtime.runSliced(
        () => target,
        (lastDueAt, done) => {
          const to = done ? target : lastDueAt;
          if (to === undefined) return;
          const step = to - (target - ms) - moved;
          if (step > 0) {
            moveClock(step);
            moved += step;
          }
          save();
        },
      );
      runtime.arm();
      return fired;
    },
    /** Freeze the clock at the current instant (nothing fires in real time any more). */
    freeze: (): void => {
      clock.freeze();
      save();
      runtime.arm();
    },
    /** Let the clock run again from the current simulated instant. */
    resume: (): void => {
      clock.resume();
      save();
      runtime.arm();
    },
    /** Put the clock back at a snapshot's state (its rows were restored in the same turn) and re-arm. */
    restoreClock: (state: ClockState): void => {
      clock.restore(state);
      save();
      runtime.arm();
    },
    /** Timers fired since start. */
    get firedTotal(): number {
      return runtime.firedTotal;
    },
    /** A commit inserted timers of this sandbox (the engine calls it after each commit). */
    timersInserted: (earliestDueAt: number): void => runtime.inserted(earliestDueAt),
    /** Start: fire whatever fell due while obsim was down, then arm the real-time timer. */
    start(): void {
      runtime.fireDue(clock.nowMs());
      runtime.arm();
    },
    close(): void {
      runtime.close();
      offAdvance();
      if (store.open) saveClock(clock.state());
    },
  };
}
