/**
 * The console marks what the sandbox's fault profile injected (docs/chaos.md): a request's row
 * and page, a delivery's row and page, each with the rule that did it; nothing on the rest.
 */
import t from 'tap';
import { build } from '../../../helpers/app.js';
import { signIn, view } from '../../../helpers/console.js';
import { hook } from '../../../helpers/deliveries.js';
import { call, testMerchant } from '../../../helpers/partner.js';
import { startReceiver } from '../../../helpers/receiver.js';

t.test('requests and deliveries given a fault are marked, with their rule', async (t) => {
  const app = await build(t);
  const rx = await startReceiver(t);
  const s = await signIn(app);
  const m = await testMerchant(app);
  await hook(app, rx.url, ['payment.completed']);
  await call(app, 'PUT', '/_sandbox/faults', {
    seed: 1,
    rules: [
      { kind: 'error', operation: 'listMerchants', rate: 1, status: 503 },
      { kind: 'webhook_drop', rate: 1 },
    ],
  });
  await call(app, 'GET', '/v1/partner/merchants');
  const p = await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: 'c-1' });
  await call(app, 'POST', `/_sandbox/payments/${p.body.paymentId}/complete`);
  await app.webhooks.drain();

  const requests = await view(app, s, '/console/requests');
  const marks = [
    ...requests.body.matchAll(/data-testid="fault" title="Injected by the sandbox's fault profile, rule (\d)">fault: ([a-z ]+)</g),
  ];
  t.same(
    marks.map((x) => [x[1], x[2]]),
    [['0', 'error']],
    'one request marked: the 503 of rule 0',
  );
  const faulted = (await call(app, 'GET', '/_sandbox/requests?limit=10')).body.items.find((e: { fault?: unknown }) => e.fault);
  t.match((await view(app, s, `/console/requests/${faulted.id}`)).body, /data-testid="fault"[^>]*>fault: error</);

  const hooks = await view(app, s, '/console/webhooks');
  t.match(
    hooks.body,
    /chaos drop<\/span><\/span><span class="badge fault" data-testid="fault" title="Injected by the sandbox's fault profile, rule 1">fault: webhook drop</,
  );
  t.match(hooks.body, /<option value="chaos_drop">chaos_drop<\/option>/, 'the outcome filter knows it');
  const d = (await call(app, 'GET', '/_sandbox/deliveries')).body.items[0];
  t.match((await view(app, s, `/console/deliveries/${d.id}`)).body, /fault: webhook drop/);
});
