/**
 * Every door refuses what its document says it does not take (docs/errors.md): a property test
 * driven by the two served documents alone (test/helpers/document-refusals.ts). For every
 * operation of the provider's document and of obsim's controls, requests made wrong in one place
 * at a time — an unknown property at each depth of the body (and an unknown query parameter on a
 * control), a value of the wrong type, numbers past their bounds and extreme, strings past their
 * length, instants that are no instants, durations that are no durations — must answer:
 *   - 400 in the documented ErrorBody shape, never a 5xx;
 *   - `field` the RFC 6901 pointer to the place made wrong, `in` the part of the request it is in;
 *   - the sandbox's export (its rows, bank and fault profiles, clock, snapshots) unchanged.
 * An unknown body property of the provider's API is dropped, as the provider is taken to
 * (docs/decisions.md): never a 5xx, never refused as unknown.
 *
 * Bounded in `npm test` (OBSIM_REFUSAL_RUNS random values per place, default 2, after one fixed
 * value each); `npm run test:long` sets 20. Replay a seed: OBSIM_REFUSAL_SEED=….
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { build, schemaErrors } from '../helpers/app.js';
import { baseRequest, operationsOf, sitesOf, urlOf, type BaseRequest, type Site } from '../helpers/document-refusals.js';
import { scaled } from '../helpers/speed.js';

const RUNS = Number(process.env.OBSIM_REFUSAL_RUNS ?? 2);
const SEED = Number(process.env.OBSIM_REFUSAL_SEED ?? 20261129);
t.setTimeout(scaled(Math.max(120_000, RUNS * 60_000)));

/** The sandbox as an export would carry it: its rows, its bank and fault profiles, its clock, the snapshots and sandboxes there are. */
function exportOf(app: FastifyInstance, sandboxId: string): string {
  return JSON.stringify({
    rows: app.store.snapshots.capture(sandboxId),
    banks: [...app.engine.banks.list(sandboxId)].map(([bankId, b]) => [bankId, b.profile, b.setAt]),
    faults: app.chaos.get(sandboxId) ?? null,
    clock: app.engine.world(sandboxId).clock.state(),
    snapshots: app.store.snapshots.listOf(sandboxId).map((s) => s.name),
    sandboxes: app.sandboxes.list().map((s) => s.id),
  });
}

t.test('both documents: every operation refuses a request made wrong in one place, naming it, changing nothing', async (t) => {
  const app = await build(t);
  const created = await app.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: { name: 'refusals' } });
  t.equal(created.statusCode, 200);
  const sandbox = created.json<{
    sandboxId: string;
    credentials: { clientId: string; clientSecret: string };
    defaultMerchant: { merchantId: number };
  }>();
  const partner = { 'x-partner-client-id': sandbox.credentials.clientId, 'x-partner-client-secret': sandbox.credentials.clientSecret };
  const token = await app.inject({
    method: 'POST',
    url: '/v1/auth/generate-token',
    headers: partner,
    payload: {
      userId: 'user-typical',
      merchantId: sandbox.defaultMerchant.merchantId,
      permissions: ['ais:accounts:read', 'ais:balance:read', 'ais:transactions:read'],
    },
  });
  t.equal(token.statusCode, 200);
  const bearer = { authorization: `Bearer ${token.json<{ token: string }>().token}` };
  // path and query values the schemas accept that also name real things (a bank the handler checks first)
  const known = {
    bankId: 'nordlys-bank',
    sandboxId: sandbox.sandboxId,
    merchantId: String(sandbox.defaultMerchant.merchantId),
    name: 'snap-1',
    userId: 'user-typical',
    fromDate: '2026-01-01',
    toDate: '2026-01-15',
  };

  const figures = { operations: 0, cases: 0, refused: 0, dropped: 0, sites: 0 };
  const problems: string[] = [];
  for (const [url, strict] of [
    ['/openapi.json', false],
    ['/_sandbox/openapi.json', true],
  ] as const) {
    const doc = (await app.inject({ url })).json<Record<string, any>>();
    for (const op of operationsOf(doc)) {
      // an event stream answers for as long as it is open
      if (op.path === '/_sandbox/requests/stream') continue;
      const base = baseRequest(op, known);
      // the controls under /_sandbox are strict doors (docs/errors.md); /healthz and /metrics take no input
      const sites = sitesOf(doc, op, base, { strict: strict && op.path.startsWith('/_sandbox') });
      if (sites.length === 0) continue;
      figures.operations++;
      figures.sites += sites.length;
      const headers = op.path.startsWith('/v1/ais') ? bearer : partner;
      const send = async (site: Site, value: unknown) => {
        const req: BaseRequest = site.apply(base, value);
        if (!app.sandboxes.get(sandbox.sandboxId)) return problems.push(`the sandbox is gone before ${op.method} ${op.path}`);
        const before = exportOf(app, sandbox.sandboxId);
        const res = await app.inject({
          method: op.method as 'POST',
          url: urlOf(op, req),
          headers: { ...headers, ...(req.hasBody ? { 'content-type': 'application/json' } : {}) },
          ...(req.hasBody ? { payload: JSON.stringify(req.body ?? {}) } : {}),
        });
        figures.cases++;
        const where = `${op.method} ${op.path} ${site.place} ${site.pointer} (${site.kind}: ${JSON.stringify(value)?.slice(0, 60)})`;
        if (res.statusCode >= 500) return problems.push(`${where}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (site.lenient) {
          figures.dropped++;
          if (res.statusCode === 400 && res.json<{ code: string }>().code === 'unknown_field')
            problems.push(`${where}: refused an unknown property the provider's API drops`);
          return;
        }
        figures.refused++;
        if (res.statusCode !== 400) return problems.push(`${where}: answered ${res.statusCode}, not 400: ${res.body.slice(0, 200)}`);
        const body = res.json<{ field?: string; in?: string; code: string }>();
        const shape = schemaErrors('ErrorBody', body);
        if (shape.length) problems.push(`${where}: off the ErrorBody shape: ${shape.join('; ')}`);
        if (body.field !== site.pointer || body.in !== site.place)
          problems.push(`${where}: named ${body.in} ${JSON.stringify(body.field)} (${body.code})`);
        if (!app.sandboxes.get(sandbox.sandboxId) || exportOf(app, sandbox.sandboxId) !== before)
          problems.push(`${where}: the sandbox changed`);
      };
      for (const [i, site] of sites.entries()) {
        const seed = SEED + figures.sites + i;
        await send(site, fc.sample(site.values, { seed, numRuns: 1 })[0]);
        if (RUNS > 0)
          await fc.assert(
            fc.asyncProperty(site.values, async (v) => void (await send(site, v))),
            { seed, numRuns: RUNS },
          );
      }
    }
  }
  t.comment(
    `${figures.operations} operations, ${figures.sites} places made wrong, ${figures.cases} requests: ${figures.refused} to be refused, ${figures.dropped} unknown provider properties to be dropped (seed ${SEED})`,
  );
  t.ok(figures.operations >= 50, `${figures.operations} operations of the two documents take input`);
  t.same(problems.slice(0, 40), [], `no problem in ${figures.cases} requests (${problems.length} found)`);
});
