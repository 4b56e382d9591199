/**
 * fixtures/generate.ts uses the English-locale entry point of faker (re-seeded per user) instead
 * of the package root (every locale, slow to load). The generated sandbox data must be
 * byte-for-byte what a fresh `new Faker({ locale: [en, base] })` seeded the same way gives.
 */
import t from 'tap';
import { faker as enFaker } from '@faker-js/faker/locale/en';

t.test('the re-seeded en-locale faker equals a fresh Faker({ locale: [en, base] })', async (t) => {
  const { Faker, en, base } = await import('@faker-js/faker');
  const draw = (f: typeof enFaker) => [
    f.person.fullName(),
    ...Array.from({ length: 30 }, () => f.company.name()),
    ...Array.from({ length: 10 }, () => f.person.fullName()),
    f.company.name(),
    f.location.street(),
    ...Array.from({ length: 4 }, () => f.company.name()),
  ];
  for (const seed of [0, 1, 42, 0x5bd1e995, 2 ** 31 - 1, 123456789]) {
    const fresh = new Faker({ locale: [en, base] });
    fresh.seed(seed);
    const expected = draw(fresh);
    enFaker.seed(seed);
    t.same(draw(enFaker), expected, `seed ${seed}`);
    // and again after other use of the shared instance
    enFaker.seed(seed + 1);
    draw(enFaker);
    enFaker.seed(seed);
    t.same(draw(enFaker), expected, `seed ${seed} after reuse`);
  }
});
