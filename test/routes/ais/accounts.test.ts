import t from 'tap';
import { json, schemaErrors } from '../../helpers/app.js';
import { aisApp, normalise, type AisContext } from '../../helpers/ais.js';
import { TEST_CAUSE } from '../../helpers/engine.js';
import { scaled } from '../../helpers/speed.js';

// many apps in one file on a shared 2-core machine: give the file more than tap's default 30 s
t.setTimeout(scaled(180_000));

async function ready(t: Parameters<typeof aisApp>[0], userId = 'user-typical', consent: Record<string, unknown> = {}) {
  const ctx = await aisApp(t);
  const c = await ctx.authorizedConsent(userId, consent);
  return { ...ctx, consent: c };
}

async function post(ctx: AisContext, url: string, payload: Record<string, unknown>, headers?: Record<string, string>) {
  return ctx.app.inject({ method: 'POST', url, payload, headers: headers ?? (await ctx.bearer(String(payload.userId))) });
}

t.test('POST /v1/ais/accounts returns the envelope with every Account field', async (t) => {
  const ctx = await ready(t);
  const res = await post(
    ctx,
    '/v1/ais/accounts',
    { userId: 'user-typical', merchantId: ctx.merchantId },
    { ...(await ctx.bearer('user-typical')), 'x-request-id': 'partner-trace-1' },
  );
  t.equal(res.statusCode, 200);
  t.equal(res.headers['x-request-id'], 'partner-trace-1', 'x-request-id echoed');
  const body = json(res);
  t.same(schemaErrors('AccountsResponse', body), []);
  t.match(body, { userId: 'user-typical', merchantId: ctx.merchantId, consentId: ctx.consent.consent_id, totalAccounts: 3 });
  t.equal(body.clientId, ctx.app.store.merchants.getAny(ctx.merchantId)!.client_id);
  t.same(
    body.accounts.map((a: any) => a.accountType),
    ['current', 'savings', 'credit_card'],
  );
  for (const a of body.accounts) t.match(a.balance, /^-?\d+\.\d{2}$/);
  t.matchSnapshot(normalise(body), 'accounts of user-typical');

  const generated = await post(ctx, '/v1/ais/accounts', { userId: 'user-typical', merchantId: ctx.merchantId });
  t.match(generated.headers['x-request-id'], /^req_/, 'generated when not sent');
});

t.test('special users: no accounts, multi-currency', async (t) => {
  const ctx = await aisApp(t);
  await ctx.authorizedConsent('user-no-accounts');
  await ctx.authorizedConsent('user-multi-currency');
  const none = json(await post(ctx, '/v1/ais/accounts', { userId: 'user-no-accounts', merchantId: ctx.merchantId }));
  t.match(none, { accounts: [], totalAccounts: 0 });
  const multi = json(await post(ctx, '/v1/ais/accounts', { userId: 'user-multi-currency', merchantId: ctx.merchantId }));
  t.same(
    multi.accounts.map((a: any) => a.currency),
    ['DKK', 'EUR', 'SEK', 'GBP'],
  );
  t.same(
    multi.accounts.map((a: any) => a.iban.slice(0, 2)),
    ['DK', 'DE', 'SE', 'GB'],
  );
});

t.test('POST /v1/ais/accounts/balance', async (t) => {
  const ctx = await ready(t);
  const accounts = json(await post(ctx, '/v1/ais/accounts', { userId: 'user-typical', merchantId: ctx.merchantId })).accounts;
  const res = await post(ctx, '/v1/ais/accounts/balance', {
    userId: 'user-typical',
    merchantId: ctx.merchantId,
    accountId: accounts[0].accountId,
  });
  t.equal(res.statusCode, 200);
  const body = json(res);
  t.same(schemaErrors('BalanceResponse', body), []);
  t.same(body, {
    userId: 'user-typical',
    merchantId: ctx.merchantId,
    accountId: accounts[0].accountId,
    balance: { value: accounts[0].balance, currency: 'DKK', lastUpdated: '2026-01-15T00:00:00.000Z' },
    accountDetails: { iban: accounts[0].iban, accountHolderName: accounts[0].accountHolderName, bankId: accounts[0].bankId },
  });
  t.matchSnapshot(normalise(body), 'balance');
});

