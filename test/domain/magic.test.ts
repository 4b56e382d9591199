/** Magic values: the one list, and what each forces. */
import t from 'tap';
import { FAST_TRACK_MAGIC, fastTrackFailure, isMagicAmount, MAGIC_AMOUNTS, magicOutcome } from '../../src/domain/magic.js';

t.test('magic amounts force their outcome; ordinary amounts none', async (t) => {
  for (const m of MAGIC_AMOUNTS) t.equal(magicOutcome(m.amount), m.outcome);
  t.equal(magicOutcome(666.67), undefined);
  t.ok(isMagicAmount(999.99));
  t.notOk(isMagicAmount(10));
});

t.test('fast-track registration numbers that make the sub-TPP creation fail', async (t) => {
  for (const m of FAST_TRACK_MAGIC) t.equal(fastTrackFailure({ registrationNumber: ` ${m.value} ` }), m, 'surrounding spaces ignored');
  t.equal(fastTrackFailure({ registrationNumber: '12345678' }), undefined);
});
