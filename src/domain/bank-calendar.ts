/**
 * Business days of the sandbox banks' countries (docs/banks.md, "Settlement"): a bank with
 * `settlement.mode: business_days` settles a payment approved on a business day up to its cut-off
 * at once, and one approved later, on a weekend or on a public holiday at SETTLES_AT (the bank's
 * local time) on the next business day.
 *
 * Holidays come from date-holidays (its `public` and `bank` types: the days banks are shut; an
 * `observance` such as Danish Christmas Eve is not one). The library is loaded on first use
 * (about 140 ms and 13 MB of data, which a sandbox that never settles on business days does not
 * pay) and asked once per country and year: its own per-date lookup takes about a millisecond.
 */
import { createRequire } from 'node:module';
import type HolidaysClass from 'date-holidays';

/** When a payment held for the next business day settles there (the bank's local time). */
export const SETTLES_AT = '09:00';

/** The countries of the sandbox banks (fixtures/banks.ts). */
export type BankCountry = 'DK' | 'SE' | 'DE' | 'GB';

/** Each sandbox bank country's time zone: a cut-off and a business day are the bank's local ones. */
export const BANK_TIME_ZONES: Record<BankCountry, string> = {
  DK: 'Europe/Copenhagen',
  SE: 'Europe/Stockholm',
  DE: 'Europe/Berlin',
  GB: 'Europe/London',
};

const require = createRequire(import.meta.url);
let Holidays: typeof HolidaysClass | undefined;
const holidayYears = new Map<string, ReadonlySet<string>>();

/**
 * Load the holiday library now (a profile settling on business days was put in force), so that its
 * first load does not happen inside the transaction of the first payment it settles.
 */
export function loadHolidayLibrary(): void {
  Holidays ??= require('date-holidays') as typeof HolidaysClass;
}

/** The dates (YYYY-MM-DD, local) a country's banks are shut for a holiday in `year`. */
export function bankHolidays(country: string, year: number): ReadonlySet<string> {
  const key = `${country} ${year}`;
  let dates = holidayYears.get(key);
  if (!dates) {
    loadHolidayLibrary();
    const list = new Holidays!(country).getHolidays(year) || [];
    dates = new Set(list.filter((h) => h.type === 'public' || h.type === 'bank').map((h) => h.date.slice(0, 10)));
    holidayYears.set(key, dates);
  }
  return dates;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** The wall clock in `timeZone` at `ms`: its date, and the instant that wall clock would be in UTC. */
function wall(ms: number, timeZone: string): { date: string; minutes: number; asUtcMs: number } {
  const p: Record<string, string> = {};
  for (const part of formatOf(timeZone).formatToParts(ms)) p[part.type] = part.value;
  const asUtcMs = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  return { date: `${p.year}-${p.month}-${p.day}`, minutes: +p.hour * 60 + +p.minute, asUtcMs };
}

const minutesOf = (hhmm: string): number => +hhmm.slice(0, 2) * 60 + +hhmm.slice(3, 5);

/** The instant of `hhmm` on local `date` in `timeZone` (across a DST change, the offset after it). */
export function localInstant(date: string, hhmm: string, timeZone: string): number {
  const guess = Date.parse(`${date}T${hhmm}:00Z`);
  const first = guess - (wall(guess, timeZone).asUtcMs - guess);
  return guess - (wall(first, timeZone).asUtcMs - first);
}

const nextDate = (date: string): string => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** Not a Saturday or Sunday, and not a bank holiday of `country`. */
export function isBusinessDay(date: string, country: string): boolean {
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !bankHolidays(country, +date.slice(0, 4)).has(date);
}

/**
 * When a payment approved at `approvedMs` at a bank of `country` with cut-off `cutOff` settles:
 * at once on a business day up to the cut-off (inclusive), else at SETTLES_AT on the next
 * business day (`deferred`).
 */
export function businessDaySettlement(approvedMs: number, country: BankCountry, cutOff: string): { atMs: number; deferred: boolean } {
  const timeZone = BANK_TIME_ZONES[country];
  const { date, minutes } = wall(approvedMs, timeZone);
  if (isBusinessDay(date, country) && minutes <= minutesOf(cutOff)) return { atMs: approvedMs, deferred: false };
  let day = nextDate(date);
  while (!isBusinessDay(day, country)) day = nextDate(day);
  return { atMs: localInstant(day, SETTLES_AT, timeZone), deferred: true };
}
