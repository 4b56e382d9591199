/**
 * `include` steps and `obsim scenario run --watch` (watchScenarios): an included file's steps
 * run in the including run (its variables carry over); cycles and missing files are refused at
 * load with the step that names them; a failure inside names the included file's step. Watching
 * a folder: a changed file re-runs that scenario only, a changed included file re-runs the ones
 * that include it, a new file is run, and only what changed in a result is printed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadScenarioFile } from '../../src/scenarios/loader.js';
import { runScenario } from '../../src/scenarios/runner.js';
import { injectTransport } from '../../src/scenarios/transport.js';
import { watchScenarios } from '../../src/scenarios/watch.js';
import { build } from '../helpers/app.js';
import { failure, runSteps } from '../helpers/scenarios.js';
import { scaled } from '../helpers/speed.js';

const SETUP = (company: string) => `name: setup-merchant
steps:
  - request:
      method: POST
      path: /v1/partner/merchants/test
      body: { companyName: "${company}" }
      capture: { merchant.clientId: clientId }
`;
const PAY = (amount: number) => `name: pay
steps:
  - include: shared/setup.yaml
  - request:
      method: POST
      path: /v1/partner/payments
      body: { merchantClientId: "\${merchant.clientId}", amount: 10, referenceNumber: "w-1" }
      expect: { body: { amount: ${amount} } }
`;

function folder(t: { teardown(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-watch-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

t.test('include: the included steps run in the same run; refusals name the step', async (t) => {
  const app = await build(t);
  const dir = folder(t);
  const shared = join(dir, 'shared');
  rmSync(shared, { recursive: true, force: true });
  writeFileSync(join(dir, 'pay.yaml'), PAY(10), { flag: 'w' });
  await import('node:fs').then((fs) => fs.mkdirSync(shared));
  writeFileSync(join(shared, 'setup.yaml'), SETUP('Included ApS'));
  const pay = loadScenarioFile(join(dir, 'pay.yaml'));
  t.same(pay.includes, [join(shared, 'setup.yaml')], 'the loader lists what a file includes');
  const passed = await runScenario(pay, { transport: injectTransport(app) });
  t.ok(passed.passed, failure(passed));
  t.match(passed.steps[0], { kind: 'include', label: 'shared/setup.yaml', detail: '1 steps of setup-merchant' });
  t.match(passed.steps[0].exchanges?.[0], { method: 'POST', path: '/v1/partner/merchants/test', status: 200 });

  writeFileSync(join(dir, 'pay.yaml'), PAY(11));
  const failed = await runScenario(loadScenarioFile(join(dir, 'pay.yaml')), { transport: injectTransport(app) });
  t.notOk(failed.passed);
  t.match(failed.steps[1].mismatches, [{ path: 'amount', expected: 11, actual: 10 }]);

  writeFileSync(join(shared, 'setup.yaml'), `${SETUP('X')}  - include: ../pay.yaml\n`);
  t.throws(() => loadScenarioFile(join(dir, 'pay.yaml')), {
    message: /step 2: include: \.\.\/pay\.yaml includes itself \(pay\.yaml → setup\.yaml → pay\.yaml\)/,
  });
  writeFileSync(
    join(shared, 'setup.yaml'),
    `${SETUP('X')}  - request: { method: POST, path: /v1/partner/payments, body: {}, expect: { status: 400 } }\n  - request: { method: GET, path: /nope, expect: { status: 200 } }\n`,
  );
  const inner = await runScenario(loadScenarioFile(join(dir, 'pay.yaml')), { transport: injectTransport(app) });
  t.match(
    failure(inner),
    /^shared\/setup\.yaml, step 3 \(request GET \/nope\): GET \/nope: expected status 200, got 404/,
    'a failure inside names the included file and its step',
  );
  writeFileSync(join(dir, 'pay.yaml'), PAY(10).replace('shared/setup.yaml', 'shared/missing.yaml'));
  t.throws(() => loadScenarioFile(join(dir, 'pay.yaml')), {
    message: /pay\.yaml: step 1: include: shared\/missing\.yaml: cannot read: ENOENT/,
  });

  const inline = await runSteps(app, [{ include: 'shared/setup.yaml' }]);
  t.match(failure(inline), /an inline scenario cannot include files/);
});

t.test('--watch: re-runs what changed and what includes it, prints only what changed', { timeout: scaled(60_000) }, async (t) => {
  const app = await build(t);
  const dir = folder(t);
  await import('node:fs').then((fs) => fs.mkdirSync(join(dir, 'shared')));
  writeFileSync(join(dir, 'shared', 'setup.yaml'), SETUP('Watched ApS'));
  writeFileSync(join(dir, 'pay.yaml'), PAY(10));
  writeFileSync(join(dir, 'clock.yaml'), 'name: clock\nsteps:\n  - advanceClock: 1s\n');
  const lines: string[] = [];
  const runs: number[] = [];
  const watching = await watchScenarios({
    transport: injectTransport(app),
    isolate: true,
    paths: [dir],
    write: (l) => lines.push(l),
    onRun: (results) => runs.push(results.length),
  });
  t.teardown(() => watching.close());
  t.same(
    watching.first.map((r) => [r.name, r.passed]),
    [
      ['clock', true],
      ['pay', true],
    ],
  );
  const next = async (n: number) => {
    const until = Date.now() + scaled(10_000);
    while (lines.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await watching.idle();
    return lines[n - 1] ?? '(nothing printed)';
  };

  writeFileSync(join(dir, 'pay.yaml'), PAY(11));
  t.match(
    await next(1),
    /re-ran 1 scenario: FAIL pay: step 2 \(request POST \/v1\/partner\/payments\): .*response body does not match — 1 passing, 1 failing$/,
  );
  writeFileSync(join(dir, 'shared', 'setup.yaml'), SETUP('Renamed ApS'));
  t.match(
    await next(2),
    /re-ran 1 scenario: no change — 1 passing, 1 failing$/,
    'the file that includes it re-ran; its result did not change',
  );
  writeFileSync(join(dir, 'pay.yaml'), PAY(10));
  t.match(await next(3), /re-ran 1 scenario: PASS pay \(was failing\) — 2 passing, 0 failing$/);
  writeFileSync(join(dir, 'new.yaml'), 'name: new-one\nsteps:\n  - request: { method: GET, path: /nope, expect: { status: 200 } }\n');
  t.match(await next(4), /re-ran 1 scenario: FAIL new-one \(new\): step 1 .*expected status 200, got 404 — 2 passing, 1 failing$/);
  t.equal(lines.length, 4, 'nothing else was printed');
  t.same(runs, [2, 2, 2, 2, 3], 'reports rewritten after every run');
});
