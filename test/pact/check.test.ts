/**
 * `obsim pact check`: every interaction of a pact that is not a subset of the served document is
 * found, with a pointer into the pact and one into the document, and a valid pact has none. The
 * seeded mismatches are written from the provider document (openapi.json: its paths, statuses,
 * schemas and security), each in an interaction of its own; the valid pact is the one a consumer
 * test written with Pact JS's DSL records (test/helpers/pact-consumer.ts). The check itself is
 * @pactflow/swagger-mock-validator's; three seeds land where it reads OpenAPI 3.1 as 3.0 (a
 * numeric exclusiveMinimum, a 4XX range) and show what obsim does there. The command runs in this
 * process (test/helpers/cli-in-process.ts; its exit status as a process: test/pact/verify.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { checkPacts } from '../../src/pact/check.js';
import { adaptForValidator } from '../../src/pact/check-document.js';
import { committedProviderDocument } from '../../src/plugins/contract-versions.js';
import { build } from '../helpers/app.js';
import { obsimInProcess } from '../helpers/cli-in-process.js';
import { recordMerchantNamePact, recordPartnerFlowPact } from '../helpers/pact-consumer.js';

type Json = Record<string, any>;
const dir = t.testdir({});
const valid = await recordPartnerFlowPact(dir);
const document = committedProviderDocument();
const read = (file: string): Json => JSON.parse(readFileSync(file, 'utf8'));
const partner = { 'X-Partner-Client-Id': ['id'], 'X-Partner-Client-Secret': ['secret'] };
const jsonBody = (content: unknown) => ({ contentType: 'application/json', encoded: false, content });
const http = (description: string, request: Json, response: Json) => ({ type: 'Synchronous/HTTP', description, request, response });
const payment = (changes: Json) => ({
  merchantClientId: '31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd',
  amount: 10,
  referenceNumber: 'r-1',
  ...changes,
});
const createPayment = (description: string, body: Json) =>
  http(
    description,
    { method: 'POST', path: '/v1/partner/payments', headers: { ...partner, 'Content-Type': ['application/json'] }, body: jsonBody(body) },
    { status: 200 },
  );
const status = (description: string, response: Json, path = '/v1/partner/payments/5000001/status') =>
  http(description, { method: 'GET', path, headers: partner }, response);

/** Each seed: its interaction, the validator's code it must be found with, and where in the document. */
const SEEDS: { interaction: Json; code: string; pact: string; document: string | undefined }[] = [
  {
    interaction: http(
      'an operation the document does not have',
      { method: 'GET', path: '/v1/partner/merchants/100002/balance', headers: partner },
      { status: 200 },
    ),
    code: 'request.path-or-method.unknown',
    pact: '/request/path',
    document: '/paths',
  },
  {
    interaction: http(
      'a method the document does not have',
      { method: 'DELETE', path: '/v1/partner/payments/5000001/status', headers: partner },
      { status: 200 },
    ),
    code: 'request.path-or-method.unknown',
    pact: '/request/path',
    document: '/paths',
  },
  {
    interaction: http(
      'a status the document never gives',
      {
        method: 'POST',
        path: '/v1/partner/merchants/test',
        headers: { ...partner, 'Content-Type': ['application/json'] },
        body: jsonBody({ companyName: 'Shop' }),
      },
      { status: 201 },
    ),
    code: 'response.status.unknown',
    pact: '/response/status',
    document: '/paths/~1v1~1partner~1merchants~1test/post/responses',
  },
  {
    interaction: createPayment('a request field of the wrong type', payment({ amount: '10.00' })),
    code: 'request.body.incompatible',
    pact: '/request/body/content/amount',
    document: '/components/schemas/CreatePaymentRequest/properties/amount/type',
  },
  {
    interaction: createPayment('a request field the document does not allow', payment({ currency: 'EUR' })),
    code: 'request.body.incompatible',
    pact: '/request/body/content',
    document: '/components/schemas/CreatePaymentRequest/additionalProperties',
  },
  {
    interaction: createPayment('a request without a field the document requires', {
      merchantClientId: '31e4dfbb-05e7-4d97-8dea-7e7d0e4499bd',
      amount: 10,
    }),
    code: 'request.body.incompatible',
    pact: '/request/body/content',
    document: '/components/schemas/CreatePaymentRequest/required',
  },
  // OpenAPI 3.1: exclusiveMinimum is a number (0 here); the validator alone reads it as 3.0's boolean and drops the bound
  {
    interaction: createPayment('an amount of 0 (exclusiveMinimum 0)', payment({ amount: 0 })),
    code: 'request.body.incompatible',
    pact: '/request/body/content/amount',
    document: '/components/schemas/CreatePaymentRequest/properties/amount/exclusiveMinimum',
  },
  {
    interaction: status('an answer field the document never gives', {
      status: 200,
      body: jsonBody({ paymentId: 5000001, refundedAt: '2026-03-02T09:30:00.000Z' }),
    }),
    code: 'response.body.incompatible',
    pact: '/response/body/content',
    document: '/components/schemas/Payment/additionalProperties',
  },
  {
    interaction: status('an answer value the document never gives', { status: 200, body: jsonBody({ status: 'refunded' }) }),
    code: 'response.body.incompatible',
    pact: '/response/body/content/status',
    document: '/components/schemas/Payment/properties/status/enum',
  },
  {
    interaction: status('an answer field of the wrong type', { status: 200, body: jsonBody({ paymentId: '5000001' }) }),
    code: 'response.body.incompatible',
    pact: '/response/body/content/paymentId',
    document: '/components/schemas/Payment/properties/paymentId/type',
  },
  // OpenAPI's 4XX range: the validator alone does not read ranges, so it would call 404 unknown and never check the body
  {
    interaction: status('an error body of the wrong shape', { status: 404, body: jsonBody({ status: '404', code: 'payment_not_found' }) }),
    code: 'response.body.incompatible',
    pact: '/response/body/content/status',
    document: '/components/schemas/ErrorBody/properties/status/type',
  },
  {
    interaction: http(
      'a query parameter of the wrong type',
      { method: 'GET', path: '/v1/partner/merchants', query: { page: ['first'] }, headers: partner },
      { status: 200 },
    ),
    code: 'request.query.incompatible',
    pact: '/request/query/page',
    document: '/paths/~1v1~1partner~1merchants/get/parameters/0',
  },
  {
    interaction: http(
      'a query parameter the document does not have',
      { method: 'GET', path: '/v1/partner/merchants', query: { sort: ['name'] }, headers: partner },
      { status: 200 },
    ),
    code: 'request.query.unknown',
    pact: '/request/query/sort',
    document: '/paths/~1v1~1partner~1merchants/get',
  },
  {
    interaction: http(
      'a partner call without the partner credentials',
      { method: 'GET', path: '/v1/partner/payments/5000001/status' },
      { status: 200 },
    ),
    code: 'request.authorization.missing',
    pact: '',
    document: '/paths/~1v1~1partner~1payments~1{paymentId}~1status/get/security/0/partnerClientId',
  },
  {
    interaction: status('an answer of a content type the document never gives', {
      status: 200,
      headers: { 'Content-Type': ['text/html'] },
    }),
    code: 'response.content-type.incompatible',
    pact: '/response/headers/Content-Type',
    document: '/paths/~1v1~1partner~1payments~1{paymentId}~1status/get/responses/200/content',
  },
];

