/**
 * Kill-and-restart: an event committed with its delivery still pending (or in flight) in a file
 * database is delivered after the simulator is rebuilt on that file, with the same X-Webhook-Id
 * and the same body bytes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildApp } from '../../src/app.js';
import { VirtualClock } from '../../src/clock.js';
import { PARTNER, T0 } from '../helpers/app.js';
import { call, testMerchant } from '../helpers/partner.js';
import { expectedSignature, startReceiver } from '../helpers/receiver.js';

async function open(file: string, clock = VirtualClock.create({ start: T0, frozen: true })) {
  const app = await buildApp({ logger: false, clock, config: { db: file, validateResponses: true } });
  await app.ready();
  return app;
}

t.test('pending and interrupted deliveries survive a restart', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-restart-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'obsim.sqlite');
  const rx = await startReceiver(t);

  // first life: the worker is stopped (as if the process died right after the commit)
  const first = await open(file);
  await first.webhooks.stop();
  const m = await testMerchant(first);
  const wh = (await call(first, 'POST', '/v1/partner/webhooks', { url: rx.url, events: ['payment.completed', 'merchant.deactivated'] }))
    .body;
  const p = (await call(first, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 42, referenceNumber: 'r-restart' }))
    .body;
  const done = await call(first, 'POST', `/_sandbox/payments/${p.paymentId}/complete`);
  t.equal(done.status, 200, 'acknowledged to the caller');
  await call(first, 'POST', `/_sandbox/merchants/${m.merchantId}/deactivate`);
  // a delivery the crash caught in flight
  first.db.prepare(`UPDATE deliveries SET state = 'delivering', attempted_at = ? WHERE id = (SELECT max(id) FROM deliveries)`).run(T0);
  const before = (await call(first, 'GET', '/_sandbox/deliveries')).body;
  t.same(before.items.map((d: any) => d.state).sort(), ['delivering', 'pending']);
  await first.close();
  t.equal(rx.received.length, 0, 'nothing was sent before the restart');

  // second life on the same file
  const second = await open(file);
  t.teardown(() => second.close());
  await second.webhooks.drain();
  t.equal(rx.received.length, 2, 'both deliveries sent after the restart');
  const after = (await call(second, 'GET', '/_sandbox/deliveries')).body;
  t.same(
    after.items.map((d: any) => d.state),
    ['delivered', 'delivered'],
  );
  for (const d of after.items) {
    const r = rx.received.find((x) => x.headers['x-webhook-id'] === d.eventId);
    t.ok(r, `${d.event} received under its original X-Webhook-Id`);
    t.equal(r!.raw.toString('utf8'), before.items.find((b: any) => b.id === d.id).body, 'same body bytes');
    t.equal(r!.headers['x-webhook-signature'], expectedSignature(wh.secret, r!.raw));
  }
  t.same(rx.received.map((r) => r.json.event).sort(), ['merchant.deactivated', 'payment.completed']);
});

t.test('the virtual clock and pending timers survive a restart (no --clock-start)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-restart-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'obsim.sqlite');
  const first = await buildApp({ logger: false, config: { db: file, clockStart: T0, clockFrozen: true } });
  await first.ready();
  const m = await testMerchant(first);
  const p = (await call(first, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 42, referenceNumber: 'r' })).body;
  await call(first, 'POST', '/_sandbox/clock/advance', { duration: '2s' });
  await first.close();

  const second = await buildApp({ logger: false, config: { db: file, clockFrozen: true } });
  await second.ready();
  t.teardown(() => second.close());
  const clock = (await call(second, 'GET', '/_sandbox/clock')).body;
  t.match(clock, { now: '2026-01-15T09:00:02.000Z', frozen: true }, 'simulated time restored');
  t.equal((await call(second, 'GET', `/v1/partner/payments/${p.paymentId}/status`)).body.status, 'pending');
  const adv = (await call(second, 'POST', '/_sandbox/clock/advance', { duration: '3s' })).body;
  t.equal(adv.fired, 1, 'the settlement timer scheduled before the restart fires');
  t.equal((await call(second, 'GET', `/v1/partner/payments/${p.paymentId}/status`)).body.status, 'paid');

  // an explicit --clock-start wins over the stored state
  await second.close();
  const third = await buildApp({ logger: false, config: { db: file, clockStart: '2027-01-01T00:00:00.000Z', clockFrozen: true } });
  await third.ready();
  t.teardown(() => third.close());
  t.equal((await call(third, 'GET', '/_sandbox/clock', undefined, PARTNER)).body.now, '2027-01-01T00:00:00.000Z');
});

t.test('on start, timers that fell due while obsim was down fire', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-restart-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'obsim.sqlite');
  const first = await open(file);
  const m = await testMerchant(first);
  const p = (await call(first, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 42, referenceNumber: 'r' })).body;
  await first.close();
  const later = await open(file, VirtualClock.create({ start: '2026-01-15T09:00:06.000Z', frozen: true }));
  t.teardown(() => later.close());
  const status = (await call(later, 'GET', `/v1/partner/payments/${p.paymentId}/status`)).body;
  t.match(status, { status: 'paid', updatedAt: '2026-01-15T09:00:05.000Z' }, 'settled at its due instant');
});

t.test('closing while a receiver hangs is quick; the interrupted delivery is sent again after reopening', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-restart-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'obsim.sqlite');
  let hang = true;
  const rx = await startReceiver(t, (_req, res) => {
    if (!hang) res.writeHead(200).end();
  });
  const first = await open(file);
  const m = await testMerchant(first);
  await call(first, 'POST', '/v1/partner/webhooks', { url: rx.url, events: ['merchant.deactivated'] });
  await call(first, 'POST', `/_sandbox/merchants/${m.merchantId}/deactivate`);
  await rx.waitFor(1);
  const started = Date.now();
  await first.close();
  t.ok(Date.now() - started < 2_000, 'close does not wait for the 10 s limit');
  hang = false;
  const second = await open(file);
  t.teardown(() => second.close());
  await second.webhooks.drain();
  t.equal(rx.received.length, 2, 'sent again after the restart');
  t.equal(
    rx.received[1].headers['x-webhook-id'],
    rx.received[0].headers['x-webhook-id'],
    'same X-Webhook-Id: the receiver can de-duplicate',
  );
  t.same(rx.received[1].raw, rx.received[0].raw);
  t.match((await call(second, 'GET', '/_sandbox/deliveries')).body.items, [{ state: 'delivered', outcome: 'delivered' }]);
});
