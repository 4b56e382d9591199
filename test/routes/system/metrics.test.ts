/**
 * GET /metrics (docs/operations.md, "Metrics"): Prometheus's text format that promtool accepts;
 * counters that follow what happened (requests by operation and status class, deliveries by
 * outcome, resources by state as the database has them); guarded like the controls when an admin
 * key is set; label sets bounded however many sandboxes come and go, unless a sandbox label is
 * asked for; gone with --metrics off.
 */
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { findExecutable } from '../../../src/cluster/supervisor.js';
import { build, PARTNER, schemaErrors } from '../../helpers/app.js';
import { inCI } from '../../helpers/browser.js';
import { hook, pay } from '../../helpers/deliveries.js';
import { call, count, testMerchant } from '../../helpers/partner.js';
import { startReceiver } from '../../helpers/receiver.js';
import { scaled } from '../../helpers/speed.js';

t.setTimeout(scaled(120_000));

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of an exposition (the test's reading of the text format: `name{a="b",…} value`). */
function samples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

const value = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0);

async function scrape(app: Awaited<ReturnType<typeof build>>, headers: Record<string, string> = {}) {
  const res = await app.inject({ method: 'GET', url: '/metrics', headers });
  return {
    status: res.statusCode,
    type: res.headers['content-type'],
    text: res.body,
    samples: res.statusCode === 200 ? samples(res.body) : [],
  };
}

const promtoolMissing = findExecutable('promtool') ? false : inCI() ? false : 'promtool is not installed (apt-get install prometheus)';

t.test('the exposition: what promtool accepts, the counters following what happened', async (t) => {
  const app = await build(t);
  const rx = await startReceiver(t);
  const failing = await startReceiver(t, (_req, res) => res.writeHead(500).end());
  const m = await testMerchant(app);
  await hook(app, rx.url, ['payment.completed']);
  await hook(app, failing.url, ['payment.completed']);
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push((await pay(app, m.clientId, 10 + i)).paymentId);
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: -1, referenceNumber: 'bad' });
  await call(app, 'GET', '/no/such/route');
  await call(app, 'POST', `/_sandbox/payments/${ids[0]}/complete`);
  await call(app, 'POST', `/_sandbox/payments/${ids[1]}/expire`);
  await app.webhooks.drain();

  const r = await scrape(app);
  t.equal(r.status, 200);
  t.match(r.type, /^text\/plain; version=0\.0\.4/);
  const s = r.samples;
  t.equal(value(s, 'obsim_http_requests_total', { operation: 'createPayment', status_class: '2xx' }), 3);
  t.equal(value(s, 'obsim_http_requests_total', { operation: 'createPayment', status_class: '4xx' }), 1);
  t.equal(
    value(s, 'obsim_http_requests_total', { operation: 'unmatched', status_class: '4xx' }),
    1,
    'an unknown path: one label, not its path',
  );
  t.equal(value(s, 'obsim_http_request_duration_seconds_count', { operation: 'createPayment' }), 4);
  t.equal(value(s, 'obsim_webhook_deliveries_total', { event: 'payment.completed', outcome: 'delivered' }), 1);
  t.equal(value(s, 'obsim_webhook_deliveries_total', { event: 'payment.completed', outcome: 'failed' }), 1, 'the receiver answering 500');
  t.equal(value(s, 'obsim_webhook_attempts_total', { event: 'payment.completed' }), 2);
  t.equal(value(s, 'obsim_webhook_delivery_lag_seconds_count'), 2);
  for (const state of ['pending', 'paid', 'failed']) {
    t.equal(
      value(s, 'obsim_resources', { resource: 'payment', state }),
      count(app, 'payments', 'status = ?', state),
      `payments ${state} = the database`,
    );
  }
  t.equal(value(s, 'obsim_resources', { resource: 'merchant', state: 'activated' }), count(app, 'merchants', "status = 'activated'"));
  t.equal(value(s, 'obsim_timers_due'), 0, 'a frozen clock: nothing due');
  t.equal(value(s, 'obsim_clock_lag_seconds'), 0);
  t.ok(value(s, 'obsim_journal_entries') >= 9, 'the journal kept the requests');
  t.equal(value(s, 'obsim_build_info'), 1);
  t.ok(
    s.some((x) => x.name === 'nodejs_eventloop_lag_p99_seconds'),
    "Node's own metrics",
  );
  t.ok(
    s.every((x) => x.labels.shard === 'none'),
    'every series says which shard it is from (none: not a cluster shard)',
  );

  // the clock moves: timers fall due and fire; deliveries follow
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '10s' });
  await app.webhooks.drain();
  const after = (await scrape(app)).samples;
  t.equal(value(after, 'obsim_resources', { resource: 'payment', state: 'pending' }), 0, 'the untouched payment settled');
  t.equal(value(after, 'obsim_resources', { resource: 'payment', state: 'paid' }), 2);
  t.equal(value(after, 'obsim_webhook_deliveries_total', { outcome: 'delivered' }), 2);

  await t.test("promtool check metrics: it parses, and obsim's own metrics pass its lint", { skip: promtoolMissing }, async (t) => {
    const check = spawnSync('promtool', ['check', 'metrics'], { input: r.text, encoding: 'utf8' });
    const problems = `${check.stdout}${check.stderr}`.split('\n').filter(Boolean);
    // prom-client names three of Node's gauges with _total (nodejs_active_handles_total, …): its
    // convention, not ours; promtool's lint says so, and nothing else
    t.same(
      problems.filter(
        (p) => !/^nodejs_active_(handles|requests|resources)_total non-counter metrics should not have "_total" suffix$/.test(p),
      ),
      [],
    );
    t.equal(check.error, undefined, 'promtool ran');
    // promtool exits 1 when the exposition does not parse, 3 when it parses with lint findings
    t.ok(check.status === 0 || check.status === 3, `it parses (promtool exit ${check.status})`);
    t.equal(check.status === 3, problems.length > 0, 'a lint finding is what made it exit 3');
  });
});

