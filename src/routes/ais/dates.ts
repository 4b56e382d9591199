/**
 * AIS date inputs (schema pattern IsoInput): a bare date or a date-time with an optional offset.
 * Without an offset the instant is UTC. Returns ISO 8601 UTC with milliseconds, which compares
 * correctly as a string against stored booking dates.
 */
import { ApiError } from '../../domain/errors.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/;
const DAY = 86_400_000;

/** Parse an IsoInput; `endOfDay` makes a bare date mean its last millisecond. 400 naming `field`. */
export function parseInstant(value: string, field: string, endOfDay = false): number {
  let text = value;
  if (!DATE_ONLY.test(text) && !HAS_OFFSET.test(text)) text += 'Z';
  let ms = Date.parse(DATE_ONLY.test(text) ? `${text}T00:00:00.000Z` : text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  // reject calendar nonsense that Date.parse rolls over (2026-02-31)
  const datePart = value.slice(0, 10);
  if (Number.isFinite(ms) && new Date(Date.parse(`${datePart}T00:00:00.000Z`)).toISOString().slice(0, 10) !== datePart) ms = NaN;
  if (!Number.isFinite(ms)) {
    throw new ApiError('validation_failed', { message: `${field} is not a valid ISO 8601 date or date-time`, field });
  }
  if (endOfDay && DATE_ONLY.test(value)) ms += DAY - 1;
  return ms;
}

export const isoOf = (ms: number) => new Date(ms).toISOString();
