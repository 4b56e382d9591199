/**
 * Bank profiles as properties (docs/banks.md): business-day settlement against the days each bank
 * country's banks are published to be closed, 2026 to 2028; the rule for an approval before the
 * bank opens, on both sides of 09:00 and across a change of daylight saving time; a down window
 * that starts and ends on the sandbox clock; a degraded bank's seeded failures, the same for the
 * same seed and sequence, at about its rate.
 */
import fc from 'fast-check';
import t from 'tap';
import { BANK_TIME_ZONES, businessDaySettlement, type BankCountry } from '../../src/domain/bank-calendar.js';
import { bankProfileToApply, healthAt } from '../../src/domain/bank-profiles.js';
import { createBankBook } from '../../src/engine/banks.js';
import type { Store } from '../../src/store/index.js';

const DAY = 86_400_000;
const YEAR_START = Date.parse('2027-01-01T00:00:00Z');

/** The last days of 2028 settle in 2029: its New Year's Day (a Monday) is a closing day in all four. */
const NEW_YEAR_2029 = '2029-01-01';

/**
 * The days each country's banks are closed (weekends aside; days on a weekend are listed as
 * published), written out from the published lists, not computed: the holiday library the code
 * uses is what is under test.
 */
const CLOSED: Record<BankCountry, string[]> = {
  // GOV.UK, "UK bank holidays", England and Wales (https://www.gov.uk/bank-holidays), with the
  // substitute days of the Banking and Financial Dealings Act 1971 where one falls on a weekend
  GB: [
    ...['2026-01-01', '2026-04-03', '2026-04-06', '2026-05-04', '2026-05-25', '2026-08-31', '2026-12-25', '2026-12-28'],
    ...['2027-01-01', '2027-03-26', '2027-03-29', '2027-05-03', '2027-05-31', '2027-08-30', '2027-12-27', '2027-12-28'],
    ...['2028-01-03', '2028-04-14', '2028-04-17', '2028-05-01', '2028-05-29', '2028-08-28', '2028-12-25', '2028-12-26'],
    NEW_YEAR_2029,
  ],
  // Finans Danmark, "Bankernes lukkedage" (the Danish banks' closing days, also Danmarks
  // Nationalbank's): New Year's Day, Maundy Thursday, Good Friday, Easter Monday, Ascension Day and
  // the Friday after it, Whit Monday, Constitution Day, Christmas Eve, Christmas, Boxing Day, New Year's Eve
  DK: [
    ...['2026-01-01', '2026-04-02', '2026-04-03', '2026-04-06', '2026-05-14', '2026-05-15', '2026-05-25', '2026-06-05'],
    ...['2026-12-24', '2026-12-25', '2026-12-26', '2026-12-31'],
    ...['2027-01-01', '2027-03-25', '2027-03-26', '2027-03-29', '2027-05-06', '2027-05-07', '2027-05-17', '2027-06-05'],
    ...['2027-12-24', '2027-12-25', '2027-12-26', '2027-12-31'],
    ...['2028-01-01', '2028-04-13', '2028-04-14', '2028-04-17', '2028-05-25', '2028-05-26', '2028-06-05'],
    ...['2028-12-24', '2028-12-25', '2028-12-26', '2028-12-31'],
    NEW_YEAR_2029,
  ],
  // Bundesverband deutscher Banken / Deutsche Bundesbank, bank holidays in Germany: the nationwide
  // public holidays (New Year, Good Friday, Easter Monday, 1 May, Ascension, Whit Monday, German
  // Unity Day, 25 and 26 December) and Christmas Eve and New Year's Eve, when banks are closed
  DE: [
    ...['2026-01-01', '2026-04-03', '2026-04-06', '2026-05-01', '2026-05-14', '2026-05-25', '2026-10-03'],
    ...['2026-12-24', '2026-12-25', '2026-12-26', '2026-12-31'],
    ...['2027-01-01', '2027-03-26', '2027-03-29', '2027-05-01', '2027-05-06', '2027-05-17', '2027-10-03'],
    ...['2027-12-24', '2027-12-25', '2027-12-26', '2027-12-31'],
    ...['2028-01-01', '2028-04-14', '2028-04-17', '2028-05-01', '2028-05-25', '2028-06-05', '2028-10-03'],
    ...['2028-12-24', '2028-12-25', '2028-12-26', '2028-12-31'],
    NEW_YEAR_2029,
  ],
  // Svenska Bankföreningen (the Swedish Bankers' Association), "bankfria dagar": New Year's Day,
  // Epiphany, Good Friday, Easter Monday, 1 May, Ascension, National Day, Midsummer Eve, Christmas
  // Eve, Christmas, Boxing Day, New Year's Eve
  SE: [
    ...['2026-01-01', '2026-01-06', '2026-04-03', '2026-04-06', '2026-05-01', '2026-05-14', '2026-06-06', '2026-06-19'],
    ...['2026-12-24', '2026-12-25', '2026-12-26', '2026-12-31'],
    ...['2027-01-01', '2027-01-06', '2027-03-26', '2027-03-29', '2027-05-01', '2027-05-06', '2027-06-06', '2027-06-25'],
    ...['2027-12-24', '2027-12-25', '2027-12-26', '2027-12-31'],
    ...['2028-01-01', '2028-01-06', '2028-04-14', '2028-04-17', '2028-05-01', '2028-05-25', '2028-06-06', '2028-06-23'],
    ...['2028-12-24', '2028-12-25', '2028-12-26', '2028-12-31'],
    NEW_YEAR_2029,
  ],
};

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

