/**
 * The virtual clock: the only source of "now" in obsim (timestamps, token iat/exp, expiries,
 * settlement delays). Nothing else may call Date.now() for domain time.
 *
 * Two modes:
 * - running (default): now = wall clock + offset. Advancing adds to the offset.
 * - frozen: now stays put until advanced. Tests use this so every run sees the same instants.
 *
 * The clock never moves backwards. Listeners (the scheduler) are told after every advance so
 * that transitions that fell due fire in time order.
 */
export type ClockListener = (now: number) => void;

/**
 * `new Date(ms).toISOString()`, remembering the last one: most calls of a busy second share a
 * millisecond with the one before. A caller formatting a series of its own (the journal: each
 * answer's instant on its sandbox's clock, and on the wall clock) takes a formatter per series,
 * since two series alternating in one would never find the last instant theirs.
 */
export function isoFormatter(): (ms: number) => string {
  let lastMs = Number.NaN;
  let lastIso = '';
  return (ms) => {
    if (ms !== lastMs) {
      lastIso = new Date(ms).toISOString();
      lastMs = ms;
    }
    return lastIso;
  };
}

export const isoOf = isoFormatter();

export interface ClockState {
  /** Milliseconds added to the wall clock (running mode). */
  offsetMs: number;
  /** Current instant while frozen, or null when running. */
  frozenAtMs: number | null;
}

export class VirtualClock {
  private offsetMs: number;
  private frozenAtMs: number | null;
  private readonly listeners = new Set<ClockListener>();

  constructor(
    state: Partial<ClockState> = {},
    private readonly wallClock: () => number = Date.now,
  ) {
    this.offsetMs = state.offsetMs ?? 0;
    this.frozenAtMs = state.frozenAtMs ?? null;
  }

  /** A running clock starting at `start` (or now), or a frozen one when `frozen`. */
  static create(options: { start?: string | Date; frozen?: boolean } = {}, wallClock: () => number = Date.now): VirtualClock {
    const startMs = options.start === undefined ? wallClock() : new Date(options.start).getTime();
    if (options.frozen) return new VirtualClock({ frozenAtMs: startMs }, wallClock);
    return new VirtualClock({ offsetMs: startMs - wallClock() }, wallClock);
  }

  nowMs(): number {
    return this.frozenAtMs ?? this.wallClock() + this.offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** ISO 8601 with milliseconds, the format of every timestamp obsim emits. */
  iso(offsetMs = 0): string {
    return isoOf(this.nowMs() + offsetMs);
  }

  get frozen(): boolean {
    return this.frozenAtMs !== null;
  }

  state(): ClockState {
    return { offsetMs: this.offsetMs, frozenAtMs: this.frozenAtMs };
  }

  /** Move forward by `ms` (>= 0) and notify listeners. Returns the new now. */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
    if (this.frozenAtMs !== null) this.frozenAtMs += ms;
    else this.offsetMs += ms;
    const now = this.nowMs();
    for (const listener of this.listeners) listener(now);
    return now;
  }

  /** Move forward to an instant; an instant in the past is a RangeError. */
  advanceTo(instantMs: number): number {
    return this.advance(instantMs - this.nowMs());
  }

  freeze(): void {
    if (this.frozenAtMs === null) this.frozenAtMs = this.nowMs();
  }

  resume(): void {
    if (this.frozenAtMs === null) return;
    this.offsetMs = this.frozenAtMs - this.wallClock();
    this.frozenAtMs = null;
  }

  /**
   * Put the clock at a saved state, backwards too: only restoring a sandbox snapshot does this
   * (listeners are not told; the caller re-arms its timers).
   */
  restore(state: ClockState): void {
    this.offsetMs = state.offsetMs;
    this.frozenAtMs = state.frozenAtMs;
  }

  onAdvance(listener: ClockListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
