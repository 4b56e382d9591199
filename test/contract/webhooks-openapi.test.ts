/**
 * openapi.json describes every delivery under OpenAPI 3.1 `webhooks` (the five contract events
 * and the test delivery, each with its body schema and the X-Webhook-Signature / X-Webhook-Id
 * headers), and every delivery obsim sends validates against it: each event is produced through
 * the API, received by a loopback receiver, and its raw body checked with Ajv against the
 * committed document.
 */
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { EVENT_NAMES } from '../../src/domain/machine.js';
import { build, PARTNER } from '../helpers/app.js';
import { advance, watchEvents } from '../helpers/engine.js';
import { call, standardMerchant, testMerchant } from '../helpers/partner.js';

type Operation = {
  parameters: { in: string; name: string; required: boolean }[];
  requestBody: { content: { 'application/json': { schema: { $ref: string } } } };
};
const openapi = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  openapi: string;
  webhooks: Record<string, { post: Operation }>;
  components: { schemas: Record<string, object> };
};

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: 'openapi.json', components: openapi.components });
const validatorFor = (event: string) => {
  const ref = openapi.webhooks[event].post.requestBody.content['application/json'].schema.$ref;
  return ajv.getSchema(`openapi.json${ref}`)!;
};

t.test('the document lists every event under webhooks, with the body schema and both headers', async (t) => {
  t.equal(openapi.openapi, '3.1.0');
  t.same(Object.keys(openapi.webhooks).sort(), [...EVENT_NAMES, 'webhook.test'].sort());
  for (const [event, { post }] of Object.entries(openapi.webhooks)) {
    t.ok(validatorFor(event), `${event}: its body schema resolves`);
    for (const header of ['X-Webhook-Signature', 'X-Webhook-Id']) {
      t.ok(
        post.parameters.some((p) => p.in === 'header' && p.name === header && p.required),
        `${event}: ${header} header`,
      );
    }
  }
});

t.test('every delivery obsim sends validates against its webhooks schema', async (t) => {
  const app = await build(t);
  const watch = await watchEvents(t, app);
  // merchant.activated (a test merchant is born activated), then payments: paid and failed
  const shop = await testMerchant(app);
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: shop.clientId, amount: 10, referenceNumber: 'ok' });
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: shop.clientId, amount: 666.66, referenceNumber: 'rejected' });
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: shop.clientId, amount: 888.88, referenceNumber: 'expires' });
  await advance(app, '31m');
  // merchant.onboarding.completed, then merchant.deactivated
  const std = await standardMerchant(app);
  await call(app, 'POST', `/_sandbox/merchants/${std.merchantId}/submit-onboarding`, undefined, PARTNER);
  await call(app, 'POST', `/_sandbox/merchants/${shop.merchantId}/deactivate`, undefined, PARTNER);
  // the test delivery
  const hooks = await call(app, 'POST', '/v1/partner/webhooks', { url: watch.rx.url, events: ['payment.completed'] });
  await call(app, 'POST', `/v1/partner/webhooks/${hooks.body.id}/test`);
  await app.webhooks.drain();

  const seen = new Set<string>();
  for (const got of watch.rx.received) {
    const event = got.json?.event as string;
    seen.add(event);
    const validate = validatorFor(event);
    t.ok(validate(JSON.parse(got.raw.toString('utf8'))), `${event}: ${ajv.errorsText(validate.errors)}`);
  }
  t.same([...seen].sort(), [...EVENT_NAMES, 'webhook.test'].sort(), 'every event was delivered and checked');
  const failed = watch.rx.received.filter((r) => r.json?.event === 'payment.failed').map((r) => r.json.data.failureReason);
  t.same(failed.sort(), ['bank_rejected', 'expired'], 'payment.failed carries its failureReason');
});
