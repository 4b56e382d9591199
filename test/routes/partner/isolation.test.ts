/**
 * Authentication and cross-partner isolation for EVERY partner endpoint: missing or wrong (by one
 * character) credentials are 401 before anything else happens; another partner's ids answer 404
 * exactly like ids that do not exist, and never change the owner's data.
 */
import t from 'tap';
import { OTHER_PARTNER, PARTNER } from '../../helpers/app.js';
import { buildTwo, call, count, fastTrackBody, standardMerchant, testMerchant } from '../../helpers/partner.js';

const flip = (s: string) => s.slice(0, -1) + (s.endsWith('x') ? 'y' : 'x');

t.test('every partner endpoint: 401 without, or with slightly wrong, credentials', async (t) => {
  const app = await buildTwo(t);
  const m = await testMerchant(app);
  const hook = await call(app, 'POST', '/v1/partner/webhooks', { url: 'https://a.example', events: ['payment.completed'] });
  const pay = await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 1, referenceNumber: 'r' });
  const endpoints: [string, string, unknown?][] = [
    ['POST', '/v1/partner/merchants', { companyName: 'A', contactEmail: 'a@b.test' }],
    ['POST', '/v1/partner/merchants/fast-track', fastTrackBody()],
    ['POST', '/v1/partner/merchants/test', { companyName: 'A' }],
    ['GET', `/v1/partner/merchants/${m.merchantId}/onboarding-status`],
    ['GET', '/v1/partner/merchants?page=1&limit=5'],
    ['POST', `/v1/partner/merchants/${m.merchantId}/resend-onboarding`],
    ['POST', `/v1/partner/merchants/${m.merchantId}/stores`, { name: 'S' }],
    ['POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 1, referenceNumber: 'r' }],
    ['GET', `/v1/partner/payments/${pay.body.paymentId}/status`],
    ['POST', '/v1/partner/webhooks', { url: 'https://a.example', events: ['payment.completed'] }],
    ['POST', `/v1/partner/webhooks/${hook.body.id}/test`],
  ];
  const tables = ['merchants', 'payments', 'webhooks', 'stores', 'events', 'deliveries'];
  const before = tables.map((tb) => count(app, tb));
  const id = PARTNER['x-partner-client-id'];
  const secret = PARTNER['x-partner-client-secret'];
  const variants: [string, Record<string, string>, string][] = [
    ['no headers', {}, 'partner_credentials_missing'],
    ['no secret', { 'x-partner-client-id': id }, 'partner_credentials_missing'],
    ['no id', { 'x-partner-client-secret': secret }, 'partner_credentials_missing'],
    ['secret off by one char', { 'x-partner-client-id': id, 'x-partner-client-secret': flip(secret) }, 'partner_credentials_invalid'],
    ['secret one char short', { 'x-partner-client-id': id, 'x-partner-client-secret': secret.slice(0, -1) }, 'partner_credentials_invalid'],
    ['id off by one char', { 'x-partner-client-id': flip(id), 'x-partner-client-secret': secret }, 'partner_credentials_invalid'],
    [
      "other partner's secret",
      { 'x-partner-client-id': id, 'x-partner-client-secret': OTHER_PARTNER['x-partner-client-secret'] },
      'partner_credentials_invalid',
    ],
  ];
  for (const [method, url, payload] of endpoints) {
    for (const [name, headers, code] of variants) {
      const r = await call(app, method as 'GET', url, payload, headers);
      t.equal(r.status, 401, `${method} ${url}: ${name}`);
      t.equal(r.body.code, code, `${method} ${url}: ${name}`);
    }
  }
  t.same(
    tables.map((tb) => count(app, tb)),
    before,
    'no 401 call changed anything',
  );
});

