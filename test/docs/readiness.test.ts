/**
 * docs/readiness.md: every example runs as written — the "Try it" block (bash, curl, jq) prints
 * what the page says, the requirements file is the shipped one and valid, the scenario is valid
 * and passes, the `obsim report` lines run against a simulator, the code example prints what the
 * page says — and the page has a section for every smell (the report's docs links resolve) and
 * names every checklist item.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { parse } from 'yaml';
import { DEFAULT_ITEM_IDS } from '../../src/domain/readiness-checklist.js';
import { SMELL_CODES } from '../../src/domain/readiness-smells.js';
import { defaultConfig } from '../../src/config.js';
import { validateRequirements } from '../../src/readiness/requirements.js';
import { validateScenario } from '../../src/scenarios/loader.js';
import { startServer } from '../../src/server.js';
import { build } from '../helpers/app.js';
import { docsPage, missingTools } from '../helpers/docs.js';
import { ROOT, runObsim, TSX } from '../helpers/processes.js';
import { failure, runSteps } from '../helpers/scenarios.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(180_000));
const { page, block, printed, printsLine } = docsPage('docs/readiness.md');
const missing = missingTools('bash', 'curl', 'jq');

t.test(
  'the Try it block prints what the page says',
  { skip: missing.length > 0 && !process.env.CI ? `${missing.join(', ')} not installed` : false },
  async (t) => {
    const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent' }, () => undefined);
    t.teardown(() => server.close());
    const run = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', block('readiness-example', 'sh')], {
      env: { ...process.env, OBSIM: server.url },
      encoding: 'utf8',
      timeout: scaled(30_000),
    });
    t.equal(run.stdout, printed('readiness-example'));
  },
);

t.test('a section for every smell (the docs link of each resolves), every checklist item named', async (t) => {
  const slugs = [...page.matchAll(/^#{2,3} (.+)$/gm)].map((m) =>
    m[1]
      .toLowerCase()
      .replace(/[^a-z0-9 -]/g, '')
      .replace(/ /g, '-'),
  );
  for (const code of SMELL_CODES) {
    t.ok(slugs.includes(code.replace(/_/g, '-')), `#${code.replace(/_/g, '-')}`);
    t.match(page, `\`${code}\``);
  }
  for (const id of DEFAULT_ITEM_IDS) t.match(page, `| \`${id}\` |`, `checklist item ${id}`);
});

t.test('the requirements example is readiness/go-live.yaml, and valid', async (t) => {
  const example = block('readiness-requirements', 'yaml');
  t.equal(example, readFileSync(join(ROOT, 'readiness/go-live.yaml'), 'utf8'));
  t.equal(validateRequirements(parse(example), 'go-live.yaml').name, 'Payments go-live');
});

t.test('the scenario is valid and passes on a fresh sandbox', async (t) => {
  const doc = parse(block('readiness-scenario', 'yaml')) as { name: string; steps: never[] };
  validateScenario(doc, 'payments-coverage.yaml');
  const app = await build(t);
  const result = await runSteps(app, doc.steps);
  t.equal(failure(result), '');
  t.ok(result.passed);
});

t.test('the obsim report lines run: a report each (exit 0 or 1 by its verdict, never 2), files where they say', async (t) => {
  const server = await startServer({ ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent' }, () => undefined);
  t.teardown(() => server.close());
  const out = mkdtempSync(join(tmpdir(), 'obsim-readiness-docs-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  const lines = block('readiness-cli', 'sh').trim().split('\n');
  t.equal(lines.length, 3);
  for (const line of lines) {
    const args = line
      .split(' ')
      .slice(1)
      .map((a) => (a.startsWith('reports/') ? join(out, a) : a));
    const run = await runObsim(args, { env: { OBSIM_BASE_URL: server.url } });
    t.equal(run.code, 1, `${line}: unmet on a fresh server (exit 1)`);
    const file = args[args.indexOf('--out') + 1];
    if (args.includes('--out')) t.ok(readFileSync(file, 'utf8').length > 100, `${line}: wrote ${file}`);
  }
});

t.test('the code example prints what the page says', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-readiness-code-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'example.mts'); // an ES module outside the package
  writeFileSync(file, block('readiness-code', 'ts').replace("from 'obsim'", `from '${join(ROOT, 'src/index.ts')}'`));
  const run = spawnSync(process.execPath, [...TSX, file], { cwd: ROOT, encoding: 'utf8', timeout: scaled(60_000) });
  t.equal(run.status, 0, run.stderr);
  t.equal(run.stdout.trim(), printsLine('readiness-code'));
});
