/**
 * Requirements files (src/readiness/requirements.ts, src/domain/readiness-requirements.ts): the
 * published schema is current, the shipped example is valid, every kind of bad file is refused
 * with one line naming the file, the JSON pointer and the problem, and a report judged by
 * requirements meets exactly what was seen.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { readinessReport } from '../../src/domain/readiness.js';
import type { ReadinessInput } from '../../src/domain/readiness-input.js';
import { judgeBy, loadRequirements, requirementsSchemaText, validateRequirements } from '../../src/readiness/requirements.js';
import { ROOT } from '../helpers/processes.js';

t.test('readiness/requirements.schema.json is the schema of schemas/readiness.ts; the shipped example is valid', async (t) => {
  t.equal(
    readFileSync(join(ROOT, 'readiness', 'requirements.schema.json'), 'utf8'),
    requirementsSchemaText(),
    'regenerate with: obsim report --requirements-schema > readiness/requirements.schema.json',
  );
  const example = loadRequirements(join(ROOT, 'readiness', 'go-live.yaml'));
  t.equal(example.name, 'Payments go-live');
});

t.test('bad files: one line each, naming the file, the pointer and the problem', async (t) => {
  const cases: [unknown, string][] = [
    ['just text', 'f.yaml: /: must be an object (operations, events, states, transitions, smells, checks)'],
    [{ operation: ['createPayment'] }, 'f.yaml: /: unknown field "operation"'],
    [{ operations: [{ statuses: [200] }] }, 'f.yaml: /operations/0: missing required field "operation"'],
    [{ operations: [5] }, 'f.yaml: /operations/0: must be an operation name or { operation, statuses }'],
    [{ operations: [{ operation: 'createPayment', status: [409] }] }, 'f.yaml: /operations/0: unknown field "status"'],
    [
      { operations: [{ operation: 'createPayment', statuses: [200, '7xx'] }] },
      'f.yaml: /operations/0/statuses/1: must be an HTTP status (100-599) or a class such as 4xx',
    ],
    [
      { operations: [{ operation: 'createPayment', statuses: [99] }] },
      'f.yaml: /operations/0/statuses/0: must be an HTTP status (100-599) or a class such as 4xx',
    ],
    [
      { events: ['payment.refunded'] },
      'f.yaml: /events/0: must be one of: payment.completed, payment.failed, merchant.activated, merchant.deactivated, merchant.onboarding.completed',
    ],
    [{ states: { payments: ['settled'] } }, 'f.yaml: /states/payments/0: must be one of: pending, processing, paid, failed'],
    [{ states: { refunds: [] } }, 'f.yaml: /states: unknown field "refunds"'],
    [{ smells: 'none' }, 'f.yaml: /smells: must be "absent" or a list of smell codes'],
    [
      { smells: ['slow_polling'] },
      'f.yaml: /smells/0: must be one of: duplicate_reference_number, repeated_validation_error, retry_before_retry_after, expired_token_reused, polling_after_webhook, forged_signature_accepted',
    ],
    [
      { checks: ['handles_refunds'] },
      'f.yaml: /checks/0: must be one of: creates_payments, handles_payment_completed, handles_payment_failed, handles_merchant_activated, verifies_webhook_signatures, polls_when_delivery_fails, reads_accounts_with_consent, no_smells',
    ],
  ];
  for (const [doc, line] of cases) t.throws(() => validateRequirements(doc, 'f.yaml'), { message: line }, line);

  const dir = mkdtempSync(join(tmpdir(), 'obsim-req-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const broken = join(dir, 'broken.yaml');
  writeFileSync(broken, 'operations: [createPayment\n');
  t.throws(() => loadRequirements(broken), { message: new RegExp(`^${broken}: /: is not valid YAML or JSON: `) });
  t.throws(() => loadRequirements(join(dir, 'missing.yaml')), { message: `${join(dir, 'missing.yaml')}: /: cannot be read (ENOENT)` });
});

const at = (s: number) => new Date(Date.UTC(2026, 10, 26, 10, 0, s)).toISOString();
function seen(): ReadinessInput {
  const e = (id: number, method: string, path: string, status: number) => ({ id, at: at(id), wallAt: at(id * 2), method, path, status });
  return {
    operations: [
      { operationId: 'createPayment', method: 'POST', path: '/v1/partner/payments' },
      { operationId: 'getPaymentStatus', method: 'GET', path: '/v1/partner/payments/{paymentId}/status' },
    ],
    entries: [
      e(1, 'POST', '/v1/partner/payments', 200),
      e(2, 'POST', '/v1/partner/payments', 409),
      e(3, 'GET', '/v1/partner/payments/7/status', 404),
    ],
    deliveries: [{ event: 'payment.completed', paymentId: 7, state: 'delivered', at: at(5) }],
    payments: { paid: 1 },
    failureReasons: {},
    merchants: {},
    consents: {},
    transitions: { payments: { 'created -> pending': 1, 'pending -> paid': 1 }, merchants: {}, consents: {} },
    receiverChecks: [],
  };
}

t.test('a report judged by requirements: met exactly where seen, with the evidence; the verdict follows', async (t) => {
  const report = readinessReport(seen());
  const judged = judgeBy(
    report,
    {
      name: 'mine',
      operations: ['createPayment', { operation: 'GET /v1/partner/payments/{paymentId}/status', statuses: ['4xx', 200] }],
      events: ['payment.completed', 'payment.failed'],
      states: { payments: ['paid', 'failed'] },
      smells: ['duplicate_reference_number'],
      checks: ['creates_payments', 'verifies_webhook_signatures'],
    },
    'f.yaml',
  );
  t.equal(judged.checklistSource, 'mine');
  t.same(
    judged.checklist.map((i) => [i.id, i.status, i.evidence]),
    [
      ['operation:createPayment', 'met', [1]],
      ['operation:getPaymentStatus:4xx', 'met', [3]],
      ['operation:getPaymentStatus:200', 'unmet', []],
      ['event:payment.completed', 'met', []],
      ['event:payment.failed', 'unmet', []],
      ['state:payments:paid', 'met', []],
      ['state:payments:failed', 'unmet', []],
      ['smell:duplicate_reference_number', 'met', []],
      ['creates_payments', 'met', [1]],
      ['verifies_webhook_signatures', 'unmet', []],
    ],
  );
  t.equal(judged.verdict, 'unmet');
  t.equal(judgeBy(report, { operations: ['createPayment'], states: { payments: ['paid'] } }, 'f.yaml').verdict, 'met');
  t.equal(judgeBy(report, {}, 'empty.yaml').verdict, 'met', 'nothing required: met (an empty checklist)');
  const byTransitions = judgeBy(report, { transitions: { payments: ['pending -> paid', 'pending -> failed (expired)'] } }, 't.yaml');
  t.same(
    byTransitions.checklist.map((i) => [i.id, i.status, i.because]),
    [
      ['transition:payments:pending -> paid', 'met', '1 made it'],
      ['transition:payments:pending -> failed (expired)', 'unmet', 'never made'],
    ],
    'transitions required by name: met where a row made them',
  );
  t.equal(byTransitions.verdict, 'unmet');
  t.throws(
    () => validateRequirements({ transitions: { payments: ['pending to paid'] } }, 'bad.yaml'),
    {
      message: /^bad\.yaml: \/transitions\/payments\/0: /,
    },
    'a name not `<from> -> <to>`: refused',
  );
  t.throws(() => judgeBy(report, { operations: ['createPayment', { operation: 'refundPayment' }] }, 'f.yaml'), {
    message:
      'f.yaml: /operations/1/operation: unknown operation "refundPayment": use an operationId of openapi.json or "METHOD /path/{template}"',
  });
});
