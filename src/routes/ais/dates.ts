/**
 * AIS date inputs (schema pattern IsoInput): a bare date or a date-time with an optional offset.
 * Without an offset the instant is UTC. Returns ISO 8601 UTC with milliseconds, which compares
 * correctly as a string against stored booking dates.
 */
import { invalidInput, pointer, type ErrorPlace } from '../../domain/errors.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/;
const DAY = 86_400_000;

/**
 * Parse an IsoInput; `endOfDay` makes a bare date mean its last millisecond. A 400 naming `field`
 * (a body property, or a query parameter with `place` 'query').
 */
export function parseInstant(value: string, field: string, endOfDay = false, place: ErrorPlace = 'body'): number {
  let text = value;
  if (!DATE_ONLY.test(text) && !HAS_OFFSET.test(text)) text += 'Z';
  let ms = Date.parse(DATE_ONLY.test(text) ? `${text}T00:00:00.000Z` : text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  // reject calendar nonsense that Date.parse rolls over (2026-02-31)
  const datePart = value.slice(0, 10);
  if (Number.isFinite(ms) && new Date(Date.parse(`${datePart}T00:00:00.000Z`)).toISOString().slice(0, 10) !== datePart) ms = NaN;
  if (!Number.isFinite(ms)) {
    throw invalidInput(pointer(field), `${field} is not a valid ISO 8601 date or date-time`, place);
  }
  if (endOfDay && DATE_ONLY.test(value)) ms += DAY - 1;
  return ms;
}

export const isoOf = (ms: number) => new Date(ms).toISOString();
