/**
 * The shipped monitoring against a real Prometheus (docs/operations.md): `obsim cluster` writes a
 * scrape configuration and alert rules into its data folder; a Prometheus 2.42 started on them
 * (intervals shortened to a second, every rule's `for` to 0 s) scrapes the router's exporter and
 * the three shards, every panel of the shipped Grafana dashboard and every alert's measure
 * returns data, and the alerts fire for what they name: webhook deliveries failing, the journal
 * dropping its oldest entries, a shard that stops answering.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { parse, stringify } from 'yaml';
import { ALERTS, PANELS, alertRules, prometheusConfig } from '../../src/cluster/monitoring.js';
import { findExecutable } from '../../src/cluster/supervisor.js';
import { inCI } from '../helpers/browser.js';
import { freePorts, haproxyMissing, routerCall, startTestCluster } from '../helpers/cluster.js';
import { startReceiver } from '../helpers/receiver.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(180_000));

const missing = haproxyMissing() || (findExecutable('prometheus') ? false : 'prometheus is not installed (apt-get install prometheus)');
if (missing && inCI()) t.fail(`${missing}: in CI the monitoring test must run (.ci/run installs both)`);

interface PromResult {
  metric: Record<string, string>;
  value: [number, string];
}

/** A Prometheus on `config`, its storage in a temporary folder; stopped at teardown. */
async function startPrometheus(t: Test, configFile: string): Promise<{ url: string; log: () => string }> {
  const storage = mkdtempSync(join(tmpdir(), 'obsim-prometheus-'));
  const port = await freePorts(1);
  let log = '';
  const child = spawn(
    'prometheus',
    [`--config.file=${configFile}`, `--storage.tsdb.path=${storage}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr.on('data', (c: Buffer) => (log += c.toString()));
  t.teardown(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(storage, { recursive: true, force: true });
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + scaled(30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prometheus exited: ${log}`);
    try {
      if ((await fetch(`${url}/-/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`prometheus not ready: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, log: () => log };
}

t.test(
  'Prometheus scrapes a cluster with the shipped configuration; panels answer and alerts fire',
  { skip: missing && !inCI() ? missing : false },
  async (t) => {
    const cluster = await startTestCluster(t, { OBSIM_JOURNAL_MAX_ENTRIES: '20' });
    const call = routerCall(cluster.url);
    const port = Number(new URL(cluster.url).port);

    // ---------------------------------------------------- what obsim cluster wrote
    const shipped = readFileSync(join(cluster.dataDir, 'prometheus.yml'), 'utf8');
    t.equal(
      shipped,
      prometheusConfig(
        { router: `127.0.0.1:${port}`, shards: cluster.shards.map((s) => ({ name: s.name, address: `127.0.0.1:${s.port}` })) },
        'alerts.yml',
      ),
      'the data folder holds the scrape configuration of this cluster',
    );
    t.equal(readFileSync(join(cluster.dataDir, 'alerts.yml'), 'utf8'), alertRules(), 'and the alert rules');

    // the same files, faster: a second between scrapes and evaluations, every rule firing at once
    const config = parse(shipped);
    config.global = { scrape_interval: '1s', scrape_timeout: '900ms', evaluation_interval: '1s' };
    config.rule_files = [join(cluster.dataDir, 'alerts-fast.yml')];
    writeFileSync(join(cluster.dataDir, 'prometheus-fast.yml'), stringify(config));
    const rules = parse(readFileSync(join(cluster.dataDir, 'alerts.yml'), 'utf8'));
    for (const rule of rules.groups[0].rules) rule.for = '0s';
    writeFileSync(join(cluster.dataDir, 'alerts-fast.yml'), stringify(rules, { lineWidth: 0 }));
    const prometheus = await startPrometheus(t, join(cluster.dataDir, 'prometheus-fast.yml'));

    const query = async (promql: string): Promise<PromResult[]> => {
      const res = await fetch(`${prometheus.url}/api/v1/query?query=${encodeURIComponent(promql)}`);
      const body = (await res.json()) as { status: string; data: { result: PromResult[] }; error?: string };
      if (body.status !== 'success') throw new Error(`${promql}: ${body.error}`);
      return body.data.result;
    };
    const firing = async (): Promise<{ labels: Record<string, string>; state: string }[]> => {
      const res = await fetch(`${prometheus.url}/api/v1/alerts`);
      const body = (await res.json()) as { data: { alerts: { labels: Record<string, string>; state: string }[] } };
      return body.data.alerts.filter((a) => a.state === 'firing');
    };
    /** Poll `check` every half second while `work` keeps traffic going, until it holds or 40 s pass. */
    const eventually = async (what: string, check: () => Promise<boolean>, work: () => Promise<void> = async () => {}) => {
      const deadline = Date.now() + scaled(40_000);
      for (;;) {
        await work();
        if (await check()) return true;
        if (Date.now() > deadline) {
          t.fail(`${what}: not within 40 s (prometheus: ${prometheus.log().slice(-2000)})`);
          return false;
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    };

    // ---------------------------------------------------- traffic on every shard: payments, failing webhooks
    const failing = await startReceiver(t, (_req, res) => res.writeHead(500).end('receiver broken'));
    const sandboxes: { shard: string; headers: Record<string, string>; hook: string; merchant: string }[] = [];
    for (let i = 0; i < 30 && new Set(sandboxes.map((s) => s.shard)).size < 3; i++) {
      const r = await call('POST', '/_sandbox/sandboxes', {}, { clock: { frozen: true } });
      t.equal(r.status, 200, r.text);
      const headers = { 'x-partner-client-id': r.json.credentials.clientId, 'x-partner-client-secret': r.json.credentials.clientSecret };
      const m = await call('POST', '/v1/partner/merchants/test', headers, { companyName: 'Watched' });
      const wh = await call('POST', '/v1/partner/webhooks', headers, { url: failing.url, events: ['payment.completed'] });
      t.equal(wh.status, 200, wh.text);
      sandboxes.push({ shard: r.json.shard, headers, hook: wh.json.id, merchant: m.json.clientId });
    }
    t.same([...new Set(sandboxes.map((s) => s.shard))].sort(), ['s1', 's2', 's3'], 'every shard owns a sandbox');
    let round = 0;
    const traffic = async () => {
      round++;
      for (const s of sandboxes) {
        await call('POST', `/v1/partner/webhooks/${s.hook}/test`, s.headers);
        const p = await call('POST', '/v1/partner/payments', s.headers, {
          merchantClientId: s.merchant,
          amount: 1 + round,
          referenceNumber: `R-${round}`,
        });
        await call('GET', `/v1/partner/payments/${p.json.paymentId}/status`, s.headers);
      }
    };

    await t.test('every target is up: the router (HAProxy exporter) and three shards', async (t) => {
      await eventually('four targets up', async () => (await query('up')).filter((r) => r.value[1] === '1').length === 4, traffic);
      const up = await query('up');
      t.same(up.map((r) => r.metric.job).sort(), ['obsim-router', 'obsim-shards', 'obsim-shards', 'obsim-shards']);
      t.same(
        up
          .filter((r) => r.metric.job === 'obsim-shards')
          .map((r) => r.metric.shard)
          .sort(),
        ['s1', 's2', 's3'],
        "each shard's series carry its shard label",
      );
      const resources = await query('obsim_resources{resource="merchant"}');
      t.ok(
        resources.every((r) => ['s1', 's2', 's3'].includes(r.metric.shard)),
        'honor_labels keeps the shard the process set',
      );
    });

    await t.test("every panel of the dashboard and every alert's measure returns data", async (t) => {
      for (const { title, expr } of [
        ...PANELS.map((p) => ({ title: p.title, expr: p.expr })),
        ...ALERTS.map((a) => ({ title: a.alert, expr: a.measure })),
      ]) {
        const ok = await eventually(title, async () => (await query(expr)).length > 0, traffic);
        t.ok(ok, `${title}: ${expr}`);
      }
      const payments = await query('sum(obsim_resources{resource="payment",state="pending"})');
      t.ok(Number(payments[0].value[1]) >= 3, 'payments by state come from the shards');
    });

    await t.test('webhook failures and the journal dropping fire their alerts', async (t) => {
      const names = async () => new Set((await firing()).map((a) => a.labels.alertname));
      t.ok(await eventually('ObsimWebhookFailuresRising firing', async () => (await names()).has('ObsimWebhookFailuresRising'), traffic));
      t.ok(await eventually('ObsimJournalDropping firing', async () => (await names()).has('ObsimJournalDropping'), traffic));
      const webhookAlert = (await firing()).filter((a) => a.labels.alertname === 'ObsimWebhookFailuresRising');
      t.ok(
        webhookAlert.every((a) => a.labels.severity === 'warning' && /^s[123]$/.test(a.labels.shard)),
        'labelled with the shard and severity',
      );
      t.notOk((await names()).has('ObsimShardDown'), 'no shard is down yet');
    });

    await t.test('a shard that stops answering fires ObsimShardDown, and recovers', async (t) => {
      const victim = cluster.shards.find((s) => s.name === 's2')!;
      victim.child!.kill('SIGSTOP');
      try {
        t.ok(
          await eventually('ObsimShardDown firing for s2', async () =>
            (await firing()).some((a) => a.labels.alertname === 'ObsimShardDown' && a.labels.shard === 's2'),
          ),
        );
        t.notOk(
          (await firing()).some((a) => a.labels.alertname === 'ObsimShardDown' && a.labels.shard !== 's2'),
          'only the stopped shard',
        );
      } finally {
        victim.child!.kill('SIGCONT');
      }
      t.ok(await eventually('s2 up again', async () => (await query('up{shard="s2"}'))[0]?.value[1] === '1'));
    });
  },
);
