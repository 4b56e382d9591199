/**
 * The authorization matrix of every /v1/ais route, walked in one loop: for each of the six
 * routes, 401 without or with a malformed bearer, 403 token_subject_mismatch for a token of
 * another user and of another merchant, 400 for a malformed request (with a good token), and
 * the same request with the right token answering 200. Every error is the one ErrorBody; a
 * refused consent creation leaves no consent behind.
 *
 * GET /v1/ais/accounts/{accountId}/transactions names no user or merchant: they are the token's,
 * so a token of another user can only reach that user's accounts (404 for someone else's).
 */
import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { at, json, schemaErrors } from '../../helpers/app.js';
import { aisApp, ALL_CONSENT_PERMISSIONS, createMerchant } from '../../helpers/ais.js';
import { scaled } from '../../helpers/speed.js';

// several users, tokens and consents on a shared machine: more than tap's default 30 s
t.setTimeout(scaled(180_000));

const USER = 'user-typical';
const OTHER_USER = 'user-multi-currency';

interface Route {
  name: string;
  method: 'GET' | 'POST';
  /** URL for a request about (userId, merchantId). */
  url(userId: string, merchantId: number): string;
  /** Body for a request about (userId, merchantId). */
  payload?(userId: string, merchantId: number): Record<string, unknown>;
  /** The request made malformed, the field the 400 names. */
  bad: {
    url?(userId: string, merchantId: number): string;
    payload?(userId: string, merchantId: number): Record<string, unknown>;
    field: string;
  };
  /** The route takes user and merchant from the token, not from the request. */
  subjectFromToken?: boolean;
  /** Response schema of the 200. */
  schema: string;
}

function errorOf(t: Test, res: LightMyRequestResponse, status: number, code: string, what: string) {
  t.equal(res.statusCode, status, `${what}: ${status} (${res.body})`);
  const body = json(res);
  t.equal(body.code, code, `${what}: code ${code}`);
  t.same(schemaErrors('ErrorBody', body), [], `${what}: ErrorBody`);
  t.equal(body.requestId, res.headers['x-request-id'], `${what}: requestId is the x-request-id header`);
  return body;
}