t.test("every partner endpoint: another partner's ids are 404, its data invisible and untouched", async (t) => {
  const app = await buildTwo(t);
  const active = await testMerchant(app);
  const pending = await standardMerchant(app);
  const hook = await call(app, 'POST', '/v1/partner/webhooks', { url: 'https://a.example', events: ['payment.completed'] });
  const pay = await call(app, 'POST', '/v1/partner/payments', { merchantClientId: active.clientId, amount: 1, referenceNumber: 'r' });
  const snapshot = () => ({
    active: app.store.merchants.getAny(active.merchantId),
    pending: app.store.merchants.getAny(pending.merchantId),
    stores: count(app, 'stores'),
    payments: count(app, 'payments'),
    events: count(app, 'events'),
  });
  const before = snapshot();

  const other = OTHER_PARTNER;
  const checks: [string, string, unknown, string][] = [
    ['GET', `/v1/partner/merchants/${pending.merchantId}/onboarding-status`, undefined, 'merchant_not_found'],
    ['POST', `/v1/partner/merchants/${pending.merchantId}/resend-onboarding`, undefined, 'merchant_not_found'],
    ['POST', `/v1/partner/merchants/${active.merchantId}/stores`, { name: 'Stolen' }, 'merchant_not_found'],
    ['POST', '/v1/partner/payments', { merchantClientId: active.clientId, amount: 1, referenceNumber: 'r' }, 'merchant_not_found'],
    ['GET', `/v1/partner/payments/${pay.body.paymentId}/status`, undefined, 'payment_not_found'],
    ['POST', `/v1/partner/webhooks/${hook.body.id}/test`, undefined, 'webhook_not_found'],
  ];
  for (const [method, url, payload, code] of checks) {
    const r = await call(app, method as 'GET', url, payload, other);
    t.equal(r.status, 404, `${method} ${url}`);
    t.equal(r.body.code, code, `${method} ${url}`);
    t.notMatch(
      JSON.stringify(r.body),
      /Test Shop|Std ApS|activated|pending_onboarding/,
      "the error tells nothing about the owner's merchant",
    );
  }
  // the same answers as for ids that do not exist at all
  const ghost = await call(app, 'GET', '/v1/partner/merchants/999999/onboarding-status', undefined, other);
  const foreign = await call(app, 'GET', `/v1/partner/merchants/${pending.merchantId}/onboarding-status`, undefined, other);
  t.equal(ghost.status, foreign.status);
  t.equal(ghost.body.code, foreign.body.code);

  // list: the other partner sees only its own merchants (none: the default merchant is the default partner's)
  const list = await call(app, 'GET', '/v1/partner/merchants', undefined, other);
  t.same(list.body, { items: [], page: 1, limit: 20, total: 0 });

  // creations by the other partner belong to it alone
  const own = await testMerchant(app, other, 'Other Shop');
  const ownList = await call(app, 'GET', '/v1/partner/merchants', undefined, other);
  t.same(
    ownList.body.items.map((m: { merchantId: number }) => m.merchantId),
    [own.merchantId],
  );
  const mine = await call(app, 'GET', '/v1/partner/merchants?limit=100');
  t.notOk(
    mine.body.items.some((m: { merchantId: number }) => m.merchantId === own.merchantId),
    "not in the default partner's list",
  );
  const ownHook = await call(app, 'POST', '/v1/partner/webhooks', { url: 'https://b.example', events: ['payment.completed'] }, other);
  const cross = await call(app, 'POST', `/v1/partner/webhooks/${ownHook.body.id}/test`);
  t.equal(cross.status, 404, "and the default partner cannot use the other partner's webhook");
  const ownPay = await call(
    app,
    'POST',
    '/v1/partner/payments',
    { merchantClientId: own.clientId, amount: 2, referenceNumber: 'o' },
    other,
  );
  t.equal(ownPay.status, 200);
  t.equal((await call(app, 'GET', `/v1/partner/payments/${ownPay.body.paymentId}/status`)).status, 404);
  t.equal(app.store.payments.getAny(ownPay.body.paymentId)?.partner_id, 'other-partner');

  const after = snapshot();
  t.same(after.active, before.active, 'owner merchant untouched');
  t.same(after.pending, before.pending, 'onboarding link not replaced by the other partner');
  t.equal(after.stores, before.stores);
  t.equal(after.payments, before.payments + 1, "only the other partner's own payment was added");
});
