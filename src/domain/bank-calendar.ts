/**
 * Business days of the sandbox banks' countries (docs/banks.md, "Settlement"): a bank with
 * `settlement.mode: business_days` settles within its business day, from SETTLES_AT to its
 * cut-off, on the bank's local clock. A payment approved on a business day up to its cut-off
 * settles that day, at once, or at SETTLES_AT when approved before it; one approved later, on a
 * weekend or on a day the country's banks are closed, at SETTLES_AT on the next business day.
 *
 * A business day is a day the country's banks are open, which is not the country's public holidays
 * alone: each country's closing days are date-holidays' `public` and `bank` days (for Great
 * Britain, the England and Wales region that holds its banks' calendar), plus, in the library's
 * own rule language, the closing days it lists only as an observance or not at all (BANK_CLOSING_DAYS).
 * The library is loaded on first use (about 140 ms and 13 MB of data, which a sandbox that never
 * settles on business days does not pay) and asked once per country and year.
 */
import { createRequire } from 'node:module';
import type HolidaysClass from 'date-holidays';

/** When a bank settling on business days opens for settlement (the bank's local time). */
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

/**
 * Where each country's bank calendar starts in date-holidays (country, and the region whose
 * calendar its banks keep), and the closing days the library does not give as `public` or `bank`
 * days, in its rule language (docs/banks.md names the published lists they come from).
 */
const BANK_CALENDARS: Record<BankCountry, { region?: string; alsoClosed: readonly string[] }> = {
  // England and Wales: the library has the Summer bank holiday only in its regions
  GB: { region: 'ENG', alsoClosed: [] },
  // Danish banks also close on Constitution Day, the Friday after Ascension Day, Christmas Eve and
  // New Year's Eve (the first and third are only observances in the library, the others absent)
  DK: { alsoClosed: ['06-05', 'easter 40', '12-24', '12-31'] },
  // the library gives Christmas Eve, New Year's Eve (and in Sweden Midsummer Eve) as bank days already
  DE: { alsoClosed: [] },
  SE: { alsoClosed: [] },
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

/** The dates (YYYY-MM-DD, local) a country's banks are closed in `year`, weekends aside. */
export function bankClosingDays(country: BankCountry, year: number): ReadonlySet<string> {
  const key = `${country} ${year}`;
  let dates = holidayYears.get(key);
  if (!dates) {
    loadHolidayLibrary();
    const calendar = BANK_CALENDARS[country];
    const library = calendar.region ? new Holidays!(country, calendar.region) : new Holidays!(country);
    for (const rule of calendar.alsoClosed) library.setHoliday(rule, { name: { en: 'Bank closing day' }, type: 'bank' });
    const list = library.getHolidays(year) || [];
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

/** Not a Saturday or Sunday, and not a day the banks of `country` are closed. */
export function isBusinessDay(date: string, country: BankCountry): boolean {
  const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !bankClosingDays(country, +date.slice(0, 4)).has(date);
}

/**
 * When a payment approved at `approvedMs` at a bank of `country` with cut-off `cutOff` settles:
 * approved on a business day up to the cut-off (inclusive), that day, at once or at SETTLES_AT if
 * approved before it; otherwise at SETTLES_AT on the next business day. `deferred`: not at once.
 */
export function businessDaySettlement(approvedMs: number, country: BankCountry, cutOff: string): { atMs: number; deferred: boolean } {
  const timeZone = BANK_TIME_ZONES[country];
  const { date, minutes } = wall(approvedMs, timeZone);
  if (isBusinessDay(date, country) && minutes <= minutesOf(cutOff)) {
    if (minutes >= minutesOf(SETTLES_AT)) return { atMs: approvedMs, deferred: false };
    // before the bank opens: held to its opening that morning (never earlier than the approval)
    return { atMs: Math.max(approvedMs, localInstant(date, SETTLES_AT, timeZone)), deferred: true };
  }
  let day = nextDate(date);
  while (!isBusinessDay(day, country)) day = nextDate(day);
  return { atMs: localInstant(day, SETTLES_AT, timeZone), deferred: true };
}