t.test('every /v1/ais route: 401, 403 token_subject_mismatch, 400, and 200 with the right token', async (t) => {
  const ctx = await aisApp(t);
  const { app, merchantId } = ctx;
  const otherMerchant = createMerchant(app, 'activated', 'sandbox-partner', 'Other Shop ApS');
  await ctx.authorizedConsent(USER);
  await ctx.authorizedConsent(OTHER_USER);
  const accountsRes = await app.inject({
    method: 'POST',
    url: '/v1/ais/accounts',
    headers: await ctx.bearer(USER),
    payload: { userId: USER, merchantId },
  });
  const accountId: string = json(accountsRes).accounts[0].accountId;
  const window = 'fromDate=2025-01-01&toDate=2026-12-31';

  const consentBody = (userId: string, mId: number) => ({
    userId,
    merchantId: mId,
    permissions: ALL_CONSENT_PERMISSIONS,
    expirationDateTime: app.clock.iso(30 * 86_400_000),
    transactionFromDateTime: '2025-06-01T00:00:00Z',
  });

  const routes: Route[] = [
    {
      name: 'POST /v1/ais/consents',
      method: 'POST',
      url: () => '/v1/ais/consents',
      payload: consentBody,
      bad: { payload: (u, m) => ({ ...consentBody(u, m), permissions: [] }), field: 'permissions' },
      schema: 'Consent',
    },
    {
      name: 'GET /v1/ais/users/{userId}/consents',
      method: 'GET',
      url: (u, m) => `/v1/ais/users/${u}/consents?merchantId=${m}`,
      bad: { url: (u) => `/v1/ais/users/${u}/consents?merchantId=abc`, field: 'merchantId' },
      schema: 'ConsentList',
    },
    {
      name: 'POST /v1/ais/accounts',
      method: 'POST',
      url: () => '/v1/ais/accounts',
      payload: (u, m) => ({ userId: u, merchantId: m }),
      bad: { payload: (u, m) => ({ userId: u, merchantId: String(m) }), field: 'merchantId' },
      schema: 'AccountsResponse',
    },
    {
      name: 'POST /v1/ais/accounts/balance',
      method: 'POST',
      url: () => '/v1/ais/accounts/balance',
      payload: (u, m) => ({ userId: u, merchantId: m, accountId }),
      bad: { payload: (u, m) => ({ userId: u, merchantId: m }), field: 'accountId' },
      schema: 'BalanceResponse',
    },
    {
      name: 'POST /v1/ais/accounts/transactions',
      method: 'POST',
      url: () => '/v1/ais/accounts/transactions',
      payload: (u, m) => ({ userId: u, merchantId: m, accountId, pageLimit: 5 }),
      bad: { payload: (u, m) => ({ userId: u, merchantId: m, accountId, pageLimit: 1001 }), field: 'pageLimit' },
      schema: 'TransactionsResponse',
    },
    {
      name: 'GET /v1/ais/accounts/{accountId}/transactions',
      method: 'GET',
      url: () => `/v1/ais/accounts/${accountId}/transactions?${window}`,
      bad: { url: () => `/v1/ais/accounts/${accountId}/transactions?fromDate=2025-01-01`, field: 'toDate' },
      subjectFromToken: true,
      schema: 'TransactionList',
    },
  ];
  t.equal(
    routes.length,
    app.routeTable.filter((r) => r.url.startsWith('/v1/ais/') && r.method !== 'HEAD').length,
    'the loop covers every /v1/ais route',
  );

  const consentCount = () => Number(app.db.prepare('SELECT count(*) FROM consents').pluck().get());

  for (const route of routes) {
    await t.test(route.name, async (t) => {
      const call = (headers: Record<string, string>, url = route.url(USER, merchantId), payload = route.payload?.(USER, merchantId)) =>
        app.inject({ method: route.method, url, headers, ...(payload ? { payload } : {}) });
      const before = consentCount();

      // 401: no bearer, malformed bearer (each with a challenge)
      for (const [what, headers, code] of [
        ['no Authorization', {}, 'token_missing'],
        ['Bearer without a token', { authorization: 'Bearer ' }, 'token_malformed'],
        ['Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }, 'token_malformed'],
        ['not a JWT', { authorization: 'Bearer not.a-jwt' }, 'token_malformed'],
      ] as [string, Record<string, string>, string][]) {
        const res = await call(headers);
        errorOf(t, res, 401, code, what);
        t.match(res.headers['www-authenticate'], /^Bearer realm="obsim"/, `${what}: WWW-Authenticate`);
      }

      // 403: token for another user, token for another merchant
      const otherUser = await call(await ctx.bearer(OTHER_USER));
      const otherMerchantRes = await call(await ctx.bearer(USER, undefined, otherMerchant));
      if (route.subjectFromToken) {
        // the user is the token's: another user's token reads that user's accounts only
        errorOf(t, otherUser, 404, 'account_not_found', 'token of another user (not their account)');
        errorOf(t, otherMerchantRes, 403, 'consent_missing', 'token for another merchant (no consent there)');
      } else {
        t.equal(errorOf(t, otherUser, 403, 'token_subject_mismatch', 'token of another user').field, '/userId');
        t.equal(errorOf(t, otherMerchantRes, 403, 'token_subject_mismatch', 'token for another merchant').field, '/merchantId');
      }

      // 400: a malformed request with the right token, naming the field
      const good = await ctx.bearer(USER);
      const bad = await call(
        good,
        route.bad.url?.(USER, merchantId) ?? route.url(USER, merchantId),
        route.bad.payload?.(USER, merchantId) ?? route.payload?.(USER, merchantId),
      );
      t.equal(errorOf(t, bad, 400, 'validation_failed', 'malformed request').field, at(route.bad.field));

      t.equal(consentCount(), before, 'nothing created by a refused call');

      // control: the right token answers 200 with the documented body
      const ok = await call(good);
      t.equal(ok.statusCode, 200, `right token: 200 (${ok.body.slice(0, 200)})`);
      t.same(schemaErrors(route.schema, json(ok)), [], `body is a ${route.schema}`);
      if (route.method === 'POST' && route.name === 'POST /v1/ais/consents') {
        t.equal(consentCount(), before + 1, 'the accepted consent is stored');
        t.equal(json(ok).status, 'pending');
      }
    });
  }
});