t.test('POST /v1/ais/accounts/transactions: paging, filters, consent window, newest first', async (t) => {
  const ctx = await ready(t, 'user-typical', { transactionFromDateTime: '2025-06-01T00:00:00Z' });
  const accountId = json(await post(ctx, '/v1/ais/accounts', { userId: 'user-typical', merchantId: ctx.merchantId })).accounts[0].accountId;
  const url = '/v1/ais/accounts/transactions';
  const base = { userId: 'user-typical', merchantId: ctx.merchantId, accountId };

  const first = json(await post(ctx, url, base));
  t.same(schemaErrors('TransactionsResponse', first), []);
  t.equal(first.pageLimit, 200, 'default pageLimit');
  const inWindow = ctx.app.db
    .prepare("SELECT count(*) FROM ais_transactions WHERE account_id = ? AND booking_date >= '2025-06-01T00:00:00.000Z'")
    .pluck()
    .get(accountId) as number;
  t.equal(first.totalTransactions, inWindow, 'total = every entry since the consent’s transactionFromDateTime');
  t.ok(inWindow > 100 && inWindow < 320, `${inWindow} in the consent window`);
  t.equal(first.transactions.length, Math.min(200, inWindow));
  const dates = first.transactions.map((x: any) => x.bookingDate);
  t.same(dates, [...dates].sort().reverse(), 'newest first');
  t.ok(
    dates.every((d: string) => d >= '2025-06-01T00:00:00.000Z'),
    'nothing before transactionFromDateTime',
  );

  // an earlier fromDate cannot widen the consent window
  const wider = json(await post(ctx, url, { ...base, fromDate: '2024-01-01' }));
  t.equal(wider.totalTransactions, inWindow);

  // filters (bare toDate = the whole day), pageLimit
  const page = json(await post(ctx, url, { ...base, fromDate: '2025-09-01', toDate: '2025-09-30', pageLimit: 5 }));
  t.equal(page.pageLimit, 5);
  t.equal(page.transactions.length, 5);
  const september = ctx.app.db
    .prepare("SELECT count(*) FROM ais_transactions WHERE account_id = ? AND booking_date >= '2025-09-01' AND booking_date < '2025-10-01'")
    .pluck()
    .get(accountId);
  t.equal(page.totalTransactions, september);
  t.ok(page.transactions.every((x: any) => x.bookingDate.startsWith('2025-09')));

  // paging by moving toDate below the last bookingDate
  const next = json(
    await post(ctx, url, {
      ...base,
      fromDate: '2025-09-01',
      toDate: new Date(Date.parse(page.transactions[4].bookingDate) - 1).toISOString(),
      pageLimit: 5,
    }),
  );
  t.equal(next.totalTransactions, (september as number) - 5);
  t.ok(next.transactions[0].bookingDate < page.transactions[4].bookingDate);

  for (const x of first.transactions) {
    t.ok(['debit', 'credit'].includes(x.type) && ['booked', 'pending'].includes(x.status) && /^\d+\.\d{2}$/.test(x.amount));
  }
  t.matchSnapshot(normalise({ ...page, transactions: page.transactions.slice(0, 2) }), 'transactions page');
});

