/**
 * The shadow in front of a provider that is not obsim (docs/drift.md, "Tested against a provider
 * that is not obsim"): the foreign provider double (test/helpers/foreign/) implements the
 * document on its own, with other ids and ranges, hosted links on another host and layout (the
 * token in a query parameter), webhook and event ids of another shape, two Set-Cookie headers on
 * every answer. Against it:
 * - every shipped scenario passes through the shadow, which reports no drift but the two the double
 *   is seeded with (each as often as the double applied it), and at most 2 % uncomparable; the
 *   partner's receiver URLs end in `/webhooks` and get every delivery;
 * - a list of items made before the shadow watched is compared by shape, counted pre-existing; an
 *   optional field (the document does not require it) one of them was made without is not a drift,
 *   a required one absent is;
 * - ten partners at once, each a chain of requests on its own payment: replayed in each one's order.
 */
import t from 'tap';
import { request } from 'undici';
import { expandPaths, shippedScenariosDir } from '../../src/scenarios/loader.js';
import { startReceiver } from '../../src/scenarios/receiver.js';
import { runFiles } from '../../src/scenarios/runner.js';
import { httpTransport } from '../../src/scenarios/transport.js';
import { startShadow, type Shadow } from '../../src/shadow/shadow.js';
import type { DriftReport } from '../../src/shadow/report.js';
import { freePorts } from '../helpers/cluster.js';
import { startForeignProvider, type ForeignProvider, type SeededDrift } from '../helpers/foreign/provider.js';
import { scaled } from '../helpers/speed.js';

const files = expandPaths([shippedScenariosDir()]);
t.setTimeout(scaled(files.length * 5_000 + 60_000));

/** Two drifts the double is seeded with: what the shadow must report, and nothing else. */
const SEEDED: (SeededDrift & { expect: { kind: string; pointer: string } })[] = [
  {
    id: 'status-settlement-date',
    route: 'GET /v1/partner/payments/:paymentId/status',
    change: (json) => (json.settlementDate = '2026-11-30'),
    expect: { kind: 'field_added', pointer: '/settlementDate' },
  },
  {
    id: 'test-merchant-message',
    route: 'POST /v1/partner/merchants/test',
    change: (json) => delete json.message,
    expect: { kind: 'field_missing', pointer: '/message' },
  },
];

async function shadowOf(t: { teardown(fn: () => unknown): void }, double: ForeignProvider): Promise<Shadow> {
  const port = await freePorts(1);
  const shadow = await startShadow({ upstream: double.url, port, publicUrl: `http://127.0.0.1:${port}`, webhookWaitMs: 5_000 });
  t.teardown(() => shadow.close());
  return shadow;
}

