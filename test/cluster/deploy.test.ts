/**
 * The shipped deploy/ folder: the router configurations are current and HAProxy accepts them on a
 * machine where their host names do not resolve; the Compose file starts the router and three
 * shards with volumes that match those configurations; the Kubernetes manifests validate against
 * the Kubernetes API schemas (kubernetes-models), even though they cannot run here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { parse, parseAllDocuments } from 'yaml';
import { DEPLOY_SHARDS, deployConfigs } from '../../src/cluster/deploy.js';
import { ALERTS, PANELS } from '../../src/cluster/monitoring.js';
import { haproxyConfig } from '../../src/cluster/haproxy.js';
import { findExecutable } from '../../src/cluster/supervisor.js';
import { inCI } from '../helpers/browser.js';
import { haproxyMissing } from '../helpers/cluster.js';

const root = new URL('../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');
const promtoolMissing = findExecutable('promtool') ? false : inCI() ? false : 'promtool is not installed (apt-get install prometheus)';

t.test('the router configurations under deploy/ are current (else: npm run deploy:configs)', async (t) => {
  for (const [file, text] of Object.entries(deployConfigs())) t.equal(read(file), text, file);
});

const missing = haproxyMissing();
t.test('HAProxy accepts every configuration, host names unresolved', { skip: missing && !inCI() ? missing : false }, async (t) => {
  const haproxy = findExecutable('haproxy');
  if (!haproxy) return t.fail('haproxy must be installed in CI');
  for (const file of Object.keys(deployConfigs()).filter((f) => f.endsWith('.cfg'))) {
    const r = spawnSync(haproxy, ['-c', '-f', new URL(file, root).pathname], { encoding: 'utf8' });
    t.equal(r.status, 0, `${file}: ${r.stderr}`);
    t.match(r.stdout, /Configuration file is valid/);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('[WARNING]'));
    t.ok(
      warnings.every((w) => w.includes('could not resolve address')),
      `${file}: the only warnings are the names that resolve once the shards run`,
    );
  }
});

t.test('the router configuration refuses what would misroute', async (t) => {
  const shards = [
    { name: 's1', address: '127.0.0.1:1' },
    { name: 's1', address: '127.0.0.1:2' },
  ];
  t.throws(() => haproxyConfig({ bind: ':1', shards, designated: 's1' }), /named twice/);
  t.throws(() => haproxyConfig({ bind: ':1', shards: shards.slice(0, 1), designated: 's2' }), /designated shard "s2"/);
});

t.test('Compose: the router and one service per shard, each with its own volume and database', async (t) => {
  const compose = parse(read('deploy/compose/compose.yaml'), { merge: true }) as {
    services: Record<
      string,
      { image?: string; command?: string[]; volumes?: string[]; environment?: Record<string, string>; ports?: string[] }
    >;
    volumes: Record<string, unknown>;
  };
  const router = compose.services.router;
  t.match(router.image, /^haproxy:2\.6\./, 'the HAProxy line the cluster is tested with');
  t.same(router.ports, ['4010:4010']);
  t.ok(router.volumes?.includes('./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro'), 'mounts the generated configuration');
  const prometheus = compose.services.prometheus as { image?: string; volumes?: string[]; profiles?: string[] };
  t.match(prometheus.image, /^prom\/prometheus:v2\.42\./, 'Prometheus, the line the monitoring is tested with');
  t.same(prometheus.profiles, ['monitoring'], 'only with --profile monitoring');
  t.same(
    prometheus.volumes,
    ['./prometheus.yml:/etc/prometheus/prometheus.yml:ro', '../prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro'],
    'the generated scrape configuration and the shipped alert rules',
  );
  const scrape = read('deploy/compose/prometheus.yml');
  t.match(scrape, 'router:4010', 'Prometheus scrapes the router');
  const cfg = read('deploy/compose/haproxy.cfg');
  DEPLOY_SHARDS.forEach((name, i) => {
    const service = compose.services[`shard${i + 1}`];
    t.ok(service, `shard${i + 1}`);
    const argv = service.command!;
    t.equal(argv[argv.indexOf('--shard') + 1], name);
    t.equal(argv[argv.indexOf('--db') + 1], `/data/${name}.sqlite`);
    t.same(service.volumes, [`shard${i + 1}:/data`]);
    t.ok(`shard${i + 1}` in compose.volumes, 'a named volume');
    t.match(service.environment?.OBSIM_SHARD_PEERS, `${name}=http://shard${i + 1}:4010`);
    t.match(cfg, `server ${name} shard${i + 1}:4010 check`, 'the router reaches it by its service name');
    t.match(scrape, new RegExp(`- shard${i + 1}:4010\\n\\s+labels:\\n\\s+shard: ${name}`), 'and Prometheus scrapes it, labelled');
  });
});

t.test('the shipped Prometheus configurations and alert rules load in Prometheus (promtool)', { skip: promtoolMissing }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-promtool-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'alerts.yml'), read('deploy/prometheus/alerts.yml'));
  const rules = spawnSync('promtool', ['check', 'rules', join(dir, 'alerts.yml')], { encoding: 'utf8' });
  t.equal(rules.status, 0, rules.stdout + rules.stderr);
  t.match(rules.stdout, `SUCCESS: ${ALERTS.length} rules found`);
  for (const layout of ['compose', 'kubernetes']) {
    writeFileSync(join(dir, 'prometheus.yml'), read(`deploy/${layout}/prometheus.yml`));
    const config = spawnSync('promtool', ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8' });
    t.equal(config.status, 0, `${layout}: ${config.stdout}${config.stderr}`);
  }
  const dashboard = JSON.parse(read('deploy/grafana/obsim.json')) as { panels: { targets: { expr: string }[] }[] };
  t.same(
    dashboard.panels.map((p) => p.targets[0].expr),
    PANELS.map((p) => p.expr),
    'the Grafana dashboard queries what test/cluster/prometheus.test.ts runs',
  );
});

t.test('Kubernetes: the manifests validate against the API schemas and match the router configuration', async (t) => {
  const kustomization = parse(read('deploy/kubernetes/kustomization.yaml')) as {
    resources: string[];
    configMapGenerator: { name: string; files: string[] }[];
  };
  for (const file of [...kustomization.resources, ...kustomization.configMapGenerator.flatMap((g) => g.files)]) {
    t.ok(existsSync(new URL(`deploy/kubernetes/${file}`, root)), `${file} exists`);
  }
  const models: Record<string, string> = {
    'v1/Service': 'kubernetes-models/v1/Service',
    'apps/v1/StatefulSet': 'kubernetes-models/apps/v1/StatefulSet',
    'apps/v1/Deployment': 'kubernetes-models/apps/v1/Deployment',
  };
  const docs = parseAllDocuments(read('deploy/kubernetes/obsim.yaml')).map((d) => d.toJSON() as Record<string, any>);
  t.equal(docs.length, 4);
  for (const doc of docs) {
    const key = `${doc.apiVersion}/${doc.kind}`;
    const module = models[key];
    if (!module) {
      t.fail(`${key}: no schema to check it against`);
      continue;
    }
    const Model = Object.values((await import(module)) as Record<string, new (d: unknown) => { validate(): void }>)[0];
    t.doesNotThrow(() => new Model(doc).validate(), `${key} ${doc.metadata.name} validates`);
  }
  const shards = docs.find((d) => d.kind === 'StatefulSet')!;
  t.equal(shards.spec.replicas, DEPLOY_SHARDS.length);
  t.equal(shards.spec.serviceName, 'obsim-shard');
  const router = docs.find((d) => d.kind === 'Deployment')!;
  t.equal(router.spec.template.spec.volumes[0].configMap.name, kustomization.configMapGenerator[0].name);
  // the pod of ordinal N is shard s(N+1), reached by its stable name
  const cfg = read('deploy/kubernetes/haproxy.cfg');
  DEPLOY_SHARDS.forEach((name, i) => t.match(cfg, `server ${name} obsim-shard-${i}.obsim-shard:4010 check`));
  t.match(shards.spec.template.spec.containers[0].args[0], '--shard "s$(( ${HOSTNAME##*-} + 1 ))"');
});

t.test('a validation error is reported (the Kubernetes check can fail)', async (t) => {
  const { StatefulSet } = await import('kubernetes-models/apps/v1/StatefulSet');
  t.throws(() => new StatefulSet({ metadata: { name: 'x' }, spec: { replicas: 'three' } } as never).validate());
});
