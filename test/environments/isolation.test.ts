/**
 * Sandbox and production running side by side (two instances, separate databases, secrets and
 * credentials), as the contract says they are "fully isolated": a credential or token of one is
 * a 401 on the other, and a webhook registered in one never fires for the other's events.
 */
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { build, json, PARTNER, schemaErrors } from '../helpers/app.js';
import { expectedSignature, startReceiver } from '../helpers/receiver.js';
import { scaled } from '../helpers/speed.js';

// generous: CI machines run many test files at once (tap's default is 30 s per file)
t.setTimeout(scaled(180_000));

type Headers = Record<string, string>;

function generatedCredentials(app: FastifyInstance): Headers {
  const m = /X-Partner-Client-Id: (\S+)\s+X-Partner-Client-Secret: (\S+)/.exec(app.startupNotes.join('\n'));
  if (!m) throw new Error('no generated production credentials');
  return { 'x-partner-client-id': m[1], 'x-partner-client-secret': m[2] };
}

async function pair(t: Tap, extra: { jwtSecret?: string } = {}) {
  const sandbox = await build(t, { config: { ...extra } });
  const production = await build(t, { config: { environment: 'production', ...extra } });
  return { sandbox, production, live: generatedCredentials(production) };
}
type Tap = { teardown(fn: () => unknown): void };

async function call(app: FastifyInstance, method: 'GET' | 'POST', url: string, headers: Headers, payload?: unknown) {
  const res = await app.inject({ method, url, headers, payload: payload as never });
  return { status: res.statusCode, body: res.body ? json(res) : undefined };
}

/** An activated merchant driven through control calls (works in both environments). */
async function activatedMerchant(app: FastifyInstance, headers: Headers, name: string) {
  const m = await call(app, 'POST', '/v1/partner/merchants', headers, { companyName: name, contactEmail: 'ops@iso.test' });
  if (m.status !== 200) throw new Error(`create merchant: ${JSON.stringify(m.body)}`);
  const a = await call(app, 'POST', `/_sandbox/merchants/${m.body.merchantId}/activate`, headers);
  if (a.status !== 200) throw new Error(`activate: ${JSON.stringify(a.body)}`);
  return m.body as { merchantId: number; clientId: string };
}

t.test('partner credentials of one environment are a 401 on the other', async (t) => {
  const { sandbox, production, live } = await pair(t);
  for (const url of ['/v1/partner/merchants', '/_sandbox/clock']) {
    const onProd = await call(production, 'GET', url, PARTNER);
    t.equal(onProd.status, 401, `sandbox credentials on production ${url}`);
    t.equal(onProd.body.code, 'partner_credentials_invalid');
    t.same(schemaErrors('ErrorBody', onProd.body), []);
    const onSandbox = await call(sandbox, 'GET', url, live);
    t.equal(onSandbox.status, 401, `production credentials on the sandbox ${url}`);
    t.equal(onSandbox.body.code, 'partner_credentials_invalid');
    t.equal((await call(production, 'GET', url, live)).status, 200, 'each works at home');
    t.equal((await call(sandbox, 'GET', url, PARTNER)).status, 200);
  }
});

t.test('the same client id configured in both environments still needs that environment’s secret', async (t) => {
  const sandbox = await build(t, { config: { partnerClientId: 'acme', partnerClientSecret: 'acme-sandbox-secret' } });
  const production = await build(t, {
    config: { environment: 'production', partnerClientId: 'acme', partnerClientSecret: 'acme-live-secret' },
  });
  const sandboxCreds = { 'x-partner-client-id': 'acme', 'x-partner-client-secret': 'acme-sandbox-secret' };
  t.equal((await call(production, 'GET', '/v1/partner/merchants', sandboxCreds)).status, 401);
  t.equal((await call(sandbox, 'GET', '/v1/partner/merchants', sandboxCreds)).status, 200);
});

t.test('a token issued by one environment is a 401 on the other, even with a shared signing secret', async (t) => {
  for (const jwtSecret of [undefined, 'one-secret-configured-on-both-instances-0123456789']) {
    const { sandbox, production, live } = await pair(t, jwtSecret ? { jwtSecret } : {});
    const sm = await activatedMerchant(sandbox, PARTNER, 'Sandbox Shop ApS');
    const pm = await activatedMerchant(production, live, 'Live Shop ApS');
    const permissions = ['ais:accounts:read'];
    const st = await call(sandbox, 'POST', '/v1/auth/generate-token', {}, { userId: 'user-1', merchantId: sm.merchantId, permissions });
    t.equal(st.status, 200, 'sandbox token');
    const pt = await call(production, 'POST', '/v1/auth/generate-token', live, {
      userId: 'user-1',
      merchantId: pm.merchantId,
      permissions,
    });
    t.equal(pt.status, 200, 'production token');
    t.equal(
      (await call(production, 'POST', '/v1/auth/generate-token', {}, { userId: 'user-1', merchantId: pm.merchantId, permissions })).status,
      401,
      'production requires partner headers',
    );

    const label = jwtSecret ? 'shared secret' : 'own secrets';
    const sandboxTokenOnProd = await call(
      production,
      'POST',
      '/v1/ais/accounts',
      { authorization: `Bearer ${st.body.token}` },
      { userId: 'user-1', merchantId: pm.merchantId },
    );
    t.equal(sandboxTokenOnProd.status, 401, `${label}: sandbox token on production`);
    t.match(sandboxTokenOnProd.body.code, /^token_(invalid|claims_invalid)$/);
    const prodTokenOnSandbox = await call(
      sandbox,
      'POST',
      '/v1/ais/accounts',
      { authorization: `Bearer ${pt.body.token}` },
      { userId: 'user-1', merchantId: sm.merchantId },
    );
    t.equal(prodTokenOnSandbox.status, 401, `${label}: production token on the sandbox`);
    t.match(prodTokenOnSandbox.body.code, /^token_(invalid|claims_invalid)$/);
    if (jwtSecret)
      t.equal(prodTokenOnSandbox.body.code, 'token_claims_invalid', 'the issuer (obsim-production vs obsim-sandbox) tells them apart');

    const issuer = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).iss;
    t.equal(issuer(st.body.token), 'obsim-sandbox');
    t.equal(issuer(pt.body.token), 'obsim-production');
  }
});

