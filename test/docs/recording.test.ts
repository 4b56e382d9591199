/**
 * docs/scenarios-and-cli.md "Recording a session": the example prints what the page says, and
 * the recording it prints passes when run with --isolate on a fresh sandbox.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { defaultConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { docsPage, missingTools } from '../helpers/docs.js';
import { runObsim } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(120_000));
const { block, printed } = docsPage('docs/scenarios-and-cli.md');
const missing = missingTools('bash', 'curl', 'jq');

t.test(
  'the recording example prints what the page says, and the recording replays',
  { skip: missing.length > 0 && !process.env.CI ? `${missing.join(', ')} not installed` : false },
  async (t) => {
    const server = await startServer(
      { ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent', clockFrozen: true, clockStart: '2026-03-02T09:30:00.000Z' },
      () => undefined,
    );
    t.teardown(() => server.close());
    const run = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', block('record-example', 'sh')], {
      env: { ...process.env, OBSIM: server.url },
      encoding: 'utf8',
      timeout: scaled(30_000),
    });
    t.equal(run.stdout, printed('record-example'));
    const dir = mkdtempSync(join(tmpdir(), 'obsim-docs-record-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'checkout.yaml'), run.stdout);
    const replay = await runObsim(['scenario', 'run', join(dir, 'checkout.yaml'), '--isolate', '--quiet'], {
      env: { OBSIM_BASE_URL: server.url },
    });
    t.equal(replay.code, 0, replay.stdout);
  },
);
