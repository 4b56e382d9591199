/**
 * Unknown request body properties: ignored by default (lenient, like most real APIs), rejected
 * with 400 `unknown_field` naming the property in --strict, so integrator typos surface.
 * Either way nothing is stored for a rejected request, and known fields keep their types.
 */
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { loadConfig } from '../../src/config.js';
import { build, json, PARTNER, schemaErrors } from '../helpers/app.js';
import { scaled } from '../helpers/speed.js';

// generous: CI machines run many test files at once (tap's default is 30 s per file)
t.setTimeout(scaled(180_000));

const count = (app: FastifyInstance) => Number(app.db.prepare('SELECT count(*) FROM merchants').pluck().get());
const fastTrack = {
  companyName: 'Strict ApS',
  contactEmail: 'ops@strict.test',
  registrationNumber: '12345678',
  website: 'https://strict.test',
  iban: 'DK5000400440116243',
};

t.test('default (lenient): an unknown property is ignored and not stored', async (t) => {
  const app = await build(t);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants',
    headers: PARTNER,
    payload: { companyName: 'Lenient ApS', contactEmail: 'ops@lenient.test', contactPhoen: '+4512345678' },
  });
  t.equal(res.statusCode, 200);
  t.same(schemaErrors('StandardMerchantResponse', json(res)), []);
  const row = app.store.merchants.get(json(res).merchantId, 'sandbox-partner');
  t.equal(row?.contact_phone, null, 'the misspelt field did not become contactPhone');
  t.notMatch(JSON.stringify(row), /contactPhoen/);
});

t.test('--strict: an unknown top-level property is a 400 unknown_field naming it; nothing stored', async (t) => {
  const app = await build(t, { config: { strict: true } });
  const before = count(app);
  const res = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants',
    headers: PARTNER,
    payload: { companyName: 'Strict ApS', contactEmail: 'ops@strict.test', contactPhoen: '+4512345678' },
  });
  t.equal(res.statusCode, 400);
  const body = json(res);
  t.same(schemaErrors('ErrorBody', body), []);
  t.equal(body.code, 'unknown_field');
  t.equal(body.field, '/contactPhoen');
  t.match(body.message, /contactPhoen is not a known property/);
  t.equal(count(app), before);
});

t.test('--strict: nested unknown properties are named with their path', async (t) => {
  const app = await build(t, { config: { strict: true } });
  const res = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants/fast-track',
    headers: PARTNER,
    payload: { ...fastTrack, address: { street: 'Algade 1', zip: '4000' } },
  });
  t.equal(res.statusCode, 400);
  t.match(json(res), { code: 'unknown_field', field: '/address/zip', in: 'body' });
  const ok = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants/fast-track',
    headers: PARTNER,
    payload: { ...fastTrack, address: { street: 'Algade 1', postalCode: '4000' } },
  });
  t.equal(ok.statusCode, 200, 'the same request without the typo passes in strict mode');
});

t.test('--strict: valid requests on other areas are unaffected', async (t) => {
  const app = await build(t, { config: { strict: true } });
  const m = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test',
    headers: PARTNER,
    payload: { companyName: 'Strict Test' },
  });
  t.equal(m.statusCode, 200);
  const p = await app.inject({
    method: 'POST',
    url: '/v1/partner/payments',
    headers: PARTNER,
    payload: { merchantClientId: json(m).clientId, amount: 12.5, referenceNumber: 'S-1' },
  });
  t.equal(p.statusCode, 200);
  const typo = await app.inject({
    method: 'POST',
    url: '/v1/partner/payments',
    headers: PARTNER,
    payload: { merchantClientId: json(m).clientId, amount: 12.5, referenceNumber: 'S-1', currency: 'DKK' },
  });
  t.match(json(typo), { code: 'unknown_field', field: 'currency' }, 'even a plausible-looking extra field');
  const wh = await app.inject({
    method: 'POST',
    url: '/v1/partner/webhooks',
    headers: PARTNER,
    payload: { url: 'https://h.test/x', events: ['payment.completed'], secret: 'mine' },
  });
  t.match(json(wh), { code: 'unknown_field', field: 'secret' });
});

t.test('wrong types are a 400 naming the field in both modes (no coercion of bodies)', async (t) => {
  for (const strict of [false, true]) {
    const app = await build(t, { config: { strict } });
    const res = await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 42 } });
    t.equal(res.statusCode, 400);
    t.match(json(res), { code: 'validation_failed', field: 'companyName' }, `strict=${strict}`);
  }
});

t.test('--strict / OBSIM_STRICT configure it; lenient is the default', async (t) => {
  t.equal(loadConfig({}, {}).strict, false);
  t.equal(loadConfig({}, { OBSIM_STRICT: 'true' }).strict, true);
  t.equal(loadConfig({ strict: true }, {}).strict, true);
  t.equal(loadConfig({}, {}).validateResponses, false, 'response validation is opt-in too');
  t.equal(loadConfig({}, { OBSIM_VALIDATE_RESPONSES: '1' }).validateResponses, true);
});
