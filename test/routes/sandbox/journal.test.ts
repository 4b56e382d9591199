/**
 * The request journal through the API: what an entry holds (credentials never stored), refused
 * requests with their codes, filters and cursors, one entry, clearing, count and verify
 * with near misses, malformed matchers, hosted pages and sandboxes each in their own journal, and
 * --journal off. Every response is checked against its schema (build() validates responses).
 */
import { ServerResponse } from 'node:http';
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { aisApp } from '../../helpers/ais.js';
import { build, json, OTHER_PARTNER, PARTNER, schemaErrors } from '../../helpers/app.js';
import { buildTwo, call, standardMerchant, storedJournal, testMerchant } from '../../helpers/partner.js';

async function journal(app: FastifyInstance, query = '', headers = PARTNER) {
  const r = await call(app, 'GET', `/_sandbox/requests${query}`, undefined, headers);
  if (r.status !== 200) throw new Error(`journal ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { items: any[]; nextCursor?: string };
}

const verify = (app: FastifyInstance, body: unknown, headers = PARTNER) => call(app, 'POST', '/_sandbox/requests/verify', body, headers);

t.test('an entry: the request, the answer, the time on both clocks, and what it created', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  const pay = await call(
    app,
    'POST',
    '/v1/partner/payments?src=t',
    { merchantClientId: m.clientId, amount: 10, referenceNumber: 'order-17' },
    {
      ...PARTNER,
      'x-request-id': 'trace-17',
      'user-agent': 'partner-app/1.0',
    },
  );
  const [entry] = (await journal(app, '?limit=1')).items;
  t.same(schemaErrors('JournalEntry', entry), []);
  t.match(entry, {
    method: 'POST',
    path: '/v1/partner/payments',
    query: { src: 't' },
    at: app.clock.iso(),
    requestBody: { merchantClientId: m.clientId, amount: 10, referenceNumber: 'order-17' },
    requestBodyTruncated: false,
    status: 200,
    responseBody: { paymentId: pay.body.paymentId, status: 'pending' },
    requestId: 'trace-17',
    resources: { paymentId: pay.body.paymentId },
    headers: { 'user-agent': 'partner-app/1.0', 'x-partner-client-id': 'sandbox-partner', 'x-partner-client-secret': '[redacted]' },
  });
  t.notOk('code' in entry, 'no code on a success');
  t.ok(Math.abs(Date.parse(entry.wallAt) - Date.now()) < 60_000, 'wallAt is the wall clock (the virtual one is frozen in January)');
  t.type(entry.durationMs, 'number');
  const one = await call(app, 'GET', `/_sandbox/requests/${entry.id}`);
  t.same(one.body, entry, 'GET /_sandbox/requests/{id} is the same entry');
  t.equal((await journal(app)).items.length, 2, 'the test merchant and the payment: reading the journal is not recorded');
});

t.test('credentials are never stored: partner secret, bearer token, token and webhook secret in answers', async (t) => {
  const ctx = await aisApp(t);
  const { app } = ctx;
  const token = await ctx.token('u1', ['ais:accounts:read']);
  await call(
    app,
    'POST',
    '/v1/auth/generate-token',
    { userId: 'u1', merchantId: ctx.merchantId, permissions: ['ais:accounts:read'] },
    PARTNER,
  );
  await app.inject({
    method: 'POST',
    url: '/v1/ais/accounts',
    headers: { authorization: `Bearer ${token}` },
    payload: { userId: 'u1', merchantId: ctx.merchantId },
  });
  const hook = await call(app, 'POST', '/v1/partner/webhooks', { url: 'http://127.0.0.1:9/h', events: ['payment.completed'] });
  const secret = hook.body.secret as string;
  app.journal!.flush();
  const rows = JSON.stringify(app.db.prepare('SELECT * FROM journal_pages').all());
  for (const [what, value] of [
    ['partner secret', 'sandbox-secret'],
    ['bearer token', token],
    ['a token signature', token.split('.')[2]],
    ['webhook secret', secret],
  ] as const)
    t.notOk(rows.includes(value), `the ${what} is nowhere in the journal table`);
  const items = (await journal(app)).items;
  const gen = items.find((e) => e.path === '/v1/auth/generate-token' && e.headers['x-partner-client-id']);
  t.equal(gen.responseBody.token, '[redacted]');
  const ais = items.find((e) => e.path === '/v1/ais/accounts');
  t.equal(ais.headers.authorization, 'Bearer [redacted]', 'the scheme is kept, the token is not');
  const wh = items.find((e) => e.path === '/v1/partner/webhooks');
  t.equal(wh.responseBody.secret, '[redacted]');
  t.equal(wh.resources.webhookId, hook.body.id);
  t.ok(
    items.some((e) => e.path === '/v1/auth/generate-token' && e.headers['x-partner-client-id'] === undefined),
    'generate-token without partner headers goes to the journal of the merchant’s partner',
  );
});

t.test('refused requests are recorded with their status, code and field', async (t) => {
  const ctx = await aisApp(t, { rateLimit: 30 });
  const { app } = ctx;
  const m = await testMerchant(app);
  const token = await ctx.token('u1', ['ais:balance:read']);
  const cases: [string, () => Promise<unknown>, number, string, string?][] = [
    [
      '400',
      () => call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: '10', referenceNumber: 'r' }),
      400,
      'validation_failed',
      '/amount',
    ],
    [
      '401',
      () => call(app, 'GET', '/v1/partner/merchants', undefined, { ...PARTNER, 'x-partner-client-secret': 'wrong' }),
      401,
      'partner_credentials_invalid',
    ],
    [
      '403',
      () =>
        app.inject({
          method: 'POST',
          url: '/v1/ais/accounts',
          headers: { authorization: `Bearer ${token}` },
          payload: { userId: 'u1', merchantId: ctx.merchantId },
        }),
      403,
      'token_permission_missing',
    ],
    ['404', () => call(app, 'GET', '/v1/partner/merchants/999/onboarding-status'), 404, 'merchant_not_found'],
    ['404 route', () => call(app, 'GET', '/v1/partner/nothing-here'), 404, 'route_not_found'],
    ['409', () => call(app, 'POST', `/v1/partner/merchants/${m.merchantId}/resend-onboarding`), 409, 'onboarding_closed'],
    [
      '415',
      () =>
        app.inject({
          method: 'POST',
          url: '/v1/partner/payments',
          headers: { ...PARTNER, 'content-type': 'application/xml' },
          payload: '<x/>',
        }),
      415,
      'unsupported_media_type',
    ],
  ];
  for (const [label, send, status, code, field] of cases) {
    await send();
    const [e] = (await journal(app, '?limit=1')).items;
    t.match(e, { status, code }, `${label}: ${code}`);
    if (field) t.equal(e.field, field, `${label}: names ${field}`);
    t.same(e.resources, {}, `${label}: changed nothing`);
  }
  // 429: the rate limit (30 a minute here) is reached by the calls above and these
  let last: any;
  for (let i = 0; i < 40 && last?.status !== 429; i++) last = await call(app, 'GET', '/v1/partner/merchants');
  t.equal(last.status, 429);
  // the journal routes are rate limited too: read this one directly
  const [limited] = app.journal!.list('sandbox-partner', { status: 429 }, 1);
  t.match(limited, { status: 429, code: 'rate_limited' });
  const refused = { items: app.journal!.list('sandbox-partner', { code: 'validation_failed' }, 50) };
  t.ok(refused.items.length >= 1 && refused.items.every((e) => e.code === 'validation_failed'), 'filter by code');
});

t.test('filters combine; pages newest first with a cursor; a forged cursor is a 400', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  for (let i = 0; i < 5; i++)
    await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10 + i, referenceNumber: `r${i}` });
  await app.inject({ method: 'POST', url: '/_sandbox/clock/advance', headers: PARTNER, payload: { duration: '1h' } });
  await call(app, 'GET', `/v1/partner/merchants/${m.merchantId}/onboarding-status`);
  await call(app, 'GET', '/v1/partner/merchants/424242/onboarding-status');

  const all = await journal(app);
  t.equal(all.items.length, 9);
  t.same(
    all.items.map((e) => e.id),
    [...all.items.map((e) => e.id)].sort((a, b) => b - a),
    'newest first',
  );
  t.equal((await journal(app, '?method=post&path=/v1/partner/payments')).items.length, 5, 'method (any case) and exact path');
  t.equal((await journal(app, '?pathPrefix=/v1/partner/merchants')).items.length, 3);
  t.equal((await journal(app, '?status=404')).items.length, 1);
  // the advance is answered at the instant it advanced to
  t.equal((await journal(app, `?since=${encodeURIComponent(app.clock.iso())}`)).items.length, 3, 'since: the virtual clock');
  t.equal((await journal(app, `?until=${encodeURIComponent(app.clock.iso(-1000))}`)).items.length, 6, 'until: the virtual clock');

  const seen: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await journal(app, `?method=POST&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    seen.push(...page.items.map((e) => e.id));
    cursor = page.nextCursor;
    pages++;
  } while (cursor);
  t.equal(pages, 4, '7 POSTs in pages of 2');
  t.same(
    seen,
    all.items.filter((e) => e.method === 'POST').map((e) => e.id),
    'every POST once, in order',
  );
  const bad = await call(app, 'GET', '/_sandbox/requests?cursor=not-a-cursor');
  t.match(bad, { status: 400, body: { code: 'validation_failed', field: 'cursor' } });
  const badStatus = await call(app, 'GET', '/_sandbox/requests?status=99');
  t.match(badStatus, { status: 400, body: { field: 'status' } });
  t.match(await call(app, 'GET', '/_sandbox/requests/999999'), { status: 404, body: { code: 'journal_entry_not_found' } });
});