t.test('guarded when an admin key is set: the metrics token or the admin key', async (t) => {
  const app = await build(t, { config: { adminKey: 'admin-secret', metricsToken: 'scrape-secret' } });
  const refused = await scrape(app);
  t.equal(refused.status, 401);
  const body = JSON.parse(refused.text);
  t.same(schemaErrors('ErrorBody', body), []);
  t.equal(body.code, 'metrics_unauthorized');
  t.equal((await scrape(app, { authorization: 'Bearer wrong' })).status, 401);
  t.equal((await scrape(app, { authorization: 'Bearer scrape-secret-and-more' })).status, 401);
  t.equal((await scrape(app, { authorization: 'Bearer scrape-secret' })).status, 200, 'the metrics token');
  t.equal((await scrape(app, { authorization: 'Bearer admin-secret' })).status, 200, 'the admin key as the bearer');
  t.equal((await scrape(app, { 'x-obsim-admin-key': 'admin-secret' })).status, 200, 'the admin key header');
  t.equal(
    value((await scrape(app, { authorization: 'Bearer scrape-secret' })).samples, 'obsim_http_requests_total', {
      operation: 'getMetrics',
      status_class: '4xx',
    }),
    3,
    'refusals are counted too',
  );
});

t.test('guarded by a metrics token alone (no admin key): the token or nothing; the start says which guard is in force', async (t) => {
  const app = await build(t, { config: { metricsToken: 'scrape-secret' } });
  t.equal((await scrape(app)).status, 401, 'no token: refused');
  t.equal((await scrape(app, { authorization: 'Bearer wrong' })).status, 401, 'another token: refused');
  t.equal((await scrape(app, { authorization: 'Bearer scrape-secret' })).status, 200, 'the metrics token');
  t.match(app.startupNotes.join('\n'), /metrics: +GET \/metrics guarded: Authorization: Bearer <the metrics token>/);

  const open = await build(t);
  t.equal((await scrape(open)).status, 200, 'neither set: open');
  t.match(open.startupNotes.join('\n'), /metrics: +GET \/metrics open to anyone/);
  const both = await build(t, { config: { metricsToken: 'scrape-secret', adminKey: 'admin-secret' } });
  t.match(both.startupNotes.join('\n'), /guarded: Authorization: Bearer <the metrics token> or the admin key/);
});

t.test('--metrics off: no route, nothing counted', async (t) => {
  const app = await build(t, { config: { metrics: false } });
  const r = await app.inject({ method: 'GET', url: '/metrics' });
  t.equal(r.statusCode, 404);
  t.equal(app.hasDecorator('metrics'), false);
});

t.test('1,000 sandboxes created, used and deleted: the series stay bounded; a sandbox label only when asked', async (t) => {
  const app = await build(t);
  for (let i = 0; i < 1000; i++) {
    const created = await call(app, 'POST', '/_sandbox/sandboxes', {});
    const headers = {
      'x-partner-client-id': created.body.credentials.clientId,
      'x-partner-client-secret': created.body.credentials.clientSecret,
    };
    await call(app, 'GET', `/v1/partner/merchants?page=1&limit=1&junk=${i}`, undefined, headers);
    await call(app, 'GET', `/v1/partner/payments/${i}/status`, undefined, headers);
    await call(app, 'GET', `/unknown/${created.body.sandboxId}`, undefined, headers);
    if (i % 2) await call(app, 'DELETE', `/_sandbox/sandboxes/${created.body.sandboxId}`, undefined, headers);
  }
  const r = await scrape(app);
  t.ok(r.samples.length < 2000, `${r.samples.length} series for 1,000 sandboxes (under 2,000)`);
  t.notMatch(r.text, /sbx_/, 'no sandbox id in any label');
  t.notMatch(r.text, /\/unknown\//, 'no path in any label');
  t.equal(value(r.samples, 'obsim_sandboxes_created_total'), 1000);
  t.equal(value(r.samples, 'obsim_sandboxes_removed_total', { reason: 'deleted' }), 500);
  t.equal(value(r.samples, 'obsim_sandboxes'), 500);

  const labelled = await build(t, { config: { metricsSandboxLabel: true } });
  const s = await call(labelled, 'POST', '/_sandbox/sandboxes', {});
  const headers = { 'x-partner-client-id': s.body.credentials.clientId, 'x-partner-client-secret': s.body.credentials.clientSecret };
  await call(labelled, 'GET', '/v1/partner/merchants', undefined, headers);
  await call(labelled, 'GET', '/v1/partner/merchants', undefined, PARTNER);
  const l = (await scrape(labelled)).samples;
  t.equal(
    value(l, 'obsim_http_requests_total', { operation: 'listMerchants', sandbox: s.body.sandboxId }),
    1,
    'the created sandbox by its id',
  );
  t.equal(value(l, 'obsim_http_requests_total', { operation: 'listMerchants', sandbox: 'default' }), 1, "the configured partners' sandbox");
  t.equal((await call(labelled, 'DELETE', `/_sandbox/sandboxes/${s.body.sandboxId}`, undefined, headers)).status, 200);
  const gone = await scrape(labelled);
  t.notMatch(gone.text, new RegExp(s.body.sandboxId), 'a deleted sandbox leaves no series behind');
  t.equal(value(gone.samples, 'obsim_http_requests_total', { operation: 'listMerchants', sandbox: 'default' }), 1, 'the others stay');
});
