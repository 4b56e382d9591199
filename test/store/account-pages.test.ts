/**
 * Account-data pages are kept once read (src/store/accounts.ts). A kept page must never be served
 * when what the read depends on has changed: the sandbox's clock (a bank keeps `historyDays`
 * back from it), a bank profile's `ais` (history, page size, pending transactions), the consent
 * in force (its `transactionFromDateTime`), the request's own window and limit, and the sandbox
 * it is read in. The oracle is a twin obsim built without the kept pages: both get the same
 * operations in the same order, and every answer of the one that keeps pages must equal the
 * twin's, byte for byte (body and X-Total-Count).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { build, PARTNER, T0 } from '../helpers/app.js';
import { ALL_CONSENT_PERMISSIONS, ALL_TOKEN_PERMISSIONS, JWT_SECRET } from '../helpers/ais.js';
import { call, sandboxHeaders, testMerchant } from '../helpers/partner.js';
import { scaled } from '../helpers/speed.js';
import { expandPaths, loadScenarioFile, shippedScenariosDir } from '../../src/scenarios/loader.js';
import { runScenario } from '../../src/scenarios/runner.js';
import { injectTransport, type Transport } from '../../src/scenarios/transport.js';

t.setTimeout(scaled(300_000));

type Headers = Record<string, string>;
const USERS = ['user-typical', 'user-1k'] as const;
const BANKS = ['nordlys-bank', 'fjord-sparekasse', 'baltic-credit', 'rhein-direktbank', 'thames-mutual'];
const DAY = 86_400_000;

type Op =
  | { kind: 'read'; sandbox: number; user: number; account: number; pageLimit?: number; fromDays?: number; toDays?: number }
  | { kind: 'window'; sandbox: number; user: number; account: number; fromDays: number; toDays: number }
  | { kind: 'advance'; sandbox: number; hours: number }
  | { kind: 'profile'; sandbox: number; bank: number; historyDays: number; pageSize: number; pendingTransactions: boolean }
  | { kind: 'unprofile'; sandbox: number; bank: number }
  | { kind: 'consent'; sandbox: number; user: number; fromDays: number };

const sandbox = fc.integer({ min: 0, max: 1 });
const user = fc.integer({ min: 0, max: USERS.length - 1 });
const account = fc.integer({ min: 0, max: 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        kind: fc.constant('read' as const),
        sandbox,
        user,
        account,
        // few values, so that reads meet the same page again with one argument changed; short
        // windows too: a page shorter than its limit is where the window's start shows
        pageLimit: fc.constantFrom(1, 5, 20, 500),
        fromDays: fc.constantFrom(0, 10, 60, 400),
        toDays: fc.constantFrom(0, 5, 30),
      },
      { requiredKeys: ['kind', 'sandbox', 'user', 'account'] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('window' as const),
      sandbox,
      user,
      account,
      fromDays: fc.integer({ min: 30, max: 400 }),
      toDays: fc.integer({ min: 0, max: 29 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), sandbox, hours: fc.integer({ min: 1, max: 24 * 40 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('profile' as const),
      sandbox,
      bank: fc.integer({ min: 0, max: BANKS.length - 1 }),
      historyDays: fc.integer({ min: 1, max: 800 }),
      pageSize: fc.integer({ min: 1, max: 60 }),
      pendingTransactions: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('unprofile' as const), sandbox, bank: fc.integer({ min: 0, max: BANKS.length - 1 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('consent' as const),
      sandbox,
      user,
      fromDays: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 1000 })),
    }),
  },
);

interface Sandbox {
  headers: Headers;
  merchantId: number;
}

/** An obsim with two sandboxes (the default one and one created at another instant). */
async function world(
  t: { teardown(fn: () => unknown): void },
  accountPageCache: boolean,
): Promise<{ app: FastifyInstance; sandboxes: Sandbox[] }> {
  const app = await build(t, { accountPageCache, config: { jwtSecret: JWT_SECRET } });
  const created = await call(app, 'POST', '/_sandbox/sandboxes', {
    clock: { start: new Date(Date.parse(T0) + 45 * DAY).toISOString(), frozen: true },
  });
  if (created.status !== 200) throw new Error(`sandbox: ${JSON.stringify(created.body)}`);
  const sandboxes = [];
  for (const headers of [PARTNER, sandboxHeaders(created.body)])
    sandboxes.push({ headers, merchantId: (await testMerchant(app, headers)).merchantId });
  // every user starts with a consent in each sandbox, so that reads find pages from the first one
  for (let s = 0; s < sandboxes.length; s++) {
    for (let u = 0; u < USERS.length; u++) await apply(app, sandboxes, { kind: 'consent', sandbox: s, user: u, fromDays: 1000 });
  }
  return { app, sandboxes };
}

