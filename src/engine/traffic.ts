/**
 * Requests first, for a client waiting on each answer. The timer runtime fires a burst of due
 * timers in slices; a request that arrives while a slice runs waits for the rest of it. A client
 * making one call at a time (a test suite) sends its next request a fraction of a millisecond
 * after the previous answer, so a slice started in that gap would delay nearly every call it
 * makes. The HTTP layer tells this gauge when a request arrives and when it is answered; between
 * two slices the runtime waits while `yieldToRequests()` says so, for a bounded time (a burst
 * still progresses: YIELD_MAX_MS in engine/timers.ts).
 *
 * Under saturation (many requests in flight: a load test creating payments) slices do not wait:
 * the turns of the event loop alternate between requests and slices.
 *
 * Writes wait for the background. Every payment created is also a settlement and a delivery
 * later; at 50 connections the requests alone can create payments about twice as fast as one
 * core settles and delivers them, and the backlog would grow as long as the load lasts. While
 * the background is behind (a sandbox's timers more than 250 ms late in real time, or more than
 * DELIVERY_BACKLOG_HIGH deliveries waiting to be claimed), a request that may create work (any
 * method but GET, HEAD, OPTIONS) waits before it is handled, up to ADMISSION_MAX_WAIT_MS: the
 * event loop's time goes to the background and creation slows to what the server can finish.
 * Reads are never held.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface Traffic {
  /** A few requests are being served, one arrived or was answered less than the grace period ago. */
  yieldToRequests(): boolean;
  /** A timer runtime's real-time timers are (or are no longer) behind its clock. */
  timersBehind?(sandboxId: string, isBehind: boolean): void;
}

/** After this long without a request arriving or being answered, the server counts as quiet. */
export const QUIET_AFTER_MS = 1;
/**
 * More requests in flight than this, now or at any moment of the last PEAK_WINDOW_MS: the server
 * is saturated (a load test), slices stop waiting. The recent peak matters because under load
 * the requests of a turn are all answered by the turn's COMMIT, so between turns (where timers
 * run) the count in flight is near zero at 50 connections as at one.
 */
export const INTERACTIVE_MAX_IN_FLIGHT = 4;
const PEAK_WINDOW_MS = 20;

/** Deliveries waiting to be claimed above which writes wait. */
export const DELIVERY_BACKLOG_HIGH = 2_000;
/** The longest a write waits for the background before it is handled anyway. */
export const ADMISSION_MAX_WAIT_MS = 50;

export function createTraffic(quietAfterMs = QUIET_AFTER_MS) {
  let lastSeen = Number.NEGATIVE_INFINITY;
  let inFlight = 0;
  /** The most requests in flight at once since `peakAt` (a window of PEAK_WINDOW_MS). */
  let peak = 0;
  let peakAt = Number.NEGATIVE_INFINITY;
  /** Sandboxes whose real-time timers are behind their clock. */
  const timersBehind = new Set<string>();
  let deliveryBacklog: () => number = () => 0;
  const behind = () => timersBehind.size > 0 || deliveryBacklog() > DELIVERY_BACKLOG_HIGH;
  return {
    arrived(): void {
      inFlight++;
      const now = performance.now();
      lastSeen = now;
      if (inFlight >= peak || now - peakAt > PEAK_WINDOW_MS) {
        peak = inFlight;
        peakAt = now;
      }
    },
    /** Answered, or abandoned by its client. */
    answered(): void {
      if (inFlight > 0) inFlight--;
      lastSeen = performance.now();
    },
    get inFlight(): number {
      return inFlight;
    },
    yieldToRequests(): boolean {
      const now = performance.now();
      const recentPeak = now - peakAt <= PEAK_WINDOW_MS ? peak : 0;
      return Math.max(inFlight, recentPeak) <= INTERACTIVE_MAX_IN_FLIGHT && now - lastSeen < quietAfterMs;
    },
    /** A timer runtime says whether its real-time timers are behind its clock. */
    timersBehind(sandboxId: string, isBehind: boolean): void {
      if (isBehind) timersBehind.add(sandboxId);
      else timersBehind.delete(sandboxId);
    },
    /** Where the deliveries' backlog is read (the webhook worker). */
    countDeliveryBacklog(count: () => number): void {
      deliveryBacklog = count;
    },
    get behind(): boolean {
      return behind();
    },
    /** A write may start: at once, or once the background caught up (at most ADMISSION_MAX_WAIT_MS). */
    async admit(): Promise<void> {
      const until = performance.now() + ADMISSION_MAX_WAIT_MS;
      while (behind() && performance.now() < until) await sleep(1);
    },
  };
}
