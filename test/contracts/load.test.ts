/**
 * Version files obsim cannot serve are refused at start with the file and an RFC 6901 pointer into
 * it (`obsim serve` prints that one line and exits 2); a version that changes nothing a scenario
 * relies on runs the whole shipped suite beside the base, in one process.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { stringify } from 'yaml';
import { committedProviderDocument } from '../../src/plugins/contract-versions.js';
import { ContractFileError } from '../../src/contracts/errors.js';
import { loadVersions } from '../../src/contracts/load.js';
import { expandPaths, loadScenarioFile, shippedScenariosDir } from '../../src/scenarios/loader.js';
import { runScenario } from '../../src/scenarios/runner.js';
import { injectTransport } from '../../src/scenarios/transport.js';
import { build, json, PARTNER } from '../helpers/app.js';
import { spawnSync } from 'node:child_process';
import { BIN, ROOT } from '../helpers/processes.js';
import { failure } from '../helpers/scenarios.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(300_000));

const base = committedProviderDocument();
const overlay = (version: string, actions: unknown[], extra: Record<string, unknown> = {}) => ({
  overlay: '1.0.0',
  info: { title: `test ${version}`, version },
  actions,
  ...extra,
});
const ADD_FIELD = {
  target: '$.components.schemas.Payment.properties',
  update: { paymentReference: { type: 'string' } },
};

function folderWith(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-contracts-'));
  for (const [name, content] of Object.entries(files))
    writeFileSync(
      join(dir, name),
      typeof content === 'string' ? content : name.endsWith('.json') ? JSON.stringify(content) : stringify(content),
    );
  return dir;
}

async function refusal(files: Record<string, unknown>): Promise<ContractFileError> {
  try {
    await loadVersions(folderWith(files), base);
  } catch (err) {
    if (err instanceof ContractFileError) return err;
    throw err;
  }
  throw new Error('loaded');
}

t.test('each way a version file can be wrong is refused with its file and pointer', async (t) => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['not YAML', { 'a.yaml': 'overlay: [1.0.0\n  info' }, '', /neither YAML nor JSON/],
    ['not an overlay (no actions)', { 'a.yaml': { overlay: '1.0.0', info: { title: 't', version: 'v1' } } }, '/actions', /Overlay 1\.0/],
    ['another overlay version', { 'a.yaml': { ...overlay('v1', [ADD_FIELD]), overlay: '2.0.0' } }, '/overlay', /Overlay 1\.0/],
    ['an unknown top-level property', { 'a.json': { ...overlay('v1', [ADD_FIELD]), oops: 1 } }, '/oops', /not a known property/],
    [
      'a target that selects nothing',
      { 'a.yaml': overlay('v1', [ADD_FIELD, { target: '$.paths.nope', update: { a: 1 } }]) },
      '/actions/1/target',
      /selects nothing/,
    ],
    ['the base name', { 'a.yaml': overlay('base', [ADD_FIELD]) }, '/info/version', /provider's document/],
    [
      'a switch naming an unknown operation',
      { 'a.yaml': overlay('v1', [ADD_FIELD], { 'x-obsim': { operations: { payNow: { sunsetAt: '2027-01-01T00:00:00Z' } } } }) },
      '/x-obsim/operations/payNow',
      /no operation/,
    ],
    [
      'a switch naming an unknown field',
      { 'a.yaml': overlay('v1', [ADD_FIELD], { 'x-obsim': { answers: [{ in: 'createPayment', field: '/nope', remove: true }] } }) },
      '/x-obsim/answers/0/field',
      /not a field of createPayment/,
    ],
    [
      'a switch naming an unknown operation or event',
      { 'a.yaml': overlay('v1', [ADD_FIELD], { 'x-obsim': { answers: [{ in: 'payment.refunded', field: '/data', remove: true }] } }) },
      '/x-obsim/answers/0/in',
      /no operationId and no webhook event/,
    ],
    [
      'a status the document never gives',
      { 'a.yaml': overlay('v1', [ADD_FIELD], { 'x-obsim': { operations: { createPayment: { status: { '200': 201 } } } } }) },
      '/x-obsim/operations/createPayment/status/200',
      /201 is not a status/,
    ],
    [
      'a sunset before its deprecation',
      {
        'a.yaml': overlay('v1', [ADD_FIELD], {
          'x-obsim': { operations: { createPayment: { deprecatedAt: '2027-02-01T00:00:00Z', sunsetAt: '2027-01-01T00:00:00Z' } } },
        }),
      },
      '/x-obsim/operations/createPayment/sunsetAt',
      /before the deprecation/,
    ],
    [
      "a deprecated operation with no instant (neither its own nor the version's)",
      {
        'a.yaml': overlay('v1', [
          { target: "$.paths['/v1/partner/merchants/{merchantId}/resend-onboarding'].post", update: { deprecated: true } },
        ]),
      },
      '/x-obsim/operations/resendMerchantOnboarding/deprecatedAt',
      /resendMerchantOnboarding \(POST \/v1\/partner\/merchants\/\{merchantId\}\/resend-onboarding\) is deprecated .* no instant/,
    ],
    [
      'a deprecated request field with no instant',
      {
        'a.yaml': overlay('v1', [
          { target: '$.components.schemas.CreateMerchantRequest.properties.partnerRefId', update: { deprecated: true } },
        ]),
      },
      '/x-obsim/operations/createMerchant/deprecatedAt',
      /the request field \/partnerRefId deprecated .* no instant/,
    ],
    [
      'an example that breaks its schema once the switches shaped it',
      {
        'a.yaml': overlay('v1', [
          { target: '$.components.schemas.Payment.properties', update: { settlementDay: { type: 'string', format: 'date' } } },
          { target: '$.components.schemas.Payment', update: { required: ['paymentId', 'status', 'settlementDay'] } },
        ]),
      },
      '',
      /the example at \/paths\/~1v1~1partner~1payments\/post\/responses\/200\/content\/application~1json\/example of the document it makes does not follow its schema: \/settlementDay is required/,
    ],
    [
      'a result that is not OpenAPI 3.1',
      { 'a.yaml': overlay('v1', [{ target: "$.paths['/v1/partner/payments'].post", update: { responses: 'none' } }]) },
      '',
      /not a valid OpenAPI 3\.1 document/,
    ],
    [
      'two files, one name',
      { 'a.yaml': overlay('v1', [ADD_FIELD]), 'b.yaml': overlay('v1', [ADD_FIELD]) },
      '/info/version',
      /also the version of a\.yaml/,
    ],
  ];
  for (const [what, files, pointer, message] of cases) {
    const err = await refusal(files);
    t.equal(err.pointer, pointer, `${what}: pointer`);
    t.match(err.problem, message, `${what}: ${err.message}`);
    t.match(err.file, /\/[ab]\.(yaml|json)$/, `${what}: names the file`);
  }
});

t.test('obsim serve --contracts with a bad file: one line naming the file and pointer, exit 2, no stack trace', async (t) => {
  const dir = folderWith({ 'next.yaml': overlay('v1', [{ target: '$.paths.nowhere', update: { a: 1 } }]) });
  const run = spawnSync(process.execPath, [...BIN, 'serve', '--db', ':memory:', '--port', '0', '--contracts', dir], {
    cwd: ROOT,
    env: { ...process.env, OBSIM_LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  t.equal(run.status, 2);
  const lines = run.stderr.trim().split('\n');
  t.equal(lines.length, 1, run.stderr);
  t.match(lines[0], /^obsim: contract version .*next\.yaml at \/actions\/0\/target: \$\.paths\.nowhere selects nothing/);
  t.notMatch(run.stderr, /\s+at .*\.(ts|js):\d+/, 'no stack trace');
});

t.test('two versions in one process run the whole shipped scenario suite, each story under each', async (t) => {
  const dir = folderWith({
    'additive.yaml': overlay(
      'additive',
      [ADD_FIELD, { target: "$.paths['/v1/partner/merchants/{merchantId}/onboarding-status'].get", update: { deprecated: true } }],
      {
        'x-obsim': {
          deprecatedAt: '2026-01-01T00:00:00Z',
          answers: [
            { in: 'createPayment', field: '/paymentReference', value: { generate: 'uuid', from: '/paymentId' } },
            { in: 'getPaymentStatus', field: '/paymentReference', value: { generate: 'uuid', from: '/paymentId' } },
          ],
        },
      },
    ),
  });
  mkdirSync(dir, { recursive: true });
  const app = await build(t, { config: { contracts: dir } });
  const transport = injectTransport(app);
  const files = expandPaths([shippedScenariosDir()]);
  t.ok(files.length >= 20);
  for (const version of ['base', 'additive']) {
    for (const file of files) {
      const scenario = loadScenarioFile(file);
      const result = await runScenario(scenario, { transport, isolate: true, contractVersion: version });
      t.ok(result.passed, `${version}: ${scenario.name}${result.passed ? '' : `: ${failure(result)}`}`);
    }
  }
  // what the additive version served was its own: the journal of a payment read under it
  const list = json<{ items: { sandboxId: string }[] }>(await app.inject({ method: 'GET', url: '/_sandbox/sandboxes' }));
  t.equal(list.items.length, 0, 'every isolated sandbox was deleted after its story');
  const res = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test',
    headers: { ...PARTNER, 'content-type': 'application/json', 'obsim-contract-version': 'additive' },
    payload: { companyName: 'After ApS' },
  });
  t.equal(res.headers['obsim-contract-version'], 'additive');
});
