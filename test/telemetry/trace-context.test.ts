/**
 * The trace context without OpenTelemetry (docs/operations.md, "Traces"): the `traceparent` and
 * `tracestate` a request carries come back on its answer and go out with every webhook delivery it
 * causes: at once, after a clock advance (its timer keeps them), redelivered, and the test delivery
 * of POST /v1/partner/webhooks/{id}/test. An invalid tracestate is dropped; the traceparent stays.
 */
import t from 'tap';
import { build, PARTNER, schemaErrors } from '../helpers/app.js';
import { deliveries, hook, pay } from '../helpers/deliveries.js';
import { call, testMerchant } from '../helpers/partner.js';
import { startReceiver } from '../helpers/receiver.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE}-00f067aa0ba902b7-01`;
const STATE = 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE';
const traceIdOf = (header: unknown) => /^00-([0-9a-f]{32})-[0-9a-f]{16}-01$/.exec(String(header))?.[1];

t.test('tracestate comes back on the answer and goes out with every delivery the request causes', async (t) => {
  const app = await build(t);
  const rx = await startReceiver(t);
  const webhook = await hook(app, rx.url, ['payment.completed']);
  const m = await testMerchant(app);
  const traced = { ...PARTNER, traceparent: TRACEPARENT, tracestate: ' rojo=00f067aa0ba902b7 , congo=t61rcWkgMzE' };

  const p = await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 3, referenceNumber: 'ts' }, traced);
  t.equal(p.status, 200);
  t.equal(traceIdOf(p.headers.traceparent), TRACE);
  t.equal(p.headers.tracestate, STATE, 'the answer carries it, normalised');

  // the settlement timer was set by the traced request: the delivery it causes minutes later carries both
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '10s' });
  const [settled] = await rx.waitFor(1);
  t.equal(traceIdOf(settled.headers.traceparent), TRACE);
  t.equal(settled.headers.tracestate, STATE, 'after a clock advance, from the timer');

  await app.webhooks.drain();
  const [logged] = (await deliveries(app)).items;
  t.same(schemaErrors('SandboxDelivery', logged), []);
  t.equal(logged.tracestate, STATE, 'the delivery log shows what it sent');
  await call(app, 'POST', `/_sandbox/deliveries/${logged.id}/redeliver`);
  const [, again] = await rx.waitFor(2);
  t.equal(again.headers.tracestate, STATE, "a redelivery stays in the event's trace, tracestate included");

  const test = await call(app, 'POST', `/v1/partner/webhooks/${webhook.id}/test`, undefined, traced);
  t.equal(test.status, 200);
  const [, , pinged] = await rx.waitFor(3);
  t.equal(traceIdOf(pinged.headers.traceparent), TRACE, "the test delivery continues the request's trace");
  t.equal(pinged.headers.tracestate, STATE);
});

t.test('no tracestate, or an invalid one: none on the answer or the delivery, the traceparent continued', async (t) => {
  const app = await build(t);
  const rx = await startReceiver(t);
  await hook(app, rx.url, ['payment.completed']);
  const m = await testMerchant(app);
  const p = await pay(app, m.clientId);
  const done = await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`, undefined, {
    ...PARTNER,
    traceparent: TRACEPARENT,
    tracestate: 'Not=valid',
  });
  t.equal(traceIdOf(done.headers.traceparent), TRACE);
  t.notOk('tracestate' in done.headers, 'an invalid tracestate is dropped');
  const [received] = await rx.waitFor(1);
  t.equal(traceIdOf(received.headers.traceparent), TRACE);
  t.notOk('tracestate' in received.headers);

  const orphan = await call(app, 'GET', '/v1/partner/merchants', undefined, { ...PARTNER, tracestate: STATE });
  t.notOk('tracestate' in orphan.headers, 'a tracestate without a traceparent starts nothing');
  t.not(traceIdOf(orphan.headers.traceparent), undefined, 'a trace of its own');
});
