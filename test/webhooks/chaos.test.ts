/**
 * Seeded chaos on webhook deliveries (docs/chaos.md): a delivery dropped (recorded failed,
 * chaos_drop, never sent), duplicated (the same X-Webhook-Id and bytes again, signed alike, so a
 * receiver can de-duplicate), held on the sandbox clock or in real time, or held so a later one
 * overtakes it; each marked in the delivery log.
 */
import t from 'tap';
import { createFaultDecider } from '../../src/domain/chaos.js';
import { build, schemaErrors } from '../helpers/app.js';
import { call, testMerchant } from '../helpers/partner.js';
import { startReceiver } from '../helpers/receiver.js';
import { checkSigned, deliveries, hook, pay } from '../helpers/deliveries.js';

type App = Awaited<ReturnType<typeof build>>;
const setFaults = (app: App, body: unknown) => call(app, 'PUT', '/_sandbox/faults', body);

async function completedPayment(app: App) {
  const m = await testMerchant(app);
  const p = await pay(app, m.clientId);
  await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`);
  return p;
}

t.test('webhook_drop: recorded failed with outcome chaos_drop, never sent', async (t) => {
  const app = await build(t);
  const rx = await startReceiver(t);
  await hook(app, rx.url, ['payment.completed']);
  await setFaults(app, { seed: 1, rules: [{ kind: 'webhook_drop', event: 'payment.completed', rate: 1 }] });
  await completedPayment(app);
  await app.webhooks.drain();
  t.equal(rx.received.length, 0, 'nothing arrived');
  const [d] = (await deliveries(app)).items;
  t.match(d, { state: 'failed', outcome: 'chaos_drop', statusCode: null, fault: { rule: 0, kind: 'webhook_drop' } });
  t.same(schemaErrors('SandboxDelivery', d), []);
  const only = await deliveries(app, '?outcome=chaos_drop');
  t.equal(only.total, 1, 'the log filters on it');
});

t.test('webhook_duplicate: the same id, bytes and signature again, each copy in the log', async (t) => {
  const app = await build(t);
  const rx = await startReceiver(t);
  const wh = await hook(app, rx.url, ['payment.completed']);
  await setFaults(app, { seed: 1, rules: [{ kind: 'webhook_duplicate', rate: 1, copies: 2 }] });
  await completedPayment(app);
  await app.webhooks.drain();
  const got = await rx.waitFor(3);
  t.equal(got.length, 3, 'the delivery and two copies');
  const [first] = got;
  for (const r of got) {
    checkSigned(t, r, wh.secret, String(first.headers['x-webhook-id']));
    t.ok(r.raw.equals(first.raw), 'the same bytes');
  }
  const log = (await deliveries(app)).items.sort((a, b) => a.id - b.id);
  t.equal(log.length, 3);
  t.match(log[0], { redeliveryOf: null, fault: { rule: 0, kind: 'webhook_duplicate' } });
  for (const copy of log.slice(1))
    t.match(copy, { redeliveryOf: log[0].id, state: 'delivered', fault: { rule: 0, kind: 'webhook_duplicate' } });
  t.equal(new Set(log.map((d) => d.eventId)).size, 1, 'one event');
});

t.test('webhook_delay on the sandbox clock: held until the clock has moved, then sent', async (t) => {
  const app = await build(t);
  const rx = await startReceiver(t);
  await hook(app, rx.url, ['payment.completed']);
  await setFaults(app, { seed: 1, rules: [{ kind: 'webhook_delay', rate: 1, delay: { virtualSeconds: 60 } }] });
  await completedPayment(app);
  await new Promise((r) => setTimeout(r, 300));
  t.equal(rx.received.length, 0, 'held while the frozen clock stands still');
  t.match((await deliveries(app)).items[0], { state: 'delivering' });
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '60s' });
  await rx.waitFor(1);
  await app.webhooks.drain();
  t.match((await deliveries(app)).items[0], { state: 'delivered', fault: { rule: 0, kind: 'webhook_delay' } });
});

t.test('webhook_delay in real time: sent once it has passed', async (t) => {
  const app = await build(t);
  const rx = await startReceiver(t);
  await hook(app, rx.url, ['payment.completed']);
  await setFaults(app, { seed: 1, rules: [{ kind: 'webhook_delay', rate: 1, delay: { realMs: 50 } }] });
  await completedPayment(app);
  await app.webhooks.drain();
  t.equal(rx.received.length, 1);
  t.match((await deliveries(app)).items[0], { state: 'delivered', fault: { kind: 'webhook_delay' } });
});

t.test('webhook_reorder: a delivery held so the one after it arrives first', async (t) => {
  // a seed whose first draw holds the first delivery for more than half the window
  const rule = { kind: 'webhook_reorder' as const, event: 'payment.completed', rate: 1, withinMs: 400 };
  const seed = [...Array(100).keys()].find(
    (s) => createFaultDecider({ seed: s, rules: [rule] }).webhook('payment.completed', 0)!.reorder!.realMs > 250,
  )!;
  const app = await build(t);
  const rx = await startReceiver(t);
  await hook(app, rx.url, ['payment.completed', 'payment.failed']);
  await setFaults(app, { seed, rules: [rule] });
  const m = await testMerchant(app);
  const a = await pay(app, m.clientId);
  const b = await pay(app, m.clientId);
  await call(app, 'POST', `/_sandbox/payments/${a.paymentId}/complete`);
  await call(app, 'POST', `/_sandbox/payments/${b.paymentId}/fail`, {});
  await app.webhooks.drain();
  const got = await rx.waitFor(2);
  t.same(
    got.map((r) => r.json.event),
    ['payment.failed', 'payment.completed'],
    'the later event overtook the held one',
  );
  const held = (await deliveries(app, '?event=payment.completed')).items[0];
  t.match(held, { state: 'delivered', fault: { rule: 0, kind: 'webhook_reorder' } });
  t.notOk((await deliveries(app, '?event=payment.failed')).items[0].fault, 'the other was not touched');
});
