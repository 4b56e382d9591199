/**
 * Sandbox and production as two real listening processes (`obsim serve`), each with its own
 * --db, spoken to over HTTP only:
 *   - a partner credential of one is a 401 on the other (both directions), each works at home;
 *   - an AIS token issued by one is a 401 on the other (both directions);
 *   - a webhook registered in one never fires for the other's events: the sandbox webhook's
 *     receiver gets nothing from production events, and the production webhook's port sees no
 *     connection for sandbox events (while it does see production's own deliveries).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { PARTNER } from '../helpers/app.js';
import { expectedSignature } from '../helpers/receiver.js';
import { serve } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

// generous: CI machines run many test files at once (tap's default is 30 s per file)
t.setTimeout(scaled(180_000));

type Headers = Record<string, string>;

async function call(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  headers: Headers,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function ok(base: string, method: 'GET' | 'POST', path: string, headers: Headers, body?: unknown): Promise<any> {
  const res = await call(base, method, path, headers, body);
  if (res.status !== 200) throw new Error(`${method} ${base}${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json;
}

async function until(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** Every delivery of the caller attempted (none pending or in flight). */
async function settledDeliveries(
  base: string,
  headers: Headers,
): Promise<{ total: number; items: { event: string; eventId: string; state: string; webhookId: string }[] }> {
  let list = await ok(base, 'GET', '/_sandbox/deliveries?limit=100', headers);
  await until(async () => {
    list = await ok(base, 'GET', '/_sandbox/deliveries?limit=100', headers);
    return list.items.every((d: { state: string }) => d.state !== 'pending' && d.state !== 'delivering');
  });
  return list;
}

