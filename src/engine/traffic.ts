/**
 * Requests first. The timer runtime fires a burst of due timers in slices; a request that
 * arrives while a slice runs waits for the rest of it. A client making one call at a time (a
 * test suite) sends its next request a fraction of a millisecond after the previous answer, so
 * a slice started in that gap would delay nearly every call it makes. The HTTP layer touches
 * this gauge when a request arrives and when it is answered; between two slices the runtime
 * waits while the gauge says busy, for at most a bounded time (so a burst still progresses
 * under continuous load: see YIELD_MAX_MS in engine/timers.ts).
 */
export interface Traffic {
  /** A request arrived or was answered less than the grace period ago. */
  busy(): boolean;
}

/** After this long without a request arriving or being answered, the server counts as quiet. */
export const QUIET_AFTER_MS = 1;

export function createTraffic(quietAfterMs = QUIET_AFTER_MS) {
  let lastSeen = Number.NEGATIVE_INFINITY;
  return {
    /** A request arrived or was answered. */
    touch(): void {
      lastSeen = performance.now();
    },
    busy: (): boolean => performance.now() - lastSeen < quietAfterMs,
  };
}
