/**
 * /_sandbox/sandboxes: a created sandbox is an isolated world. Its credentials work on the partner
 * and control APIs; it sees only its own data; its clock is its own (advancing it fires nothing
 * elsewhere, and advancing the default sandbox fires nothing in it); its settings overrides apply;
 * deleting it removes every row in one transaction and its credentials then answer 401
 * sandbox_gone; an idle one expires after its ttl; OBSIM_ADMIN_KEY guards management; production
 * refuses it.
 */
import t from 'tap';
import { build, PARTNER, schemaErrors } from '../../helpers/app.js';
import { call, count, testMerchant } from '../../helpers/partner.js';

type Headers = Record<string, string>;

async function createSandbox(app: Awaited<ReturnType<typeof build>>, body?: unknown, headers: Headers = {}) {
  const res = await call(app, 'POST', '/_sandbox/sandboxes', body, headers);
  return res;
}

const credentials = (created: { credentials: { clientId: string; clientSecret: string } }): Headers => ({
  'x-partner-client-id': created.credentials.clientId,
  'x-partner-client-secret': created.credentials.clientSecret,
});

t.test('create: the answer, its schema, and credentials that work on the partner and control APIs', async (t) => {
  const app = await build(t);
  const res = await createSandbox(app, { name: 'checkout tests', clock: { start: '2030-01-01T00:00:00.000Z', frozen: true } });
  t.equal(res.status, 200, JSON.stringify(res.body));
  t.same(schemaErrors('SandboxCreated', res.body), []);
  t.match(res.body, {
    sandboxId: /^sbx_[0-9a-f]{20}$/,
    name: 'checkout tests',
    credentials: { clientId: res.body.sandboxId, clientSecret: /^sbx_secret_/ },
    clock: { now: '2030-01-01T00:00:00.000Z', frozen: true },
    ttlMs: 24 * 3600 * 1000,
    settings: {
      settleDelayMs: app.settings.settleDelayMs,
      approvalDelayMs: app.settings.approvalDelayMs,
      paymentExpiryMs: app.settings.paymentExpiryMs,
    },
    defaultMerchant: { merchantId: Number, clientId: String },
  });
  const me = credentials(res.body);
  const clock = await call(app, 'GET', '/_sandbox/clock', undefined, me);
  t.match(clock.body, { now: '2030-01-01T00:00:00.000Z', frozen: true });
  const list = await call(app, 'GET', '/v1/partner/merchants', undefined, me);
  t.equal(list.status, 200);
  t.same(
    list.body.items.map((m: { merchantId: number }) => m.merchantId),
    [res.body.defaultMerchant.merchantId],
    'it starts with its own default merchant only',
  );
  const payment = await call(
    app,
    'POST',
    '/v1/partner/payments',
    { merchantClientId: res.body.defaultMerchant.clientId, amount: 10, referenceNumber: 'sbx-1' },
    me,
  );
  t.equal(payment.status, 200);
  t.match(payment.body, { createdAt: '2030-01-01T00:00:00.000Z' }, 'rows are stamped with the sandbox clock');
});

