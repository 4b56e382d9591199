/**
 * Bank profiles as properties (docs/banks.md): business-day settlement against the holiday
 * library for each bank country over a year of virtual days; a down window that starts and ends
 * on the sandbox clock; a degraded bank's seeded failures, the same for the same seed and
 * sequence, at about its rate.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import t from 'tap';
import type HolidaysClass from 'date-holidays';
import { BANK_TIME_ZONES, businessDaySettlement, type BankCountry } from '../../src/domain/bank-calendar.js';
import { bankProfileToApply, healthAt } from '../../src/domain/bank-profiles.js';
import { createBankBook } from '../../src/engine/banks.js';
import type { Store } from '../../src/store/index.js';

const Holidays = createRequire(import.meta.url)('date-holidays') as typeof HolidaysClass;
const DAY = 86_400_000;
const YEAR_START = Date.parse('2027-01-01T00:00:00Z');

/** The local date and minutes of `ms` in `timeZone`, by Intl (independent of the code under test). */
function local(ms: number, timeZone: string): { date: string; minutes: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, minutes: +parts.hour * 60 + +parts.minute };
}

t.test('business-day settlement over a year of virtual days, each bank country, against date-holidays', async (t) => {
  for (const country of Object.keys(BANK_TIME_ZONES) as BankCountry[]) {
    const timeZone = BANK_TIME_ZONES[country];
    const library = new Holidays(country);
    // a day any public or bank holiday falls on (Germany's New Year's Eve from 14:00 shuts the day)
    const holidays = new Set(
      [2027, 2028]
        .flatMap((year) => library.getHolidays(year))
        .filter((h) => h.type === 'public' || h.type === 'bank')
        .map((h) => h.date.slice(0, 10)),
    );
    const shut = (date: string) => {
      const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
      return weekday === 0 || weekday === 6 || holidays.has(date);
    };
    let deferred = 0;
    for (let day = 0; day < 365; day++) {
      // an approval at a random minute of each day of 2027, seeded by the day and country
      const approvedMs = YEAR_START + day * DAY + ((day * 7919 + country.charCodeAt(0) * 104729) % 1440) * 60_000;
      const r = businessDaySettlement(approvedMs, country, '15:00');
      const at = local(approvedMs, timeZone);
      if (!r.deferred) {
        t.equal(r.atMs, approvedMs);
        if (shut(at.date) || at.minutes > 15 * 60) t.fail(`${country} ${at.date}: settled at once on a shut day or after the cut-off`);
        continue;
      }
      deferred++;
      const settles = local(r.atMs, timeZone);
      if (settles.minutes !== 9 * 60) t.fail(`${country}: settles at ${settles.minutes} minutes, not 09:00 local`);
      if (shut(settles.date)) t.fail(`${country}: settles on ${settles.date}, a day the banks are shut`);
      if (!(settles.date > at.date)) t.fail(`${country}: settles on ${settles.date}, not after ${at.date}`);
      // every day in between is shut: it is the next business day
      for (let d = Date.parse(`${at.date}T12:00:00Z`) + DAY; d < Date.parse(`${settles.date}T12:00:00Z`); d += DAY) {
        const between = new Date(d).toISOString().slice(0, 10);
        if (!shut(between)) t.fail(`${country}: ${between} was a business day before ${settles.date}`);
      }
      if (!shut(at.date) && at.minutes <= 15 * 60)
        t.fail(`${country} ${at.date}: held though approved before the cut-off on a business day`);
    }
    t.ok(deferred > 100 && deferred < 300, `${country}: ${deferred} of 365 approvals held to the next business day`);
  }
});

t.test('a down window starts and ends on the sandbox clock', async (t) => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 10 * DAY }),
      fc.integer({ min: 1, max: 3 * 86_400 }),
      fc.integer({ min: -DAY, max: 14 * DAY }),
      (fromOffset, seconds, probe) => {
        const now = YEAR_START;
        const profile = bankProfileToApply(
          { health: { status: 'down', from: new Date(now + fromOffset).toISOString(), forSeconds: seconds } },
          now,
        );
        const at = now + probe;
        const inside = at >= now + fromOffset && at < now + fromOffset + seconds * 1000;
        return healthAt(profile, at) === (inside ? 'down' : 'healthy');
      },
    ),
    { seed: 20261127, numRuns: 500 },
  );
  t.pass('500 windows');
});

/** A store that keeps nothing: the bank book's seeded streams are what is under test. */
const memoryStore = {
  bankProfiles: { all: () => [], set: () => undefined, clear: () => false, clearAll: () => undefined },
  tx: (fn: () => unknown) => fn(),
} as unknown as Store;

t.test('a degraded bank: the same seed and sequence give the same failures, at about its rate', async (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), (seed, failureRate) => {
      const draws = (sandbox: string) => {
        const book = createBankBook(memoryStore);
        book.set(sandbox, { 'nordlys-bank': bankProfileToApply({ profile: 'degraded', failureRate, seed }, YEAR_START) }, 'now');
        return Array.from({ length: 400 }, () => book.drawFailure(sandbox, 'nordlys-bank'));
      };
      const a = draws('sbx_a');
      const b = draws('sbx_b');
      const share = a.filter(Boolean).length / a.length;
      return a.join() === b.join() && Math.abs(share - failureRate) < 0.12;
    }),
    { seed: 20261127, numRuns: 60 },
  );
  t.pass('60 seeds and rates');
});
