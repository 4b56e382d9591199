/**
 * Isolation as a property, sharded (the cluster mode of test/reliability/isolation.test.ts):
 * random sequences of operations by three sandboxes — two on one shard, one on another — sent
 * through HAProxy, each aimed at its own and the others' ids (merchants, payments, webhooks,
 * hosted-page tokens, AIS tokens). Numeric ids repeat across shards (every shard counts from the
 * same start), so an id counts as foreign only when the caller owns no equal one. After every
 * operation:
 *   - an operation on a foreign id is never a 2xx (and a hosted page never shows it);
 *   - the answer holds nothing of another sandbox (its client id, secret, webhook ids or tokens);
 *   - a webhook delivery reaches only the receiver path of the sandbox that owns it.
 * OBSIM_ISOLATION_RUNS (default 8 sequences of 15 operations here; 200 in test:long).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import t from 'tap';
import { inCI } from '../helpers/browser.js';
import { haproxyMissing, routerCall, startTestCluster } from '../helpers/cluster.js';
import { scaled } from '../helpers/speed.js';

const RUNS = Math.max(1, Math.round(Number(process.env.OBSIM_ISOLATION_RUNS ?? 20) / 2.5));
const SEED = Number(process.env.OBSIM_ISOLATION_SEED ?? 4242);
t.setTimeout(scaled(Math.max(180_000, RUNS * 10_000)));

interface Actor {
  name: string;
  shard: string;
  headers: Record<string, string>;
  merchants: { id: number; clientId: string }[];
  payments: { id: number; token: string }[];
  webhooks: string[];
  tokens: { token: string; merchantId: number }[];
}

const OPS = [
  'testMerchant',
  'payment',
  'paymentStatus',
  'onboardingStatus',
  'complete',
  'webhook',
  'testWebhook',
  'page',
  'token',
  'ais',
] as const;

const missing = haproxyMissing();
t.test('random operations by sandboxes on two shards never cross', { skip: missing && !inCI() ? missing : false }, async (t) => {
  const cluster = await startTestCluster(t, { OBSIM_CLOCK_FROZEN: 'true' }, 2);
  const base = cluster.url;
  const call = routerCall(base);

  // deliveries: each arrives at /hook/<actor name>; its event id must be one of that actor's events
  const received: { path: string; body: string }[] = [];
  const rx = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => rx.close(() => r())));
  const rxBase = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/hook`;

  // A and B on one shard, C on the other
  const created: { shard: string; json: any }[] = [];
  const chosen = () => {
    const shards = [...new Set(created.map((c) => c.shard))];
    const two = shards.find((sh) => created.filter((c) => c.shard === sh).length >= 2);
    const one = shards.find((sh) => sh !== two);
    return two && one ? [...created.filter((c) => c.shard === two).slice(0, 2), created.find((c) => c.shard === one)!] : undefined;
  };
  for (let i = 0; i < 40 && !chosen(); i++) {
    const s = await call('POST', '/_sandbox/sandboxes', {}, {});
    created.push({ shard: s.json.shard as string, json: s.json });
  }
  const actors: Actor[] = chosen()!.map(({ shard, json }, i) => ({
    name: ['A', 'B', 'C'][i],
    shard,
    headers: { 'x-partner-client-id': json.credentials.clientId, 'x-partner-client-secret': json.credentials.clientSecret },
    // a created sandbox comes with an activated merchant of its own
    merchants: [{ id: json.defaultMerchant.merchantId, clientId: json.defaultMerchant.clientId }],
    payments: [],
    webhooks: [],
    tokens: [],
  }));
  t.equal(new Set(actors.map((a) => a.shard)).size, 2, 'the sandboxes span both shards');

  const secretsOf = (a: Actor) => [
    a.headers['x-partner-client-id'],
    a.headers['x-partner-client-secret'],
    ...a.webhooks,
    ...a.tokens.map((x) => x.token),
  ];
  const violations: string[] = [];
  const stats = { ops: 0, foreign: 0 };

  const opArb = fc.record({ actor: fc.nat(2), victim: fc.nat(2), op: fc.constantFrom(...OPS), pick: fc.nat(), n: fc.nat(1000) });
  const outcome = await fc.check(
    fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 15 }), async (ops) => {
      const found: string[] = [];
      for (const o of ops) {
        const me = actors[o.actor];
        const them = actors[o.victim];
        const pick = <T>(xs: T[]): T | undefined => (xs.length ? xs[o.pick % xs.length] : undefined);
        let foreign = false;
        let r: Awaited<ReturnType<typeof call>> | undefined;
        switch (o.op) {
          case 'testMerchant': {
            r = await call('POST', '/v1/partner/merchants/test', me.headers, { companyName: `${me.name} ${o.n}` });
            if (r.status === 200) me.merchants.push({ id: r.json.merchantId, clientId: r.json.clientId });
            break;
          }
          case 'payment': {
            const m = pick(them.merchants);
            if (!m) break;
            foreign = them !== me;
            r = await call('POST', '/v1/partner/payments', me.headers, {
              merchantClientId: m.clientId,
              amount: 10,
              referenceNumber: `r-${o.n}`,
            });
            if (r.status === 200) me.payments.push({ id: r.json.paymentId, token: new URL(r.json.paymentUrl).pathname });
            break;
          }
          case 'paymentStatus':
          case 'complete': {
            const p = pick(them.payments);
            if (!p) break;
            foreign = them !== me && !me.payments.some((x) => x.id === p.id);
            r =
              o.op === 'paymentStatus'
                ? await call('GET', `/v1/partner/payments/${p.id}/status`, me.headers)
                : await call('POST', `/_sandbox/payments/${p.id}/complete`, me.headers);
            break;
          }
          case 'onboardingStatus': {
            const m = pick(them.merchants);
            if (!m) break;
            foreign = them !== me && !me.merchants.some((x) => x.id === m.id);
            r = await call('GET', `/v1/partner/merchants/${m.id}/onboarding-status`, me.headers);
            break;
          }
          case 'webhook': {
            r = await call('POST', '/v1/partner/webhooks', me.headers, { url: `${rxBase}/${me.name}`, events: ['payment.completed'] });
            if (r.status === 200) me.webhooks.push(r.json.id);
            break;
          }
          case 'testWebhook': {
            const w = pick(them.webhooks);
            if (!w) break;
            foreign = them !== me;
            r = await call('POST', `/v1/partner/webhooks/${w}/test`, me.headers);
            break;
          }
          case 'page': {
            // a hosted page needs no credentials: its token routes it, and only the owner's token shows it
            const p = pick(them.payments);
            if (!p) break;
            const forged = p.token.replace(`pay_${them.shard}_`, `pay_${me.shard}_`);
            foreign = forged !== p.token && !me.payments.some((x) => x.token === forged);
            r = await call('GET', forged, {});
            break;
          }
          case 'token': {
            const m = pick(them.merchants);
            if (!m) break;
            foreign = them !== me && !me.merchants.some((x) => x.id === m.id);
            r = await call('POST', '/v1/auth/generate-token', me.headers, {
              userId: 'user-typical',
              merchantId: m.id,
              permissions: ['ais:accounts:read'],
            });
            if (r.status === 200 && !foreign) me.tokens.push({ token: r.json.token, merchantId: m.id });
            break;
          }
          case 'ais': {
            // a token sent with another merchant id: the token's shard answers, for its own merchant only
            const tok = pick(me.tokens);
            const m = pick(them.merchants);
            if (!tok || !m) break;
            foreign = m.id !== tok.merchantId;
            r = await call(
              'POST',
              '/v1/ais/accounts',
              { authorization: `Bearer ${tok.token}` },
              { userId: 'user-typical', merchantId: m.id },
            );
            break;
          }
        }
        if (!r) continue;
        stats.ops++;
        if (foreign) {
          stats.foreign++;
          if (r.status < 300) found.push(`${me.name} ${o.op} on ${them.name}'s id answered ${r.status}`);
        }
        for (const other of actors.filter((a) => a !== me)) {
          // an error may repeat what the caller sent (the id in its path): that is not the other's data
          for (const secret of secretsOf(other).filter((x) => !r.sent.includes(x))) {
            if (r.text.includes(secret)) found.push(`${me.name} ${o.op}: the answer holds ${other.name}'s ${secret.slice(0, 12)}…`);
          }
        }
      }
      violations.push(...found);
      return found.length === 0;
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  t.notOk(outcome.failed, `the property holds (seed ${SEED}): ${violations.slice(0, 5).join('; ')} ${String(outcome.errorInstance ?? '')}`);
  // deliveries (test deliveries and completed payments) only ever reached their owner's path
  for (const d of received) {
    const owner = actors.find((a) => d.path.endsWith(`/${a.name}`));
    if (!owner) violations.push(`a delivery to an unknown path ${d.path}`);
    for (const other of actors.filter((a) => a !== owner)) {
      for (const w of other.webhooks) if (d.body.includes(w)) violations.push(`${other.name}'s webhook ${w} delivered to ${d.path}`);
    }
  }
  t.same(
    violations,
    [],
    `no crossing in ${stats.ops} operations (${stats.foreign} aimed at another sandbox's ids), ${received.length} deliveries`,
  );
  t.ok(stats.foreign > 0, 'some operations were aimed at another sandbox');
});
