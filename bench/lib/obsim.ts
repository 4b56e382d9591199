/**
 * Fixture setup on a running obsim through its public API only (what a CI job would do):
 * an activated test merchant, AIS tokens and authorized consents for the 100,000-transaction
 * user and for a small account, and a webhook subscription when asked.
 *
 * A step whose endpoint is missing (an area not built yet) is recorded in `missing` and the
 * cases that need it are skipped, so the harness works while the product grows.
 */
import { ok } from './http.js';

export const PARTNER_HEADERS = { 'x-partner-client-id': 'sandbox-partner', 'x-partner-client-secret': 'sandbox-secret' };
/** POST payments from the fixture's merchant at 50 connections, each with a reference of its own (a load of the journal benches). */
export const paymentLoad = (url: string, merchantClientId: string, amount: number) => ({
  url,
  method: 'POST' as const,
  path: '/v1/partner/payments',
  headers: { ...PARTNER_HEADERS, 'content-type': 'application/json' },
  body: JSON.stringify({ merchantClientId, amount, referenceNumber: 'bench-{{n}}' }),
  unique: true,
  connections: 50,
});
export const AIS_PERMISSIONS = ['ais:accounts:read', 'ais:balance:read', 'ais:transactions:read'];
export const CONSENT_PERMISSIONS = ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail'];
export const LARGE_USER = 'user-100k';
/** Candidates for the small account of the "cost grows with the page, not the account" check. */
export const SMALL_USERS = ['user-1k', 'user-typical'];

export interface AisAccount {
  userId: string;
  merchantId: number;
  accountId: string;
  total: number;
  token: string;
}

export interface ObsimFixture {
  merchantId: number;
  merchantClientId: string;
  /** A payment of the merchant (the payment-status read). */
  paymentId?: number;
  large?: AisAccount;
  small?: AisAccount;
  /** A fresh token request body (token issuance case). */
  tokenRequest?: { userId: string; merchantId: number; permissions: string[] };
  missing: string[];
}

export async function createMerchant(base: string): Promise<{ merchantId: number; clientId: string }> {
  const m = await ok(base, 'POST', '/v1/partner/merchants/test', { companyName: 'Bench Merchant ApS' }, PARTNER_HEADERS);
  return { merchantId: m.merchantId, clientId: m.clientId };
}

async function issueToken(base: string, userId: string, merchantId: number): Promise<string> {
  const body = await ok(base, 'POST', '/v1/auth/generate-token', { userId, merchantId, permissions: AIS_PERMISSIONS }, PARTNER_HEADERS);
  return body.token as string;
}

/** Token + authorized consent + account list for one user; returns its accounts with their sizes. */
export async function aisAccounts(base: string, userId: string, merchantId: number): Promise<AisAccount[]> {
  const token = await issueToken(base, userId, merchantId);
  const bearer = { authorization: `Bearer ${token}` };
  const now = Date.now();
  const consent = await ok(
    base,
    'POST',
    '/v1/ais/consents',
    {
      merchantId,
      userId,
      permissions: CONSENT_PERMISSIONS,
      expirationDateTime: new Date(now + 90 * 86_400_000).toISOString(),
      transactionFromDateTime: new Date(now - 3 * 365 * 86_400_000).toISOString(),
    },
    bearer,
  );
  await ok(base, 'POST', `/_sandbox/consents/${encodeURIComponent(consent.requestId)}/authorize`, undefined, PARTNER_HEADERS);
  const list = await ok(base, 'POST', '/v1/ais/accounts', { userId, merchantId }, bearer);
  const out: AisAccount[] = [];
  for (const a of list.accounts as { accountId: string }[]) {
    const page = await ok(
      base,
      'POST',
      '/v1/ais/accounts/transactions',
      { userId, merchantId, accountId: a.accountId, pageLimit: 1 },
      bearer,
    );
    out.push({ userId, merchantId, accountId: a.accountId, total: page.totalTransactions, token });
  }
  return out;
}

export async function setupObsim(base: string): Promise<ObsimFixture> {
  const missing: string[] = [];
  const { merchantId, clientId } = await createMerchant(base);
  const fx: ObsimFixture = { merchantId, merchantClientId: clientId, missing };
  const payment = await ok(
    base,
    'POST',
    '/v1/partner/payments',
    { merchantClientId: clientId, amount: 125.5, referenceNumber: 'bench-status' },
    PARTNER_HEADERS,
  );
  fx.paymentId = payment.paymentId as number;
  try {
    const accounts = await aisAccounts(base, LARGE_USER, merchantId);
    fx.large = accounts.sort((a, b) => b.total - a.total)[0];
    fx.tokenRequest = { userId: LARGE_USER, merchantId, permissions: AIS_PERMISSIONS };
  } catch (err) {
    missing.push(`AIS large user (${(err as Error).message})`);
  }
  for (const userId of SMALL_USERS) {
    if (fx.small || !fx.large) break;
    try {
      const accounts = await aisAccounts(base, userId, merchantId);
      // the account closest to 1,000 transactions
      fx.small = accounts.filter((a) => a.total > 0).sort((a, b) => Math.abs(a.total - 1000) - Math.abs(b.total - 1000))[0];
    } catch (err) {
      if (userId === SMALL_USERS[SMALL_USERS.length - 1]) missing.push(`AIS small account (${(err as Error).message})`);
    }
  }
  return fx;
}

/** Register a webhook for the payment events; returns its secret. */
export async function registerWebhook(base: string, url: string): Promise<{ id: string; secret: string }> {
  const hook = await ok(base, 'POST', '/v1/partner/webhooks', { url, events: ['payment.completed', 'payment.failed'] }, PARTNER_HEADERS);
  return { id: hook.id, secret: hook.secret };
}
