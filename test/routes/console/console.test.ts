/**
 * The console's HTTP side without a browser: sessions (forged, expired, from another database),
 * CSRF on every state-changing form, escaping, headers, what reaches the journal, the
 * production profile and the live stream.
 */
import { request as httpRequest } from 'node:http';
import { EncryptJWT } from 'jose';
import t from 'tap';
import { build } from '../../helpers/app.js';
import { cookieOf, csrfIn, form, FORM, signIn } from '../../helpers/console.js';
import { call, count, standardMerchant, testMerchant } from '../../helpers/partner.js';

const XSS = `<script>alert(1)</script><img src=x onerror=alert(2)>"'`;

t.test(
  'sign-in: the form needs its own CSRF cookie; wrong credentials are a 401 page; the cookie is HttpOnly, SameSite=Strict',
  async (t) => {
    const app = await build(t);
    const page = await app.inject({ method: 'GET', url: '/console/sign-in' });
    t.equal(page.statusCode, 200);
    const token = csrfIn(page.body)!;
    const signInCookie = cookieOf(page, 'obsim_console_sign_in')!;
    t.equal(token, signInCookie);
    const post = (cookie: string, fields: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/console/sign-in', headers: { ...FORM, cookie }, payload: form(fields) });
    const creds = { clientId: 'sandbox-partner', clientSecret: 'sandbox-secret' };
    t.equal((await post('', { ...creds, _csrf: token })).statusCode, 403, 'no sign-in cookie: refused');
    t.equal((await post(`obsim_console_sign_in=${signInCookie}`, { ...creds, _csrf: 'x'.repeat(24) })).statusCode, 403, 'wrong token');
    const wrong = await post(`obsim_console_sign_in=${signInCookie}`, { ...creds, clientSecret: 'nope', _csrf: token });
    t.equal(wrong.statusCode, 401);
    t.match(wrong.body, /refused \(401 partner_credentials_invalid/);
    t.equal(cookieOf(wrong, 'obsim_console'), undefined, 'no session');
    const ok = await post(`obsim_console_sign_in=${signInCookie}`, { ...creds, _csrf: token, next: '//evil.example/x' });
    t.equal(ok.statusCode, 303);
    t.equal(ok.headers.location, '/console', 'next must be a console path: no open redirect');
    const set = ([] as string[]).concat(ok.headers['set-cookie'] as string[]).find((c) => c.startsWith('obsim_console='))!;
    t.match(set, /HttpOnly/);
    t.match(set, /SameSite=Strict/);
    t.match(set, /Path=\/console/);
    t.notMatch(set, /sandbox-secret/, 'the secret is encrypted');
  },
);

t.test('forged, expired and foreign sessions answer the sign-in page and change nothing', async (t) => {
  const app = await build(t);
  const other = await build(t);
  const mine = await signIn(app);
  const theirs = await signIn(other);
  const m = await standardMerchant(app);
  const key = Buffer.from(app.meta.get('console.sessionKey')!, 'base64url');
  const expired = await new EncryptJWT({ sec: 'sandbox-secret', csrf: mine.csrf })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setSubject('sandbox-partner')
    .setIssuedAt(Math.floor(Date.now() / 1000) - 10 * 3600)
    .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
    .encrypt(key);
  const tampered = mine.cookie.slice(0, -4) + (mine.cookie.endsWith('AAAA') ? 'BBBB' : 'AAAA');
  for (const [name, cookie] of [
    ['none', ''],
    ['garbage', 'obsim_console=not-a-token'],
    ['tampered', tampered],
    ['expired', `obsim_console=${expired}`],
    ['from another database', theirs.cookie],
  ] as const) {
    const page = await app.inject({ method: 'GET', url: '/console/merchants', headers: { cookie } });
    t.equal(page.statusCode, 401, `${name}: GET`);
    t.match(page.body, /<h1>Sign in<\/h1>/, `${name}: the sign-in page`);
    const action = await app.inject({
      method: 'POST',
      url: `/console/merchants/${m.merchantId}/activate`,
      headers: { ...FORM, cookie },
      payload: form({ _csrf: mine.csrf, back: '/console' }),
    });
    t.equal(action.statusCode, 401, `${name}: POST`);
    const htmx = await app.inject({ method: 'GET', url: '/console', headers: { cookie, 'hx-request': 'true' } });
    t.match(htmx.headers['hx-redirect'], /^\/console\/sign-in/, `${name}: htmx is sent to the sign-in page`);
    t.equal((await app.inject({ method: 'GET', url: '/console/live', headers: { cookie } })).statusCode, 401, `${name}: no live stream`);
  }
  t.equal(app.store.merchants.get(m.merchantId, 'sandbox-partner')?.status, 'pending_onboarding', 'nothing changed');
});

t.test('CSRF: every state-changing form without the session token is a 403 and changes nothing', async (t) => {
  const app = await build(t);
  const { cookie, csrf } = await signIn(app);
  const m = await standardMerchant(app);
  const shop = await testMerchant(app);
  const p = await call(app, 'POST', '/v1/partner/payments', { merchantClientId: shop.clientId, amount: 5, referenceNumber: 'csrf' });
  const hook = await call(app, 'POST', '/v1/partner/webhooks', { url: 'http://127.0.0.1:9/x', events: ['payment.completed'] });
  const before = {
    merchants: count(app, 'merchants'),
    payments: count(app, 'payments'),
    webhooks: count(app, 'webhooks'),
    deliveries: count(app, 'deliveries'),
  };
  const clock = (await call(app, 'GET', '/_sandbox/clock')).body;
  const posts: [string, Record<string, string>][] = [
    ['/console/clock/advance', { duration: '1h' }],
    ['/console/clock/resume', {}],
    ['/console/merchants/test', { companyName: 'x' }],
    [`/console/merchants/${m.merchantId}/activate`, {}],
    ['/console/payments', { merchantClientId: shop.clientId, amount: '1', referenceNumber: 'x' }],
    [`/console/payments/${p.body.paymentId}/complete`, {}],
    ['/console/webhooks', { url: 'http://127.0.0.1:9/y', events: 'payment.completed' }],
    [`/console/webhooks/${hook.body.id}/test`, {}],
    ['/console/scenarios/run', { name: 'payment-paid' }],
    ['/console/sign-out', {}],
  ];
  for (const [url, fields] of posts) {
    for (const token of [undefined, 'wrong-token-of-24-chars!', csrf.slice(0, -1)]) {
      const r = await app.inject({
        method: 'POST',
        url,
        headers: { ...FORM, cookie },
        payload: form(token === undefined ? fields : { ...fields, _csrf: token }),
      });
      t.equal(r.statusCode, 403, `${url} with ${token === undefined ? 'no token' : 'a wrong token'}`);
      t.match(r.body, /CSRF check/);
    }
  }
  t.same(
    {
      merchants: count(app, 'merchants'),
      payments: count(app, 'payments'),
      webhooks: count(app, 'webhooks'),
      deliveries: count(app, 'deliveries'),
    },
    before,
    'no row was written',
  );
  t.same((await call(app, 'GET', '/_sandbox/clock')).body, clock, 'the clock did not move');
  t.equal(app.store.merchants.get(m.merchantId, 'sandbox-partner')?.status, 'pending_onboarding');

  const ok = await app.inject({
    method: 'POST',
    url: `/console/merchants/${m.merchantId}/activate`,
    headers: { ...FORM, cookie },
    payload: form({ _csrf: csrf, back: 'https://evil.example/' }),
  });
  t.equal(ok.statusCode, 303);
  t.equal(ok.headers.location, `/console/merchants/${m.merchantId}`, 'back must be a console path');
  t.equal(app.store.merchants.get(m.merchantId, 'sandbox-partner')?.status, 'activated', 'with the token it acts');
  const flash = cookieOf(ok, 'obsim_console_flash')!;
  const shown = await app.inject({
    method: 'GET',
    url: ok.headers.location as string,
    headers: { cookie: `${cookie}; obsim_console_flash=${flash}` },
  });
  t.match(shown.body, /activate: done for merchant/);
  const illegal = await app.inject({
    method: 'POST',
    url: `/console/merchants/${m.merchantId}/approve`,
    headers: { ...FORM, cookie },
    payload: form({ _csrf: csrf }),
  });
  const refused = await app.inject({
    method: 'GET',
    url: `/console/merchants/${m.merchantId}`,
    headers: { cookie: `${cookie}; obsim_console_flash=${cookieOf(illegal, 'obsim_console_flash')}` },
  });
  t.match(refused.body, /409 illegal_transition: Cannot approve/, "an illegal action shows the API's refusal");
});

t.test('every value is escaped; pages carry a strict CSP and no-store', async (t) => {
  const app = await build(t);
  const { cookie } = await signIn(app);
  const evil = await testMerchant(app, undefined, XSS);
  const p = await call(app, 'POST', '/v1/partner/payments', { merchantClientId: evil.clientId, amount: 5, referenceNumber: XSS });
  await call(app, 'POST', '/v1/partner/webhooks', { url: 'http://127.0.0.1:9/x?<script>', events: ['payment.completed'] });
  await call(app, 'POST', `/_sandbox/payments/${p.body.paymentId}/complete`);
  await app.webhooks.drain();
  const delivery = (await call(app, 'GET', '/_sandbox/deliveries?event=payment.completed')).body.items[0];
  for (const url of [
    '/console/merchants',
    `/console/merchants/${evil.merchantId}`,
    '/console/payments',
    `/console/payments/${p.body.paymentId}`,
    '/console/webhooks',
    `/console/deliveries/${delivery.id}`,
    `/console/merchants?q=${encodeURIComponent(XSS)}`,
    `/console/requests?code=${encodeURIComponent(XSS)}`,
  ]) {
    const r = await app.inject({ method: 'GET', url, headers: { cookie } });
    t.equal(r.statusCode, 200, url);
    t.notOk(r.body.includes('<script>alert'), `${url}: no raw payload`);
    t.notOk(r.body.includes('<img src=x'), `${url}: no raw tag`);
    t.match(r.headers['content-security-policy'], /script-src 'self'/);
    t.equal(r.headers['cache-control'], 'no-store');
  }
  const m = await app.inject({ method: 'GET', url: `/console/merchants/${evil.merchantId}`, headers: { cookie } });
  t.ok(m.body.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'shown escaped');
});

t.test("the console's reads stay out of the journal; its actions are in it", async (t) => {
  const app = await build(t);
  const { cookie, csrf } = await signIn(app);
  await call(app, 'DELETE', '/_sandbox/requests');
  for (const url of ['/console', '/console/merchants', '/console/payments', '/console/webhooks', '/console/requests']) {
    t.equal((await app.inject({ method: 'GET', url, headers: { cookie } })).statusCode, 200, url);
  }
  const m = await standardMerchant(app);
  await app.inject({
    method: 'POST',
    url: `/console/merchants/${m.merchantId}/reject`,
    headers: { ...FORM, cookie },
    payload: form({ _csrf: csrf }),
  });
  const journal = (await call(app, 'GET', '/_sandbox/requests')).body.items.map(
    (e: { method: string; path: string }) => `${e.method} ${e.path}`,
  );
  t.same(journal, [`POST /_sandbox/merchants/${m.merchantId}/reject`, 'POST /v1/partner/merchants']);
});

t.test('production profile: shown, and no sandbox-only action offered', async (t) => {
  const app = await build(t, {
    config: { environment: 'production', partnerClientId: 'prod-partner', partnerClientSecret: 'prod-secret' },
  });
  const { cookie } = await signIn(app, 'prod-partner', 'prod-secret');
  const r = await app.inject({ method: 'GET', url: '/console', headers: { cookie } });
  t.match(r.body, /data-testid="environment">production</);
  t.notMatch(r.body, /\/console\/merchants\/test/, 'no test merchant form');
  t.match(r.body, /Production profile/);
});

t.test('unknown ids and assets are 404s in the error shape; bad filters show the API refusal', async (t) => {
  const app = await build(t);
  const { cookie } = await signIn(app);
  for (const url of ['/console/merchants/abc', '/console/payments/1%2F..', '/console/deliveries/x', '/console/assets/nope.js']) {
    const r = await app.inject({ method: 'GET', url, headers: { cookie } });
    t.equal(r.statusCode, 404, url);
    t.equal(r.json().code, 'route_not_found', url);
  }
  const missing = await app.inject({ method: 'GET', url: '/console/merchants/999999', headers: { cookie } });
  t.equal(missing.statusCode, 404);
  t.match(missing.body, /merchant_not_found/);
  const bad = await app.inject({ method: 'GET', url: '/console/payments?status=nope', headers: { cookie } });
  t.equal(bad.statusCode, 400);
  t.match(bad.body, /validation_failed/);
  const js = await app.inject({ method: 'GET', url: '/console/assets/htmx.min.js' });
  t.equal(js.statusCode, 200);
  t.match(js.headers['content-type'], /javascript/);
});

t.test('the live stream says `changed` when timers fire in the sandbox, and not for another sandbox', async (t) => {
  const app = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const { cookie } = await signIn(app);
  const created = await call(app, 'POST', '/_sandbox/sandboxes', {});
  const other = await signIn(app, created.body.credentials.clientId, created.body.credentials.clientSecret);
  const listen = (c: string) =>
    new Promise<{ text: () => string; close: () => void }>((resolve) => {
      let text = '';
      const req = httpRequest({ port, host: '127.0.0.1', path: '/console/live', headers: { cookie: c } }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        resolve({ text: () => text, close: () => req.destroy() });
      });
      req.end();
    });
  const mine = await listen(cookie);
  const theirs = await listen(other.cookie);
  t.teardown(() => {
    mine.close();
    theirs.close();
  });
  const shop = await testMerchant(app);
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: shop.clientId, amount: 5, referenceNumber: 'live' });
  await call(app, 'DELETE', '/_sandbox/requests'); // not journaled: only the timer speaks below
  await new Promise((r) => setTimeout(r, 400));
  const quiet = mine.text();
  await app.engine.advance(10_000);
  for (let i = 0; i < 50 && !mine.text().slice(quiet.length).includes('event: changed'); i++) await new Promise((r) => setTimeout(r, 20));
  t.match(mine.text().slice(quiet.length), /event: changed/, 'a settlement fired: changed');
  t.notMatch(theirs.text(), /event: changed/, 'the other sandbox heard nothing');
});
