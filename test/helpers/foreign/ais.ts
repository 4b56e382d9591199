/**
 * The double's account information (test/helpers/foreign/provider.ts): tokens, consents and a
 * bank user's accounts, balances and transactions, as the provider's document describes them.
 * Tokens are HS256 JWTs signed with jose (obsim signs with another library), valid for an hour of
 * the double's clock; the bank's data is the double's own (other holders, IBANs, balances).
 */
import { createHash } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { fail, type Req, type Res, type Route } from './http.js';
import { BANKS, hex, HOSTED, uuid, type Consent, type World } from './state.js';

const TOKEN_PERMISSION_OF: Record<string, [token: string, consent: string]> = {
  '/v1/ais/accounts': ['ais:accounts:read', 'ReadAccountsDetail'],
  '/v1/ais/accounts/balance': ['ais:balance:read', 'ReadBalances'],
  '/v1/ais/accounts/transactions': ['ais:transactions:read', 'ReadTransactionsDetail'],
};
const isRes = (x: object): x is Res => typeof (x as Res).status === 'number';
const TYPES = ['current', 'savings', 'credit_card'] as const;
const PRODUCTS = { current: 'Lønkonto', savings: 'Opsparing Plus', credit_card: 'Mastercard Guld' };

export interface Account {
  accountId: string;
  userId: string;
  bank: (typeof BANKS)[number];
  holder: string;
  iban: string;
  bban: string;
  balance: string;
  type: (typeof TYPES)[number];
  openedDate: string;
}

/** A number in [0, n) from a string: the double's bank data is fixed per user, and its own. */
const pick = (seed: string, n: number) => createHash('sha256').update(seed).digest().readUInt32BE(0) % n;

/** A bank user's three accounts (any user: the double's bank knows everyone). */
export function accountsOf(userId: string): Account[] {
  return TYPES.map((type, i) => {
    const bank = BANKS[i === 2 ? 1 : 0];
    const bban = String(3000_0000_000000 + pick(`${userId}/${i}/bban`, 9_999_999_999)).padStart(14, '0');
    const minor = pick(`${userId}/${i}/balance`, 5_000_000) * (type === 'credit_card' ? -1 : 1);
    return {
      accountId: `konto-${createHash('sha256').update(`${userId}/${i}`).digest('hex').slice(0, 16)}`,
      userId,
      bank,
      holder: `Holder ${pick(userId, 900) + 100}`,
      iban: `DK${String(10 + pick(`${userId}/${i}/check`, 89))}${bban}`,
      bban,
      balance: (minor / 100).toFixed(2),
      type,
      openedDate: `20${10 + pick(`${userId}/${i}/year`, 14)}-0${1 + pick(`${userId}/${i}/month`, 9)}-1${pick(`${userId}/${i}/day`, 9)}`,
    };
  });
}

/** An account's transactions, newest first: one every eleven hours back from the double's clock. */
function transactionsOf(a: Account, world: World, from: number, to: number) {
  const out = [];
  const step = 11 * 3_600_000;
  const newest = Math.floor(world.now() / step) * step;
  for (let n = 0; n < 400; n++) {
    const at = newest - n * step;
    if (at > to) continue;
    if (at < from) break;
    const debit = pick(`${a.accountId}/${n}/type`, 4) !== 0;
    out.push({
      transactionId: `tx-${a.accountId.slice(6, 14)}-${String(400 - n).padStart(4, '0')}`,
      amount: (pick(`${a.accountId}/${n}/amount`, 250_000) / 100 + 1).toFixed(2),
      currency: a.bank.currency,
      description: debit ? `Kortkøb ${n}` : `Overførsel ${n}`,
      bookingDate: world.iso(at),
      valueDate: world.iso(at),
      counterparty: { name: `Counterparty ${pick(`${a.accountId}/${n}/cp`, 50)}`, iban: `DK${String(5000000000000000 + n)}` },
      reference: `REF-${String(pick(`${a.accountId}/${n}/ref`, 999_999)).padStart(6, '0')}`,
      type: debit ? 'debit' : 'credit',
      status: n === 0 ? 'pending' : 'booked',
    });
  }
  return out;
}

function consentView(c: Consent, world: World) {
  return {
    merchantId: c.merchantId,
    userId: c.userId,
    permissions: c.permissions,
    expirationDateTime: c.expirationDateTime,
    transactionFromDateTime: c.transactionFromDateTime,
    requestId: c.requestId,
    status: c.status,
    createdAt: world.iso(c.createdAt),
    updatedAt: world.iso(c.updatedAt),
    ...(c.status === 'pending' ? { authorizationUrl: `${HOSTED}/consent/approve?ref=${c.reference}` } : {}),
    ...(c.consentId ? { consentId: c.consentId } : {}),
    ...(c.errorMessage ? { errorMessage: c.errorMessage } : {}),
  };
}