t.test('isolation: data and clocks', async (t) => {
  const app = await build(t);
  const a = (await createSandbox(app, { clock: { frozen: true } })).body;
  const b = (await createSandbox(app, { clock: { frozen: true } })).body;
  const pay = async (created: typeof a) =>
    (
      await call(
        app,
        'POST',
        '/v1/partner/payments',
        { merchantClientId: created.defaultMerchant.clientId, amount: 10, referenceNumber: 'x' },
        credentials(created),
      )
    ).body;
  const pa = await pay(a);
  const pb = await pay(b);
  const shop = await testMerchant(app); // the default sandbox
  const p0 = (await call(app, 'POST', '/v1/partner/payments', { merchantClientId: shop.clientId, amount: 10, referenceNumber: 'd' })).body;

  // another sandbox's payment is not found; the default partner cannot see it either
  t.equal((await call(app, 'GET', `/v1/partner/payments/${pb.paymentId}/status`, undefined, credentials(a))).status, 404);
  t.equal((await call(app, 'GET', `/v1/partner/payments/${pa.paymentId}/status`, undefined, PARTNER)).status, 404);
  t.equal(
    (await call(app, 'POST', `/_sandbox/payments/${pb.paymentId}/complete`, undefined, credentials(a))).status,
    404,
    'nor can its control API touch it',
  );

  // advancing A by 30 days settles A's payment only
  const adv = await call(app, 'POST', '/_sandbox/clock/advance', { duration: '30d' }, credentials(a));
  t.equal(adv.status, 200);
  t.equal(adv.body.fired, 1, "only A's settlement fired");
  const status = async (id: number, headers: Headers) =>
    (await call(app, 'GET', `/v1/partner/payments/${id}/status`, undefined, headers)).body.status;
  t.equal(await status(pa.paymentId, credentials(a)), 'paid');
  t.equal(await status(pb.paymentId, credentials(b)), 'pending', 'B did not move');
  t.equal(await status(p0.paymentId, PARTNER), 'pending', 'the default sandbox did not move');
  const clockB = (await call(app, 'GET', '/_sandbox/clock', undefined, credentials(b))).body.now;
  t.not(clockB, adv.body.now, "B's clock is where it was");

  // advancing the default sandbox fires nothing in B
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '1h' }, PARTNER);
  t.equal(await status(p0.paymentId, PARTNER), 'paid');
  t.equal(await status(pb.paymentId, credentials(b)), 'pending');
});

t.test('settings overrides apply to that sandbox only', async (t) => {
  const app = await build(t);
  const slow = (await createSandbox(app, { clock: { frozen: true }, settleDelay: '1h', paymentExpiry: '2h' })).body;
  t.match(slow.settings, { settleDelayMs: 3_600_000, paymentExpiryMs: 7_200_000 });
  const p = (
    await call(
      app,
      'POST',
      '/v1/partner/payments',
      { merchantClientId: slow.defaultMerchant.clientId, amount: 10, referenceNumber: 's' },
      credentials(slow),
    )
  ).body;
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '30m' }, credentials(slow));
  t.equal((await call(app, 'GET', `/v1/partner/payments/${p.paymentId}/status`, undefined, credentials(slow))).body.status, 'pending');
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '31m' }, credentials(slow));
  t.equal((await call(app, 'GET', `/v1/partner/payments/${p.paymentId}/status`, undefined, credentials(slow))).body.status, 'paid');
});

