/**
 * Scenarios in isolation: with `isolate`, each scenario runs in a fresh sandbox (its own data and
 * clock), deleted afterwards. The shipped suite run four at a time gives the same results, step for
 * step, as run one after another; the default sandbox's data and clock are untouched; no sandbox
 * is left behind. The control endpoint (`isolate: true`) and the command line (`--parallel`) too.
 */
import t from 'tap';
import { expandPaths, shippedScenariosDir } from '../../src/scenarios/loader.js';
import { runFiles, type ScenarioResult } from '../../src/scenarios/runner.js';
import { injectTransport } from '../../src/scenarios/transport.js';
import { build, PARTNER } from '../helpers/app.js';
import { call, count } from '../helpers/partner.js';
import { runObsim } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(240_000));

const outcome = (results: ScenarioResult[]) =>
  Object.fromEntries(results.map((r) => [r.name, { passed: r.passed, steps: r.steps.map((s) => s.status).join(''), error: r.error }]));

t.test('the shipped suite: four at a time, isolated, gives the serial results and leaves nothing behind', async (t) => {
  const app = await build(t);
  const clockBefore = (await call(app, 'GET', '/_sandbox/clock')).body.now;
  const merchantsBefore = count(app, 'merchants', 'partner_id = ?', 'sandbox-partner');
  const files = [shippedScenariosDir()];

  const serial = await runFiles(files, { transport: injectTransport(app), isolate: true });
  const parallel = await runFiles(files, { transport: injectTransport(app), isolate: true, parallel: 4 });
  t.equal(serial.length, expandPaths(files).length);
  t.ok(
    serial.every((r) => r.passed),
    serial
      .filter((r) => !r.passed)
      .map((r) => `${r.name}: ${r.error ?? r.steps.find((s) => s.message)?.message}`)
      .join('\n'),
  );
  t.same(outcome(parallel), outcome(serial), 'the same scenarios pass, step for step');
  t.same(
    parallel.map((r) => r.name),
    serial.map((r) => r.name),
    'results in file order',
  );

  t.equal((await call(app, 'GET', '/_sandbox/clock')).body.now, clockBefore, "the default sandbox's clock did not move");
  t.equal(count(app, 'merchants', 'partner_id = ?', 'sandbox-partner'), merchantsBefore, 'nor did its data');
  t.equal(count(app, 'sandboxes', 'deleted_at IS NULL'), 0, 'every scenario sandbox was deleted');
  t.equal(count(app, 'payments', "partner_id LIKE 'sbx_%'"), 0, 'with all its rows');
});

t.test('POST /_sandbox/scenarios/run with isolate: true', async (t) => {
  const app = await build(t);
  const clockBefore = (await call(app, 'GET', '/_sandbox/clock')).body.now;
  const res = await call(app, 'POST', '/_sandbox/scenarios/run', { name: 'payment-paid', isolate: true }, PARTNER);
  t.equal(res.status, 200);
  t.equal(res.body.passed, true, JSON.stringify(res.body.steps));
  t.equal((await call(app, 'GET', '/_sandbox/clock')).body.now, clockBefore, "the caller's clock did not move");
  t.equal(count(app, 'payments'), 0, 'its payment went with its sandbox');
  t.equal(count(app, 'sandboxes', 'deleted_at IS NULL'), 0);
});

t.test('obsim scenario run --in-process --parallel 3', async (t) => {
  const run = await runObsim([
    'scenario',
    'run',
    'payment-paid',
    'payment-expired',
    'merchant-standard-onboarding',
    '--in-process',
    '--parallel',
    '3',
    '--quiet',
  ]);
  t.equal(run.code, 0, run.stdout + run.stderr);
  t.match(run.stdout, /3 passed, 0 failed, 3 scenarios/);
  const bad = await runObsim(['scenario', 'run', 'payment-paid', '--parallel', '0']);
  t.equal(bad.code, 2);
  t.match(bad.stderr, /expected a number 1-64/);
});
