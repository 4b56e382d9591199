/**
 * `obsim drift adopt` (docs/contract-versions.md, "From drift to a version"):
 * - the round trip: the foreign provider double (test/helpers/foreign/, a provider that is not
 *   obsim) seeded with three drifts → `obsim drift run` reports them → `obsim drift adopt` writes a
 *   version → a second `obsim drift run` pinned to it (--contracts --contract-version) reports 0 of
 *   them, and exits 0;
 * - what a version cannot say is listed as not adopted with its reason, never dropped;
 * - a report that is not one: exit 2, one line naming what is wrong, nothing written.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parse, stringify } from 'yaml';
import { startForeignProvider, type ForeignProvider, type SeededDrift } from '../helpers/foreign/provider.js';
import { runObsim } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(240_000));

/** Four drifts of a provider, as data: a new answer field, an enum value of its own, a status changed, an answer header. */
const SEEDED: (SeededDrift & { expect: { kind: string; pointer: string; operationId: string } })[] = [
  {
    id: 'test-merchant-region',
    route: 'POST /v1/partner/merchants/test',
    change: (json) => (json.region = 'eu-north'),
    expect: { kind: 'field_added', pointer: '/region', operationId: 'createTestMerchant' },
  },
  {
    id: 'payment-currency-eur',
    route: 'POST /v1/partner/payments',
    change: (json) => (json.currency = 'EUR'),
    expect: { kind: 'enum_value', pointer: '/currency', operationId: 'createPayment' },
  },
  {
    id: 'webhook-registered-201',
    route: 'POST /v1/partner/webhooks',
    status: 201,
    expect: { kind: 'status', pointer: '', operationId: 'registerWebhook' },
  },
  {
    id: 'status-retry-after',
    route: 'GET /v1/partner/payments/:paymentId/status',
    headers: { 'retry-after': '2' },
    expect: { kind: 'header', pointer: 'retry-after', operationId: 'getPaymentStatus' },
  },
];

interface Report {
  summary: { exchanges: { match: number; drift: number } };
  exchanges: { operationId: string | null; verdict: string; drifts: { kind: string; pointer: string }[] }[];
}
const seededIn = (report: Report) =>
  SEEDED.filter((s) =>
    report.exchanges.some(
      (e) => e.operationId === s.expect.operationId && e.drifts.some((d) => d.kind === s.expect.kind && d.pointer === s.expect.pointer),
    ),
  ).map((s) => s.id);

/** `obsim drift run` of payment-paid in front of `double` with `args`; its exit and the report it wrote to `out`. */
async function driftRun(double: ForeignProvider, out: string, args: string[] = []) {
  const credentials = ['--partner-client-id', double.partner.clientId, '--partner-client-secret', double.partner.clientSecret];
  const run = await runObsim(
    ['drift', 'run', '--upstream', double.url, '--scenario', 'payment-paid', ...credentials, ...args, '--out', out],
    {
      timeoutMs: scaled(60_000),
    },
  );
  return { run, report: JSON.parse(readFileSync(out, 'utf8')) as Report & { contractVersion?: string } };
}

