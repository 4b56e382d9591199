/**
 * docs/operations.md: every example runs as written — the metrics and traces blocks (bash, curl,
 * jq) print what the page says, the single-process scrape configuration loads in promtool, the
 * OpenTelemetry command line exports spans to an OTLP receiver — and the page names every metric
 * obsim exposes and every alert it ships.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { ALERTS } from '../../src/cluster/monitoring.js';
import { findExecutable } from '../../src/cluster/supervisor.js';
import { defaultConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { inCI } from '../helpers/browser.js';
import { docsPage, missingTools } from '../helpers/docs.js';
import { startCmd } from '../helpers/process.js';
import { startReceiver } from '../helpers/receiver.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(90_000));
const { page, block, printed, printsLine } = docsPage('docs/operations.md');
const missing = missingTools('bash', 'curl', 'jq');
const skipShell = missing.length > 0 && !process.env.CI ? `${missing.join(', ')} not installed` : false;

async function runBlock(t: { teardown(fn: () => unknown): void }, name: string, replace: (s: string) => string = (s) => s) {
  const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent' }, () => undefined);
  t.teardown(() => server.close());
  const run = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', replace(block(name, 'sh'))], {
    env: { ...process.env, OBSIM: server.url },
    encoding: 'utf8',
    timeout: scaled(30_000),
  });
  return run.stdout;
}

t.test('the metrics example prints what the page says', { skip: skipShell }, async (t) => {
  t.equal(await runBlock(t, 'metrics-example'), printed('metrics-example'));
});

t.test('the traces example prints what the page says (the webhook to a receiver of the test)', { skip: skipShell }, async (t) => {
  const rx = await startReceiver(t);
  const out = await runBlock(t, 'traces-example', (s) => s.replace('http://127.0.0.1:9000/hooks', rx.url));
  t.equal(out, `${printsLine('traces-example')}\n`);
  t.match(
    String(rx.received[0]?.headers.traceparent),
    new RegExp(`^00-${printsLine('traces-example')}-`),
    'the receiver got it in that trace',
  );
});

t.test(
  'the single-process scrape configuration loads in Prometheus (promtool)',
  { skip: findExecutable('promtool') ? false : inCI() ? false : 'promtool is not installed' },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'obsim-docs-prometheus-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'prometheus.yml'), block('prometheus-single', 'yaml'));
    const r = spawnSync('promtool', ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8' });
    t.equal(r.status, 0, r.stdout + r.stderr);
  },
);

t.test('the OpenTelemetry command line exports spans (the endpoint pointed at a receiver of the test)', async (t) => {
  const line = block('otel-example', 'sh').trim();
  const m = /^((?:[A-Z_]+=\S+ )+)npx obsim serve$/.exec(line);
  t.ok(m, 'environment assignments, then npx obsim serve');
  const env = Object.fromEntries(
    m![1]
      .trim()
      .split(' ')
      .map((a) => a.split('=') as [string, string]),
  );
  const services: string[] = [];
  const collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const rs of body.resourceSpans ?? [])
        services.push(rs.resource.attributes.find((a: { key: string }) => a.key === 'service.name').value.stringValue);
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  t.teardown(() => collector.close());
  const server = await startCmd(['node', 'dist/src/bin.js', 'serve'], {
    ...env,
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
    OTEL_BSP_SCHEDULE_DELAY: '50',
    HOST: '127.0.0.1',
    PORT: '0',
    OBSIM_DB: ':memory:',
  });
  t.teardown(() => server.child.kill('SIGKILL'));
  await fetch(`${server.url}/healthz`).then((r) => r.text());
  const deadline = Date.now() + scaled(10_000);
  while (services.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  t.equal(services[0], env.OTEL_SERVICE_NAME, 'spans arrive, named as the command line says');
});

t.test('the page names every metric obsim exposes and every alert it ships', async (t) => {
  const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent' }, () => undefined);
  t.teardown(() => server.close());
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const own = [...text.matchAll(/^# TYPE (obsim_\S+) /gm)].map((m) => m[1]);
  t.ok(own.length >= 15, `${own.length} obsim metrics`);
  for (const name of own) t.match(page, `| \`${name}\` |`, `${name} in the metrics table`);
  for (const alert of ALERTS) t.match(page, `| \`${alert.alert}\` |`, `${alert.alert} in the alerts table`);
});
