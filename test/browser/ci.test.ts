/**
 * The browser tests skip without chromium on a developer machine, but FAIL in CI: a missing
 * browser must never turn the hosted-page tests silently green there. pages.test.ts is run as a
 * child process with OBSIM_CHROMIUM_PATH pointing at nothing and CI set or not.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { inCI } from '../helpers/browser.js';
import { TEST_NODE_ARGS } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

const ROOT = resolve(import.meta.dirname, '../..');
t.setTimeout(scaled(180_000));

function runPages(ci: string | undefined): Promise<{ code: number | null; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, OBSIM_CHROMIUM_PATH: '/nonexistent/obsim-test/chromium' };
  delete env.CI;
  // the child is a plain TAP producer, not under this tap runner
  for (const k of Object.keys(env)) if (k.startsWith('TAP')) delete env[k];
  if (ci !== undefined) env.CI = ci;
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [...TEST_NODE_ARGS, 'test/browser/pages.test.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`pages.test.ts did not finish:\n${out}`));
    }, 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out });
    });
  });
}

t.test('inCI: CI set to anything but empty, 0 or false', async (t) => {
  for (const v of ['true', '1', 'yes', 'TRUE', 'github']) t.ok(inCI({ CI: v }), `CI=${v}`);
  for (const v of [undefined, '', '0', 'false', 'False', ' ']) t.notOk(inCI({ CI: v }), `CI=${String(v)}`);
});

t.test('without chromium: skipped on a developer machine, a failure in CI', async (t) => {
  const local = await runPages(undefined);
  t.equal(local.code, 0, `no CI: exit 0\n${local.out}`);
  t.match(local.out, /# SKIP .*nonexistent\/obsim-test\/chromium is not installed/, 'skipped with the reason');
  t.notMatch(local.out, /^not ok/m);

  const ci = await runPages('true');
  t.not(ci.code, 0, `CI=true: the file fails\n${ci.out}`);
  t.match(
    ci.out,
    /not ok \d+ - \/nonexistent\/obsim-test\/chromium is not installed and CI is set \(CI=true\)/,
    'names the missing browser',
  );
});
