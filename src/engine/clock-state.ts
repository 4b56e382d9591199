/**
 * The default sandbox's virtual clock survives a restart: its state (offset from the wall clock, or the frozen
 * instant) is kept in meta `clock.state` and restored at start, unless --clock-start is given
 * (an explicit start instant always wins). The configured mode (--clock-frozen) decides whether
 * the restored clock runs or stays frozen; the stored state decides what time it is.
 */
import { VirtualClock, type ClockState } from '../clock.js';
import type { Config } from '../config.js';
import type { MetaStore } from '../store/db.js';

export const CLOCK_META_KEY = 'clock.state';

export function restoreClock(
  config: Pick<Config, 'clockStart' | 'clockFrozen'>,
  meta: MetaStore,
  wallClock: () => number = Date.now,
): VirtualClock {
  const stored = config.clockStart === undefined ? parseState(meta.get(CLOCK_META_KEY)) : undefined;
  if (!stored) return VirtualClock.create({ start: config.clockStart, frozen: config.clockFrozen }, wallClock);
  const clock = new VirtualClock(stored, wallClock);
  if (config.clockFrozen) clock.freeze();
  else clock.resume();
  return clock;
}

/** Save the default sandbox's clock state (created sandboxes keep theirs in their row). */
export function persistClock(state: ClockState, meta: MetaStore): void {
  meta.set(CLOCK_META_KEY, JSON.stringify(state));
}

function parseState(raw: string | undefined): ClockState | undefined {
  if (!raw) return undefined;
  try {
    const s = JSON.parse(raw) as Partial<ClockState>;
    if (typeof s.offsetMs !== 'number' || !(s.frozenAtMs === null || typeof s.frozenAtMs === 'number')) return undefined;
    return { offsetMs: s.offsetMs, frozenAtMs: s.frozenAtMs };
  } catch {
    return undefined;
  }
}
