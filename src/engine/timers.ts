/**
 * The timer runtime: fires due timers (store/timers.ts) in due order through the lifecycle, and
 * keeps a real-time setTimeout armed for the next one while the virtual clock runs.
 *
 * - fireDue: every timer due at `nowMs`, earliest first, each in its own savepoint, up to
 *   RUN_BATCH per group transaction; with a budget it stops after about that long (`more`).
 *   A timer whose transition is no longer legal (the payer acted first, a control call moved the
 *   aggregate on) is dropped.
 * - runSliced: fireDue in SLICE_MS slices with the event loop given back in between, so a burst
 *   (1,000 payments settling at once) never holds other requests for more than a slice; while a
 *   client waits on each answer the next slice waits for a quiet moment (engine/traffic.ts),
 *   unless timers falling due in real time are more than BEHIND_MS behind the clock.
 * - catchUp: before a trigger on one aggregate, fire that aggregate's own due timers (a payer
 *   cannot approve a payment that has expired).
 * - arm: the real-time timer for the earliest due instant (running clock only). Every commit
 *   that inserted a timer due earlier than the armed one re-arms (`inserted`, called by the engine
 *   after each commit for the sandboxes whose timers it inserted).
 *
 * One runtime per sandbox: it takes only its sandbox's timers, on its sandbox's clock.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { VirtualClock } from '../clock.js';
import { ApiError } from '../domain/errors.js';
import type { Store } from '../store/index.js';
import type { TimerAggregate } from '../store/timers.js';
import type { Lifecycle } from './lifecycle.js';
import type { Traffic } from './traffic.js';

/** Due timers fired per group transaction (each in its own savepoint). */
const RUN_BATCH = 100;
/** A sliced run gives the event loop back after about this much work. */
const SLICE_MS = 2;
/**
 * Between two slices, while a client waits on each answer, the next slice waits for a quiet
 * moment for at most this long: requests get at least 3/4 of the time and a burst still 1/4.
 */
const YIELD_MAX_MS = 3 * SLICE_MS;
/**
 * Timers falling due by themselves (a running clock) whose firing is more than this far behind
 * the clock: slices stop giving way, so settlements keep up with the payments requests create.
 */
const BEHIND_MS = 250;
/**
 * Timers that are behind get longer slices, in proportion to how far behind they are (1 ms of
 * slice per 20 ms of delay, at most MAX_SLICE_MS): under saturation the timers' share of the
 * event loop grows until they keep up with the payments the requests create, so the backlog
 * stays bounded instead of growing as long as the load lasts.
 */
const BEHIND_SLICE_PER_MS = 1 / 20;
const MAX_SLICE_MS = 32;
/** After a run the database refused, the next attempt waits this long. */
const RETRY_AFTER_FAILURE_MS = 1_000;
/** setTimeout's largest delay. */
const MAX_DELAY_MS = 2_147_483_647;

export interface TimerRuntimeDeps {
  store: Store;
  sandboxId: string;
  clock: VirtualClock;
  lifecycle: Lifecycle;
  /** HTTP requests being served: slices give way to a waiting client (engine/traffic.ts). */
  traffic?: Traffic;
  log?: { error(obj: unknown, msg?: string): void };
  /** Called after a run of firings with how many fired (> 0): what a live view refreshes on. */
  onFired?: (fired: number) => void;
}