/** One operation on one obsim; the answer of a read (status, X-Total-Count, body), else null. */
async function apply(app: FastifyInstance, sandboxes: Sandbox[], o: Op): Promise<string | null> {
  const { headers, merchantId } = sandboxes[o.sandbox];
  const nowMs = async () => Date.parse((await call(app, 'GET', '/_sandbox/clock', undefined, headers)).body.now as string);
  const bearer = async (userId: string) => {
    const r = await call(app, 'POST', '/v1/auth/generate-token', { userId, merchantId, permissions: ALL_TOKEN_PERMISSIONS }, headers);
    if (r.status !== 200) throw new Error(`token: ${JSON.stringify(r.body)}`);
    return { authorization: `Bearer ${r.body.token as string}` };
  };
  const accountsOf = async (userId: string) => {
    const r = await app.inject({ method: 'POST', url: '/v1/ais/accounts', payload: { userId, merchantId }, headers: await bearer(userId) });
    return r.statusCode === 200 ? (JSON.parse(r.body).accounts as { accountId: string }[]) : [];
  };
  switch (o.kind) {
    case 'advance':
      await call(app, 'POST', '/_sandbox/clock/advance', { ms: o.hours * 3_600_000 }, headers);
      return null;
    case 'profile':
      await call(
        app,
        'PUT',
        `/_sandbox/banks/${BANKS[o.bank]}`,
        {
          ais: { historyDays: o.historyDays, pageSize: o.pageSize, pendingTransactions: o.pendingTransactions },
        },
        headers,
      );
      return null;
    case 'unprofile':
      await call(app, 'DELETE', `/_sandbox/banks/${BANKS[o.bank]}`, undefined, headers);
      return null;
    case 'consent': {
      const userId = USERS[o.user];
      const now = await nowMs();
      const consent = await app.inject({
        method: 'POST',
        url: '/v1/ais/consents',
        headers: await bearer(userId),
        payload: {
          userId,
          merchantId,
          permissions: ALL_CONSENT_PERMISSIONS,
          expirationDateTime: new Date(now + 90 * DAY).toISOString(),
          transactionFromDateTime: new Date(now - o.fromDays * DAY).toISOString(),
        },
      });
      if (consent.statusCode !== 200) throw new Error(`consent: ${consent.body}`);
      const requestId = JSON.parse(consent.body).requestId as string;
      const authorized = await call(app, 'POST', `/_sandbox/consents/${encodeURIComponent(requestId)}/authorize`, undefined, headers);
      if (authorized.status !== 200) throw new Error(`authorize: ${JSON.stringify(authorized.body)}`);
      return null;
    }
    case 'read':
    case 'window': {
      const userId = USERS[o.user];
      const accounts = await accountsOf(userId);
      const accountId = accounts.length > 0 ? accounts[o.account % accounts.length].accountId : 'no-account';
      const now = await nowMs();
      const day = (days: number | undefined) => (days === undefined ? undefined : new Date(now - days * DAY).toISOString().slice(0, 10));
      const res =
        o.kind === 'read'
          ? await app.inject({
              method: 'POST',
              url: '/v1/ais/accounts/transactions',
              headers: await bearer(userId),
              payload: { userId, merchantId, accountId, pageLimit: o.pageLimit, fromDate: day(o.fromDays), toDate: day(o.toDays) },
            })
          : await app.inject({
              method: 'GET',
              url: `/v1/ais/accounts/${accountId}/transactions?fromDate=${day(o.fromDays)}&toDate=${day(o.toDays)}`,
              headers: await bearer(userId),
            });
      // an error names its request, a different id in each obsim
      return `${res.statusCode} ${String(res.headers['x-total-count'])} ${res.body.replace(/"requestId":"req_[0-9a-f]+"/, '')}`;
    }
  }
}

