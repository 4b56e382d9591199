/**
 * Bad input on every endpoint: property-based fuzzing over the route schemas (see
 * test/helpers/fuzz.ts). Properties, per request:
 *   - never a 5xx;
 *   - every rejection (4xx) is an ErrorBody whose status matches the HTTP status;
 *   - a rejected request changes nothing (digest of every table before/after);
 *   - a certainly-invalid request (required field missing, wrong type, no credentials) is never
 *     accepted, whatever its Content-Type (the Fastify content-type CVE variants).
 *
 * Bounded in `npm test` (OBSIM_FUZZ_RUNS default 40 random cases per route + the fixed
 * content-type / malformed-JSON / oversize cases); `npm run test:long` sets OBSIM_FUZZ_RUNS=1000.
 * Replay: OBSIM_FUZZ_SEED=<seed printed> npx tap --disable-coverage test/reliability/fuzz.test.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import t from 'tap';
import type { FastifyInstance } from 'fastify';
/** The bits of a tap Test used here. */

type Tap = Record<'ok' | 'pass' | 'fail' | 'comment' | 'equal', (...args: any[]) => unknown>;
import type { RouteEntry } from '../../src/app.js';
import { build, PARTNER } from '../helpers/app.js';
import { fixedCases, isProtected, requestArb, sampleFor } from '../helpers/fuzz.js';
import { newFigures, routeSeed, sendAndCheck } from '../helpers/fuzz-check.js';
import type { FuzzContext } from '../helpers/fuzz-values.js';
import { scaled } from '../helpers/speed.js';

const RUNS = Number(process.env.OBSIM_FUZZ_RUNS ?? 40);
const SEED = Number(process.env.OBSIM_FUZZ_SEED ?? 20261121);
const ONLY = process.env.OBSIM_FUZZ_ROUTE; // e.g. "POST /v1/partner/payments"
t.setTimeout(scaled(Math.max(300_000, RUNS * 6_000)));

