/**
 * `obsim shadow`, `obsim drift report` and `obsim drift run` (docs/drift.md): a scripted run exits 0
 * on a clean upstream and 1 on a drifted one with the report written; bad input is one line with
 * exit 2 (usage) or 1 (run) and no report file half-written.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { convert } from 'xmlbuilder2';
import { startObsim } from '../../src/index.js';
import { freePorts } from '../helpers/cluster.js';
import { closedPort } from '../helpers/deliveries.js';
import { startMutatingProxy } from '../helpers/mutating-proxy.js';
import { runObsim, shadowProcess } from '../helpers/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'obsim-drift-cli-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

t.test('drift run against a clean upstream: exit 0, the JUnit report written, webhooks compared', async (t) => {
  const upstream = await startObsim();
  t.teardown(() => upstream.close());
  const port = await freePorts(1);
  const out = join(dir, 'clean.xml');
  const run = await runObsim(
    [
      'drift',
      'run',
      '--upstream',
      upstream.baseUrl,
      '--scenario',
      'payment-paid',
      '--public-url',
      `http://127.0.0.1:${port}`,
      '--port',
      String(port),
      '--webhook-wait',
      '500',
      '--format',
      'junit',
      '--out',
      out,
    ],
    { timeoutMs: 60_000 },
  );
  t.equal(run.code, 0, run.stderr);
  t.match(run.stderr, /4 exchanges match, 0 drift, 0 uncomparable; webhooks 1 match, 0 drift/);
  const suites = (convert(readFileSync(out, 'utf8'), { format: 'object' }) as any).testsuites.testsuite;
  t.same(
    suites.map((s: any) => [s['@name'], s['@tests'], s['@failures']]),
    [
      ['exchanges', '4', '0'],
      ['webhooks', '1', '0'],
    ],
  );
});

t.test('drift run against a drifted upstream: exit 1, the drift in the JSON report', async (t) => {
  const upstream = await startObsim();
  t.teardown(() => upstream.close());
  const proxy = await startMutatingProxy(upstream.baseUrl, {
    answer: { route: 'POST /v1/partner/payments', mutation: { op: 'add', pointer: '/fees', value: 1 } },
  });
  t.teardown(() => proxy.close());
  const out = join(dir, 'drift.json');
  const run = await runObsim(['drift', 'run', '--upstream', proxy.url, '--scenario', 'payment-paid', '--out', out], { timeoutMs: 60_000 });
  t.equal(run.code, 1);
  const report = JSON.parse(readFileSync(out, 'utf8'));
  t.match(report.summary.exchanges, { drift: 1 });
  t.match(report.webhookComparison, { compared: false });
  t.match(
    report.exchanges.find((e: { verdict: string }) => e.verdict === 'drift'),
    { operationId: 'createPayment', drifts: [{ kind: 'field_added', pointer: '/fees', upstream: 1 }] },
  );
});

t.test('obsim shadow and obsim drift report --from', async (t) => {
  const upstream = await startObsim();
  t.teardown(() => upstream.close());
  const port = await freePorts(1);
  const shadow = await shadowProcess(t, ['--upstream', upstream.baseUrl, '--port', String(port)]);
  const printed = shadow.printed();
  t.match(printed, new RegExp(`obsim shadow listening on http://127\\.0\\.0\\.1:${port}, in front of ${upstream.baseUrl}`));
  t.match(printed, /webhooks: not compared \(no --public-url\)/);
  const reportUrl = /the drift report: (http:\/\/127\.0\.0\.1:\d+\/_shadow\/report) /.exec(printed)?.[1];
  t.ok(reportUrl, 'the report address is printed: on loopback, a listener of its own');
  t.not(new URL(reportUrl!).port, String(port), 'not the public listener');
  const onPublic = await fetch(`http://127.0.0.1:${port}/_shadow/report`);
  t.not(onPublic.status, 200, 'the public listener does not serve the report');
  const headers = { 'x-partner-client-id': upstream.credentials.clientId, 'x-partner-client-secret': upstream.credentials.clientSecret };
  const res = await fetch(`http://127.0.0.1:${port}/v1/partner/merchants`, { headers });
  t.equal(res.status, 200);
  const out = join(dir, 'report.html');
  const report = await runObsim(['drift', 'report', '--from', reportUrl!, '--format', 'html', '--out', out]);
  t.equal(report.code, 0, report.stderr);
  t.match(readFileSync(out, 'utf8'), /<h1>Drift against http:\/\/127\.0\.0\.1:\d+<\/h1>/);
  t.match(readFileSync(out, 'utf8'), /listMerchants/);
});

t.test('bad input: one line, exit 2 (usage) or 1 (run), no report written', async (t) => {
  const out = join(dir, 'never.json');
  const badUrl = await runObsim([
    'drift',
    'run',
    '--upstream',
    'http://127.0.0.1:1',
    '--scenario',
    'payment-paid',
    '--public-url',
    'not a url',
    '--out',
    out,
  ]);
  t.equal(badUrl.code, 2);
  t.match(badUrl.stderr, /--public-url.*expected an http\(s\) URL/);
  const unreachable = await runObsim([
    'drift',
    'run',
    '--upstream',
    `http://127.0.0.1:${await closedPort()}`,
    '--scenario',
    'payment-paid',
    '--out',
    out,
  ]);
  t.equal(unreachable.code, 1);
  t.match(unreachable.stderr.trim(), /^obsim: the upstream http:\/\/127\.0\.0\.1:\d+ cannot be reached over HTTP \(ECONNREFUSED\)$/);
  const broken = join(dir, 'broken.yaml');
  writeFileSync(broken, 'name: broken\nsteps: [ { nonsense: 1 } ]\n');
  const badScenario = await runObsim(['drift', 'run', '--upstream', 'http://127.0.0.1:1', '--scenario', broken, '--out', out]);
  t.equal(badScenario.code, 1);
  t.match(badScenario.stderr, /^obsim: .*broken\.yaml/);
  t.equal(badScenario.stderr.trim().split('\n').length, 1, 'one line');
  const shadowDown = await runObsim(['shadow', '--upstream', `http://127.0.0.1:${await closedPort()}`]);
  t.equal(shadowDown.code, 1);
  t.match(shadowDown.stderr, /cannot be reached over HTTP/);
  const noReport = await runObsim(['drift', 'report', '--from', `http://127.0.0.1:${await closedPort()}`, '--out', out]);
  t.equal(noReport.code, 1);
  t.notOk(existsSync(out), 'no report file, not even half of one');
});
