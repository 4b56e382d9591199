/**
 * docs/drift.md: every example runs as written — the scripted drift run prints the summary the page
 * says and writes its JUnit report, the report example prints what the page says against a shadow
 * of the test's, and the GitHub Actions job is valid YAML whose run step is a drift run.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { parse } from 'yaml';
import { startObsim } from '../../src/index.js';
import { startShadow } from '../../src/shadow/shadow.js';
import { docsPage, missingTools } from '../helpers/docs.js';
import { BIN } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(90_000));
const { block, printsLine } = docsPage('docs/drift.md');
const missing = missingTools('bash', 'curl', 'jq');
const skipShell = missing.length > 0 && !process.env.CI ? `${missing.join(', ')} not installed` : false;
const obsimCommand = [process.execPath, ...BIN].map((a) => `'${a}'`).join(' ');

t.test('the scripted drift run prints the summary the page says and writes drift.xml', { skip: skipShell }, async (t) => {
  const upstream = await startObsim();
  t.teardown(() => upstream.close());
  const dir = mkdtempSync(join(tmpdir(), 'obsim-docs-drift-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const script = block('drift-run-example', 'sh').replaceAll('npx obsim', obsimCommand);
  const run = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: dir,
    env: { ...process.env, UPSTREAM: upstream.baseUrl },
    encoding: 'utf8',
    timeout: scaled(60_000),
  });
  t.equal(run.stderr.trim(), printsLine('drift-run-example'));
  t.match(readFileSync(join(dir, 'drift.xml'), 'utf8'), /<testsuite name="exchanges"/);
});

t.test('the report example prints what the page says', { skip: skipShell }, async (t) => {
  const upstream = await startObsim();
  t.teardown(() => upstream.close());
  const shadow = await startShadow({ upstream: upstream.baseUrl });
  t.teardown(() => shadow.close());
  const run = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', block('shadow-report-example', 'sh')], {
    env: { ...process.env, SHADOW: shadow.url, REPORT: shadow.reportUrl },
    encoding: 'utf8',
    timeout: scaled(30_000),
  });
  t.equal(run.stdout.trim(), printsLine('shadow-report-example'));
});

t.test('the nightly job is valid YAML running obsim drift run with a JUnit report', async (t) => {
  const job = parse(block('drift-ci-example', 'yaml')) as { jobs: { drift: { steps: { run?: string; env?: object }[] } } };
  const step = job.jobs.drift.steps.find((s) => s.run?.includes('obsim drift run'));
  t.ok(step, 'a drift run step');
  t.match(step!.run!, /--format junit --out drift\.xml/);
  t.match(step!.env, { OBSIM_PARTNER_CLIENT_ID: String, OBSIM_PARTNER_CLIENT_SECRET: String });
});
