/**
 * Snapshots: capture a sandbox (rows and clock), rewind it in place (same ids, clock back, timers
 * working again), start new sandboxes from it (new ids everywhere, references and webhook bodies
 * rewritten, secrets kept, the source untouched), refuse bad names, duplicates, another's
 * snapshot and an unknown one without creating anything, and keep them across a restart.
 */
import { join } from 'node:path';
import t from 'tap';
import { VirtualClock } from '../../../src/clock.js';
import { build, schemaErrors } from '../../helpers/app.js';
import { call, count } from '../../helpers/partner.js';

type App = Awaited<ReturnType<typeof build>>;
type Headers = Record<string, string>;

async function sandbox(app: App, body: Record<string, unknown> = { clock: { start: '2030-01-01T00:00:00.000Z', frozen: true } }) {
  const res = await call(app, 'POST', '/_sandbox/sandboxes', body);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  const headers: Headers = {
    'x-partner-client-id': res.body.credentials.clientId,
    'x-partner-client-secret': res.body.credentials.clientSecret,
  };
  return { ...res.body, headers } as { sandboxId: string; headers: Headers; defaultMerchant: { merchantId: number; clientId: string } };
}

const pay = async (app: App, s: Awaited<ReturnType<typeof sandbox>>, ref: string) =>
  (
    await call(
      app,
      'POST',
      '/v1/partner/payments',
      { merchantClientId: s.defaultMerchant.clientId, amount: 12.5, referenceNumber: ref },
      s.headers,
    )
  ).body as { paymentId: number };
const status = async (app: App, h: Headers, id: number) => (await call(app, 'GET', `/v1/partner/payments/${id}/status`, undefined, h)).body;

t.test('restore rewinds data and clock in place; its timers fire again', async (t) => {
  const app = await build(t);
  const s = await sandbox(app);
  const p = await pay(app, s, 'before');
  const snap = await call(app, 'POST', '/_sandbox/snapshots', { name: 'before-settle' }, s.headers);
  t.equal(snap.status, 200);
  t.same(schemaErrors('Snapshot', snap.body), []);
  t.match(snap.body, {
    name: 'before-settle',
    clock: { now: '2030-01-01T00:00:00.000Z', frozen: true },
    counts: { merchants: 1, payments: 1, timers: 1 },
  });

  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '10s' }, s.headers);
  t.equal((await status(app, s.headers, p.paymentId)).status, 'paid');
  const later = await pay(app, s, 'after');

  const restored = await call(app, 'POST', '/_sandbox/snapshots/before-settle/restore', undefined, s.headers);
  t.equal(restored.status, 200);
  t.match(await status(app, s.headers, p.paymentId), { status: 'pending', referenceNumber: 'before' }, 'the same id, as it was');
  t.equal(
    (await call(app, 'GET', `/v1/partner/payments/${later.paymentId}/status`, undefined, s.headers)).status,
    404,
    'the later one is gone',
  );
  t.match(
    (await call(app, 'GET', '/_sandbox/clock', undefined, s.headers)).body,
    { now: '2030-01-01T00:00:00.000Z', frozen: true },
    'the clock is back',
  );
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '10s' }, s.headers);
  t.equal((await status(app, s.headers, p.paymentId)).status, 'paid', 'its settlement timer fires again');
  const list = await call(app, 'GET', '/_sandbox/snapshots', undefined, s.headers);
  t.same(
    list.body.items.map((x: { name: string }) => x.name),
    ['before-settle'],
  );
});

