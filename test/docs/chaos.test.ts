/**
 * docs/chaos.md: every example runs as written — the "Try it" block (bash, curl, jq) prints what
 * the page says, the profile is accepted and its shape is what the page says, the `obsim faults`
 * lines run, the code example prints what the page says, the scenario is valid and passes — and
 * every shipped profile has its section, every rule kind its row, every documented refusal is
 * the server's.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { defaultConfig } from '../../src/config.js';
import { API_FAULT_KINDS, WEBHOOK_FAULT_KINDS } from '../../src/domain/chaos.js';
import { SHIPPED_PROFILES } from '../../src/domain/chaos-profiles.js';
import { validateScenario } from '../../src/scenarios/loader.js';
import { startServer } from '../../src/server.js';
import { build } from '../helpers/app.js';
import { call } from '../helpers/partner.js';
import { docsPage, runTryIt, tryItSkip } from '../helpers/docs.js';
import { ROOT, runObsim, TSX } from '../helpers/processes.js';
import { failure, runSteps } from '../helpers/scenarios.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(180_000));
const { page, block, printed, printsLine } = docsPage('docs/chaos.md');

t.test('the Try it block prints what the page says', { skip: tryItSkip() }, async (t) => {
  t.equal(await runTryIt(t, block('chaos-example', 'sh')), printed('chaos-example'));
});

t.test('the profile example is accepted as the page describes it', async (t) => {
  const app = await build(t);
  const profile = parse(block('chaos-profile', 'yaml'));
  const r = await call(app, 'PUT', '/_sandbox/faults', profile);
  t.equal(r.status, 200, JSON.stringify(r.body));
  t.equal(r.body.seed, 20261126);
  t.same(
    r.body.rules.map((x: { kind: string }) => x.kind),
    ['latency', 'error', 'drop', 'webhook_duplicate'],
  );
});

t.test('every shipped profile has its section; every rule kind its row; the refusals are the server’s', async (t) => {
  for (const name of Object.keys(SHIPPED_PROFILES)) t.match(page, `\n### ${name}\n`, name);
  for (const kind of [...API_FAULT_KINDS, ...WEBHOOK_FAULT_KINDS]) t.match(page, `| \`${kind}\` |`, kind);
  const app = await build(t);
  const refusals: [unknown, string][] = [
    [
      {
        rules: [
          { kind: 'error', rate: 0.1, status: 503 },
          { kind: 'error', rate: 2, status: 503 },
        ],
      },
      '/rules/1/rate',
    ],
    [{ rules: [{ kind: 'error', rate: 1, status: 503, operation: 'deletePayment' }] }, '/rules/0/operation'],
    [{ rules: [{ kind: 'latency', rate: 1, latency: { distribution: 'fixed', ms: -1 } }] }, '/rules/0/latency/ms'],
    [{ rules: [{ kind: 'latency', rate: 1, latency: { distribution: 'uniform', minMs: 9, maxMs: 1 } }] }, '/rules/0/latency/maxMs'],
    [{ rules: [{ kind: 'error', rate: 1 }] }, '/rules/0/status'],
    [{ rules: [{ kind: 'webhook_drop', rate: 1, event: 'payment.lost' }] }, '/rules/0/event'],
    [{ rules: [{ kind: 'drop', rate: 1, window: { from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' } }] }, '/rules/0/window/to'],
    [{ profile: 'meteor' }, '/profile'],
    [{ rules: [] }, '/rules'],
  ];
  for (const [body, field] of refusals) {
    const r = await call(app, 'PUT', '/_sandbox/faults', body);
    t.equal(r.body.field, field);
    const row = page.split('\n').find((line) => line.includes(`| \`${field}\` |`));
    t.ok(row, `the table has ${field}`);
    // the message column's first example, up to an ellipsis
    const documented = /`([^`]*)`/.exec((row ?? '').split('|')[3] ?? '')?.[1]?.split('…')[0];
    t.ok(documented && r.body.message.startsWith(documented), `${field}: "${r.body.message}" as documented ("${documented}")`);
  }
});

t.test('the obsim faults lines run', async (t) => {
  const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent' }, () => undefined);
  t.teardown(() => server.close());
  const dir = mkdtempSync(join(tmpdir(), 'obsim-chaos-docs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'chaos.yaml'), block('chaos-profile', 'yaml'));
  for (const line of block('chaos-cli', 'sh').trim().split('\n')) {
    const args = line
      .split(' ')
      .slice(1)
      .map((a) => (a === 'chaos.yaml' ? join(dir, a) : a));
    const run = await runObsim(args, { env: { OBSIM_BASE_URL: server.url } });
    t.equal(run.code, 0, `${line}: ${run.stderr}`);
  }
});

t.test('the code example prints what the page says', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-chaos-code-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'example.mts');
  writeFileSync(file, block('chaos-code', 'ts').replace("from 'obsim'", `from '${join(ROOT, 'src/index.ts')}'`));
  const run = spawnSync(process.execPath, [...TSX, file], { cwd: ROOT, encoding: 'utf8', timeout: scaled(60_000) });
  t.equal(run.status, 0, run.stderr);
  t.equal(run.stdout.trim(), printsLine('chaos-code'));
});

t.test('the scenario is valid and passes on a fresh sandbox', async (t) => {
  const doc = parse(block('chaos-scenario', 'yaml')) as { name: string; steps: never[] };
  validateScenario(doc, 'checkout-through-an-outage.yaml');
  const app = await build(t);
  const result = await runSteps(app, doc.steps);
  t.equal(failure(result), '');
});
