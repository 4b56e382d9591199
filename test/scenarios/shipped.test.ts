/**
 * Every shipped scenario runs in-process (npm test), on one simulator: they create uniquely named
 * data and watch their own webhooks, so they do not interfere. A few also run against a real
 * listening server over HTTP (the way `obsim scenario run --base-url` does), one with --receiver.
 */
import t from 'tap';
import { build } from '../helpers/app.js';
import { expandPaths, loadScenarioFile, shippedScenariosDir } from '../../src/scenarios/loader.js';
import { startReceiver } from '../../src/scenarios/receiver.js';
import { runScenario } from '../../src/scenarios/runner.js';
import { httpTransport, injectTransport } from '../../src/scenarios/transport.js';
import { failure } from './util.js';

// generous: CI runs many test files at once on few cores (tap's default is 30 s per file)
t.setTimeout(180_000);

const files = expandPaths([shippedScenariosDir()]);

t.test('every shipped scenario passes in-process', async (t) => {
  const app = await build(t);
  const transport = injectTransport(app);
  for (const file of files) {
    const scenario = loadScenarioFile(file);
    const result = await runScenario(scenario, { transport });
    t.ok(result.passed, `${scenario.name}${result.passed ? '' : `: ${failure(result)}`}`);
    t.ok(result.steps.every((s) => s.status === 'passed'), `${scenario.name}: all ${result.steps.length} steps passed`);
  }
});

t.test('scenarios run twice against the same simulator (unique data, own webhooks)', async (t) => {
  const app = await build(t);
  const transport = injectTransport(app);
  for (const name of ['payment-paid', 'merchant-standard-onboarding', 'consent-authorized-read']) {
    const scenario = loadScenarioFile(files.find((f) => f.includes(name))!);
    for (const round of [1, 2]) {
      const r = await runScenario(scenario, { transport });
      t.ok(r.passed, `${name} round ${round} ${failure(r)}`);
    }
  }
});

t.test('a few scenarios against a real listening server over HTTP', async (t) => {
  const app = await build(t);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const transport = httpTransport(address);
  for (const name of ['payment-paid', 'payment-failed-bank-rejected', 'merchant-fast-track', 'consent-expired-by-clock', 'webhook-test-delivery']) {
    const r = await runScenario(loadScenarioFile(files.find((f) => f.endsWith(`${name}.yaml`))!), { transport });
    t.ok(r.passed, `${name} over HTTP ${failure(r)}`);
  }

  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const r = await runScenario(loadScenarioFile(files.find((f) => f.endsWith('merchant-deactivated-reactivated.yaml'))!), { transport, receiver });
  t.ok(r.passed, `with a real receiver ${failure(r)}`);
  t.ok(receiver.deliveries.length >= 2, `the receiver got ${receiver.deliveries.length} signed deliveries`);
});
