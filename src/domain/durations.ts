/**
 * Durations as the controls take them: whole milliseconds, or a string the `ms` library reads
 * ("500ms", "5s", "2m", "1h", "7d"). Bounded, so that no duration can carry an instant past what
 * a date holds: at most ten years, the clock's longest step too.
 */
import ms from 'ms';
import { invalidInput, type ErrorPlace, type JsonPointer } from './errors.js';

/** Ten years of milliseconds: the longest duration any control takes. */
export const MAX_DURATION_MS = 315_360_000_000;

/** `raw` in whole milliseconds, from `min` to `max`; a 400 naming `at` otherwise. */
export function durationMs(
  raw: string | number,
  at: JsonPointer,
  { min = 0, max = MAX_DURATION_MS, place = 'body' }: { min?: number; max?: number; place?: ErrorPlace } = {},
): number {
  const name = at.split('/').pop();
  let value: number;
  if (typeof raw === 'number') {
    if (!Number.isInteger(raw)) throw invalidInput(at, `${name} must be whole milliseconds`, place);
    value = raw;
  } else {
    const parsed = raw.trim() === '' ? Number.NaN : ms(raw.trim() as ms.StringValue);
    if (!Number.isFinite(parsed)) throw invalidInput(at, `${name} must be a duration such as "500ms", "5s", "2m", "1h", "7d"`, place);
    value = Math.round(parsed);
  }
  if (value < min || value > max)
    throw invalidInput(at, `${name} must be from ${ms(min, { long: true })} to ${ms(max, { long: true })}`, place);
  return value;
}