/** A loopback receiver for any webhook the fuzzer registers. */
async function sink(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

function tryAll<T>(app: FastifyInstance, sql: string): T[] {
  try {
    return app.db.prepare(sql).pluck().all() as T[];
  } catch {
    return [];
  }
}

function has(app: FastifyInstance, method: string, url: string): boolean {
  return app.routeTable.some((r) => r.method === method && r.url === url);
}

/** Create a few of everything that exists, so valid requests reach real rows. */
async function fixtures(app: FastifyInstance, hookUrl: string): Promise<{ bearer: Record<string, string> }> {
  const post = (url: string, payload: unknown) => app.inject({ method: 'POST', url, headers: PARTNER, payload: payload as object });
  if (has(app, 'POST', '/v1/partner/merchants/test')) await post('/v1/partner/merchants/test', { companyName: 'Fuzz Test ApS' });
  await post('/v1/partner/merchants', { companyName: 'Fuzz Std ApS', contactEmail: 'fuzz@example.test' });
  if (has(app, 'POST', '/v1/partner/webhooks')) {
    await post('/v1/partner/webhooks', {
      url: hookUrl,
      events: ['payment.completed', 'payment.failed', 'merchant.activated', 'merchant.deactivated', 'merchant.onboarding.completed'],
    });
  }
  const activated = tryAll<string>(app, "SELECT client_id FROM merchants WHERE partner_id = 'sandbox-partner' AND status = 'activated'");
  if (has(app, 'POST', '/v1/partner/payments') && activated[0]) {
    await post('/v1/partner/payments', { merchantClientId: activated[0], amount: 100.5, referenceNumber: 'fuzz-1' });
  }
  let bearer: Record<string, string> = {};
  const merchantId = tryAll<number>(
    app,
    "SELECT id FROM merchants WHERE partner_id = 'sandbox-partner' AND status = 'activated' ORDER BY id",
  )[0];
  if (has(app, 'POST', '/v1/auth/generate-token') && merchantId) {
    const res = await post('/v1/auth/generate-token', {
      userId: 'fuzz-user',
      merchantId,
      permissions: ['ais:accounts:read', 'ais:balance:read', 'ais:transactions:read'],
    });
    if (res.statusCode === 200) bearer = { authorization: `Bearer ${(JSON.parse(res.body) as { token: string }).token}` };
  }
  return { bearer };
}

function context(app: FastifyInstance, hookUrl: string, bearer: Record<string, string>): FuzzContext {
  const pick = <T>(sql: string, fallback: fc.Arbitrary<T>, more: T[] = []): fc.Arbitrary<T> => {
    const known = [...tryAll<T>(app, sql), ...more];
    return known.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: fallback }) : fallback;
  };
  const mine = "partner_id = 'sandbox-partner'";
  return {
    hints: {
      merchantId: fc.oneof(
        {
          weight: 2,
          arbitrary: pick(
            `SELECT id FROM merchants WHERE ${mine} AND status = 'activated' ORDER BY id LIMIT 1`,
            fc.integer({ min: 1, max: 2_000_000 }),
          ),
        },
        { weight: 2, arbitrary: pick(`SELECT id FROM merchants WHERE ${mine}`, fc.integer({ min: 1, max: 2_000_000 })) },
      ),
      merchantClientId: pick(`SELECT client_id FROM merchants WHERE ${mine} AND status = 'activated'`, fc.uuid()),
      paymentId: pick(`SELECT id FROM payments WHERE ${mine}`, fc.integer({ min: 1, max: 9_000_000 })),
      deliveryId: pick(`SELECT id FROM deliveries WHERE ${mine}`, fc.integer({ min: 1, max: 1000 })),
      webhookId: pick(`SELECT id FROM webhooks WHERE ${mine}`, fc.string({ minLength: 1, maxLength: 20 })),
      id: pick(`SELECT id FROM webhooks WHERE ${mine}`, fc.string({ minLength: 1, maxLength: 20 })),
      requestId: pick(`SELECT request_id FROM consents`, fc.string({ minLength: 1, maxLength: 20 })),
      // hosted pages: /pay/:token, /onboarding/:token, /consent/:token
      // (payment tokens are derived from the id, not stored)
      token: pick(
        `SELECT onboarding_token FROM merchants WHERE onboarding_token IS NOT NULL UNION ALL SELECT auth_token FROM consents`,
        fc.string({ minLength: 1, maxLength: 30 }),
        tryAll<number>(app, 'SELECT id FROM payments').map((id) => app.store.payments.tokenFor(id)),
      ),
      // the bearer token is for fuzz-user at the first activated merchant: mostly aim there
      userId: fc.oneof(
        { weight: 4, arbitrary: fc.constant('fuzz-user') },
        { weight: 1, arbitrary: fc.constantFrom('sandbox-user-1', 'x') },
      ),
      iban: fc.constantFrom('DK5000400440116243', 'DK50 0040 0440 1162 43', 'GB82WEST12345698765432', 'DK5000400440116244'),
      registrationNumber: fc.constantFrom('12345678', '00000000', '99999999', 'DK-123/45'),
      website: fc.constantFrom('https://fast.test', 'http://shop.example.test/path'),
      contactEmail: fc.constantFrom('ops@fuzz.test', 'a@b.test'),
      bic: fc.constantFrom('DABADKKK', 'NDEADKKKXXX'),
      mccCode: fc.constantFrom('5411', '0000'),
      url: fc.constant(hookUrl),
      callbackUrl: fc.constant('https://example.test/callback'),
    },
    auth: (route: RouteEntry) => {
      if (/^\/v1\/ais(\/|$)/.test(route.url)) return { ...bearer };
      return isProtected(route) || route.url.startsWith('/v1/') ? { ...PARTNER } : {};
    },
  };
}

type Figures = ReturnType<typeof newFigures>;