t.test('each partner sees only its own journal; clearing one leaves the other', async (t) => {
  const app = await buildTwo(t);
  await testMerchant(app);
  await testMerchant(app, OTHER_PARTNER);
  const mine = await journal(app);
  const theirs = await journal(app, '', OTHER_PARTNER);
  t.ok(mine.items.every((e) => e.headers['x-partner-client-id'] === 'sandbox-partner'));
  t.ok(theirs.items.every((e) => e.headers['x-partner-client-id'] === 'other-partner'));
  t.match(await call(app, 'GET', `/_sandbox/requests/${theirs.items[0].id}`), { status: 404 }, "another partner's entry is not found");
  const cleared = await call(app, 'DELETE', '/_sandbox/requests');
  t.same(cleared.body, { deleted: mine.items.length });
  t.same((await journal(app)).items, [], 'the DELETE itself is not recorded');
  t.equal((await journal(app, '', OTHER_PARTNER)).items.length, theirs.items.length);
});

t.test('count and verify: matchers, expectations, near misses, too many', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  const pay = (ref: string, amount = 10) =>
    call(
      app,
      'POST',
      '/v1/partner/payments',
      { merchantClientId: m.clientId, amount, referenceNumber: ref },
      { ...PARTNER, 'idempotency-key': ref },
    );
  await pay('order-16');
  await pay('order-17', 25);
  await call(app, 'GET', `/v1/partner/merchants/${m.merchantId}/onboarding-status`);

  const counted = await call(app, 'POST', '/_sandbox/requests/count', { request: { method: 'POST', path: '/v1/partner/payments' } });
  t.same(counted.body, { count: 2 });
  t.same((await call(app, 'POST', '/_sandbox/requests/count', {})).body, { count: 4 }, 'an empty matcher counts everything');

  t.same(
    (await verify(app, { request: { method: 'POST', path: '/v1/partner/payments', body: { referenceNumber: 'order-17' } }, count: 1 }))
      .body,
    {
      verified: true,
      actual: 1,
    },
  );
  t.match((await verify(app, { request: { jsonPath: { '$.amount': 25 }, headerPresent: ['Idempotency-Key'] } })).body, { verified: true });
  t.match(
    (await verify(app, { request: { path: '/v1/partner/merchants/{id}/onboarding-status', status: '2xx' }, atLeast: 1, atMost: 1 })).body,
    {
      verified: true,
    },
  );

  const miss = await verify(app, {
    request: { method: 'POST', path: '/v1/partner/payments', body: { referenceNumber: 'order-18' } },
    count: 1,
  });
  t.same(schemaErrors('JournalVerifyResult', miss.body), []);
  t.match(miss.body, { verified: false, actual: 0, expected: { count: 1 } });
  t.same(
    miss.body.nearMisses.slice(0, 2).map((n: any) => n.entry.requestBody.referenceNumber),
    ['order-17', 'order-16'],
    'the payments that differ only in the reference, newest first',
  );
  t.same(miss.body.nearMisses[0].differences, [{ field: 'body.referenceNumber', expected: 'order-18', actual: 'order-17' }]);

  const tooMany = await verify(app, { request: { method: 'POST', path: '/v1/partner/payments' }, atMost: 1 });
  t.match(tooMany.body, { verified: false, actual: 2, expected: { atMost: 1 }, nearMisses: [] });
  t.equal(tooMany.body.matched.length, 2, 'too many: the matching entries explain it');

  const after = (await journal(app, '?limit=1')).items[0].id;
  await pay('order-19');
  t.match(
    (await verify(app, { request: { path: '/v1/partner/payments' }, after, count: 1 })).body,
    { verified: true },
    'after: only newer entries',
  );
});