t.test('GET /v1/ais/accounts/{accountId}/transactions requires fromDate and toDate', async (t) => {
  const ctx = await ready(t);
  const accountId = json(await post(ctx, '/v1/ais/accounts', { userId: 'user-typical', merchantId: ctx.merchantId })).accounts[0].accountId;
  const headers = { ...(await ctx.bearer('user-typical')), 'x-request-id': 'get-tx-1' };
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/v1/ais/accounts/${accountId}/transactions?fromDate=2025-12-01&toDate=2025-12-31`,
    headers,
  });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['x-request-id'], 'get-tx-1');
  const list = json(res);
  t.same(schemaErrors('TransactionList', list), []);
  t.ok(list.length > 0);
  t.equal(Number(res.headers['x-total-count']), list.length);
  t.ok(list.every((x: any) => x.bookingDate >= '2025-12-01' && x.bookingDate < '2026-01-01'));
  for (const q of ['', '?fromDate=2025-12-01', '?toDate=2025-12-31']) {
    const bad = await ctx.app.inject({ method: 'GET', url: `/v1/ais/accounts/${accountId}/transactions${q}`, headers });
    t.equal(bad.statusCode, 400, `query "${q}"`);
    t.match(json(bad), { code: 'validation_failed' });
  }
  const reversed = await ctx.app.inject({
    method: 'GET',
    url: `/v1/ais/accounts/${accountId}/transactions?fromDate=2025-12-31&toDate=2025-12-01`,
    headers,
  });
  t.equal(reversed.statusCode, 400);
  t.match(json(reversed), { field: 'fromDate' });
  const garbage = await ctx.app.inject({
    method: 'GET',
    url: `/v1/ais/accounts/${accountId}/transactions?fromDate=yesterday&toDate=2025-12-01`,
    headers,
  });
  t.equal(garbage.statusCode, 400);
  const unknown = await ctx.app.inject({
    method: 'GET',
    url: `/v1/ais/accounts/acc_nope/transactions?fromDate=2025-12-01&toDate=2025-12-31`,
    headers,
  });
  t.equal(unknown.statusCode, 404);
  t.match(json(unknown), { code: 'account_not_found' });
});

t.test('400s on the transaction request', async (t) => {
  const ctx = await ready(t);
  const base = { userId: 'user-typical', merchantId: ctx.merchantId, accountId: 'acc_x' };
  const cases: [string, Record<string, unknown>, string][] = [
    ['pageLimit above the maximum', { pageLimit: 1001 }, 'pageLimit'],
    ['pageLimit zero', { pageLimit: 0 }, 'pageLimit'],
    ['pageLimit fractional', { pageLimit: 2.5 }, 'pageLimit'],
    ['pageLimit as string', { pageLimit: '10' }, 'pageLimit'],
    ['fromDate not a date', { fromDate: '01/02/2025' }, 'fromDate'],
    ['fromDate after toDate', { fromDate: '2025-05-02', toDate: '2025-05-01' }, 'fromDate'],
    ['missing accountId', { accountId: undefined }, 'accountId'],
  ];
  for (const [name, patch, field] of cases) {
    const res = await post(ctx, '/v1/ais/accounts/transactions', { ...base, ...patch });
    t.equal(res.statusCode, 400, name);
    t.match(json(res), { code: 'validation_failed', field }, name);
  }
  const ok = await post(ctx, '/v1/ais/accounts/transactions', {
    ...base,
    accountId: json(await post(ctx, '/v1/ais/accounts', { userId: 'user-typical', merchantId: ctx.merchantId })).accounts[0].accountId,
    pageLimit: 1000,
  });
  t.equal(ok.statusCode, 200, 'the maximum itself is fine');
});

t.test('403: token permission, token subject, consent missing, consent permission', async (t) => {
  const ctx = await aisApp(t);
  const { app, merchantId } = ctx;
  const accountsReq = { userId: 'user-typical', merchantId };
  const accountId = 'acc_whatever';

  // no consent at all
  let res = await post(ctx, '/v1/ais/accounts', accountsReq);
  t.equal(res.statusCode, 403);
  t.match(json(res), { code: 'consent_missing' });
  // a pending consent is not enough
  await ctx.createConsent('user-typical', { permissions: ['ReadAccountsDetail'] });
  res = await post(ctx, '/v1/ais/accounts', accountsReq);
  t.match(json(res), { code: 'consent_missing' });

  await ctx.authorizedConsent('user-typical', { permissions: ['ReadAccountsDetail'] });
  t.equal((await post(ctx, '/v1/ais/accounts', accountsReq)).statusCode, 200);

  // consent lacks ReadBalances / ReadTransactionsDetail
  res = await post(ctx, '/v1/ais/accounts/balance', { ...accountsReq, accountId });
  t.equal(res.statusCode, 403);
  t.match(json(res), { code: 'consent_permission_missing', message: /ReadBalances/ });
  res = await post(ctx, '/v1/ais/accounts/transactions', { ...accountsReq, accountId });
  t.match(json(res), { code: 'consent_permission_missing', message: /ReadTransactionsDetail/ });

  // token lacks the permission (checked before the consent)
  const accountsOnly = await ctx.bearer('user-typical', ['ais:accounts:read']);
  for (const [url, perm] of [
    ['/v1/ais/accounts/balance', 'ais:balance:read'],
    ['/v1/ais/accounts/transactions', 'ais:transactions:read'],
  ] as const) {
    res = await post(ctx, url, { ...accountsReq, accountId }, accountsOnly);
    t.equal(res.statusCode, 403, url);
    t.match(json(res), { code: 'token_permission_missing', message: new RegExp(perm) }, url);
    t.match(res.headers['www-authenticate'], /insufficient_scope/);
  }
  res = await ctx.app.inject({
    method: 'GET',
    url: `/v1/ais/accounts/${accountId}/transactions?fromDate=2025-01-01&toDate=2025-02-01`,
    headers: accountsOnly,
  });
  t.match(json(res), { code: 'token_permission_missing' });
  res = await post(ctx, '/v1/ais/accounts', accountsReq, await ctx.bearer('user-typical', ['ais:balance:read']));
  t.match(json(res), { code: 'token_permission_missing', message: /ais:accounts:read/ });

  // token of another user / merchant
  res = await post(ctx, '/v1/ais/accounts', accountsReq, await ctx.bearer('someone-else'));
  t.equal(res.statusCode, 403);
  t.match(json(res), { code: 'token_subject_mismatch', field: 'userId' });
  res = await post(ctx, '/v1/ais/accounts', { userId: 'user-typical', merchantId: merchantId + 1 });
  t.match(json(res), { code: 'token_subject_mismatch' });
  void app;
});

t.test('revoked and expired consents stop reads', async (t) => {
  const ctx = await aisApp(t);
  const c = await ctx.authorizedConsent('user-typical', { expirationDateTime: ctx.app.clock.iso(2 * 3600_000) });
  const req = { userId: 'user-typical', merchantId: ctx.merchantId };
  t.equal((await post(ctx, '/v1/ais/accounts', req)).statusCode, 200);
  ctx.app.engine.consent(c.requestId, 'revoke', { cause: TEST_CAUSE });
  let res = await post(ctx, '/v1/ais/accounts', req);
  t.equal(res.statusCode, 403);
  t.match(json(res), { code: 'consent_missing' });

  const d = await ctx.authorizedConsent('user-typical', { expirationDateTime: ctx.app.clock.iso(3600_000) });
  t.equal(json(await post(ctx, '/v1/ais/accounts', req)).consentId, d.consent_id);
  ctx.app.clock.advance(3600_000);
  res = await post(ctx, '/v1/ais/accounts', req);
  t.match(json(res), { code: 'consent_missing' }, 'expired on the virtual clock');
});

t.test('404: unknown account, or an account of another user', async (t) => {
  const ctx = await aisApp(t);
  await ctx.authorizedConsent('user-typical');
  await ctx.authorizedConsent('user-multi-currency');
  const theirs = json(await post(ctx, '/v1/ais/accounts', { userId: 'user-multi-currency', merchantId: ctx.merchantId })).accounts[0]
    .accountId;
  for (const accountId of ['acc_unknown', theirs]) {
    for (const url of ['/v1/ais/accounts/balance', '/v1/ais/accounts/transactions']) {
      const res = await post(ctx, url, { userId: 'user-typical', merchantId: ctx.merchantId, accountId });
      t.equal(res.statusCode, 404, `${url} ${accountId}`);
      t.match(json(res), { code: 'account_not_found' });
    }
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/v1/ais/accounts/${accountId}/transactions?fromDate=2025-01-01&toDate=2026-01-01`,
      headers: await ctx.bearer('user-typical'),
    });
    t.equal(res.statusCode, 404);
  }
});
