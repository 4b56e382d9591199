/**
 * Sandbox clocks, as a property: random sequences over several sandboxes (the default one and
 * created ones, created along the way), each on its own frozen clock: create a payment, create a
 * standard merchant and submit its onboarding, advance one sandbox's clock by anything from a
 * second to 30 days, complete or fail a payment through the control API, create a sandbox. After
 * every operation:
 *   - every sandbox the operation was not aimed at is unchanged: its clock, and a digest of its
 *     payments, merchants, events, deliveries and timers;
 *   - every event written belongs to the sandbox the operation was aimed at;
 *   - nothing in any sandbox is stamped later than that sandbox's own clock (a timer fired on
 *     another sandbox's time would be);
 *   - a sandbox's request journal holds only requests made with its own credentials.
 * OBSIM_SANDBOX_RUNS (default 15 sequences of up to 25 operations; more in test:long).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { build, PARTNER } from '../helpers/app.js';
import { call, testMerchant } from '../helpers/partner.js';
import { scaled } from '../helpers/speed.js';

const RUNS = Number(process.env.OBSIM_SANDBOX_RUNS ?? 15);
const SEED = Number(process.env.OBSIM_SANDBOX_SEED ?? 1717);
t.setTimeout(scaled(Math.max(180_000, RUNS * 10_000)));

interface Box {
  /** Partner ids whose rows belong to it (the default sandbox: the configured partner). */
  partner: string;
  headers: Record<string, string>;
  merchantClientId: string;
  payments: number[];
}

const ADVANCES = ['1s', '5s', '10s', '31m', '1h', '2d', '30d'];
const OPS = ['payment', 'payment', 'payment', 'onboard', 'advance', 'advance', 'complete', 'fail', 'create'] as const;

