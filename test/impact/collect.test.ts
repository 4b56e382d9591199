/**
 * What a sandbox's traffic touched, read incrementally (src/impact/collect.ts keeps it in chunks
 * and reads only what was written since): after every round of traffic, with the journal at its
 * bound dropping the oldest entries, the facts of the reader that kept its chunks are the facts a
 * fresh reader makes of the whole journal as it is; and they count exactly the provider calls the
 * journal still keeps.
 */
import t from 'tap';
import { createTrafficReader } from '../../src/impact/collect.js';
import { build, json, PARTNER } from '../helpers/app.js';

const TEMPLATES = [
  { method: 'POST', path: '/v1/partner/merchants/test' },
  { method: 'POST', path: '/v1/partner/payments' },
  { method: 'GET', path: '/v1/partner/payments/{paymentId}/status' },
];

t.test('incremental facts equal a fresh read of the journal, round after round, past its bound', async (t) => {
  const app = await build(t, { config: { journalMaxEntries: 120 } });
  const journal = app.journal!;
  const H = { ...PARTNER, 'content-type': 'application/json' };
  const merchant = json(
    await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: H, payload: { companyName: 'Chunks ApS' } }),
  );
  const kept = createTrafficReader(app.store, undefined, 25);
  for (let round = 0; round < 8; round++) {
    for (let i = 0; i < 30; i++) {
      const payment = json(
        await app.inject({
          method: 'POST',
          url: '/v1/partner/payments',
          headers: H,
          payload: { merchantClientId: merchant.clientId, amount: 10 + i, referenceNumber: `r-${round}-${i}` },
        }),
      );
      if (i % 3 === 0) await app.inject({ method: 'GET', url: `/v1/partner/payments/${payment.paymentId}/status`, headers: PARTNER });
      if (i % 7 === 0)
        await app.inject({ method: 'POST', url: '/v1/partner/payments', headers: H, payload: { merchantClientId: merchant.clientId } });
    }
    journal.flush();
    await app.store.committed();
    const position = journal.position('sandbox-partner');
    const subject = { partnerId: 'sandbox-partner', upTo: position.upTo, oldestKept: position.oldestKept };
    const incremental = kept.facts(subject, TEMPLATES);
    const fresh = createTrafficReader(app.store, undefined, 25).facts(subject, TEMPLATES);
    t.same(incremental, fresh, `round ${round + 1}: the same facts`);
    const listed = json<{ items: { path: string }[]; total: number }>(
      await app.inject({ method: 'GET', url: '/_sandbox/requests?limit=500', headers: PARTNER }),
    );
    const calls = listed.items.filter((e) => e.path.startsWith('/v1/')).length;
    t.equal(incremental.entries, calls, `round ${round + 1}: the provider calls the journal keeps (${calls})`);
    if (round >= 2) t.ok(position.truncated, 'the journal has dropped its oldest entries');
  }
});
