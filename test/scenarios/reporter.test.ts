import t from 'tap';
import { consoleReporter } from '../../src/scenarios/reporter.js';
import type { ScenarioResult, StepResult } from '../../src/scenarios/runner.js';

const steps: StepResult[] = [
  {
    index: 1,
    kind: 'request',
    label: 'request POST /v1/partner/payments',
    status: 'passed',
    durationMs: 12,
    detail: 'POST /v1/partner/payments → 200',
  },
  {
    index: 2,
    kind: 'expectWebhook',
    label: 'expectWebhook payment.completed',
    status: 'failed',
    durationMs: 5000,
    message: 'expected a payment.completed delivery\n  no delivery at all was made to this webhook',
  },
  { index: 3, kind: 'wait', label: 'wait 1ms (real time)', status: 'skipped', durationMs: 0 },
];
const result: ScenarioResult = { name: 'demo', runId: 'r1', passed: false, durationMs: 5012, startedAt: '2026-01-15T09:00:00.000Z', steps };

function render(color: boolean, verbose = true, live = false): string {
  let out = '';
  const r = consoleReporter({ color, verbose, live, write: (s) => (out += s) });
  r.runStart?.({ total: 2, target: 'http://127.0.0.1:4010' });
  r.scenarioStart?.({ name: 'demo', description: 'A demo.', steps: [], file: 'scenarios/demo.yaml' }, 1, 2);
  for (const s of steps) {
    if (s.status !== 'skipped') r.stepStart?.(s, { name: 'demo', steps: [] });
    r.stepEnd?.(s, { name: 'demo', steps: [] });
  }
  r.scenarioEnd?.(result, 1, 2);
  r.runEnd?.([result, { ...result, name: 'ok', passed: true, steps: [] }], 6000);
  return out;
}

t.test('plain output: progress, one line per step, failure message indented, summary', async (t) => {
  const out = render(false);
  t.notMatch(out, /\u001b\[/, 'no escape codes');
  t.equal(
    out,
    [
      'Running 2 scenarios against http://127.0.0.1:4010',
      '',
      '[1/2] demo  scenarios/demo.yaml',
      '  A demo.',
      '  ✓  1. request POST /v1/partner/payments (12ms)',
      '        POST /v1/partner/payments → 200',
      '  ✗  2. expectWebhook payment.completed (5000ms)',
      '        expected a payment.completed delivery',
      '          no delivery at all was made to this webhook',
      '  -  3. wait 1ms (real time) (skipped)',
      '  FAIL demo (5012ms)',
      '',
      '✗ demo: step 2 (expectWebhook payment.completed)',
      '1 passed, 1 failed, 2 scenarios in 6000ms',
      '',
    ].join('\n'),
  );
  t.notMatch(render(false, false), /→ 200/, '--quiet drops the details');
});

t.test('colored output on a terminal', async (t) => {
  const out = render(true);
  t.match(out, /\u001b\[32m✓\u001b\[39m/, 'green tick');
  t.match(out, /\u001b\[31m✗\u001b\[39m/, 'red cross');
  const liveOut = render(true, true, true);
  t.match(
    liveOut,
    /… {2}1\. request POST \/v1\/partner\/payments\u001b\[22m\r\u001b\[2K {2}\u001b\[32m✓/,
    'the running step is shown, then replaced by its result',
  );
});