/**
 * The instant a local wall clock reads `date` `hh:mm` in `timeZone`: of the instants that read it in
 * UTC and up to four hours before (every bank zone is UTC to UTC+2, in whole hours), the one Intl
 * says reads it there.
 */
function wallInstant(date: string, hhmm: string, timeZone: string): number {
  const asUtc = Date.parse(`${date}T${hhmm}:00Z`);
  const target = +hhmm.slice(0, 2) * 60 + +hhmm.slice(3);
  for (let hours = 0; hours <= 4; hours++) {
    const ms = asUtc - hours * 3_600_000;
    const l = local(ms, timeZone);
    if (l.date === date && l.minutes === target) return ms;
  }
  throw new Error(`${date} ${hhmm} does not exist in ${timeZone}`);
}

t.test('business-day settlement, 2026 to 2028, against the days each country’s banks are published to be closed', async (t) => {
  for (const country of Object.keys(BANK_TIME_ZONES) as BankCountry[]) {
    const timeZone = BANK_TIME_ZONES[country];
    const closed = new Set(CLOSED[country]);
    const shut = (date: string) => {
      const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
      return weekday === 0 || weekday === 6 || closed.has(date);
    };
    const wrong: string[] = [];
    let days = 0;
    for (let d = Date.parse('2026-01-01T12:00:00Z'); d < Date.parse('2029-01-01T00:00:00Z'); d += DAY) {
      const date = new Date(d).toISOString().slice(0, 10);
      days++;
      // an approval at 10:00 local on each day: at once on a business day, else 09:00 on the next one
      const approvedMs = wallInstant(date, '10:00', timeZone);
      const r = businessDaySettlement(approvedMs, country, '15:00');
      let next = date;
      if (shut(date))
        do next = new Date(Date.parse(`${next}T12:00:00Z`) + DAY).toISOString().slice(0, 10);
        while (shut(next));
      const expected = shut(date) ? wallInstant(next, '09:00', timeZone) : approvedMs;
      if (r.atMs !== expected || r.deferred !== shut(date))
        wrong.push(`${date}: settles ${new Date(r.atMs).toISOString()}, the published calendar says ${new Date(expected).toISOString()}`);
    }
    t.same(wrong, [], `${country}: ${days} days of 2026–2028 settle as its banks' published closing days say`);
  }
});

t.test('an approval before the bank opens settles at 09:00 that business day; across a daylight saving change too', async (t) => {
  const cases: [BankCountry, string, string, string][] = [
    // Monday 30 March 2026, the first weekday of summer time in Copenhagen (clocks went forward on the 29th)
    ['DK', '2026-03-30', '08:59', '09:00'],
    ['DK', '2026-03-30', '09:00', '09:00'],
    ['DK', '2026-03-30', '09:01', '09:01'],
    // Monday 2 November 2026 in London, after the clocks went back on 25 October; and 06:00 on a Monday
    ['GB', '2026-11-02', '06:00', '09:00'],
    ['GB', '2026-11-02', '14:59', '14:59'],
    // the Sunday the clocks change (29 March 2026 in Europe/Berlin): shut, settles Monday 09:00
    ['DE', '2026-03-29', '03:30', '2026-03-30 09:00'],
    // Friday after 15:00 in Stockholm: Monday 09:00
    ['SE', '2026-10-23', '15:01', '2026-10-26 09:00'],
  ];
  for (const [country, date, at, settles] of cases) {
    const timeZone = BANK_TIME_ZONES[country];
    const approvedMs = wallInstant(date, at, timeZone);
    const [settleDate, settleAt] = settles.includes(' ') ? settles.split(' ') : [date, settles];
    const r = businessDaySettlement(approvedMs, country, '15:00');
    t.equal(
      new Date(r.atMs).toISOString(),
      new Date(wallInstant(settleDate, settleAt, timeZone)).toISOString(),
      `${country} ${date} ${at} settles ${settles}`,
    );
    t.equal(r.deferred, r.atMs !== approvedMs, `${country} ${date} ${at}: held exactly when it does not settle at once`);
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

/** A store that keeps only the draw counts: the bank book's seeded streams are what is under test. */
function memoryStore(): Store {
  const draws = new Map<string, number>();
  return {
    bankProfiles: {
      all: () => [],
      set: (sandboxId: string, bankId: string) => void draws.set(`${sandboxId} ${bankId}`, 0),
      nextDraw: (sandboxId: string, bankId: string) => {
        const key = `${sandboxId} ${bankId}`;
        draws.set(key, (draws.get(key) ?? 0) + 1);
        return draws.get(key)!;
      },
    },
    tx: (fn: () => unknown) => fn(),
    afterCommit: (fn: () => void) => fn(),
  } as unknown as Store;
}

t.test('a degraded bank: the same seed and sequence give the same failures, at about its rate', async (t) => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), (seed, failureRate) => {
      const draws = (sandbox: string) => {
        const book = createBankBook(memoryStore());
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
