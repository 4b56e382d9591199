/**
 * The faults step (docs/chaos.md "In a scenario"): a scenario puts a profile in force with a
 * recorded seed and sees, run after run, the same faults; `clear` ends them; a bad profile is
 * refused with its JSON pointer.
 */
import t from 'tap';
import { createFaultDecider, type ApiRule } from '../../src/domain/chaos.js';
import type { Step } from '../../src/scenarios/types.js';
import { build } from '../helpers/app.js';
import { failure, runSteps, TEST_MERCHANT } from '../helpers/scenarios.js';

const RULE: ApiRule = { kind: 'error', operation: 'createPayment', rate: 0.5, status: 503 };
const SEED = 20261126;
const pay = (status: number): Step => ({
  request: {
    method: 'POST',
    path: '/v1/partner/payments',
    body: { merchantClientId: '${merchant.clientId}', amount: 25, referenceNumber: 'chaos-${unique}' },
    expect: { status },
  },
});

t.test('a recorded seed replays the same faults, run after run, in a fresh sandbox each time', async (t) => {
  // what the seed gives the first eight payments (the same decisions the server makes)
  const decider = createFaultDecider({ seed: SEED, rules: [RULE] });
  const statuses = Array.from({ length: 8 }, () =>
    decider.api({ operationId: 'createPayment', route: 'POST /v1/partner/payments' }, 0) ? 503 : 200,
  );
  t.ok(statuses.includes(503) && statuses.includes(200), `the seed gives both (${statuses.join(' ')})`);
  const steps: Step[] = [TEST_MERCHANT, { faults: { seed: SEED, rules: [RULE] } }, ...statuses.map(pay), { faults: 'clear' }, pay(200)];
  for (const run of [1, 2]) {
    const app = await build(t);
    const result = await runSteps(app, steps);
    t.equal(failure(result), '', `run ${run}: every payment answered as the seed says`);
    t.match(result.steps[1], { status: 'passed', detail: `seed ${SEED}, 1 rule(s) in force` });
    t.match(result.steps[10], { status: 'passed', detail: 'no fault profile' });
  }
});

t.test('a shipped profile by name; a bad profile refused', async (t) => {
  const app = await build(t);
  const outage = await runSteps(app, [
    { faults: { profile: 'provider-outage', seed: 1 } },
    { request: { method: 'GET', path: '/v1/partner/merchants', expect: { status: 503 } } },
  ]);
  t.equal(failure(outage), '');
  await t.rejects(
    runSteps(app, [{ faults: { rules: [{ kind: 'error', rate: 2, status: 503 }] } }]),
    /step 1: faults: "rules\[0\]\.rate" must be <= 1/,
    'refused when the scenario is loaded',
  );
  const unknownOp = await runSteps(app, [{ faults: { rules: [{ kind: 'drop', rate: 1, operation: 'refundPayment' }] } }]);
  t.match(failure(unknownOp), /\/rules\/0\/operation/, 'what only obsim knows fails the step, naming the field');
});