t.test('a sandbox started from a snapshot: the same data under new ids, on its own', async (t) => {
  const app = await build(t);
  const a = await sandbox(app);
  const hook = (
    await call(app, 'POST', '/v1/partner/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['payment.completed'] }, a.headers)
  ).body;
  const paid = await pay(app, a, 'paid-one');
  await call(app, 'POST', `/_sandbox/payments/${paid.paymentId}/complete`, undefined, a.headers);
  const pending = await pay(app, a, 'pending-one');
  await app.webhooks.drain();
  await call(app, 'POST', '/_sandbox/snapshots', { name: 'seeded-shop' }, a.headers);
  const aRows = count(app, 'payments', 'partner_id = ?', a.sandboxId);

  const b = await sandbox(app, { snapshot: 'seeded-shop', name: 'from seed' });
  t.not(b.defaultMerchant.merchantId, a.defaultMerchant.merchantId, 'a new default merchant id');
  t.not(b.defaultMerchant.clientId, a.defaultMerchant.clientId);
  t.match(
    (await call(app, 'GET', '/_sandbox/clock', undefined, b.headers)).body,
    { now: '2030-01-01T00:00:00.000Z', frozen: true },
    "the snapshot's clock",
  );
  const bPayments = app.db
    .prepare('SELECT id, reference_number, status, merchant_client_id FROM payments WHERE partner_id = ? ORDER BY id')
    .all(b.sandboxId) as {
    id: number;
    reference_number: string;
    status: string;
    merchant_client_id: string;
  }[];
  t.same(
    bPayments.map((p) => [p.reference_number, p.status]),
    [
      ['paid-one', 'paid'],
      ['pending-one', 'pending'],
    ],
  );
  t.ok(
    bPayments.every((p) => p.id !== paid.paymentId && p.id !== pending.paymentId),
    'new payment ids',
  );
  t.ok(
    bPayments.every((p) => p.merchant_client_id === b.defaultMerchant.clientId),
    'pointing at its own merchant',
  );
  t.equal((await call(app, 'GET', `/v1/partner/payments/${paid.paymentId}/status`, undefined, b.headers)).status, 404, "not A's payment");

  const bHook = app.db.prepare('SELECT id, secret FROM webhooks WHERE partner_id = ?').get(b.sandboxId) as { id: string; secret: string };
  t.not(bHook.id, hook.id);
  t.equal(bHook.secret, hook.secret, 'the webhook secret is kept (receivers configured once)');
  const event = JSON.parse(
    app.db.prepare("SELECT body FROM events WHERE partner_id = ? AND name = 'payment.completed'").pluck().get(b.sandboxId) as string,
  );
  t.match(
    event.data,
    { paymentId: bPayments[0].id, merchantClientId: b.defaultMerchant.clientId },
    'ids inside the stored webhook body follow',
  );

  // its cloned timer settles its own payment, and A is untouched
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '10s' }, b.headers);
  t.equal((await status(app, b.headers, bPayments[1].id)).status, 'paid');
  t.equal((await status(app, a.headers, pending.paymentId)).status, 'pending', "A's copy did not move");
  t.equal(count(app, 'payments', 'partner_id = ?', a.sandboxId), aRows);
});

t.test('bad names, duplicates, another sandbox’s snapshot, an unknown one: refused, nothing created', async (t) => {
  const app = await build(t);
  const a = await sandbox(app);
  const b = await sandbox(app);
  t.equal((await call(app, 'POST', '/_sandbox/snapshots', { name: 'has space' }, a.headers)).status, 400);
  t.equal((await call(app, 'POST', '/_sandbox/snapshots', { name: 'one' }, a.headers)).status, 200);
  t.match((await call(app, 'POST', '/_sandbox/snapshots', { name: 'one' }, b.headers)).body, { status: 409, code: 'snapshot_exists' });
  t.match((await call(app, 'POST', '/_sandbox/snapshots/one/restore', undefined, b.headers)).body, {
    status: 404,
    code: 'snapshot_not_found',
  });
  t.equal((await call(app, 'DELETE', '/_sandbox/snapshots/one', undefined, b.headers)).status, 404);
  const sandboxes = count(app, 'sandboxes');
  t.match((await call(app, 'POST', '/_sandbox/sandboxes', { snapshot: 'nope' })).body, {
    status: 404,
    code: 'snapshot_not_found',
    field: 'snapshot',
  });
  t.equal(count(app, 'sandboxes'), sandboxes, 'no sandbox was created');
  t.equal((await call(app, 'DELETE', '/_sandbox/snapshots/one', undefined, a.headers)).status, 200);
  t.equal(count(app, 'snapshots'), 0);
});

t.test('a snapshot survives a restart (file database)', async (t) => {
  const db = join(t.testdir({}), 'obsim.sqlite');
  const first = await build(t, { config: { db } });
  const a = await sandbox(first);
  await pay(first, a, 'kept');
  await call(first, 'POST', '/_sandbox/snapshots', { name: 'durable' }, a.headers);
  await first.close();

  const second = await build(t, { config: { db }, clock: VirtualClock.create({ start: '2026-01-15T09:00:00.000Z', frozen: true }) });
  const b = await sandbox(second, { snapshot: 'durable' });
  t.equal(count(second, 'payments', 'partner_id = ? AND reference_number = ?', b.sandboxId, 'kept'), 1);
  t.match(
    (await call(second, 'GET', '/_sandbox/clock', undefined, a.headers)).body,
    { now: '2030-01-01T00:00:00.000Z' },
    'the source sandbox and its clock survived too',
  );
});