t.test('the double seeded with four drifts → report → adopt → a second run under the adopted version reports none of them', async (t) => {
  const double = await startForeignProvider({ drifts: SEEDED });
  t.teardown(() => double.close());
  const dir = t.testdir({ contracts: {} });
  const first = join(dir, 'first.json');
  const { run: run1, report: report1 } = await driftRun(double, first);
  t.equal(run1.code, 1, 'the drifts: exit 1');
  t.same(
    seededIn(report1),
    SEEDED.map((s) => s.id),
    'all four reported',
  );
  t.same(
    SEEDED.map((s) => double.applied.get(s.id) ?? 0),
    [1, 1, 1, 1],
    'each changed one answer',
  );

  const file = join(dir, 'contracts', 'adopted.yaml');
  const adopt = await runObsim(['drift', 'adopt', '--from', first, '--out', file]);
  t.equal(adopt.code, 0, adopt.stderr);
  t.match(adopt.stderr, /wrote .*adopted\.yaml \(version adopted\): 4 adopted, 0 not adopted/);
  const version = parse(readFileSync(file, 'utf8')) as {
    info: { version: string };
    actions: { target: string; description: string; update: Record<string, any> }[];
    'x-obsim': {
      operations: Record<string, { status?: Record<string, number>; headers?: Record<string, object> }>;
      answers: { in: string; field: string; description: string }[];
    };
  };
  t.equal(version.info.version, 'adopted');
  t.same(version['x-obsim'].operations, {
    registerWebhook: { status: { '200': 201 } },
    getPaymentStatus: { headers: { 'retry-after': { const: '2' } } },
  });
  t.match(version['x-obsim'].answers, [
    {
      in: 'createTestMerchant',
      field: '/region',
      value: { const: 'eu-north' },
      description: /^from exchange #\d+ POST \/v1\/partner\/merchants\/test$/,
    },
    {
      in: 'createPayment',
      field: '/currency',
      send: 'EUR',
      when: { field: '/currency', equals: 'DKK' },
      description: /^from exchange #\d+ POST \/v1\/partner\/payments$/,
    },
  ]);
  t.ok(
    version.actions.every((a) => /^from exchange #\d+ |^where this version comes from$/.test(a.description)),
    'each action names the exchange it came from',
  );
  t.match(
    version.actions.find((a) => a.target === '$.components.schemas.TestMerchantResponse'),
    {
      update: { properties: { region: { type: 'string', examples: ['eu-north'] } } },
    },
  );
  t.match(readFileSync(file, 'utf8'), /^# A contract version adopted from the drift report/, 'readable: it says what it is');

  const { run: run2, report: report2 } = await driftRun(double, join(dir, 'second.json'), [
    '--contracts',
    join(dir, 'contracts'),
    '--contract-version',
    'adopted',
  ]);
  t.same(seededIn(report2), [], 'none of the adopted drifts reported again');
  t.equal(report2.summary.exchanges.drift, 0, 'no drift at all');
  t.equal(run2.code, 0, run2.stderr);
  t.ok(report2.summary.exchanges.match >= 4);
});

t.test('a report made under a version V is adopted over V: the file carries V, and a run under it reports no drift', async (t) => {
  const double = await startForeignProvider({ drifts: SEEDED.slice(0, 2) });
  t.teardown(() => double.close());
  // V: the provider's region on a test merchant, written by hand (what an earlier adopt could have made)
  const dir = t.testdir({
    contracts: {
      'with-region.yaml': stringify({
        overlay: '1.0.0',
        info: { title: 'with the region', version: 'with-region' },
        actions: [
          {
            target: '$.components.schemas.TestMerchantResponse.properties',
            description: 'the region the provider answers',
            update: { region: { type: 'string', examples: ['eu-north'] } },
          },
        ],
        'x-obsim': { answers: [{ in: 'createTestMerchant', field: '/region', value: { const: 'eu-north' } }] },
      }),
    },
  });
  const contracts = join(dir, 'contracts');
  const first = join(dir, 'first.json');
  const { run: run1, report: report1 } = await driftRun(double, first, ['--contracts', contracts, '--contract-version', 'with-region']);
  t.equal(run1.code, 1, 'the drift V does not cover: exit 1');
  t.equal(report1.contractVersion, 'with-region', 'the report names the version obsim answered by');
  t.same(seededIn(report1), ['payment-currency-eur'], 'V covers the region: only the currency is reported');

  // the version V's report is adopted over is looked for in the folder of --out, or --contracts
  const elsewhere = await runObsim(['drift', 'adopt', '--from', first, '--out', join(dir, 'other', 'next.yaml')]);
  t.equal(elsewhere.code, 2);
  t.match(elsewhere.stderr.trim(), /^obsim drift adopt: the report was made under contract version with-region, read from .*other: /);
  t.equal(elsewhere.stderr.trim().split('\n').length, 1, 'one line');

  const file = join(contracts, 'next.yaml');
  const adopt = await runObsim(['drift', 'adopt', '--from', first, '--out', file]);
  t.equal(adopt.code, 0, adopt.stderr);
  const text = readFileSync(file, 'utf8');
  t.match(text, /^# .*\n# The report was made with obsim answering by contract version with-region /, 'it says what it is made over');
  const version = parse(text) as { actions: { target: string; description?: string }[]; 'x-obsim': { answers: object[] } };
  t.match(version.actions, [
    { target: '$.info' },
    { target: '$.components.schemas.TestMerchantResponse.properties', description: 'the region the provider answers' },
    { target: /currency/i },
  ]);
  t.match(version['x-obsim'].answers, [
    { in: 'createTestMerchant', field: '/region', value: { const: 'eu-north' } },
    { in: 'createPayment', field: '/currency', send: 'EUR' },
  ]);

  const { run: run2, report: report2 } = await driftRun(double, join(dir, 'second.json'), [
    '--contracts',
    contracts,
    '--contract-version',
    'next',
  ]);
  t.same(seededIn(report2), [], "neither V's drift nor the adopted one");
  t.equal(report2.summary.exchanges.drift, 0);
  t.equal(run2.code, 0, run2.stderr);
});

t.test(
  'what a version cannot say is listed as not adopted, with its reason; a field obsim sends and the upstream does not is adopted',
  async (t) => {
    const dir = t.testdir({});
    const exchange = (index: number, operationId: string, method: string, path: string, drifts: object[], statuses = [200, 200]) => ({
      index,
      at: '2026-12-01T00:00:00.000Z',
      method,
      path,
      operationId,
      upstreamStatus: statuses[0],
      obsimStatus: statuses[1],
      verdict: 'drift',
      drifts,
    });
    const report = {
      upstream: 'https://sandbox.provider.example',
      startedAt: '2026-12-01T00:00:00.000Z',
      generatedAt: '2026-12-01T00:01:00.000Z',
      webhookComparison: { compared: true },
      summary: { exchanges: { match: 0, drift: 5, uncomparable: 0 }, webhooks: { match: 0, drift: 1, uncomparable: 0, waiting: 0 } },
      exchanges: [
        exchange(1, 'createTestMerchant', 'POST', '/v1/partner/merchants/test', [
          { kind: 'field_missing', pointer: '/message', obsim: 'Ready' },
        ]),
        exchange(2, 'createPayment', 'POST', '/v1/partner/payments', [
          { kind: 'type', pointer: '/amount', upstream: '125.50', obsim: 125.5 },
          { kind: 'format', pointer: '/createdAt', upstream: '2026-11-27', obsim: '2026-11-27T00:00:00.000Z' },
          { kind: 'value', pointer: '/bankPaymentStatus', upstream: 'PDNG', obsim: 'Pending' },
          { kind: 'header', pointer: 'x-request-id' },
        ]),
        exchange(3, 'getPaymentStatus', 'GET', '/v1/partner/payments/1/status', [{ kind: 'status', pointer: '' }], [404, 200]),
      ],
      webhooks: [{ event: 'payment.completed', exchange: 2, hook: 'h', verdict: 'drift', drifts: [{ kind: 'event_late', pointer: '' }] }],
    };
    const from = join(dir, 'report.json');
    writeFileSync(from, JSON.stringify(report));
    const file = join(dir, 'contracts', 'trimmed.yaml');
    const adopt = await runObsim(['drift', 'adopt', '--from', from, '--out', file]);
    t.equal(adopt.code, 0, adopt.stderr);
    const notAdopted = adopt.stderr.split('\n').filter((l) => l.startsWith('not adopted: '));
    t.same(
      notAdopted.map((l) => /^(not adopted: .*? at [^:]+): /.exec(l)?.[1]),
      [
        'not adopted: exchange #2 POST /v1/partner/payments: type at /amount',
        'not adopted: exchange #2 POST /v1/partner/payments: format at /createdAt',
        'not adopted: exchange #2 POST /v1/partner/payments: value at /bankPaymentStatus',
        'not adopted: exchange #2 POST /v1/partner/payments: header at x-request-id',
        'not adopted: exchange #3 GET /v1/partner/payments/1/status: status at (the answer)',
        'not adopted: webhook payment.completed (exchange #2): event_late at (the answer)',
      ],
    );
    t.ok(
      notAdopted.every((l) => / at [^:]+: .{20,}$/.test(l)),
      'each with its reason',
    );
    t.match(adopt.stderr, /wrote .*trimmed\.yaml \(version trimmed\): 1 adopted, 6 not adopted/);
    const text = readFileSync(file, 'utf8');
    t.match(
      text,
      /# Not adopted \(a version cannot say it\):\n# {3}- exchange #2 POST \/v1\/partner\/payments: type at \/amount: /,
      'and in the file',
    );
    const version = parse(text) as { actions: { target: string; update: unknown }[]; 'x-obsim': { answers: object[] } };
    t.same(version['x-obsim'].answers, [
      { in: 'createTestMerchant', field: '/message', remove: true, description: 'from exchange #1 POST /v1/partner/merchants/test' },
    ]);
    t.match(version.actions, [
      { target: '$.info' },
      { target: '$.components.schemas.TestMerchantResponse', update: { required: ['merchantId', 'clientId', 'companyName', 'status'] } },
    ]);

    // nothing adoptable: nothing written, exit 1
    writeFileSync(from, JSON.stringify({ ...report, exchanges: [report.exchanges[1]], webhooks: [] }));
    const none = await runObsim(['drift', 'adopt', '--from', from, '--out', join(dir, 'contracts', 'none.yaml')]);
    t.equal(none.code, 1);
    t.notOk(existsSync(join(dir, 'contracts', 'none.yaml')));
  },
);

t.test('a drift report that is not one: exit 2, one line naming what is wrong, nothing written', async (t) => {
  const dir = t.testdir({
    'truncated.json': '{"upstream":"https://sandbox.provider.example","generatedAt":"2026-12-01T00:01:00.000Z","exchanges":[{"index":1,',
    'readiness.json': JSON.stringify({ sandboxId: 'sbx_1', verdict: 'met', checklist: [] }),
    'bad-kind.json': JSON.stringify({
      upstream: 'u',
      generatedAt: 'g',
      summary: { exchanges: {}, webhooks: {} },
      exchanges: [
        {
          index: 1,
          method: 'GET',
          path: '/',
          operationId: null,
          upstreamStatus: 200,
          obsimStatus: 200,
          verdict: 'drift',
          drifts: [{ kind: 'oops', pointer: '' }],
        },
      ],
      webhooks: [],
    }),
    'empty.json': '',
  });
  const cases: [string, RegExp][] = [
    ['truncated.json', /^obsim drift adopt: .*truncated\.json is not JSON \(truncated\? .+\)$/],
    ['readiness.json', /^obsim drift adopt: .*readiness\.json is not a drift report \(GET \/_shadow\/report\): \/upstream is missing$/],
    [
      'bad-kind.json',
      /^obsim drift adopt: .*bad-kind\.json is not a drift report .*: \/exchanges\/0\/drifts\/0\/kind must be equal to one of the allowed values$/,
    ],
    ['empty.json', /^obsim drift adopt: .*empty\.json is not JSON \(it is empty\)$/],
    ['missing.json', /^obsim drift adopt: cannot read .*missing\.json \(ENOENT\)$/],
  ];
  for (const [name, line] of cases) {
    const out = join(dir, 'contracts', `${name.replace('.json', '')}.yaml`);
    const run = await runObsim(['drift', 'adopt', '--from', join(dir, name), '--out', out]);
    t.equal(run.code, 2, name);
    const lines = run.stderr.trim().split('\n');
    t.equal(lines.length, 1, `${name}: one line`);
    t.match(lines[0], line);
    t.notOk(existsSync(out), `${name}: nothing written`);
  }
  const badName = await runObsim(['drift', 'adopt', '--from', join(dir, 'readiness.json'), '--out', join(dir, 'base.yaml')]);
  t.equal(badName.code, 2);
  t.match(badName.stderr.trim(), /^obsim drift adopt: --out .*base\.yaml: base is not a version name/);
});