t.test('a malformed matcher is a 400 naming the field, and changes nothing', async (t) => {
  const app = await build(t);
  await testMerchant(app);
  const before = storedJournal(app).length;
  for (const [body, field] of [
    [{ request: { methd: 'POST' } }, '/request/methd'],
    [{ request: { status: 'teapot' } }, '/request/status'],
    [{ request: { path: 'no-slash' } }, '/request/path'],
    [{ request: { jsonPath: { '$..x': 1 } } }, '/request/jsonPath/$..x'],
    [{ request: {}, count: -1 }, '/count'],
    [{ request: {}, atLeast: 'one' }, '/atLeast'],
    [{ request: {}, exactly: 1 }, '/exactly'],
  ] as const) {
    const r = await verify(app, body);
    t.equal(r.status, 400, JSON.stringify(body));
    t.equal(r.body.field, field, `names ${field}`);
  }
  t.equal(storedJournal(app).length, before, 'nothing recorded, nothing changed');
});

t.test('hosted pages go to the journal of the partner whose payment, merchant or consent they show', async (t) => {
  const app = await buildTwo(t);
  const m = await testMerchant(app, OTHER_PARTNER);
  const pay = await call(
    app,
    'POST',
    '/v1/partner/payments',
    { merchantClientId: m.clientId, amount: 10, referenceNumber: 'r' },
    OTHER_PARTNER,
  );
  const page = await app.inject({ method: 'GET', url: new URL(pay.body.paymentUrl).pathname });
  t.equal(page.statusCode, 200);
  const std = await standardMerchant(app, OTHER_PARTNER);
  await app.inject({ method: 'GET', url: `/onboarding/${std.onboardingToken}` });
  const theirs = (await journal(app, '?pathPrefix=/', OTHER_PARTNER)).items;
  const pageEntry = theirs.find((e) => e.path.startsWith('/pay/'));
  t.match(pageEntry, { method: 'GET', status: 200, responseBody: /<html/ }, 'the page, with its HTML');
  t.ok(
    theirs.some((e) => e.path.startsWith('/onboarding/')),
    'the onboarding page',
  );
  t.notOk(
    (await journal(app)).items.some((e) => e.path.startsWith('/pay/') || e.path.startsWith('/onboarding/')),
    'not in anyone else’s',
  );
  await app.inject({ method: 'GET', url: '/pay/pay_1_forged' });
  t.equal(storedJournal(app).filter((e) => e.path === '/pay/pay_1_forged').length, 0, 'a page nobody owns is in no journal');
});