/** A consent as of the double's clock: an authorized one past its expiry has expired. */
export function consentNow(c: Consent, world: World): Consent {
  if (c.status === 'authorized' && Date.parse(c.expirationDateTime) <= world.now()) {
    c.status = 'expired';
    c.updatedAt = Date.parse(c.expirationDateTime);
  }
  return c;
}

export function aisRoutes(world: World): Route[] {
  const key = new TextEncoder().encode(world.jwtSecret);
  const body = (req: Req) => (req.body ?? {}) as Record<string, unknown>;
  const bearer = (status: 401 | 403, code: string, message: string, error?: string): Res => {
    const r = fail(status, code, message);
    r.headers = { 'www-authenticate': `Bearer realm="double"${error ? `, error="${error}", error_description="${message}"` : ''}` };
    return r;
  };

  /** The token's claims, or the answer refusing it. */
  async function token(req: Req): Promise<{ sub: string; merchantId: number; permissions: string[] } | Res> {
    const raw = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
    if (!raw) return bearer(401, 'token_missing', 'A bearer token is required');
    try {
      const { payload } = await jwtVerify(raw, key, { currentDate: new Date(world.now()), algorithms: ['HS256'] });
      return {
        sub: String(payload.sub),
        merchantId: Number(payload.mid),
        permissions: payload.scope ? String(payload.scope).split(' ') : [],
      };
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_JWT_EXPIRED')
        return bearer(401, 'token_expired', 'The bearer token has expired', 'invalid_token');
      return bearer(401, 'token_invalid', 'The bearer token is not valid', 'invalid_token');
    }
  }

  /** Token, then an authorized consent granting the read (the order the document's errors suggest). */
  async function authorize(req: Req, userId: unknown, merchantId: unknown, path: string): Promise<Consent | Res> {
    const claims = await token(req);
    if (isRes(claims)) return claims;
    if (claims.sub !== userId)
      return fail(403, 'token_subject_mismatch', 'The token belongs to another user', { field: '/userId', in: 'body' });
    if (claims.merchantId !== merchantId)
      return fail(403, 'token_subject_mismatch', 'The token belongs to another merchant', { field: '/merchantId', in: 'body' });
    const [tokenPermission, consentPermission] = TOKEN_PERMISSION_OF[path];
    if (!claims.permissions.includes(tokenPermission))
      return bearer(403, 'token_permission_missing', `The token does not carry ${tokenPermission}`, 'insufficient_scope');
    const live = [...world.consents.values()]
      .map((c) => consentNow(c, world))
      .filter((c) => c.userId === userId && c.merchantId === merchantId && c.status === 'authorized')
      .sort((a, b) => b.updatedAt - a.updatedAt);
    if (live.length === 0) return fail(403, 'consent_missing', `User ${String(userId)} has no authorized consent for this merchant`);
    const granting = live.find((c) => c.permissions.includes(consentPermission));
    return granting ?? fail(403, 'consent_permission_missing', `No consent grants ${consentPermission}`);
  }

  const account = (userId: string, accountId: unknown, place: 'body' | 'path') =>
    accountsOf(userId).find((a) => a.accountId === accountId) ??
    fail(404, 'account_not_found', `No account ${String(accountId)}`, { field: '/accountId', in: place });

  /** A read of one account named in the body: the token, the consent, the account, then `answer`. */
  async function accountRead(req: Req, answer: (consent: Consent, a: Account, b: Record<string, unknown>) => Res): Promise<Res> {
    const b = body(req);
    const consent = await authorize(req, b.userId, b.merchantId, req.path);
    if (isRes(consent)) return consent;
    const a = account(consent.userId, b.accountId, 'body');
    return isRes(a) ? a : answer(consent, a, b);
  }

  const windowOf = (consent: Consent, from: string | null | undefined, to: string | null | undefined) => ({
    from: Math.max(Date.parse(consent.transactionFromDateTime), from ? Date.parse(from) : -Infinity),
    to: to ? Date.parse(to) : Infinity,
  });

  return [
    {
      method: 'POST',
      pattern: '/v1/auth/generate-token',
      auth: 'none',
      handle: async (req) => {
        const b = body(req);
        if (typeof b.userId !== 'string' || b.userId === '')
          return fail(400, 'validation_failed', 'userId is required', { field: '/userId', in: 'body' });
        if (typeof b.merchantId !== 'number')
          return fail(400, 'validation_failed', 'merchantId is required', { field: '/merchantId', in: 'body' });
        if (!Array.isArray(b.permissions))
          return fail(400, 'validation_failed', 'permissions is required', { field: '/permissions', in: 'body' });
        const now = Math.floor(world.now() / 1000);
        const jwt = await new SignJWT({ mid: b.merchantId, scope: (b.permissions as string[]).join(' ') })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(b.userId)
          .setIssuedAt(now)
          .setExpirationTime(now + 3600)
          .setJti(hex(8))
          .sign(key);
        return { status: 200, json: { token: jwt } };
      },
    },
    {
      method: 'POST',
      pattern: '/v1/ais/consents',
      auth: 'bearer',
      handle: async (req) => {
        const claims = await token(req);
        if (isRes(claims)) return claims;
        const b = body(req);
        for (const f of ['merchantId', 'userId', 'permissions', 'expirationDateTime', 'transactionFromDateTime'])
          if (b[f] === undefined) return fail(400, 'validation_failed', `${f} is required`, { field: `/${f}`, in: 'body' });
        const merchant = world.merchants.get(Number(b.merchantId));
        if (!merchant) return fail(404, 'merchant_not_found', 'Merchant not found', { field: '/merchantId', in: 'body' });
        const now = world.now();
        const c: Consent = {
          requestId: uuid(),
          partner: merchant.partner,
          merchantId: merchant.merchantId,
          userId: String(b.userId),
          permissions: b.permissions as string[],
          expirationDateTime: new Date(String(b.expirationDateTime)).toISOString(),
          transactionFromDateTime: new Date(String(b.transactionFromDateTime)).toISOString(),
          status: 'pending',
          reference: `r${hex(12)}`,
          createdAt: now,
          updatedAt: now,
        };
        world.consents.set(c.requestId, c);
        return { status: 200, json: consentView(c, world) };
      },
    },
    {
      method: 'GET',
      pattern: '/v1/ais/users/:userId/consents',
      auth: 'bearer',
      handle: async (req) => {
        const claims = await token(req);
        if (isRes(claims)) return claims;
        const merchantId = Number(req.query.get('merchantId'));
        const list = [...world.consents.values()]
          .filter((c) => c.userId === req.params.userId && c.merchantId === merchantId)
          .map((c) => consentView(consentNow(c, world), world));
        return { status: 200, json: list };
      },
    },
    {
      method: 'POST',
      pattern: '/v1/ais/accounts',
      auth: 'bearer',
      handle: async (req) => {
        const b = body(req);
        const consent = await authorize(req, b.userId, b.merchantId, req.path);
        if (isRes(consent)) return consent;
        const merchant = world.merchants.get(consent.merchantId)!;
        const accounts = accountsOf(consent.userId).map((a) => ({
          accountId: a.accountId,
          bankId: a.bank.bankId,
          accountHolderName: a.holder,
          iban: a.iban,
          currency: a.bank.currency,
          balance: a.balance,
          accountType: a.type,
          accountDetails: {
            bankName: a.bank.name,
            bic: a.bank.bic,
            bban: a.bban,
            productName: PRODUCTS[a.type],
            ownerType: 'private',
            openedDate: a.openedDate,
          },
        }));
        return {
          status: 200,
          json: {
            userId: consent.userId,
            merchantId: consent.merchantId,
            clientId: merchant.clientId,
            consentId: consent.consentId,
            accounts,
            totalAccounts: accounts.length,
          },
        };
      },
    },
    {
      method: 'POST',
      pattern: '/v1/ais/accounts/balance',
      auth: 'bearer',
      handle: (req) =>
        accountRead(req, (consent, a) => ({
          status: 200,
          json: {
            userId: consent.userId,
            merchantId: consent.merchantId,
            accountId: a.accountId,
            balance: {
              value: a.balance,
              currency: a.bank.currency,
              lastUpdated: world.iso(Math.floor(world.now() / 3_600_000) * 3_600_000),
            },
            accountDetails: { iban: a.iban, accountHolderName: a.holder, bankId: a.bank.bankId },
          },
        })),
    },
    {
      method: 'POST',
      pattern: '/v1/ais/accounts/transactions',
      auth: 'bearer',
      handle: (req) =>
        accountRead(req, (consent, a, b) => {
          const w = windowOf(consent, b.fromDate as string | undefined, b.toDate as string | undefined);
          const all = transactionsOf(a, world, w.from, w.to);
          const pageLimit = typeof b.pageLimit === 'number' ? b.pageLimit : 200;
          return {
            status: 200,
            json: {
              userId: consent.userId,
              merchantId: consent.merchantId,
              accountId: a.accountId,
              totalTransactions: all.length,
              pageLimit,
              transactions: all.slice(0, pageLimit),
            },
          };
        }),
    },
    {
      method: 'GET',
      pattern: '/v1/ais/accounts/:accountId/transactions',
      auth: 'bearer',
      handle: async (req) => {
        const claims = await token(req);
        if (isRes(claims)) return claims;
        if (!claims.permissions.includes('ais:transactions:read'))
          return bearer(403, 'token_permission_missing', 'The token does not carry ais:transactions:read', 'insufficient_scope');
        const consent = await authorize(req, claims.sub, claims.merchantId, '/v1/ais/accounts/transactions');
        if (isRes(consent)) return consent;
        const a = account(consent.userId, req.params.accountId, 'path');
        if (isRes(a)) return a;
        const w = windowOf(consent, req.query.get('fromDate'), req.query.get('toDate'));
        const all = transactionsOf(a, world, w.from, w.to);
        return { status: 200, json: all.slice(0, 200), headers: { 'x-total-count': String(all.length) } };
      },
    },
  ];
}
