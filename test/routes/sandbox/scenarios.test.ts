import t from 'tap';
import { create } from 'xmlbuilder2';
import { build, json, PARTNER, schemaErrors } from '../../helpers/app.js';
import { junitXml } from '../../../src/scenarios/junit.js';
import { ScenarioLoadError } from '../../../src/scenarios/loader.js';
import { loadFailure } from '../../../src/scenarios/runner.js';
import { runSteps, TEST_MERCHANT } from '../../helpers/scenarios.js';
import { scaled } from '../../helpers/speed.js';

// generous: CI runs many test files at once on few cores (tap's default is 30 s per file)
t.setTimeout(scaled(180_000));

const app = await build(t);

/** The DOM subset used here (xmlbuilder2 parses into a DOM). */
interface El {
  nodeName: string;
  nodeType: number;
  textContent: string | null;
  childNodes: ArrayLike<El>;
  getAttribute(name: string): string | null;
}
const children = (el: El, name: string): El[] => Array.from(el.childNodes).filter((c) => c.nodeType === 1 && c.nodeName === name);

t.test('JUnit XML parses back: suites, testcases, failure with the diff, skipped steps, load errors', async (t) => {
  const passed = await runSteps(app, [TEST_MERCHANT, { wait: 1 }]);
  const failed = await runSteps(app, [
    TEST_MERCHANT,
    {
      name: 'status must be inactive',
      request: {
        method: 'GET',
        path: '/v1/partner/merchants/${merchant.id}/onboarding-status',
        expect: { body: { onboardingStatus: 'inactive' } },
      },
    },
    { wait: 1 },
  ]);
  const broken = loadFailure(new ScenarioLoadError('scenarios/bad.yaml', 'unknown step kind "sleep"', 3));
  const xml = junitXml([passed, failed, broken]);
  t.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>/);
  // parse back with xmlbuilder2's DOM (it decodes entities, as CI systems' parsers do)
  const root = create(xml).root().node as unknown as El;
  t.equal(root.nodeName, 'testsuites');
  t.equal(root.getAttribute('tests'), '6');
  t.equal(root.getAttribute('failures'), '2');
  t.equal(root.getAttribute('skipped'), '1');
  const suites = children(root, 'testsuite');
  t.equal(suites.length, 3);

  const [ok, bad, load] = suites;
  t.equal(ok.getAttribute('name'), 'inline-test');
  t.equal(ok.getAttribute('failures'), '0');
  const okCases = children(ok, 'testcase');
  t.same(
    okCases.map((c) => c.getAttribute('name')),
    ['01 request POST /v1/partner/merchants/test', '02 wait 1ms (real time)'],
  );
  t.ok(okCases.every((c) => c.getAttribute('classname') === 'inline-test' && /^\d+\.\d{3}$/.test(String(c.getAttribute('time')))));
  t.match(children(okCases[0], 'system-out')[0].textContent, /→ 200/);

  const badCases = children(bad, 'testcase');
  t.equal(bad.getAttribute('failures'), '1');
  t.equal(badCases[1].getAttribute('name'), '02 status must be inactive');
  const f = children(badCases[1], 'failure')[0];
  t.equal(f.getAttribute('type'), 'ExpectationFailed');
  t.match(f.getAttribute('message'), /response body does not match:/);
  t.match(f.textContent, /at onboardingStatus: differs\n\s+expected: "inactive"\n\s+actual: {3}"activated"/);
  t.equal(children(badCases[2], 'skipped').length, 1, 'the step after the failure is skipped');

  t.equal(load.getAttribute('name'), 'scenarios/bad.yaml');
  const loadCase = children(load, 'testcase')[0];
  t.equal(loadCase.getAttribute('name'), 'load');
  t.equal(children(loadCase, 'failure')[0].getAttribute('message'), 'scenarios/bad.yaml: step 3: unknown step kind "sleep"');
});