t.test('created sandboxes: their own journal, gone with them', async (t) => {
  const app = await build(t);
  const created = json(await app.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: {} }));
  const sbx = { 'x-partner-client-id': created.credentials.clientId, 'x-partner-client-secret': created.credentials.clientSecret };
  await call(app, 'GET', `/v1/partner/merchants/${created.defaultMerchant.merchantId}/onboarding-status`, undefined, sbx);
  await call(app, 'GET', '/v1/partner/merchants', undefined, { ...sbx, 'x-partner-client-secret': 'nope' });
  const items = (await journal(app, '', sbx)).items;
  t.same(
    items.map((e) => e.status),
    [401, 200],
  );
  t.notOk(
    (await journal(app)).items.some((e) => e.headers['x-partner-client-id'] === created.sandboxId),
    'the default sandbox does not see them',
  );
  t.equal(storedJournal(app, created.sandboxId).length, 2);
  t.equal((await app.inject({ method: 'DELETE', url: `/_sandbox/sandboxes/${created.sandboxId}` })).statusCode, 200);
  t.equal(storedJournal(app, created.sandboxId).length, 0, 'deleted with its sandbox');
  t.equal(app.journal!.stats(created.sandboxId).count, 0, 'and forgotten');
  t.equal(storedJournal(app).filter((e) => e.path.startsWith('/_sandbox/sandboxes')).length, 0, 'sandbox management is in no journal');
});