function digest(app: FastifyInstance, partner: string): string {
  const rows = [
    app.db.prepare('SELECT id, status, updated_at FROM payments WHERE partner_id = ? ORDER BY id').all(partner),
    app.db.prepare('SELECT id, status, updated_at FROM merchants WHERE partner_id = ? ORDER BY id').all(partner),
    app.db.prepare('SELECT id, name FROM events WHERE partner_id = ? ORDER BY rowid').all(partner),
    app.db.prepare('SELECT id, state FROM deliveries WHERE partner_id = ? ORDER BY id').all(partner),
    app.db.prepare('SELECT due_at, aggregate, aggregate_id, trigger FROM timers WHERE partner_id = ? ORDER BY id').all(partner),
  ];
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

t.test('advancing or acting in one sandbox changes nothing in another', async (t) => {
  const stats = { ops: 0, advances: 0, fired: 0, sandboxes: 0 };
  const violations: string[] = [];

  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ op: fc.constantFrom(...OPS), box: fc.nat(), n: fc.nat(1000) }), { minLength: 5, maxLength: 25 }),
      async (ops) => {
        const app = await build(t);
        const shop = await testMerchant(app);
        const boxes: Box[] = [{ partner: 'sandbox-partner', headers: PARTNER, merchantClientId: shop.clientId, payments: [] }];
        const createBox = async () => {
          const res = await call(app, 'POST', '/_sandbox/sandboxes', { clock: { frozen: true, start: '2026-01-15T09:00:00.000Z' } });
          const body = res.body;
          boxes.push({
            partner: body.sandboxId,
            headers: { 'x-partner-client-id': body.credentials.clientId, 'x-partner-client-secret': body.credentials.clientSecret },
            merchantClientId: body.defaultMerchant.clientId,
            payments: [],
          });
          stats.sandboxes++;
        };
        await createBox();
        await createBox();
        await app.webhooks.drain();
        await call(
          app,
          'POST',
          '/v1/partner/webhooks',
          { url: 'http://127.0.0.1:9/hook', events: ['payment.completed'] },
          boxes[1].headers,
        );

        for (const { op, box: pick, n } of ops) {
          const box = boxes[pick % boxes.length];
          const others = boxes.filter((b) => b !== box);
          const clockOf = async (b: Box) => (await call(app, 'GET', '/_sandbox/clock', undefined, b.headers)).body.now as string;
          const before = await Promise.all(others.map(async (b) => ({ b, clock: await clockOf(b), digest: digest(app, b.partner) })));
          const eventsBefore = app.db.prepare('SELECT count(*) FROM events').pluck().get() as number;

          stats.ops++;
          switch (op) {
            case 'payment': {
              const res = await call(
                app,
                'POST',
                '/v1/partner/payments',
                { merchantClientId: box.merchantClientId, amount: [10, 666.66, 888.88][n % 3], referenceNumber: `p${n}` },
                box.headers,
              );
              if (res.status === 200) box.payments.push(res.body.paymentId);
              break;
            }
            case 'onboard': {
              const m = await call(
                app,
                'POST',
                '/v1/partner/merchants',
                { companyName: `M${n} ApS`, contactEmail: 'm@x.test' },
                box.headers,
              );
              await call(app, 'POST', `/_sandbox/merchants/${m.body.merchantId}/submit-onboarding`, undefined, box.headers);
              break;
            }
            case 'advance': {
              const res = await call(app, 'POST', '/_sandbox/clock/advance', { duration: ADVANCES[n % ADVANCES.length] }, box.headers);
              if (res.status !== 200) violations.push(`advance answered ${res.status}`);
              stats.advances++;
              stats.fired += res.body.fired ?? 0;
              break;
            }
            case 'complete':
            case 'fail': {
              const id = box.payments[n % Math.max(1, box.payments.length)];
              if (id !== undefined) await call(app, 'POST', `/_sandbox/payments/${id}/${op}`, undefined, box.headers);
              break;
            }
            case 'create':
              if (boxes.length < 6) await createBox();
              break;
          }
          await app.webhooks.drain();

          for (const { b, clock, digest: d } of before) {
            if (!boxes.includes(b)) continue;
            if ((await clockOf(b)) !== clock) violations.push(`${op} in ${box.partner} moved the clock of ${b.partner}`);
            if (digest(app, b.partner) !== d) violations.push(`${op} in ${box.partner} changed rows of ${b.partner}`);
          }
          const newEvents = app.db.prepare('SELECT partner_id FROM events WHERE rowid > ?').pluck().all(eventsBefore) as string[];
          for (const owner of newEvents)
            if (op !== 'create' && owner !== box.partner) violations.push(`${op} in ${box.partner} wrote an event of ${owner}`);
          for (const b of boxes) {
            const now = await clockOf(b);
            const late = app.db
              .prepare('SELECT count(*) FROM payments WHERE partner_id = ? AND updated_at > ?')
              .pluck()
              .get(b.partner, now) as number;
            if (late > 0) violations.push(`${b.partner}: ${late} payments stamped after its clock ${now}`);
            // the journal: a sandbox's query answers only the requests made with its credentials
            const journal = await call(app, 'GET', '/_sandbox/requests?limit=500', undefined, b.headers);
            const foreign = (journal.body.items as { headers: Record<string, string> }[]).filter(
              (e) => e.headers['x-partner-client-id'] !== b.headers['x-partner-client-id'],
            );
            if (journal.status !== 200 || foreign.length > 0)
              violations.push(`${b.partner}: its journal holds ${foreign.length} entries of others`);
          }
          const own = await call(app, 'GET', '/_sandbox/requests?limit=1', undefined, box.headers);
          if (own.body.items.length === 0) violations.push(`${op} in ${box.partner}: nothing in its journal`);
        }
        return violations.length === 0;
      },
    ),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  t.same(violations, []);
  t.ok(stats.advances > 0 && stats.fired > 0, 'clocks were advanced and timers fired');
  t.comment(
    `sandbox clocks: ${RUNS} sequences, ${stats.ops} operations, ${stats.sandboxes} sandboxes, ${stats.advances} advances firing ${stats.fired} timers (seed ${SEED}); violations ${violations.length}`,
  );
});
