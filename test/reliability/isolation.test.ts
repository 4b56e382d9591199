/**
 * Isolation, as a property: random sequences of operations by two sandbox partners and one
 * production partner (two app instances = the two environments), aimed at their own AND each
 * other's ids. After every operation:
 *   - an operation on an id the caller does not own (other partner, other environment) is never
 *     a 2xx;
 *   - no other partner's rows changed (digest of every partner-owned table, per partner);
 *   - nothing of another partner appears in the answer (their client ids, webhook ids, tokens);
 *   - list endpoints (merchants, deliveries) show only the caller's rows;
 *   - every delivery row belongs to the partner of its webhook and of its event;
 *   - a token of one environment is rejected (401) by the other;
 *   - faults (docs/chaos.md): the production partner's sandbox has a fault profile (errors
 *     instead of and after the work, webhooks duplicated and dropped); no request or delivery of
 *     the other sandbox is ever given one.
 *   - bank profiles (docs/banks.md): a created sandbox C in the same app as A and B has three; its
 *     payers pay at its banks (and A's and B's at the same banks): its changes name bank rules,
 *     none of A's or B's ever does, and A and B see no profile.
 *   - contract versions (docs/contract-versions.md): C is pinned to the example version, A and B
 *     are not: every provider answer names its own sandbox's version, and a payment answered to C
 *     has the version's fields (paymentReference, no merchantName), one answered to A or B the base's.
 * OBSIM_ISOLATION_RUNS (default 20 sequences of 20 operations; 200 in test:long).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { build, OTHER_PARTNER, PARTNER } from '../helpers/app.js';
import { ACTORS, C, OPS, PAYER_BANKS, PROD, storedFaults, tableDigest, type Env, type Owned } from '../helpers/isolation.js';
import { C_VERSION, versionViolations } from '../helpers/isolation-versions.js';
import { scaled } from '../helpers/speed.js';

const RUNS = Number(process.env.OBSIM_ISOLATION_RUNS ?? 20);
const SEED = Number(process.env.OBSIM_ISOLATION_SEED ?? 4242);
t.setTimeout(scaled(Math.max(180_000, RUNS * 5_000)));

t.test('random operation sequences by two partners in two environments never cross', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-iso-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const partnersFile = join(dir, 'partners.json');
  writeFileSync(partnersFile, JSON.stringify([{ clientId: 'other-partner', clientSecret: 'other-secret', name: 'Other' }]));

  // each delivery is checked when it arrives (a later /_sandbox/reset may delete its event): the
  // event must exist in the environment named in the path and belong to the partner named there
  const received: { path: string; id: string; owner: string | undefined }[] = [];
  const rx = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      const id = String(req.headers['x-webhook-id']);
      const env = path.split('/')[1];
      const app = env === 'sandbox' || env === 'production' ? apps[env] : undefined;
      const owner = app?.db.prepare('SELECT partner_id FROM events WHERE id = ?').pluck().get(id) as string | undefined;
      received.push({ path, id, owner });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => rx.close(() => r())));
  const rxBase = `http://127.0.0.1:${(rx.address() as AddressInfo).port}`;

  const apps: Record<Env, FastifyInstance> = {
    sandbox: await build(t, {
      config: { partnersFile, jwtSecret: 'isolation-sandbox-secret-0123456789abcdef', contracts: 'examples/contracts' },
    }),
    production: await build(t, {
      config: {
        environment: 'production',
        partnerClientId: PROD['x-partner-client-id'],
        partnerClientSecret: PROD['x-partner-client-secret'],
        jwtSecret: 'isolation-production-secret-0123456789abc',
      },
    }),
  };

  // faults in the production partner's sandbox only; an injected 5xx is not a violation
  const chaos = await apps.production.inject({
    method: 'PUT',
    url: '/_sandbox/faults',
    headers: PROD,
    payload: {
      seed: 99,
      rules: [
        { kind: 'error', rate: 0.2, status: 429 },
        { kind: 'error', rate: 0.2, status: 503, when: 'after' },
        { kind: 'webhook_duplicate', rate: 0.5 },
        { kind: 'webhook_drop', rate: 0.2 },
      ],
    },
  });
  t.equal(chaos.statusCode, 200, 'the production sandbox has a fault profile');
  // bank profiles (docs/banks.md) in sandbox C only, made in the same app as A's and B's
  const made = await apps.sandbox.inject({
    method: 'POST',
    url: '/_sandbox/sandboxes',
    payload: {
      name: 'with-bank-profiles',
      contractVersion: C_VERSION,
      banks: {
        'nordlys-bank': { profile: 'degraded', failureRate: 0.5, seed: 7 },
        'fjord-sparekasse': { profile: 'slow-app-approval' },
        'thames-mutual': { profile: 'weekend-settlement' },
      },
    },
  });
  t.equal(made.statusCode, 200, 'sandbox C has three bank profiles');
  const credentials = made.json<{ credentials: { clientId: string; clientSecret: string } }>().credentials;
  C.partner = credentials.clientId;
  C.headers = { 'x-partner-client-id': credentials.clientId, 'x-partner-client-secret': credentials.clientSecret };
  const injected = (body: string) => body.includes("injected by the sandbox's fault profile");

  /** Everything that exists, with its owner. */
  const pool = (kind: 'merchants' | 'payments' | 'webhooks' | 'deliveries', col = 'id'): Owned[] =>
    (['sandbox', 'production'] as Env[]).flatMap((env) => {
      try {
        return (
          apps[env].db.prepare(`SELECT ${col} AS id, partner_id AS partner FROM ${kind}`).all() as { id: unknown; partner: string }[]
        ).map((r) => ({ env, partner: r.partner, id: String(r.id) }));
      } catch {
        return [];
      }
    });
  const tokens: (Owned & { merchantId: number; userId: string })[] = [];

  const stats = { ops: 0, foreign: 0, foreignRejected: 0 };
  const violations: string[] = [];

  const opArb = fc.record({ actor: fc.constantFrom(...ACTORS), op: fc.constantFrom(...OPS), pick: fc.nat(), n: fc.nat(1000) });

  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 20 }), async (ops) => {
      for (const { actor, op, pick, n } of ops) {
        const app = apps[actor.env];
        const mine = (o: Owned) => o.env === actor.env && o.partner === actor.partner;
        /** Pick an id from everything (own or foreign); foreign unless an own row has the same id. */
        const target = (items: Owned[]): { id: string; foreign: boolean } | undefined => {
          if (!items.length) return undefined;
          const item = items[pick % items.length];
          return { id: item.id, foreign: !items.some((o) => mine(o) && o.id === item.id) };
        };
        let req:
          | { method: 'GET' | 'POST'; url: string; payload?: unknown; headers?: Record<string, string>; form?: Record<string, string> }
          | undefined;
        let foreign = false;
        const h = actor.headers;
        switch (op) {
          case 'testMerchant':
            req = { method: 'POST', url: '/v1/partner/merchants/test', payload: { companyName: `T ${actor.name} ${n}` } };
            break;
          case 'standardMerchant':
            req = {
              method: 'POST',
              url: '/v1/partner/merchants',
              payload: { companyName: `S ${actor.name} ${n}`, contactEmail: `s${n}@x.test` },
            };
            break;
          case 'payment': {
            const m = target(pool('merchants', 'client_id'));
            if (!m) break;
            foreign = m.foreign;
            req = {
              method: 'POST',
              url: '/v1/partner/payments',
              payload: { merchantClientId: m.id, amount: 1 + (n % 500), referenceNumber: `ref-${n}` },
            };
            break;
          }
          case 'payAtBank': {
            // the payer of one of the caller's own payments approves it on the hosted page, at a bank
            const own = pool('payments').filter(mine);
            if (!own.length) break;
            const token = app.store.payments.tokenFor(Number(own[pick % own.length].id));
            req = { method: 'POST', url: `/pay/${token}`, form: { decision: 'approve', bankId: PAYER_BANKS[n % PAYER_BANKS.length] } };
            break;
          }
          case 'paymentStatus':
          case 'completePayment': {
            const p = target(pool('payments'));
            if (!p) break;
            foreign = p.foreign;
            req =
              op === 'paymentStatus'
                ? { method: 'GET', url: `/v1/partner/payments/${p.id}/status` }
                : { method: 'POST', url: `/_sandbox/payments/${p.id}/complete` };
            break;
          }
          case 'onboardingStatus':
          case 'resend':
          case 'store':
          case 'deactivate': {
            const m = target(pool('merchants'));
            if (!m) break;
            foreign = m.foreign;
            req =
              op === 'onboardingStatus'
                ? { method: 'GET', url: `/v1/partner/merchants/${m.id}/onboarding-status` }
                : op === 'resend'
                  ? { method: 'POST', url: `/v1/partner/merchants/${m.id}/resend-onboarding` }
                  : op === 'store'
                    ? { method: 'POST', url: `/v1/partner/merchants/${m.id}/stores`, payload: { name: `Store ${n}` } }
                    : { method: 'POST', url: `/_sandbox/merchants/${m.id}/deactivate` };
            break;
          }
          case 'webhook':
            req = {
              method: 'POST',
              url: '/v1/partner/webhooks',
              payload: {
                url: `${rxBase}/${actor.env}/${actor.partner}`,
                events: ['payment.completed', 'payment.failed', 'merchant.activated', 'merchant.deactivated'],
              },
            };
            break;
          case 'testWebhook': {
            const w = target(pool('webhooks'));
            if (!w) break;
            foreign = w.foreign;
            req = { method: 'POST', url: `/v1/partner/webhooks/${w.id}/test` };
            break;
          }
          case 'redeliver': {
            const d = target(pool('deliveries'));
            if (!d) break;
            foreign = d.foreign;
            req = { method: 'POST', url: `/_sandbox/deliveries/${d.id}/redeliver` };
            break;
          }
          case 'list':
            req = { method: 'GET', url: '/v1/partner/merchants?page=1&limit=100' };
            break;
          case 'deliveries':
            req = { method: 'GET', url: '/_sandbox/deliveries?limit=100' };
            break;
          case 'token': {
            const m = target(pool('merchants'));
            if (!m) break;
            foreign = m.foreign;
            req = {
              method: 'POST',
              url: '/v1/auth/generate-token',
              payload: { userId: `user-${n % 3}`, merchantId: Number(m.id), permissions: ['ais:accounts:read'] },
            };
            break;
          }
          case 'ais': {
            if (!tokens.length) break;
            const tok = tokens[pick % tokens.length];
            foreign = tok.env !== actor.env;
            req = {
              method: 'POST',
              url: '/v1/ais/accounts',
              payload: { userId: tok.userId, merchantId: tok.merchantId },
              headers: { authorization: `Bearer ${tok.id}` },
            };
            break;
          }
          case 'reset':
            if (n % 10 !== 0) break; // rarely
            req = { method: 'POST', url: '/_sandbox/reset' };
            break;
        }
        if (op === 'otherEnvironment') {
          // the caller's credentials on the other environment's instance: 401, nothing else
          const other = apps[actor.env === 'sandbox' ? 'production' : 'sandbox'];
          const res = await other.inject({ method: 'GET', url: '/v1/partner/merchants?page=1&limit=5', headers: h });
          stats.ops++;
          stats.foreign++;
          if (res.statusCode !== 401)
            violations.push(`${actor.name}(${actor.env}) credentials on the other environment: ${res.statusCode}`);
          else stats.foreignRejected++;
          continue;
        }
        if (!req) continue;

        const others = ACTORS.filter((a) => a !== actor).map((a) => ({ a, before: tableDigest(apps[a.env], a.partner) }));
        const foreignStrings = [...pool('merchants', 'client_id'), ...pool('webhooks')]
          .filter((o) => !mine(o) && o.id.length > 12)
          .map((o) => o.id);
        const res = req.form
          ? await app.inject({
              method: req.method,
              url: req.url,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: new URLSearchParams(req.form).toString(),
            })
          : await app.inject({ method: req.method, url: req.url, headers: req.headers ?? h, payload: req.payload as object });
        await app.webhooks.drain();
        stats.ops++;
        const where = `${actor.name}(${actor.env}) ${op} ${req.method} ${req.url}`;
        if (res.statusCode >= 500 && !injected(res.body)) violations.push(`${res.statusCode} for ${where}: ${res.body.slice(0, 200)}`);
        if (foreign) {
          stats.foreign++;
          if (res.statusCode >= 200 && res.statusCode < 300)
            violations.push(`foreign id accepted (${res.statusCode}): ${where}: ${res.body.slice(0, 200)}`);
          else stats.foreignRejected++;
        }
        for (const { a, before } of others) {
          if (tableDigest(apps[a.env], a.partner) !== before) violations.push(`${where} changed ${a.name}(${a.env})'s data`);
        }
        // (an id the caller sent may be echoed in the error message: that is not a leak)
        const sent = `${req.url} ${JSON.stringify(req.payload ?? '')}`;
        const leaked = foreignStrings.filter((s) => res.body.includes(s) && !sent.includes(s));
        if (leaked.length) violations.push(`${where} answered another partner's ids: ${leaked.slice(0, 3).join(', ')}`);
        // the partner API answers by the caller's sandbox (an AIS call by its token's merchant's, a token by nobody's)
        if (actor.env === 'sandbox' && req.url.startsWith('/v1/partner/'))
          violations.push(...versionViolations(actor === C, op, where, res));
        if (res.statusCode === 200 && op === 'list') {
          const items = (JSON.parse(res.body).merchants ?? JSON.parse(res.body).items ?? []) as { merchantId: number }[];
          const own = new Set(
            pool('merchants')
              .filter(mine)
              .map((o) => o.id),
          );
          for (const item of items) if (!own.has(String(item.merchantId))) violations.push(`${where} listed merchant ${item.merchantId}`);
        }
        if (res.statusCode === 200 && op === 'deliveries') {
          const own = new Set(
            pool('webhooks')
              .filter(mine)
              .map((o) => o.id),
          );
          for (const item of JSON.parse(res.body).items as { webhookId: string }[])
            if (!own.has(item.webhookId)) violations.push(`${where} listed a delivery of ${item.webhookId}`);
        }
        if (res.statusCode === 200 && op === 'token') {
          const p = req.payload as { userId: string; merchantId: number };
          tokens.push({
            env: actor.env,
            partner: actor.partner,
            id: JSON.parse(res.body).token,
            merchantId: p.merchantId,
            userId: p.userId,
          });
        }
      }
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );

  // deliveries: delivery, webhook and event always of the same partner; the receiver got only own events
  for (const env of ['sandbox', 'production'] as Env[]) {
    const crossed = apps[env].db
      .prepare(
        'SELECT count(*) FROM deliveries d JOIN events e ON e.id = d.event_id LEFT JOIN webhooks w ON w.id = d.webhook_id WHERE d.partner_id != e.partner_id OR (w.id IS NOT NULL AND w.partner_id != d.partner_id)',
      )
      .pluck()
      .get();
    t.equal(crossed, 0, `${env}: every delivery belongs to the partner of its webhook and event`);
  }
  // an event unknown to the environment named in the path (it came from the other environment,
  // or was never recorded) is misrouted just as one of another partner is
  const misrouted = received.filter((r) => r.owner === undefined || r.owner !== r.path.split('/')[2]);
  for (const r of misrouted)
    violations.push(
      `webhook ${r.id} reached ${r.path} but is ${r.owner === undefined ? 'not an event of that environment' : `an event of ${r.owner}`}`,
    );
  t.same(
    misrouted.slice(0, 10),
    [],
    `every one of ${received.length} received webhooks is an event of the environment and partner its receiver path names`,
  );
  t.ok(received.length > 0, 'the sequences produced deliveries to check');
  // faults: only where the profile is
  const faultsIn = (env: Env) => ({
    requests: storedFaults(apps[env]),
    deliveries: apps[env].db.prepare('SELECT count(*) FROM deliveries WHERE fault IS NOT NULL').pluck().get() as number,
  });
  t.same(faultsIn('sandbox'), { requests: 0, deliveries: 0 }, 'no request or delivery of the sandbox without a profile was given a fault');
  for (const actor of [PARTNER, OTHER_PARTNER]) {
    const banks = await apps.sandbox.inject({ method: 'GET', url: '/_sandbox/banks', headers: actor });
    t.ok(
      banks.json<{ items: { profile: unknown }[] }>().items.every((b) => b.profile === null),
      `${actor['x-partner-client-id']} sees no bank profile: the other sandbox's are its own`,
    );
  }
  // C's payers pay once more at each profiled bank, so that its rules have surely fired
  const cMerchant = await apps.sandbox.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test',
    headers: C.headers,
    payload: { companyName: 'C ApS' },
  });
  for (const bankId of PAYER_BANKS.slice(0, 3)) {
    const p = await apps.sandbox.inject({
      method: 'POST',
      url: '/v1/partner/payments',
      headers: C.headers,
      payload: { merchantClientId: cMerchant.json<{ clientId: string }>().clientId, amount: 10, referenceNumber: `c-${bankId}` },
    });
    const token = apps.sandbox.store.payments.tokenFor(p.json<{ paymentId: number }>().paymentId);
    await apps.sandbox.inject({
      method: 'POST',
      url: `/pay/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ decision: 'approve', bankId }).toString(),
    });
  }
  const rulesOf = (partner: string) =>
    apps.sandbox.db
      .prepare('SELECT DISTINCT bank_rule FROM transitions WHERE bank_rule IS NOT NULL AND partner_id = ?')
      .pluck()
      .all(partner);
  t.ok(rulesOf(C.partner).length > 0, `rules fired in sandbox C: ${rulesOf(C.partner).join(', ')}`);
  t.same(
    [...rulesOf('sandbox-partner'), ...rulesOf('other-partner')],
    [],
    'none in the default sandbox, in the same app, at the same banks',
  );
  const inProduction = faultsIn('production');
  t.ok(inProduction.requests + inProduction.deliveries > 0, `the profile did inject (${JSON.stringify(inProduction)})`);
  t.comment(
    `isolation: ${RUNS} sequences, ${stats.ops} operations (seed ${SEED}); ${stats.foreign} aimed at another partner's or environment's ids, ${stats.foreignRejected} rejected; violations ${violations.length}`,
  );
  t.same([...new Set(violations)].slice(0, 20), [], 'no isolation violation');
});