t.test('sandbox and production as two processes with separate databases stay isolated over HTTP', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-two-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));

  const [sandbox, production] = await Promise.all([
    serve(['--db', join(dir, 'sandbox.sqlite')]),
    serve(['--db', join(dir, 'production.sqlite'), '--environment', 'production']),
  ]);
  t.teardown(() => void sandbox.child.kill('SIGKILL'));
  t.teardown(() => void production.child.kill('SIGKILL'));
  t.match(sandbox.stdout(), /obsim sandbox simulator listening/);
  t.match(production.stdout(), /obsim production simulator listening/);
  const m = /X-Partner-Client-Id: (\S+)\s+X-Partner-Client-Secret: (\S+)/.exec(production.stdout());
  t.ok(m, 'production printed its generated credentials');
  const LIVE = { 'x-partner-client-id': m![1], 'x-partner-client-secret': m![2] };
  const S = sandbox.url;
  const P = production.url;

  // ---- credentials
  for (const path of ['/v1/partner/merchants', '/_sandbox/deliveries']) {
    const sandboxOnProd = await call(P, 'GET', path, PARTNER);
    t.equal(sandboxOnProd.status, 401, `sandbox credentials on production ${path}`);
    t.equal(sandboxOnProd.json.code, 'partner_credentials_invalid');
    const prodOnSandbox = await call(S, 'GET', path, LIVE);
    t.equal(prodOnSandbox.status, 401, `production credentials on the sandbox ${path}`);
    t.equal(prodOnSandbox.json.code, 'partner_credentials_invalid');
    t.equal((await call(S, 'GET', path, PARTNER)).status, 200, 'each works at home');
    t.equal((await call(P, 'GET', path, LIVE)).status, 200);
  }

  // ---- receivers: an http one for the sandbox webhook; a TCP port counting connections for the
  // production webhook (production accepts only https URLs: every TLS attempt is a connection)
  const sandboxReceived: { id: string; body: string; signature: string }[] = [];
  const rx = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      sandboxReceived.push({
        id: String(req.headers['x-webhook-id']),
        body: Buffer.concat(chunks).toString(),
        signature: String(req.headers['x-webhook-signature']),
      });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => rx.close(() => r())));
  let productionConnections = 0;
  const tls = createTcpServer((socket: Socket) => {
    productionConnections++;
    socket.on('error', () => {});
    socket.destroy();
  });
  await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => tls.close(() => r())));

  const events = ['merchant.activated', 'payment.completed', 'payment.failed'];
  const sandboxHook = await ok(S, 'POST', '/v1/partner/webhooks', PARTNER, {
    url: `http://127.0.0.1:${(rx.address() as AddressInfo).port}/sandbox`,
    events,
  });
  const productionHook = await ok(P, 'POST', '/v1/partner/webhooks', LIVE, {
    url: `https://127.0.0.1:${(tls.address() as AddressInfo).port}/production`,
    events,
  });

  // ---- production events: merchant activated, payment completed (control calls)
  const pm = await ok(P, 'POST', '/v1/partner/merchants', LIVE, { companyName: 'Live Shop ApS', contactEmail: 'ops@live.test' });
  await ok(P, 'POST', `/_sandbox/merchants/${pm.merchantId}/activate`, LIVE, {});
  const pp = await ok(P, 'POST', '/v1/partner/payments', LIVE, { merchantClientId: pm.clientId, amount: 10, referenceNumber: 'LIVE-1' });
  await ok(P, 'POST', `/_sandbox/payments/${pp.paymentId}/complete`, LIVE, {});
  const liveDeliveries = await settledDeliveries(P, LIVE);
  t.same(
    liveDeliveries.items.map((d) => d.event).sort(),
    ['merchant.activated', 'payment.completed'],
    'production attempted its own two events',
  );
  t.ok(
    liveDeliveries.items.every((d) => d.webhookId === productionHook.id),
    'to its own webhook',
  );
  t.ok(
    await until(() => productionConnections >= 2),
    `production's webhook port saw its deliveries (${productionConnections} connections)`,
  );
  await new Promise((r) => setTimeout(r, 500));
  t.equal(sandboxReceived.length, 0, 'the sandbox webhook received nothing from production');
  t.equal((await settledDeliveries(S, PARTNER)).total, 0, 'the sandbox recorded no delivery');

  // ---- sandbox events: test merchant (activated), payment completed
  const connectionsBefore = productionConnections;
  const sm = await ok(S, 'POST', '/v1/partner/merchants/test', PARTNER, { companyName: 'Sandbox Shop ApS' });
  const sp = await ok(S, 'POST', '/v1/partner/payments', PARTNER, { merchantClientId: sm.clientId, amount: 10, referenceNumber: 'SBX-1' });
  await ok(S, 'POST', `/_sandbox/payments/${sp.paymentId}/complete`, PARTNER, {});
  t.ok(await until(() => sandboxReceived.length >= 2), 'the sandbox webhook received the sandbox events');
  const sandboxDeliveries = await settledDeliveries(S, PARTNER);
  t.same(sandboxReceived.map((r) => JSON.parse(r.body).event).sort(), ['merchant.activated', 'payment.completed']);
  t.same(
    sandboxReceived.map((r) => r.id).sort(),
    sandboxDeliveries.items.map((d) => d.eventId).sort(),
    'exactly the events the sandbox recorded',
  );
  for (const r of sandboxReceived) {
    t.equal(r.signature, expectedSignature(sandboxHook.secret, r.body), 'signed with the sandbox webhook secret');
  }
  await new Promise((r) => setTimeout(r, 500));
  t.equal(productionConnections, connectionsBefore, "no connection to production's webhook for sandbox events");
  t.equal((await settledDeliveries(P, LIVE)).total, liveDeliveries.total, 'production recorded no delivery for them');

  // ---- tokens: issued by one, refused (401) by the other; accepted at home
  const permissions = ['ais:accounts:read'];
  const st = await ok(S, 'POST', '/v1/auth/generate-token', PARTNER, { userId: 'user-1', merchantId: sm.merchantId, permissions });
  const pt = await ok(P, 'POST', '/v1/auth/generate-token', LIVE, { userId: 'user-1', merchantId: pm.merchantId, permissions });
  const sandboxTokenOnProd = await call(
    P,
    'POST',
    '/v1/ais/accounts',
    { authorization: `Bearer ${st.token}` },
    { userId: 'user-1', merchantId: pm.merchantId },
  );
  t.equal(sandboxTokenOnProd.status, 401, 'sandbox token on production');
  t.match(sandboxTokenOnProd.json.code, /^token_/);
  const prodTokenOnSandbox = await call(
    S,
    'POST',
    '/v1/ais/accounts',
    { authorization: `Bearer ${pt.token}` },
    { userId: 'user-1', merchantId: sm.merchantId },
  );
  t.equal(prodTokenOnSandbox.status, 401, 'production token on the sandbox');
  t.match(prodTokenOnSandbox.json.code, /^token_/);
  t.not(
    (await call(S, 'POST', '/v1/ais/accounts', { authorization: `Bearer ${st.token}` }, { userId: 'user-1', merchantId: sm.merchantId }))
      .status,
    401,
    'the sandbox token is valid at home',
  );
  t.not(
    (await call(P, 'POST', '/v1/ais/accounts', { authorization: `Bearer ${pt.token}` }, { userId: 'user-1', merchantId: pm.merchantId }))
      .status,
    401,
    'the production token is valid at home',
  );

  t.equal(await production.stop(), 0, 'production stops cleanly');
  t.equal(await sandbox.stop(), 0, 'sandbox stops cleanly');
});
