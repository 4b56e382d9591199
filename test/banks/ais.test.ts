/**
 * What a bank profile does to account-data reads and consents (docs/banks.md, "Account data"):
 * history kept, page size, pending transactions left out, the longest consent granted. Another
 * bank of the same user, and the same bank in another sandbox, are untouched.
 */
import t from 'tap';
import { json } from '../helpers/app.js';
import { aisApp, type AisContext } from '../helpers/ais.js';
import { call } from '../helpers/partner.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(120_000));

async function accountsOf(ctx: AisContext, userId: string) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/ais/accounts',
    payload: { userId, merchantId: ctx.merchantId },
    headers: await ctx.bearer(userId),
  });
  return json(res).accounts as { accountId: string; bankId: string }[];
}

async function transactions(ctx: AisContext, accountId: string, extra: Record<string, unknown> = {}) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/ais/accounts/transactions',
    payload: { userId: 'user-typical', merchantId: ctx.merchantId, accountId, ...extra },
    headers: await ctx.bearer('user-typical'),
  });
  return json(res);
}

t.test('strict-ais: 90 days of history, 50 an answer, no pending transactions; the GET form alike', async (t) => {
  const ctx = await aisApp(t);
  await ctx.authorizedConsent('user-typical');
  const [account] = await accountsOf(ctx, 'user-typical');
  const before = await transactions(ctx, account.accountId);
  t.ok(
    before.transactions.some((x: { status: string }) => x.status === 'pending'),
    'the account has pending transactions',
  );
  t.ok(before.totalTransactions > 100);

  const r = await call(ctx.app, 'PUT', `/_sandbox/banks/${account.bankId}`, { profile: 'strict-ais' });
  t.equal(r.status, 200);
  const after = await transactions(ctx, account.accountId);
  const oldest = new Date(ctx.app.clock.nowMs() - 90 * 86_400_000).toISOString();
  t.equal(after.pageLimit, 50, 'the limit the bank used');
  t.equal(after.transactions.length, 50);
  t.ok(after.transactions.every((x: { status: string; bookingDate: string }) => x.status === 'booked' && x.bookingDate >= oldest));
  const expected = ctx.app.db
    .prepare("SELECT count(*) FROM ais_transactions WHERE account_id = ? AND booking_date >= ? AND status = 'booked'")
    .pluck()
    .get(account.accountId, oldest);
  t.equal(after.totalTransactions, expected, 'the total counts what the bank returns');
  t.equal((await transactions(ctx, account.accountId, { pageLimit: 10 })).pageLimit, 10, 'a smaller pageLimit is kept');

  const get = await ctx.app.inject({
    method: 'GET',
    url: `/v1/ais/accounts/${account.accountId}/transactions?fromDate=2020-01-01&toDate=2030-01-01`,
    headers: await ctx.bearer('user-typical'),
  });
  t.equal(json(get).length, 50);
  t.equal(get.headers['x-total-count'], String(expected));

  await call(ctx.app, 'DELETE', `/_sandbox/banks/${account.bankId}`);
  t.same(await transactions(ctx, account.accountId), before, 'cleared: byte for byte as before');
});

t.test('consentMaxDays: a longer consent is shortened as it is authorized at the bank, and the transition says why', async (t) => {
  const ctx = await aisApp(t);
  await call(ctx.app, 'PUT', '/_sandbox/banks/nordlys-bank', { ais: { consentMaxDays: 30 } });
  const asked = await ctx.createConsent('user-typical', { expirationDateTime: ctx.app.clock.iso(180 * 86_400_000) });
  const page = await ctx.app.inject({ method: 'GET', url: new URL(asked.authorizationUrl).pathname });
  const res = await ctx.app.inject({
    method: 'POST',
    url: new URL(asked.authorizationUrl).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'action=authorize&bankId=nordlys-bank',
  });
  t.equal(page.statusCode, 200);
  t.equal(res.statusCode, 303);
  const row = ctx.app.store.consents.get(asked.requestId)!;
  t.equal(row.status, 'authorized');
  t.equal(row.expiration_date_time, ctx.app.clock.iso(30 * 86_400_000), '30 days from the authorization');
  const transitions = (await call(ctx.app, 'GET', `/_sandbox/consents/${asked.requestId}/transitions`)).body.items;
  t.same(transitions.at(-1).bank, { bankId: 'nordlys-bank', rule: 'consent_max_days' });

  // a shorter one is granted as asked, and another bank is untouched
  const short = await ctx.createConsent('user-typical', { expirationDateTime: ctx.app.clock.iso(10 * 86_400_000) });
  ctx.app.engine.consent(short.requestId, 'authorize', { bankId: 'nordlys-bank', cause: { kind: 'control', name: 'test' } });
  t.equal(ctx.app.store.consents.get(short.requestId)!.expiration_date_time, ctx.app.clock.iso(10 * 86_400_000));
  const other = await ctx.createConsent('user-typical', { expirationDateTime: ctx.app.clock.iso(180 * 86_400_000) });
  ctx.app.engine.consent(other.requestId, 'authorize', { bankId: 'fjord-sparekasse', cause: { kind: 'control', name: 'test' } });
  t.equal(ctx.app.store.consents.get(other.requestId)!.expiration_date_time, ctx.app.clock.iso(180 * 86_400_000));
});

t.test('a down bank on the consent page: marked, refused with the others offered, nothing changed', async (t) => {
  const ctx = await aisApp(t);
  await call(ctx.app, 'PUT', '/_sandbox/banks/baltic-credit', { profile: 'down' });
  const c = await ctx.createConsent('user-typical');
  const path = new URL(c.authorizationUrl).pathname;
  t.match(
    (await ctx.app.inject({ method: 'GET', url: path })).body,
    /Baltic Credit AB <span class="hint">SE · SEK · unavailable right now/,
  );
  const refused = await ctx.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'action=authorize&bankId=baltic-credit',
  });
  t.equal(refused.statusCode, 400);
  t.match(refused.body, 'Baltic Credit AB is unavailable right now. Choose another bank, or deny the request.');
  t.equal(ctx.app.store.consents.get(c.requestId)!.status, 'pending');
});
