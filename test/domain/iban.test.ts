import fc from 'fast-check';
import t from 'tap';
import { ibanMod97, ibanProblem, ibanValid, IBAN_LENGTHS, makeIban, normalizeIban } from '../../src/domain/iban.js';
import { MAX_PAYMENT_AMOUNT, toMinorUnits } from '../../src/domain/partner-input.js';

t.test('known IBANs', async (t) => {
  for (const iban of [
    'DK5000400440116243',
    'GB82WEST12345698765432',
    'DE89370400440532013000',
    'NO9386011117947',
    'FR1420041010050500013M02606',
    'SE4550000000058398257466',
  ]) {
    t.ok(ibanValid(iban), iban);
  }
  t.ok(ibanValid('dk50 0040 0440 1162 43'), 'print form, lower case');
  t.equal(normalizeIban('dk50 0040 0440 1162 43'), 'DK5000400440116243');
  t.match(ibanProblem('DK5000400440116244'), /checksum/);
  t.match(ibanProblem('DK500040044011624'), /18 characters/);
  t.match(ibanProblem('5000400440116243DK'), /two letters/);
  t.match(ibanProblem('DK50-0040'), /two letters/);
  t.match(ibanProblem('XX00123'), /15 to 34/);
  t.notOk(ibanValid(''));
});

t.test('property: makeIban builds valid IBANs and any single-digit change breaks the checksum', async (t) => {
  const countries = Object.keys(IBAN_LENGTHS);
  fc.assert(
    fc.property(fc.constantFrom(...countries), fc.integer({ min: 0, max: 2 ** 31 }), fc.nat(), (cc, seed, pos) => {
      const len = IBAN_LENGTHS[cc] - 4;
      const bban = String(seed).padStart(len, '7').slice(0, len);
      const iban = makeIban(cc, bban);
      if (!ibanValid(iban) || ibanMod97(iban) !== 1) return false;
      const i = 4 + (pos % len);
      const d = Number(iban[i]);
      const mutated = iban.slice(0, i) + String((d + 1) % 10) + iban.slice(i + 1);
      return !ibanValid(mutated);
    }),
    { numRuns: 300, seed: 42 },
  );
  t.pass('300 generated IBANs');
});

t.test('amounts: at most 2 decimals, exact minor units', async (t) => {
  t.equal(toMinorUnits(0.29), 29);
  t.equal(toMinorUnits(1.1), 110);
  t.equal(toMinorUnits(MAX_PAYMENT_AMOUNT), 100_000_000);
  t.throws(() => toMinorUnits(1.001));
  t.throws(() => toMinorUnits(0.001));
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 100_000_000 }), (minor) => toMinorUnits(minor / 100) === minor),
    { numRuns: 1000, seed: 7 },
  );
  t.pass('every cent amount round-trips');
});
