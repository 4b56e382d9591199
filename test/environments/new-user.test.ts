/**
 * What a new user does first, with the build a fresh clone makes (`npm ci` builds dist/), on
 * whichever Node runs the suite (CI runs this file on Node 24 in the whole suite and again on
 * Node 22 in its compatibility pass, `npm run test:compat`):
 *
 * - `npm start`'s command (`node dist/src/bin.js serve`) on a database file, so the WAL
 *   checkpointer's worker thread runs too;
 * - the README's quick start, verbatim, with curl and jq;
 * - one shipped scenario run against it, and one run in-process (a command that opens its own
 *   database and exits);
 * - the readiness report (read by its own worker thread);
 * - SIGTERM: exit 0, the WAL checkpointed away, and no abort at exit from the SQLite driver (its
 *   statements finalised while Node tears the process down: what aborted on Node 24 before
 *   better-sqlite3 13).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import { verify } from '../../src/webhooks/sign.js';
import { docsPage, missingTools } from '../helpers/docs.js';
import { startCmd } from '../helpers/process.js';
import { runObsim } from '../helpers/processes.js';
import { startReceiver } from '../helpers/receiver.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(180_000));

/** What Node or the driver print when a process dies at exit instead of leaving cleanly. */
const CRASH = /Assertion failed|Aborted|Segmentation fault|FATAL ERROR|node::/;
const missing = missingTools('bash', 'curl', 'jq');

t.test(
  'npm start, the README quick start, a scenario, the readiness report, a clean stop',
  { skip: missing.length > 0 && !process.env.CI ? `${missing.join(', ')} not installed` : false },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'obsim-new-user-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'obsim.sqlite');
    const server = await startCmd(['node', 'dist/src/bin.js', 'serve'], { HOST: '127.0.0.1', PORT: '0', OBSIM_DB: db, NO_COLOR: '1' });
    t.teardown(() => void server.child.kill('SIGKILL'));
    t.ok(existsSync(`${db}-wal`), 'the database file is open in WAL mode');

    const rx = await startReceiver(t);
    const readme = docsPage('README.md').block('quickstart', 'sh');
    const script = readme.replace(/http:\/\/127\.0\.0\.1:9000/g, rx.url);
    const run = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
      env: { ...process.env, OBSIM: server.url },
      encoding: 'utf8',
      timeout: scaled(30_000),
    });
    t.ok(
      run.stdout.endsWith('paid\npayment.completed\n'),
      `the quick start prints paid and payment.completed (got ${JSON.stringify(run.stdout.slice(-60))})`,
    );
    const [delivery] = await rx.waitFor(1);
    t.equal(delivery.json?.event, 'payment.completed', 'the receiver got the delivery');
    const secret = /"secret":"(whsec_[0-9a-f]+)"/.exec(run.stdout)?.[1];
    t.ok(
      secret && verify(secret, delivery.raw, delivery.headers['x-webhook-signature'] as string),
      'signed with the webhook secret the quick start printed',
    );

    const scenario = await runObsim(['scenario', 'run', 'payment-paid', '--base-url', server.url]);
    t.equal(
      scenario.code,
      0,
      `obsim scenario run payment-paid exits 0${scenario.code === 0 ? '' : `\n${scenario.stdout}${scenario.stderr}`}`,
    );
    t.match(scenario.stdout, /1 passed, 0 failed, 1 scenario/, 'a shipped scenario passes against the server');

    const report = await fetch(`${server.url}/_sandbox/report`, {
      headers: { 'X-Partner-Client-Id': 'sandbox-partner', 'X-Partner-Client-Secret': 'sandbox-secret' },
    });
    t.equal(report.status, 200, 'the readiness report answers (read by its worker thread)');
    t.match(await report.json(), { operations: Array }, 'with the operations the quick start called');

    server.child.kill('SIGTERM');
    const exit = await server.exited;
    t.same(exit, { code: 0, signal: null }, 'SIGTERM: exit 0');
    t.notMatch(server.stderr(), CRASH, 'nothing printed by a crash at exit');
    t.notOk(existsSync(`${db}-wal`), 'the WAL was checkpointed and removed: the database closed cleanly');

    const inProcess = await runObsim(['scenario', 'run', 'payment-paid', '--in-process']);
    t.equal(inProcess.code, 0, 'a command that opens its own database exits 0');
    t.match(inProcess.stdout, /1 passed, 0 failed, 1 scenario/);
    t.notMatch(inProcess.stderr, CRASH, 'and exits without a crash');
  },
);