export function createTimerRuntime({ store, sandboxId, clock, lifecycle, traffic, log, onFired }: TimerRuntimeDeps) {
  const { timers } = store;
  let firedTotal = 0;
  let running = false;
  let slicing = 0;
  let closed = false;
  /** lastDueAt of the latest fireDue, also when it threw (what its committed savepoints reached). */
  let lastTakenDueAt: number | undefined;

  function fireDue(
    nowMs: number,
    opts: { budgetMs?: number; only?: [TimerAggregate, string | number] } = {},
  ): { fired: number; more: boolean; lastDueAt: number | undefined } {
    if (running) return { fired: 0, more: false, lastDueAt: undefined }; // re-entrant call (a listener advancing the clock): the outer loop picks them up
    running = true;
    let fired = 0;
    let more = false;
    /** The due instant of the last timer taken and committed in its savepoint (fired or dropped). */
    let lastDueAt: number | undefined;
    const started = performance.now();
    const only = opts.only;
    const take = only ? () => timers.takeNextDueOf(only[0], only[1], nowMs) : () => timers.takeNextDue(sandboxId, nowMs);
    // one timer = one savepoint (its own all-or-nothing unit); 1,000 payments settling at once are
    // 10 transactions of 100, not 1,000
    const fireOne = store.savepoint((): { dueAt: number; fired: boolean } | undefined => {
      const timer = take();
      if (!timer) return undefined;
      try {
        lifecycle.fire(
          timer.aggregate,
          timer.aggregate_id,
          timer.trigger,
          timer.due_at,
          timer.traceparent ? { traceparent: timer.traceparent, tracestate: timer.tracestate } : null,
        );
        return { dueAt: timer.due_at, fired: true };
      } catch (err) {
        if (err instanceof ApiError) return { dueAt: timer.due_at, fired: false }; // illegal now, or the row is gone: drop the timer
        throw err;
      }
    });
    try {
      let done = false;
      while (!done) {
        let failure: unknown;
        store.tx(() => {
          for (let i = 0; i < RUN_BATCH; i++) {
            let outcome: { dueAt: number; fired: boolean } | undefined;
            try {
              outcome = fireOne();
            } catch (err) {
              // this timer's savepoint is rolled back; the ones before it in the batch still commit
              failure = err;
              done = true;
              return;
            }
            if (outcome === undefined) {
              done = true;
              return;
            }
            if (outcome.fired) fired++;
            lastDueAt = outcome.dueAt;
            if (opts.budgetMs !== undefined && performance.now() - started >= opts.budgetMs) {
              more = true;
              done = true;
              return;
            }
          }
        });
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrown exactly as the savepoint caught it
        if (failure !== undefined) throw failure;
      }
    } finally {
      running = false;
      firedTotal += fired;
      lastTakenDueAt = lastDueAt;
    }
    if (fired > 0) onFired?.(fired);
    return { fired, more, lastDueAt };
  }

  /**
   * Fire everything due at `untilMs()` in slices (other requests are served in between); how many
   * fired. After each slice `progress(lastDueAt, done)` is called in the same turn, so what it
   * writes commits with the slice's firings (the clock advance follows what has fired).
   */
  async function runSliced(
    untilMs: () => number = () => clock.nowMs(),
    progress?: (lastDueAt: number | undefined, done: boolean) => void,
    realTime = false,
  ): Promise<number> {
    slicing++;
    let total = 0;
    /** How far the last slice's timers were behind the clock (real-time firing only). */
    let behindMs = 0;
    try {
      for (;;) {
        let slice: ReturnType<typeof fireDue>;
        const budgetMs = Math.min(MAX_SLICE_MS, Math.max(SLICE_MS, behindMs * BEHIND_SLICE_PER_MS));
        try {
          slice = fireDue(untilMs(), { budgetMs });
        } catch (err) {
          progress?.(lastTakenDueAt, false); // the timers before the failing one did commit
          throw err;
        }
        const { fired, more, lastDueAt } = slice;
        total += fired;
        const done = !more || closed;
        progress?.(lastDueAt, done);
        if (done) break;
        await new Promise<void>((resolve) => setImmediate(resolve));
        // an advance (someone asked for it) always gives way; timers falling due by themselves
        // give way only while they keep up with the clock
        behindMs = realTime && lastDueAt !== undefined ? Math.max(0, clock.nowMs() - lastDueAt) : 0;
        traffic?.timersBehind?.(sandboxId, behindMs > BEHIND_MS);
        const waitFrom = performance.now();
        while (behindMs <= BEHIND_MS && traffic?.yieldToRequests() && !closed && performance.now() - waitFrom < YIELD_MAX_MS)
          await sleep(1);
      }
    } finally {
      slicing--;
      if (realTime) traffic?.timersBehind?.(sandboxId, false);
    }
    return total;
  }

  // ---- real-time arming (running clock only)
  let handle: NodeJS.Timeout | undefined;
  /** When (performance.now(), real ms) the armed real-time timer fires. */
  let armedAtReal = Number.POSITIVE_INFINITY;
  /** After a failed run, nothing fires before this instant (performance.now()). */
  let retryAt = 0;

  function arm(): void {
    if (slicing > 0) return; // a sliced run is firing what is due; it arms when it is done
    if (closed || clock.frozen) {
      if (handle) clearTimeout(handle);
      handle = undefined;
      return;
    }
    const next = timers.nextDueAt(sandboxId);
    const delay = next === undefined ? 0 : Math.min(Math.max(0, next - clock.nowMs(), retryAt - performance.now()), MAX_DELAY_MS);
    // every commit may re-arm: keep the armed timer when it fires no later (in real time) than the
    // earliest due timer needs (firing early only finds nothing due and re-arms), instead of a
    // clearTimeout + setTimeout per request
    if (handle && next !== undefined && armedAtReal <= performance.now() + delay) return;
    if (handle) clearTimeout(handle);
    handle = undefined;
    if (next === undefined) return;
    armedAtReal = performance.now() + delay;
    handle = setTimeout(() => {
      handle = undefined;
      if (closed) return;
      void runSliced(undefined, undefined, true).then(arm, (err: unknown) => {
        // the database refused (disk full, read-only, locked): try again in a second, not at once
        log?.error({ err }, 'timed transitions failed; retrying in a second');
        retryAt = performance.now() + RETRY_AFTER_FAILURE_MS;
        arm();
      });
    }, delay);
    handle.unref();
  }

  /**
   * A commit inserted timers of this sandbox, the earliest due at `insertedMin`. Only an inserted
   * timer can make the next due instant earlier (deletions at most make the armed timer fire
   * early, which re-arms): one due after the armed one fires needs no look at the timers table.
   */
  function inserted(insertedMin: number): void {
    if (running || slicing > 0 || closed || clock.frozen) return;
    if (handle && armedAtReal <= performance.now() + Math.max(0, insertedMin - clock.nowMs())) return;
    arm();
  }

  return {
    fireDue,
    runSliced,
    arm,
    inserted,
    /** Fire one aggregate's own due timers first (not from inside a transaction or a firing). */
    catchUp(aggregate: TimerAggregate, id: string | number): void {
      if (!running && !store.inTransaction) fireDue(clock.nowMs(), { only: [aggregate, id] });
    },
    get firedTotal(): number {
      return firedTotal;
    },
    close(): void {
      closed = true;
      if (handle) clearTimeout(handle);
    },
  };
}