/** Interactions that hold: a 404 as the document's 4XX range gives it, an amount above 0. */
const HOLDING = [
  status('a missing payment, as the 4XX range documents it', {
    status: 404,
    body: jsonBody({ status: 404, code: 'payment_not_found', message: 'Payment not found', requestId: 'req_1' }),
  }),
  createPayment('an amount just above 0', payment({ amount: 0.01 })),
];

function pactOf(name: string, interactions: Json[]): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      consumer: { name },
      provider: { name: 'open-banking-provider' },
      interactions,
      metadata: { pactSpecification: { version: '4.0' } },
    }),
  );
  return file;
}

t.test('the pact the consumer test recorded is a subset of the document: no mismatch', async (t) => {
  const report = await checkPacts({ pacts: [{ file: valid, doc: read(valid) }], document, command: 'obsim pact check' });
  t.same(report.mismatches, [], 'no false mismatch');
  t.same(report.unchecked, [], 'the document uses no 2020-12 keyword the validator leaves out');
  // the CLI's exit 0 and its line on a clean pact: test/docs/pact.test.ts
});

t.test(`each of ${SEEDS.length} seeded mismatches is found, with a pointer into the pact and into the document`, async (t) => {
  t.ok(SEEDS.length >= 10);
  const file = pactOf('seeded', [...HOLDING, ...SEEDS.map((s) => s.interaction)]);
  const report = await checkPacts({ pacts: [{ file, doc: read(file) }], document, command: 'obsim pact check' });
  t.same(
    report.mismatches.filter((m) => m.interaction! < HOLDING.length),
    [],
    'none where the interaction holds (a 404 of the 4XX range, an amount above 0)',
  );
  for (const [i, seed] of SEEDS.entries()) {
    const index = i + HOLDING.length;
    const found = [...report.mismatches].filter((m) => m.interaction === index);
    const match = found.find(
      (m) => m.code === seed.code && m.pact === `/interactions/${index}${seed.pact}` && m.document === seed.document,
    );
    t.ok(match, seed.interaction.description, { found });
  }
  const seededIndexes = new Set(report.mismatches.map((m) => m.interaction));
  t.equal(seededIndexes.size, SEEDS.length, 'every seed, and nothing else, mismatches');

  const run = await obsimInProcess(['pact', 'check', file]);
  t.equal(run.code, 1, 'the command exits 1', { stdout: run.stdout });
  t.match(run.stdout, `MISMATCH  ${file} interaction 8 ("an amount of 0 (exclusiveMinimum 0)"): request.body.incompatible`);
  t.match(run.stdout, `pact:     ${file}#/interactions/8/request/body/content/amount`);
  t.match(run.stdout, 'document: openapi.json#/components/schemas/CreatePaymentRequest/properties/amount/exclusiveMinimum');
  t.match(run.stdout, `${report.mismatches.length} mismatches with openapi.json`);
});