t.test('POST /_sandbox/scenarios/run: a shipped scenario by name', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: '/_sandbox/scenarios/run',
    headers: PARTNER,
    payload: { name: 'webhook-test-delivery' },
  });
  t.equal(res.statusCode, 200);
  const body = json(res);
  t.same(schemaErrors('SandboxScenarioRunResult', body), []);
  t.equal(body.passed, true);
  t.equal(body.name, 'webhook-test-delivery');
  t.ok(body.steps.every((s: { status: string }) => s.status === 'passed'));
});

t.test('POST /_sandbox/scenarios/run: an inline scenario that fails is 200 with the failed step', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: '/_sandbox/scenarios/run',
    headers: PARTNER,
    payload: {
      vars: { merchantId: 987654 },
      scenario: {
        name: 'inline',
        steps: [
          { request: { method: 'GET', path: '/v1/partner/merchants/${merchantId}/onboarding-status', expect: { status: 200 } } },
          { wait: 1 },
        ],
      },
    },
  });
  t.equal(res.statusCode, 200);
  const body = json(res);
  t.same(schemaErrors('SandboxScenarioRunResult', body), []);
  t.equal(body.passed, false);
  t.match(body.steps[0], { index: 1, kind: 'request', status: 'failed', message: /expected status 200, got 404/ });
  t.match(body.steps[1], { status: 'skipped' });
});

t.test('POST /_sandbox/scenarios/run: bad requests', async (t) => {
  const invalid = await app.inject({
    method: 'POST',
    url: '/_sandbox/scenarios/run',
    headers: PARTNER,
    payload: { scenario: { name: 'x', steps: [{ sleep: 1 }] } },
  });
  t.equal(invalid.statusCode, 400);
  t.match(json(invalid), { code: 'validation_failed', message: /scenario: step 1: unknown step kind "sleep"/ });
  t.equal(json(invalid).field, '/scenario/steps/0/sleep', 'the unknown step kind itself');
  t.same(schemaErrors('ErrorBody', json(invalid)), []);

  const unknown = await app.inject({
    method: 'POST',
    url: '/_sandbox/scenarios/run',
    headers: PARTNER,
    payload: { name: 'no-such-scenario' },
  });
  t.equal(unknown.statusCode, 404);
  t.match(json(unknown), { code: 'scenario_not_found', field: 'name' });

  const both = await app.inject({
    method: 'POST',
    url: '/_sandbox/scenarios/run',
    headers: PARTNER,
    payload: { name: 'payment-paid', scenario: { name: 'x', steps: [{ wait: 1 }] } },
  });
  t.equal(both.statusCode, 400);
  const neither = await app.inject({ method: 'POST', url: '/_sandbox/scenarios/run', headers: PARTNER, payload: {} });
  t.equal(neither.statusCode, 400);
  t.match(json(neither), { code: 'validation_failed', message: /exactly one of "name" or "scenario"/ });

  const long = await app.inject({
    method: 'POST',
    url: '/_sandbox/scenarios/run',
    headers: PARTNER,
    payload: { scenario: { name: 'long', steps: Array.from({ length: 101 }, () => ({ wait: 0 })) } },
  });
  t.equal(long.statusCode, 400);
  t.match(json(long), { field: '/scenario/steps', message: /at most 100 steps/ });

  const anon = await app.inject({ method: 'POST', url: '/_sandbox/scenarios/run', payload: { name: 'payment-paid' } });
  t.equal(anon.statusCode, 401);
});

t.test('GET /_sandbox/scenarios lists the shipped scenarios', async (t) => {
  const res = await app.inject({ method: 'GET', url: '/_sandbox/scenarios', headers: PARTNER });
  t.equal(res.statusCode, 200);
  const body = json(res);
  t.same(schemaErrors('SandboxScenarioList', body), []);
  t.ok(body.items.some((s: { name: string; steps: number }) => s.name === 'payment-paid' && s.steps > 3));
});
