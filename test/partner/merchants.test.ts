import t from 'tap';
import { build, json, PARTNER, schemaErrors, T0 } from '../helpers/app.js';

t.test('POST /v1/partner/merchants creates a pending_onboarding merchant', async (t) => {
  const app = await build(t);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants',
    headers: PARTNER,
    payload: { companyName: 'Acme ApS', contactEmail: 'ops@acme.test', partnerRefId: 'ref-1' },
  });
  t.equal(res.statusCode, 200);
  const body = json(res);
  t.same(schemaErrors('StandardMerchantResponse', body), []);
  t.equal(body.status, 'pending_onboarding');
  t.match(body.clientId, /^[0-9a-f-]{36}$/);
  t.equal(body.expiresAt, new Date(Date.parse(T0) + 7 * 86_400_000).toISOString());
  t.equal(body.onboardingUrl, `http://127.0.0.1:4010/onboarding/${body.onboardingToken}`);
  const row = app.store.merchants.get(body.merchantId, 'sandbox-partner');
  t.equal(row?.partner_ref_id, 'ref-1');
});

t.test('missing field, wrong type, malformed JSON and no credentials', async (t) => {
  const app = await build(t);
  const missing = await app.inject({ method: 'POST', url: '/v1/partner/merchants', headers: PARTNER, payload: { companyName: 'A' } });
  t.equal(missing.statusCode, 400);
  t.match(json(missing), { status: 400, code: 'validation_failed', field: 'contactEmail' });
  t.same(schemaErrors('ErrorBody', json(missing)), []);

  const wrongType = await app.inject({ method: 'POST', url: '/v1/partner/merchants', headers: PARTNER, payload: { companyName: 5, contactEmail: 'a@b.test' } });
  t.match(json(wrongType), { code: 'validation_failed', field: 'companyName' });

  const malformed = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants',
    headers: { ...PARTNER, 'content-type': 'application/json' },
    payload: '{"companyName":',
  });
  t.equal(malformed.statusCode, 400);
  t.match(json(malformed), { code: 'malformed_json' });

  const anon = await app.inject({ method: 'POST', url: '/v1/partner/merchants', payload: { companyName: 'A', contactEmail: 'a@b.test' } });
  t.equal(anon.statusCode, 401);
  t.match(json(anon), { code: 'partner_credentials_missing' });
  t.equal(app.db.prepare('SELECT count(*) FROM merchants').pluck().get(), 0, 'rejected requests change nothing');
});