t.test('delete: every row goes in one transaction; the credentials then answer 401 sandbox_gone', async (t) => {
  const app = await build(t);
  const s = (await createSandbox(app, { clock: { frozen: true } })).body;
  const me = credentials(s);
  await call(app, 'POST', '/v1/partner/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['payment.completed'] }, me);
  for (let i = 0; i < 3; i++)
    await call(
      app,
      'POST',
      '/v1/partner/payments',
      { merchantClientId: s.defaultMerchant.clientId, amount: 10, referenceNumber: `d${i}` },
      me,
    );
  t.equal(count(app, 'payments', 'partner_id = ?', s.sandboxId), 3);
  t.equal(count(app, 'timers', 'sandbox_id = ?', s.sandboxId), 3);

  const del = await call(app, 'DELETE', `/_sandbox/sandboxes/${s.sandboxId}`);
  t.equal(del.status, 200);
  t.same(schemaErrors('SandboxDeleted', del.body), []);
  t.match(del.body, { sandboxId: s.sandboxId, deleted: { merchants: 1, payments: 3, webhooks: 1, timers: 3 } });
  for (const table of ['merchants', 'payments', 'webhooks', 'events', 'deliveries', 'timers'])
    t.equal(count(app, table, 'partner_id = ?', s.sandboxId), 0, `${table}: nothing left`);

  const after = await call(app, 'GET', '/v1/partner/merchants', undefined, me);
  t.equal(after.status, 401);
  t.match(after.body, { code: 'sandbox_gone', status: 401 });
  const wrongSecret = await call(app, 'GET', '/v1/partner/merchants', undefined, { ...me, 'x-partner-client-secret': 'nope' });
  t.match(wrongSecret.body, { code: 'partner_credentials_invalid' }, 'a wrong secret learns nothing');
  t.equal((await call(app, 'DELETE', `/_sandbox/sandboxes/${s.sandboxId}`)).status, 404, 'deleting twice: 404');
  t.equal((await call(app, 'GET', '/_sandbox/sandboxes')).body.total, 0);
});

t.test('an idle sandbox expires after its ttl (wall clock), then answers sandbox_gone', async (t) => {
  const app = await build(t);
  const created = app.sandboxes.create({ ttlMs: 60_000 });
  const me = { 'x-partner-client-id': created.row.id, 'x-partner-client-secret': created.clientSecret };
  t.equal((await call(app, 'GET', '/_sandbox/clock', undefined, me)).status, 200);
  t.equal(app.sandboxes.sweep(), 0, 'just used: kept');
  // as if two minutes of idleness had passed since that use
  app.db.prepare('UPDATE sandboxes SET last_used_ms = last_used_ms - 120000 WHERE id = ?').run(created.row.id);
  t.equal(app.sandboxes.sweep(), 1, 'idle past its ttl: removed');
  t.equal(count(app, 'merchants', 'partner_id = ?', created.row.id), 0, 'its rows are gone');
  const res = await call(app, 'GET', '/_sandbox/clock', undefined, me);
  t.match(res.body, { status: 401, code: 'sandbox_gone' });
  t.equal(app.db.prepare('SELECT deleted_reason FROM sandboxes WHERE id = ?').pluck().get(created.row.id), 'expired');
});

t.test('OBSIM_ADMIN_KEY guards creating, listing and deleting; a sandbox may read and delete itself', async (t) => {
  const app = await build(t, { config: { adminKey: 'let-me-in' } });
  const admin = { 'x-obsim-admin-key': 'let-me-in' };
  t.match((await createSandbox(app)).body, { status: 401, code: 'admin_key_required' });
  t.match((await createSandbox(app, undefined, { 'x-obsim-admin-key': 'wrong' })).body, { status: 401, code: 'admin_key_invalid' });
  const s = (await createSandbox(app, { name: 'guarded' }, admin)).body;
  t.ok(s.sandboxId);
  t.match((await call(app, 'GET', '/_sandbox/sandboxes')).body, { code: 'admin_key_required' });
  const list = await call(app, 'GET', '/_sandbox/sandboxes', undefined, admin);
  t.equal(list.status, 200);
  t.same(schemaErrors('SandboxList', list.body), []);
  t.same(
    list.body.items.map((x: { name: string }) => x.name),
    ['guarded'],
  );
  t.notMatch(JSON.stringify(list.body), /sbx_secret_/, 'no secret is listed');
  const own = await call(app, 'GET', `/_sandbox/sandboxes/${s.sandboxId}`, undefined, credentials(s));
  t.equal(own.status, 200, 'a sandbox reads itself');
  const other = (await createSandbox(app, {}, admin)).body;
  t.equal((await call(app, 'DELETE', `/_sandbox/sandboxes/${s.sandboxId}`, undefined, credentials(other))).status, 404, 'not another one');
  t.equal((await call(app, 'DELETE', `/_sandbox/sandboxes/${s.sandboxId}`, undefined, credentials(s))).status, 200, 'but itself');
});

t.test('bad input is a 400 that creates nothing; production refuses', async (t) => {
  const app = await build(t);
  for (const [body, field] of [
    [{ ttl: '5 parsecs' }, '/ttl'],
    [{ ttl: '90d' }, '/ttl'],
    [{ settleDelay: -1 }, '/settleDelay'],
    [{ clock: { start: 'yesterday' } }, '/clock/start'],
  ] as const) {
    const res = await createSandbox(app, body);
    t.equal(res.status, 400, JSON.stringify(body));
    if (field) t.equal(res.body.field, field);
  }
  t.equal(count(app, 'sandboxes'), 0, 'nothing was created');
  const prod = await build(t, { config: { environment: 'production', partnerClientId: 'p', partnerClientSecret: 's' } });
  t.match((await createSandbox(prod)).body, { status: 404, code: 'not_available_in_production' });
});

t.test('hosted pages and AIS work on a sandbox, on its clock', async (t) => {
  const app = await build(t);
  const s = (await createSandbox(app, { clock: { start: '2031-03-01T12:00:00.000Z', frozen: true }, paymentExpiry: '10m' })).body;
  const me = credentials(s);
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const pathOf = (url: string) => new URL(url).pathname;

  // the payment page: the payer opens it (the sandbox's automatic settlement stops), then approves
  const p = (
    await call(app, 'POST', '/v1/partner/payments', { merchantClientId: s.defaultMerchant.clientId, amount: 10, referenceNumber: 'hp' }, me)
  ).body;
  t.equal((await app.inject({ method: 'GET', url: pathOf(p.paymentUrl) })).statusCode, 200);
  t.equal(
    app.db.prepare('SELECT page_opened_at FROM payments WHERE id = ?').pluck().get(p.paymentId),
    '2031-03-01T12:00:00.000Z',
    "opened at the sandbox's instant",
  );
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '1m' }, me);
  t.equal(
    (await call(app, 'GET', `/v1/partner/payments/${p.paymentId}/status`, undefined, me)).body.status,
    'pending',
    'the payer is in control',
  );
  const approved = await app.inject({
    method: 'POST',
    url: pathOf(p.paymentUrl),
    headers: form,
    payload: 'decision=approve&bankId=nordlys-bank',
  });
  t.equal(approved.statusCode, 303);
  t.match((await call(app, 'GET', `/v1/partner/payments/${p.paymentId}/status`, undefined, me)).body, {
    status: 'paid',
    updatedAt: '2031-03-01T12:01:00.000Z',
  });

  // its link expiry runs on the sandbox's clock, not the default one
  const q = (
    await call(
      app,
      'POST',
      '/v1/partner/payments',
      { merchantClientId: s.defaultMerchant.clientId, amount: 10, referenceNumber: 'exp' },
      me,
    )
  ).body;
  await app.inject({ method: 'GET', url: pathOf(q.paymentUrl) });
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '11m' }, me);
  t.equal((await app.inject({ method: 'GET', url: pathOf(q.paymentUrl) })).statusCode, 410, 'expired after its 10 minutes');

  // AIS: a token for its merchant lives on its clock; a consent authorized on the bank page reads accounts
  const token = (
    await call(
      app,
      'POST',
      '/v1/auth/generate-token',
      {
        userId: 'user-typical',
        merchantId: s.defaultMerchant.merchantId,
        permissions: ['ais:accounts:read'],
      },
      me,
    )
  ).body.token;
  const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
  t.equal(claims.iat, Date.parse('2031-03-01T12:12:00.000Z') / 1000, 'issued at the sandbox instant');
  const bearer = { authorization: `Bearer ${token}` };
  const consent = await app.inject({
    method: 'POST',
    url: '/v1/ais/consents',
    headers: bearer,
    payload: {
      userId: 'user-typical',
      merchantId: s.defaultMerchant.merchantId,
      permissions: ['ReadAccountsDetail'],
      expirationDateTime: '2031-06-01T00:00:00Z',
      transactionFromDateTime: '2030-01-01T00:00:00Z',
    },
  });
  t.equal(consent.statusCode, 200, consent.body);
  const page = await app.inject({
    method: 'POST',
    url: pathOf(consent.json().authorizationUrl),
    headers: form,
    payload: 'action=authorize&bankId=nordlys-bank',
  });
  t.equal(page.statusCode, 303);
  const accounts = await app.inject({
    method: 'POST',
    url: '/v1/ais/accounts',
    headers: bearer,
    payload: { userId: 'user-typical', merchantId: s.defaultMerchant.merchantId },
  });
  t.equal(accounts.statusCode, 200, accounts.body);
  // the default sandbox's clock is where it was
  t.equal((await call(app, 'GET', '/_sandbox/clock', undefined, PARTNER)).body.now, '2026-01-15T09:00:00.000Z');
});