t.test('a webhook registered in one environment never fires for the other’s events', async (t) => {
  const { sandbox, production, live } = await pair(t);
  const receiver = await startReceiver(t);
  const events = ['merchant.activated', 'payment.completed', 'payment.failed'];
  const hook = await call(sandbox, 'POST', '/v1/partner/webhooks', PARTNER, { url: receiver.url, events });
  t.equal(hook.status, 200);
  // production only accepts https: its webhook points at a closed local https port
  const liveHook = await call(production, 'POST', '/v1/partner/webhooks', live, { url: 'https://127.0.0.1:9/hook', events });
  t.equal(liveHook.status, 200);

  // production events: a merchant activated, a payment completed by a control call
  const pm = await activatedMerchant(production, live, 'Live Shop ApS');
  const pp = await call(production, 'POST', '/v1/partner/payments', live, {
    merchantClientId: pm.clientId,
    amount: 10,
    referenceNumber: 'LIVE-1',
  });
  t.equal(pp.status, 200);
  t.equal((await call(production, 'POST', `/_sandbox/payments/${pp.body.paymentId}/complete`, live)).status, 200);
  await production.webhooks.drain();
  await sandbox.webhooks.drain();
  const liveDeliveries = await call(production, 'GET', '/_sandbox/deliveries', live);
  t.ok(liveDeliveries.body.items.length >= 2, 'production delivered its own events to its own webhook');
  t.ok(liveDeliveries.body.items.every((d: { webhookId: string }) => d.webhookId === liveHook.body.id));
  t.equal(receiver.received.length, 0, 'the sandbox webhook received nothing from production');
  t.equal((await call(sandbox, 'GET', '/_sandbox/deliveries', PARTNER)).body.total, 0);

  // a sandbox event reaches the sandbox webhook only, signed with the sandbox secret
  const sm = await call(sandbox, 'POST', '/v1/partner/merchants/test', PARTNER, { companyName: 'Sandbox Shop ApS' });
  t.equal(sm.status, 200);
  const [got] = await receiver.waitFor(1);
  t.equal(got.json.event, 'merchant.activated');
  t.equal(got.json.data.merchantId, sm.body.merchantId);
  t.equal(got.headers['x-webhook-signature'], expectedSignature(hook.body.secret, got.raw));
  await sandbox.webhooks.drain();
  await production.webhooks.drain();
  const liveAfter = await call(production, 'GET', '/_sandbox/deliveries', live);
  t.equal(liveAfter.body.total, liveDeliveries.body.total, 'no production delivery for the sandbox event');
});

t.test('production: a payment stays pending until the payer or a control call acts', async (t) => {
  const { sandbox, production, live } = await pair(t);
  const pm = await activatedMerchant(production, live, 'Live Shop ApS');
  const sm = await activatedMerchant(sandbox, PARTNER, 'Sandbox Shop ApS');
  const pp = (
    await call(production, 'POST', '/v1/partner/payments', live, { merchantClientId: pm.clientId, amount: 10, referenceNumber: 'LIVE-2' })
  ).body;
  const sp = (
    await call(sandbox, 'POST', '/v1/partner/payments', PARTNER, { merchantClientId: sm.clientId, amount: 10, referenceNumber: 'SBX-2' })
  ).body;
  for (const app of [sandbox, production]) {
    t.equal((await call(app, 'POST', '/_sandbox/clock/advance', app === sandbox ? PARTNER : live, { duration: '2m' })).status, 200);
  }
  t.equal(
    (await call(sandbox, 'GET', `/v1/partner/payments/${sp.paymentId}/status`, PARTNER)).body.status,
    'paid',
    'the sandbox settles by itself',
  );
  t.equal(
    (await call(production, 'GET', `/v1/partner/payments/${pp.paymentId}/status`, live)).body.status,
    'pending',
    'production does not',
  );
  t.equal((await call(production, 'POST', `/_sandbox/payments/${pp.paymentId}/complete`, live)).status, 200);
  t.equal((await call(production, 'GET', `/v1/partner/payments/${pp.paymentId}/status`, live)).body.status, 'paid');
});