/** Fuzz every route of `app`; failures are reported per route with the seed to replay. */
async function fuzzRoutes(
  t: Tap,
  app: FastifyInstance,
  ctx: FuzzContext,
  runs: number,
  withFixed: boolean,
  only?: (r: RouteEntry) => boolean,
): Promise<{ figures: Figures; routes: number; seconds: number }> {
  const routes = app.routeTable.filter(
    (r) =>
      r.method !== 'HEAD' &&
      r.method !== 'OPTIONS' &&
      !r.url.startsWith('/docs') &&
      // an event stream never ends by itself (test/cli/logs.test.ts reads it with a real client)
      r.url !== '/_sandbox/requests/stream' &&
      (!ONLY || `${r.method} ${r.url}` === ONLY) &&
      (!only || only(r)),
  );
  const figures = newFigures();
  const started = Date.now();
  if (only || ONLY) t.pass(`${routes.length} routes`);
  else t.ok(routes.length > 0, `${routes.length} routes`);
  for (const route of routes) {
    const routeStarted = Date.now();
    const seed = routeSeed(SEED, route);
    const problems: string[] = [];
    const perRoute = newFigures();
    if (withFixed) {
      for (const req of fixedCases(route, ctx, sampleFor(route, ctx, seed))) {
        const { problems: p } = await sendAndCheck(app, route, req, perRoute);
        problems.push(...p);
      }
    }
    await fc.assert(
      fc.asyncProperty(requestArb(route, ctx), async (req) => {
        const { problems: p } = await sendAndCheck(app, route, req, perRoute);
        problems.push(...p);
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
    for (const k of Object.keys(figures) as (keyof Figures)[]) {
      if (k === 'byStatus') for (const [st, n] of Object.entries(perRoute.byStatus)) figures.byStatus[st] = (figures.byStatus[st] ?? 0) + n;
      else figures[k] += perRoute[k];
    }
    if (problems.length) {
      t.fail(
        `${route.method} ${route.url}: ${problems.length} problems (seed ${SEED}, route seed ${seed}; replay: OBSIM_FUZZ_SEED=${SEED} OBSIM_FUZZ_ROUTE="${route.method} ${route.url}")`,
        {
          diagnostic: true,
          problems: [...new Set(problems)].slice(0, 12),
        },
      );
    } else {
      t.pass(`${route.method} ${route.url}: ${perRoute.cases} cases in ${Date.now() - routeStarted} ms`);
    }
  }
  return { figures, routes: routes.length, seconds: (Date.now() - started) / 1000 };
}

function report(t: Tap, what: string, r: { figures: Figures; routes: number; seconds: number }, runs: number) {
  const { figures } = r;
  t.comment(
    `fuzz${what}: ${figures.cases} cases over ${r.routes} routes (${runs} random per route, seed ${SEED}) in ${r.seconds.toFixed(1)} s`,
  );
  t.comment(
    `fuzz${what}: 5xx responses: ${figures.fiveXx}; rejections off-shape: ${figures.offShape}; state changed by rejections: ${figures.stateChanged}; invalid accepted: ${figures.bypass}`,
  );
  t.comment(`fuzz${what}: statuses ${JSON.stringify(figures.byStatus)}`);
  t.equal(figures.fiveXx, 0, '0 responses with 5xx');
  t.equal(figures.offShape, 0, 'every rejection is an ErrorBody');
  t.equal(figures.stateChanged, 0, 'no rejected request changed state');
  t.equal(figures.bypass, 0, 'no certainly-invalid request accepted');
}

t.test('fuzz every route: no 5xx, rejections in ErrorBody, rejected requests change nothing', async (t) => {
  const app = await build(t);
  const hookUrl = await sink(t);
  const { bearer } = await fixtures(app, hookUrl);
  const result = await fuzzRoutes(t, app, context(app, hookUrl, bearer), RUNS, true);
  report(t, '', result, RUNS);
});

t.test('fuzz body routes in --strict mode (unknown properties are a 400)', async (t) => {
  const app = await build(t, { config: { strict: true } });
  const hookUrl = await sink(t);
  const { bearer } = await fixtures(app, hookUrl);
  const runs = Math.max(5, Math.round(RUNS / 4));
  const result = await fuzzRoutes(
    t,
    app,
    context(app, hookUrl, bearer),
    runs,
    false,
    (r) => r.method === 'POST' && r.schema?.body !== undefined,
  );
  report(t, ' (strict)', result, runs);
});