/** The double's partner credentials, and a JSON body when there is one. */
function json(double: ForeignProvider, body?: unknown) {
  const headers: Record<string, string> = {
    'x-partner-client-id': double.partner.clientId,
    'x-partner-client-secret': double.partner.clientSecret,
  };
  if (body === undefined) return { headers };
  return { headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** A call with the double's credentials, to it or to a shadow in front of it (`base`). */
const caller =
  (double: ForeignProvider) =>
  async (base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, any> }> => {
    const res = await request(`${base}${path}`, { method: method as 'GET', ...json(double, body) });
    return { status: res.statusCode, json: (await res.body.json()) as Record<string, any> };
  };

/** The report once every exchange is replayed and every delivery paired (or judged). */
async function settledReport(shadow: Shadow): Promise<DriftReport> {
  await shadow.settled();
  const deadline = Date.now() + scaled(6_000);
  while ((await shadow.report()).summary.webhooks.waiting > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return shadow.report();
}

t.test('every shipped scenario: no drift but the seeded ones, at most 2 % uncomparable', async (t) => {
  let compared = 0;
  let uncomparable = 0;
  let webhooks = 0;
  const reported = new Map<string, number>();
  const applied = new Map<string, number>();
  for (const file of files) {
    const double = await startForeignProvider({ drifts: SEEDED });
    const receiver = await startReceiver();
    try {
      const shadow = await shadowOf(t, double);
      const [result] = await runFiles([file], { transport: httpTransport(shadow.url), partner: double.partner, receiver });
      t.ok(result.passed, `${result.name} passes through the shadow against the double`, {
        failed: result.steps.filter((s) => s.status === 'failed'),
      });
      const { summary, exchanges, webhookEntries } = await settledReport(shadow);
      await shadow.close();
      const drifts = [...exchanges, ...webhookEntries].flatMap((e) => e.drifts);
      const unexpected = drifts.filter((d) => !SEEDED.some((s) => s.expect.kind === d.kind && s.expect.pointer === d.pointer));
      t.same(unexpected, [], `${result.name}: no drift but the seeded ones`);
      for (const s of SEEDED) {
        reported.set(
          s.id,
          (reported.get(s.id) ?? 0) + drifts.filter((d) => d.kind === s.expect.kind && d.pointer === s.expect.pointer).length,
        );
        applied.set(s.id, (applied.get(s.id) ?? 0) + (double.applied.get(s.id) ?? 0));
      }
      t.equal(summary.webhooks.waiting, 0, `${result.name}: every delivery paired`);
      t.ok(
        receiver.deliveries.every((d) => d.path.endsWith('/webhooks')),
        `${result.name}: deliveries reached the partner's /webhooks URLs through the shadow`,
      );
      compared += summary.exchanges.match + summary.exchanges.drift + summary.webhooks.match + summary.webhooks.drift;
      uncomparable += summary.exchanges.uncomparable + summary.webhooks.uncomparable;
      webhooks += summary.webhooks.match + summary.webhooks.drift;
    } finally {
      await receiver.close();
      await double.close();
    }
  }
  for (const s of SEEDED) {
    t.ok((applied.get(s.id) ?? 0) > 0, `${s.id}: the double applied it (${applied.get(s.id)} answers)`);
    t.equal(reported.get(s.id), applied.get(s.id), `${s.id}: reported once for every answer it changed`);
  }
  const share = uncomparable / (compared + uncomparable);
  t.ok(share <= 0.02, `uncomparable ${uncomparable} of ${compared + uncomparable} (${(share * 100).toFixed(1)} %) <= 2 %`);
  t.ok(webhooks >= 15, `webhooks compared too (${webhooks})`);
});

t.test('a list with items made before the shadow watched: compared by shape, counted pre-existing', async (t) => {
  const double = await startForeignProvider();
  t.teardown(() => double.close());
  const call = caller(double);
  // the account's history: two merchants the shadow never saw made
  for (const name of ['Earlier One ApS', 'Earlier Two ApS'])
    await call(double.url, 'POST', '/v1/partner/merchants/test', { companyName: name });
  const shadow = await shadowOf(t, double);
  const made = await call(shadow.url, 'POST', '/v1/partner/merchants/test', { companyName: 'Watched ApS' });
  const list = await call(shadow.url, 'GET', '/v1/partner/merchants?page=1&limit=20');
  t.equal(list.json.total, 3, 'the upstream lists its earlier merchants beside the new one');
  const report = await settledReport(shadow);
  const listed = report.exchanges.find((e) => e.path.startsWith('/v1/partner/merchants?'));
  t.same(listed?.drifts, [], 'no value drift on items made before, nor on the total beside them');
  t.equal(listed?.verdict, 'match');
  // two upstream items unknown to the map, and obsim's own seeded merchant
  t.equal(report.summary.preExisting, 3, 'counted pre-existing');
  t.equal(made.json.merchantId >= 700001, true, "the double's own id range");
});

t.test('items made before the shadow watched without optional fields: no drift; without a required one: a drift', async (t) => {
  // the upstream's earlier merchants lack `type` (required by MerchantSummary) only when told to
  const dropType: SeededDrift = {
    id: 'earlier-without-type',
    route: 'GET /v1/partner/merchants',
    change: (json) => {
      for (const item of json.items as Record<string, unknown>[]) if (String(item.companyName).startsWith('Earlier')) delete item.type;
    },
  };
  for (const [drifts, expected] of [
    [[], []],
    [[dropType], ['field_missing /items/0/type', 'field_missing /items/1/type']],
  ] as const) {
    const double = await startForeignProvider({ drifts: [...drifts] });
    t.teardown(() => double.close());
    const call = caller(double);
    // history made without contactEmail and partnerRefId (test merchants have neither)
    for (const name of ['Earlier One ApS', 'Earlier Two ApS'])
      await call(double.url, 'POST', '/v1/partner/merchants/test', { companyName: name });
    const shadow = await shadowOf(t, double);
    // watched: a standard merchant with both, so obsim's items carry them
    const made = await call(shadow.url, 'POST', '/v1/partner/merchants', {
      companyName: 'Watched Standard ApS',
      contactEmail: 'ops@watched.example',
      partnerRefId: 'ref-watched',
    });
    t.equal(made.status, 200);
    const list = await call(shadow.url, 'GET', '/v1/partner/merchants?page=1&limit=20');
    t.equal(list.json.total, 3);
    const report = await settledReport(shadow);
    const listed = report.exchanges.find((e) => e.path.startsWith('/v1/partner/merchants?'));
    t.same(
      (listed?.drifts ?? []).map((d) => `${d.kind} ${d.pointer}`),
      expected,
      drifts.length ? 'a required field absent from an earlier item is a drift' : 'optional fields absent from earlier items are not',
    );
  }
});

t.test('ten partners at once, each on its own payment: each chain replayed in its order', async (t) => {
  const double = await startForeignProvider();
  t.teardown(() => double.close());
  const shadow = await shadowOf(t, double);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await request(`${shadow.url}${path}`, { method: method as 'GET', ...json(double, body) });
    return (await res.body.json()) as Record<string, any>;
  };
  const merchant = await call('POST', '/v1/partner/merchants/test', { companyName: 'Busy Shop ApS' });
  const chains = await Promise.all(
    Array.from({ length: 10 }, async (_, i) => {
      const p = await call('POST', '/v1/partner/payments', {
        merchantClientId: merchant.clientId,
        amount: 10 + i,
        referenceNumber: `busy-${i}`,
      });
      const steps = [
        await call('GET', `/v1/partner/payments/${p.paymentId}/status`),
        await call('POST', `/_sandbox/payments/${p.paymentId}/approve`),
        await call('GET', `/v1/partner/payments/${p.paymentId}/status`),
        await call('POST', `/_sandbox/payments/${p.paymentId}/${i % 2 ? 'complete' : 'fail'}`),
        await call('GET', `/v1/partner/payments/${p.paymentId}/status`),
      ];
      return {
        id: p.paymentId as number,
        seen: steps.filter((s) => 'bankPaymentStatus' in s && !('previousStatus' in s)).map((s) => s.status),
      };
    }),
  );
  for (const [i, c] of chains.entries())
    t.same(c.seen, ['pending', 'processing', i % 2 ? 'paid' : 'failed'], `payment ${i} moved as its partner asked`);
  const report = await settledReport(shadow);
  const statusReads = report.exchanges.filter((e) => /\/status$/.test(e.path));
  t.equal(statusReads.length, 30);
  t.same(
    statusReads.filter((e) => e.verdict !== 'match').map((e) => ({ path: e.path, drifts: e.drifts, reason: e.reason })),
    [],
    "each status read replayed after the steps its partner took before it, and before those after (obsim's answer the same)",
  );
  for (const c of chains) {
    const indexes = report.exchanges.filter((e) => e.path.includes(`/${c.id}/`)).map((e) => e.index);
    t.same(
      indexes,
      [...indexes].sort((a, b) => a - b),
      `payment ${c.id}: its exchanges replayed in the order they arrived`,
    );
  }
});
