/**
 * The expectReport step: a scenario requires coverage of the readiness report (its own
 * requirements or the default checklist); a failure names the items that decided it. And
 * startObsim's report(), with a requirements file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startObsim } from '../../src/index.js';
import { build } from '../helpers/app.js';
import type { Step } from '../../src/scenarios/types.js';
import { failure, runSteps, TEST_MERCHANT } from '../helpers/scenarios.js';

const PAY: Step = {
  request: {
    method: 'POST',
    path: '/v1/partner/payments',
    body: { merchantClientId: '${merchant.clientId}', amount: 25, referenceNumber: 'step-${unique}' },
    expect: { status: 200 },
  },
};

t.test('expectReport passes on what the sandbox saw, and fails naming the deciding items', async (t) => {
  const app = await build(t);
  const ok = await runSteps(app, [
    TEST_MERCHANT,
    PAY,
    { expectReport: { requirements: { name: 'pay', operations: ['createPayment'], states: { payments: ['pending'] } } } },
    { expectReport: { verdict: 'unmet', items: { creates_payments: 'met', verifies_webhook_signatures: 'unmet' } } },
  ]);
  t.equal(failure(ok), '');
  t.match(ok.steps[2], { status: 'passed', detail: 'met: 2 of 2 items met' });

  const strict = await runSteps(app, [{ expectReport: {} }]);
  t.notOk(strict.passed);
  t.match(failure(strict), /^expected verdict met, the report says unmet\n/);
  t.match(failure(strict), /\n {2}unmet: Verifies webhook signatures \(no check-receiver run/, 'the deciding items listed');

  const wrongItem = await runSteps(app, [{ expectReport: { verdict: 'unmet', items: { creates_payments: 'unmet', nope: 'met' } } }]);
  t.match(
    failure(wrongItem),
    /^creates_payments: expected unmet, is met \(POST \/v1\/partner\/payments answered 2xx\)\nno checklist item nope/,
  );

  const unknownOp = await runSteps(app, [{ expectReport: { requirements: { operations: ['refundPayment'] } } }]);
  t.match(failure(unknownOp), /^requirements\/operations\/0: unknown operation "refundPayment"/);

  await t.rejects(
    runSteps(app, [{ expectReport: { requirements: { events: ['payment.refunded'] } } }]),
    /must be one of/,
    'the step is validated like the file format',
  );
});

t.test('startObsim().report(): the default checklist, or a requirements file', async (t) => {
  const sim = await startObsim({ clock: { frozen: true } });
  t.teardown(() => sim.close());
  const dir = mkdtempSync(join(tmpdir(), 'obsim-lib-report-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const box = await sim.sandbox();
  const m = await box.client.createTestMerchant();
  await box.client.api.POST('/v1/partner/payments', { body: { merchantClientId: m.clientId, amount: 5, referenceNumber: 'lib-1' } });

  const byDefault = await box.client.report();
  t.equal(byDefault.sandboxId, box.sandboxId);
  t.equal(byDefault.verdict, 'unmet');
  t.equal(byDefault.checklistSource, 'default');

  const file = join(dir, 'lib.yaml');
  writeFileSync(file, 'operations: [createPayment, createTestMerchant]\n');
  const judged = await sim.report({ require: file, sandbox: box.sandboxId });
  t.equal(judged.verdict, 'met');
  t.equal(judged.checklistSource, file);
  t.same(
    judged.checklist.map((i) => i.id),
    ['operation:createPayment', 'operation:createTestMerchant'],
  );
  const own = await sim.report({ require: { operations: ['createPayment'] } });
  t.equal(own.verdict, 'unmet', "the default partner's sandbox saw no payment");
  await t.rejects(sim.report({ require: join(dir, 'missing.yaml') }), /missing\.yaml: \/: cannot be read \(ENOENT\)/);
});