t.test("--contract-version: the check is against that version's document, from the registry or from a running obsim", async (t) => {
  const reader = await recordMerchantNamePact(dir);
  const base = await checkPacts({ pacts: [{ file: reader, doc: read(reader) }], document, command: 'obsim pact check' });
  t.same(base.mismatches, [], 'merchantName is in the base document');
  const removed = {
    message: /must NOT have additional properties - merchantName/,
    document: '/components/schemas/Payment/additionalProperties',
  };

  const next = await obsimInProcess([
    'pact',
    'check',
    reader,
    '--contracts',
    'examples/contracts',
    '--contract-version',
    '2027-03-01',
    '--json',
  ]);
  t.equal(next.code, 1, 'and not in 2027-03-01', { stdout: next.stdout });
  t.match(JSON.parse(next.stdout).mismatches, [removed]);
  const unknown = await obsimInProcess(['pact', 'check', reader, '--contracts', 'examples/contracts', '--contract-version', '2031-01-01']);
  t.equal(unknown.code, 2);
  t.equal(unknown.stderr, 'obsim pact check: no contract version "2031-01-01": the versions are base, 2027-03-01\n');

  // --url: the document a running obsim serves (GET /openapi.json?version=)
  const running = await build(t, { config: { contracts: 'examples/contracts' } });
  const url = await running.listen({ host: '127.0.0.1', port: 0 });
  const served = await obsimInProcess(['pact', 'check', reader, '--url', url, '--contract-version', '2027-03-01', '--json']);
  t.equal(served.code, 1, "the running obsim's 2027-03-01", { stdout: served.stdout });
  t.match(JSON.parse(served.stdout).mismatches, [removed]);
  const servedBase = await obsimInProcess(['pact', 'check', reader, '--url', url]);
  t.equal(servedBase.code, 0, "the running obsim's base");
  t.equal(servedBase.stdout, `no mismatch with ${url}/openapi.json\n`);
  const notServed = await obsimInProcess(['pact', 'check', reader, '--url', url, '--contract-version', '2031-01-01']);
  t.equal(notServed.code, 2);
  t.match(notServed.stderr, /^obsim pact check: GET \/openapi\.json\?version=2031-01-01 answered 4\d\d: .*2031-01-01.*\n$/);
  t.equal(notServed.stderr.split('\n').length, 2, 'in one line');
});

t.test('what obsim gives the validator: 3.1 constructs in the form it reads, the same constraints', async (t) => {
  const doc = {
    paths: { '/x': { get: { responses: { '200': { description: 'ok' }, '4XX': { description: 'refused', content: {} } } } } },
    components: {
      schemas: {
        A: { type: 'number', exclusiveMinimum: 0 },
        B: { type: 'number', exclusiveMinimum: 5, minimum: 1 },
        C: { type: 'number', exclusiveMaximum: 10, maximum: 3 },
        D: { type: 'array', prefixItems: [{ type: 'string' }] },
      },
    },
  };
  const adapted = adaptForValidator(doc, [{ method: 'get', template: '/x', status: 409 }]);
  t.same(adapted.doc.components, {
    schemas: {
      A: { type: 'number', exclusiveMinimum: true, minimum: 0 },
      B: { type: 'number', exclusiveMinimum: true, minimum: 5 },
      C: { type: 'number', maximum: 3 },
      D: { type: 'array', prefixItems: [{ type: 'string' }] },
    },
  });
  t.same(
    (adapted.doc.paths as Json)['/x'].get.responses['409'],
    { description: 'refused', content: {} },
    "409 is the 4XX range's response",
  );
  t.same(adapted.unchecked, ['/components/schemas/D/prefixItems'], 'a 2020-12 keyword it does not apply is listed');
  t.same(doc.components.schemas.A, { type: 'number', exclusiveMinimum: 0 }, 'the document itself is untouched');
});
