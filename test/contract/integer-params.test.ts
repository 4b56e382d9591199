/**
 * Integer path and query parameters are decimal digits only. Ajv's coercion used to read any
 * JavaScript number syntax: `/_sandbox/deliveries/1e3` answered delivery 1000 (found by the long
 * fuzz run), `0x…`, ` 1` and `1.0` likewise. Now they are a 400 naming the parameter, as `abc` is.
 */
import t from 'tap';
import { build, json, PARTNER, schemaErrors } from '../helpers/app.js';

const NOT_DIGITS = ['1e0', '0x1', '%201', '1.0', '%2B1', '1%20'];

t.test('path ids: canonical digits work; other number spellings of the same id are 400', async (t) => {
  const app = await build(t);
  const hook = json(
    await app.inject({
      method: 'POST',
      url: '/v1/partner/webhooks',
      headers: PARTNER,
      payload: { url: 'http://127.0.0.1:9/none', events: ['payment.failed'] },
    }),
  );
  const queued = json(await app.inject({ method: 'POST', url: `/v1/partner/webhooks/${hook.id}/test`, headers: PARTNER }));
  t.equal(queued.deliveryId, 1, 'delivery 1 exists');
  t.equal((await app.inject({ url: '/_sandbox/deliveries/1', headers: PARTNER })).statusCode, 200);
  for (const raw of NOT_DIGITS) {
    const res = await app.inject({ url: `/_sandbox/deliveries/${raw}`, headers: PARTNER });
    t.equal(res.statusCode, 400, `/_sandbox/deliveries/${raw}`);
    t.match(json(res), { code: 'validation_failed', field: 'deliveryId', message: 'deliveryId must be of type integer' });
    t.same(schemaErrors('ErrorBody', json(res)), []);
  }
  const before = app.db.prepare('SELECT count(*) FROM deliveries').pluck().get();
  const redeliver = await app.inject({ method: 'POST', url: '/_sandbox/deliveries/1e0/redeliver', headers: PARTNER });
  t.equal(redeliver.statusCode, 400);
  t.equal(app.db.prepare('SELECT count(*) FROM deliveries').pluck().get(), before, 'nothing redelivered');

  const merchantId = Number(app.meta.get('default_merchant:sandbox-partner'));
  t.equal((await app.inject({ url: `/v1/partner/merchants/${merchantId}/onboarding-status`, headers: PARTNER })).statusCode, 200);
  const exp = merchantId.toExponential(); // e.g. 1.00001e+5
  const res = await app.inject({ url: `/v1/partner/merchants/${encodeURIComponent(exp)}/onboarding-status`, headers: PARTNER });
  t.equal(res.statusCode, 400, `merchant ${exp}`);
  t.match(json(res), { field: 'merchantId' });
  const neg = await app.inject({ url: '/_sandbox/deliveries/-1', headers: PARTNER });
  t.equal(neg.statusCode, 400, 'digits, but below the minimum: the schema still answers');
});

t.test('integer query parameters: digits only', async (t) => {
  const app = await build(t);
  t.equal((await app.inject({ url: '/v1/partner/merchants?page=1&limit=10', headers: PARTNER })).statusCode, 200);
  for (const q of ['page=1e0', 'limit=0x10', 'limit=1.0']) {
    const res = await app.inject({ url: `/v1/partner/merchants?${q}`, headers: PARTNER });
    t.equal(res.statusCode, 400, q);
    t.match(json(res), { code: 'validation_failed', field: q.split('=')[0] });
  }
});

t.test('credentials are still checked first', async (t) => {
  const app = await build(t);
  const res = await app.inject({ url: '/_sandbox/deliveries/1e0' });
  t.equal(res.statusCode, 401);
});
