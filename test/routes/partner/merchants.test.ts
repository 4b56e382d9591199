import t from 'tap';
import { build, json, PARTNER, schemaErrors, T0 } from '../../helpers/app.js';
import { call, count } from '../../helpers/partner.js';

t.test('POST /v1/partner/merchants creates a pending_onboarding merchant', async (t) => {
  const app = await build(t);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants',
    headers: PARTNER,
    payload: { companyName: 'Acme ApS', contactEmail: 'ops@acme.test', partnerRefId: 'ref-1', contactPhone: '+45 12 34 56 78' },
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
  t.equal(row?.contact_phone, '+45 12 34 56 78');
  t.equal(row?.kind, 'standard');
  t.equal(row?.status, 'pending_onboarding');
  t.equal(row?.onboarding_token, body.onboardingToken);
  t.equal(row?.onboarding_expires_at, body.expiresAt);
  t.equal(app.store.merchants.getByOnboardingToken(body.onboardingToken)?.id, body.merchantId);
});

t.test('standard creation: every validation failure class is a 400 naming the field, with no state change', async (t) => {
  const app = await build(t);
  const before = count(app, 'merchants');
  const cases: [string, unknown, string, string?][] = [
    ['missing', { companyName: 'A' }, 'contactEmail'],
    ['missing', { contactEmail: 'a@b.test' }, 'companyName'],
    ['wrong type', { companyName: 5, contactEmail: 'a@b.test' }, 'companyName'],
    ['wrong type', { companyName: 'A', contactEmail: ['a@b.test'] }, 'contactEmail'],
    ['bad format', { companyName: 'A', contactEmail: 'not-an-email' }, 'contactEmail'],
    ['empty', { companyName: '', contactEmail: 'a@b.test' }, 'companyName'],
    ['too long', { companyName: 'x'.repeat(201), contactEmail: 'a@b.test' }, 'companyName'],
    ['too long', { companyName: 'A', contactEmail: 'a@b.test', partnerRefId: 'r'.repeat(201) }, 'partnerRefId'],
    ['wrong type', { companyName: 'A', contactEmail: 'a@b.test', contactPhone: 4512345678 }, 'contactPhone'],
  ];
  for (const [kind, payload, field] of cases) {
    const r = await call(app, 'POST', '/v1/partner/merchants', payload);
    t.equal(r.status, 400, `${kind} ${field}`);
    t.match(r.body, { status: 400, code: 'validation_failed', field }, `${kind} ${field}`);
    t.same(schemaErrors('ErrorBody', r.body), []);
  }
  const notObject = await call(app, 'POST', '/v1/partner/merchants', [1, 2]);
  t.equal(notObject.status, 400);
  t.equal(count(app, 'merchants'), before, 'rejected requests change nothing');
});

t.test('malformed JSON, wrong content type and no credentials', async (t) => {
  const app = await build(t);
  const before = count(app, 'merchants');
  const malformed = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants',
    headers: { ...PARTNER, 'content-type': 'application/json' },
    payload: '{"companyName":',
  });
  t.equal(malformed.statusCode, 400);
  t.match(json(malformed), { code: 'malformed_json' });

  const text = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants',
    headers: { ...PARTNER, 'content-type': 'text/plain' },
    payload: 'hi',
  });
  t.equal(text.statusCode, 400, 'a text body is not the JSON object the endpoint expects');
  t.match(json(text), { code: 'validation_failed', field: '', in: 'body' });

  const anon = await app.inject({ method: 'POST', url: '/v1/partner/merchants', payload: { companyName: 'A', contactEmail: 'a@b.test' } });
  t.equal(anon.statusCode, 401);
  t.match(json(anon), { code: 'partner_credentials_missing' });
  t.equal(count(app, 'merchants'), before, 'rejected requests change nothing');
});

t.test('unknown body properties: dropped by default, 400 unknown_field in strict mode', async (t) => {
  const lax = await build(t);
  const ok = await call(lax, 'POST', '/v1/partner/merchants', { companyName: 'A', contactEmail: 'a@b.test', color: 'red' });
  t.equal(ok.status, 200);
  t.notOk('color' in ok.body);

  const strict = await build(t, { config: { strict: true } });
  const bad = await call(strict, 'POST', '/v1/partner/merchants', { companyName: 'A', contactEmail: 'a@b.test', color: 'red' });
  t.equal(bad.status, 400);
  t.match(bad.body, { code: 'unknown_field', field: 'color' });
});