t.test('a kept page is never stale: every answer equals a twin that keeps none', async (t) => {
  let reads = 0;
  let pages = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 30 }), async (ops) => {
      const kept = await world(t, true);
      const fresh = await world(t, false);
      for (const o of ops) {
        const answer = await apply(kept.app, kept.sandboxes, o);
        const expected = await apply(fresh.app, fresh.sandboxes, o);
        if (answer !== expected) {
          throw new Error(`${JSON.stringify(o)}: kept answered\n${answer?.slice(0, 400)}\nthe twin answered\n${expected?.slice(0, 400)}`);
        }
        if (answer !== null) {
          reads++;
          if (answer.startsWith('200 ')) pages++;
        }
      }
      await kept.app.close();
      await fresh.app.close();
    }),
    { seed: 58, numRuns: 40 },
  );
  t.ok(pages > 100, `${reads} reads compared, ${pages} of them pages answered 200`);
});

t.test('a page read again is the same answer, and a different window or limit is not served from it', async (t) => {
  const { app, sandboxes } = await world(t, true);
  const read = (o: Partial<Op>) => apply(app, sandboxes, { kind: 'read', sandbox: 0, user: 1, account: 0, ...o } as Op);
  const first = await read({ pageLimit: 20 });
  t.equal(await read({ pageLimit: 20 }), first);
  const five = await read({ pageLimit: 5 });
  t.not(five, first);
  t.equal(JSON.parse(five!.slice(five!.indexOf('{'))).transactions.length, 5);
  const narrower = await read({ pageLimit: 20, fromDays: 10 });
  t.ok(
    JSON.parse(narrower!.slice(narrower!.indexOf('{'))).totalTransactions < JSON.parse(first!.slice(first!.indexOf('{'))).totalTransactions,
  );
});

t.test('the shipped scenarios that read account data: each answer equals a fresh read of the same request', async (t) => {
  const files = expandPaths([shippedScenariosDir()]).filter((f) => readFileSync(f, 'utf8').includes('/v1/ais/accounts'));
  t.ok(files.length >= 3, `${files.length} shipped scenarios read account data`);
  const app = await build(t);
  const inject = injectTransport(app);
  let pages = 0;
  const differences: string[] = [];
  const transport: Transport = {
    description: inject.description,
    async request(req) {
      const res = await inject.request(req);
      if (req.path.startsWith('/v1/ais/accounts')) {
        // the same read again, twice: once answered from what is kept, once after forgetting it
        const again = await inject.request(req);
        app.store.accounts.forgetKeptPages();
        const fresh = await inject.request(req);
        const shown = (r: typeof res) => `${r.status} ${r.headers['x-total-count']} ${r.text.replace(/"requestId":"req_[0-9a-f]+"/, '')}`;
        if (shown(again) !== shown(fresh) || shown(res) !== shown(fresh)) differences.push(`${req.method} ${req.path}`);
        if (res.status === 200 && req.path.includes('transactions')) pages++;
      }
      return res;
    },
  };
  for (const file of files) t.ok((await runScenario(loadScenarioFile(file), { transport })).passed, file);
  t.ok(pages >= 2, `${pages} transaction pages read`);
  t.same(differences, [], 'no answer differed from a fresh read');
});