t.test('--journal off: nothing recorded; the journal routes say so', async (t) => {
  const app = await build(t, { config: { journal: false } });
  await testMerchant(app);
  t.equal(storedJournal(app).length, 0);
  for (const [method, url] of [
    ['GET', '/_sandbox/requests'],
    ['POST', '/_sandbox/requests/verify'],
    ['GET', '/_sandbox/requests/stream'],
  ] as const) {
    const r = await call(app, method, url, method === 'POST' ? {} : undefined);
    t.match(r, { status: 409, body: { code: 'journal_off' } }, `${method} ${url}`);
  }
});

t.test('an entry is made after its answer was written, and the next request already finds it', async (t) => {
  // as served: the response check of the other tests is one more onSend hook, a promise, before the write
  const app = await build(t, { config: { validateResponses: false } });
  // the order of the two, per request id: an answer's end (inject's response ends through Node's) and its entry
  const order: string[] = [];
  const end = ServerResponse.prototype.end;
  ServerResponse.prototype.end = function (this: ServerResponse, ...args: unknown[]) {
    order.push(`answered ${String(this.getHeader('x-request-id'))}`);
    return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof end;
  t.teardown(() => {
    ServerResponse.prototype.end = end;
  });
  const kept = app.journal!;
  const record = kept.record.bind(kept);
  kept.record = (r) => {
    order.push(`recorded ${r.requestId}`);
    record(r);
  };
  const m = await testMerchant(app);
  await call(app, 'GET', `/v1/partner/merchants/${m.merchantId}/onboarding-status`, undefined, { ...PARTNER, 'x-request-id': 'read-1' });
  const [entry] = (await journal(app, '?limit=1')).items;
  t.match(entry, { requestId: 'read-1', status: 200 }, 'the next request finds it');
  const recorded = order.filter((line) => line.startsWith('recorded '));
  t.ok(recorded.length >= 2, 'the merchant and the read recorded');
  for (const line of recorded) {
    const id = line.slice('recorded '.length);
    t.ok(order.indexOf(`answered ${id}`) >= 0 && order.indexOf(`answered ${id}`) < order.indexOf(line), `${id}: answered, then recorded`);
  }
});
