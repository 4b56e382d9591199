/**
 * The console's webhooks page (src/routes/console/pages/webhooks.ts): registering a webhook,
 * sending a test delivery, a delivery's page and redelivering it.
 */
import { createServer } from 'node:http';
import t from 'tap';
import { build } from '../../../helpers/app.js';
import { act, signIn, view } from '../../../helpers/console.js';
import { call } from '../../../helpers/partner.js';

t.test('webhooks: register, send a test, read the delivery, redeliver', async (t) => {
  const received: string[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(body);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.teardown(() => receiver.close());
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  const app = await build(t);
  const s = await signIn(app);

  const registered = await act(app, s, '/console/webhooks', { url, events: ['payment.completed', 'payment.failed'] });
  t.match(registered.page, /Webhook registered/);
  const hooks = (await call(app, 'GET', '/_sandbox/webhooks')).body.items;
  t.equal(hooks.length, 1, 'the API has it');
  t.same(hooks[0].events, ['payment.completed', 'payment.failed'], 'with both events of the form');
  t.match(registered.page, new RegExp(url.replace(/[/.]/g, '\\$&')));

  const tested = await act(app, s, `/console/webhooks/${hooks[0].id}/test`);
  t.match(tested.page, /Test delivery queued/);
  let deliveries: any[] = [];
  for (let i = 0; i < 100 && (deliveries.length === 0 || deliveries[0].state !== 'delivered'); i++) {
    await new Promise((r) => setTimeout(r, 20));
    deliveries = (await call(app, 'GET', '/_sandbox/deliveries')).body.items;
  }
  t.equal(deliveries[0]?.state, 'delivered', 'the receiver got it');
  t.match(received[0], /webhook\.test/);

  const one = await view(app, s, `/console/deliveries/${deliveries[0].id}`);
  t.equal(one.status, 200);
  t.match(one.body, /delivered/);
  t.match(
    one.body,
    new RegExp(`<td><code>traceparent</code></td><td><code>${deliveries[0].traceparent}</code></td>`),
    'the traceparent it was sent with, among its headers',
  );
  t.match(deliveries[0].traceparent, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  const again = await act(app, s, `/console/deliveries/${deliveries[0].id}/redeliver`);
  t.match(again.to, /^\/console\/deliveries\/\d+$/, 'leads to the new delivery');
  t.match(again.page, new RegExp(`Redelivery \\d+ of delivery ${deliveries[0].id} queued`));

  const refused = await act(app, s, '/console/webhooks', { url: 'ftp://nowhere', events: 'payment.completed' });
  t.match(refused.page, /400 validation_failed/, "a bad URL shows the API's refusal");
  t.equal((await call(app, 'GET', '/_sandbox/webhooks')).body.items.length, 1, 'and registered nothing');
});
