/**
 * Every operation of both committed documents shows what it takes and answers: a JSON request
 * body has an example, a JSON 200 answer has an example (webhooks: the body the provider
 * sends), and each example validates against its schema (Ajv, JSON Schema 2020-12 as OpenAPI 3.1
 * uses it), so a generator or a mock built from the document shows values that really work.
 * The examples are answers obsim really gave (scripts/openapi-examples.ts).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { OPERATION_EXAMPLES } from '../../schemas/examples.js';
import { servedDocument, unnamedInAnswer, unnamedInDelivery } from '../helpers/document-values.js';

type Media = { schema?: object; example?: unknown };
type Op = {
  operationId: string;
  requestBody?: { required?: boolean; content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};
type Doc = {
  paths: Record<string, Record<string, Op>>;
  webhooks?: Record<string, Record<string, Op>>;
  components: { schemas: Record<string, unknown> };
};

const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as Doc;

function* operations(doc: Doc): Generator<Op> {
  for (const group of [doc.paths, doc.webhooks ?? {}]) for (const item of Object.values(group)) yield* Object.values(item);
}

for (const file of ['openapi.json', 'openapi-controls.json']) {
  t.test(`${file}: every JSON request body and 2xx JSON answer has an example valid against its schema`, async (t) => {
    const doc = read(file);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components });
    // the document's refs are local (#/components/…): resolve them inside the registered document
    const check = (schema: object, value: unknown) => {
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as object);
      return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`);
    };
    const problems: string[] = [];
    let checked = 0;
    for (const op of operations(doc)) {
      const request = op.requestBody?.content['application/json'];
      const hasProperties = (schema: object | undefined) => schema !== undefined && JSON.stringify(schema) !== '{"type":"object"}';
      if (request && hasProperties(request.schema)) {
        if (request.example === undefined) problems.push(`${op.operationId}: no request example`);
        else {
          checked++;
          for (const e of check(request.schema!, request.example)) problems.push(`${op.operationId} request example: ${e}`);
        }
      }
      // every 2xx answer in a JSON media type (application/json, application/har+json, …)
      for (const [status, answer] of Object.entries(op.responses)) {
        if (!/^2\d\d$/.test(status)) continue;
        for (const [type, media] of Object.entries(answer.content ?? {})) {
          if (!/[/+]json\b/.test(type) || !media.schema) continue;
          if (media.example === undefined) problems.push(`${op.operationId}: no ${status} ${type} example`);
          else {
            checked++;
            for (const e of check(media.schema, media.example)) problems.push(`${op.operationId} ${status} ${type} example: ${e}`);
          }
        }
      }
    }
    t.same(problems, []);
    t.ok(checked >= 20, `${checked} examples validated`);
  });
}

t.test('a request body obsim also takes as nothing (a schema that accepts null) is optional in the documents', async (t) => {
  const optional: string[] = [];
  for (const file of ['openapi.json', 'openapi-controls.json']) {
    const doc = read(file);
    for (const op of operations(doc)) {
      const schema = op.requestBody?.content['application/json']?.schema as { $ref?: string; type?: unknown } | undefined;
      const resolved = (schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema) as { type?: unknown } | undefined;
      const takesNothing = Array.isArray(resolved?.type) && resolved.type.includes('null');
      t.equal(op.requestBody?.required ?? false, op.requestBody ? !takesNothing : false, `${op.operationId}: required is ${!takesNothing}`);
      if (takesNothing) optional.push(op.operationId);
    }
  }
  t.ok(optional.includes('controlMerchant') && optional.includes('redeliverDelivery'), `optional bodies: ${optional.join(', ')}`);
});

t.test('every example names an operation of one of the documents', async (t) => {
  const ids = new Set([...operations(read('openapi.json')), ...operations(read('openapi-controls.json'))].map((op) => op.operationId));
  t.same(
    Object.keys(OPERATION_EXAMPLES).filter((id) => !ids.has(id)),
    [],
  );
});

t.test('an example that does not match its schema is caught (the check can fail)', async (t) => {
  const doc = read('openapi.json');
  const ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', components: doc.components });
  const validate = ajv.getSchema('doc#/components/schemas/CreatePaymentRequest')!;
  const example = doc.paths['/v1/partner/payments'].post.requestBody!.content['application/json'].example as object;
  t.ok(validate(example), 'the committed example validates');
  t.notOk(validate({ ...example, amount: '149.95' }), 'the amount as a string does not');
});

t.test('the check that every value sent is named by the document finds one that is not', async (t) => {
  const doc = read('openapi.json');
  const served = servedDocument(doc);
  const payment = { paymentId: 5000001, status: 'paid', bankPaymentStatus: 'AcceptedSettlementCompleted' };
  t.same(unnamedInAnswer(served, 'GET', '/v1/partner/payments/5000001/status', 200, payment), []);
  t.same(unnamedInAnswer(served, 'GET', '/v1/partner/payments/5000001/status', 200, { ...payment, bankPaymentStatus: 'Settled' }), [
    'GET /v1/partner/payments/5000001/status 200/bankPaymentStatus: "Settled"',
  ]);
  t.same(unnamedInAnswer(served, 'GET', '/v1/partner/payments/5000001/status', 200, { ...payment, status: 'refunded' }), [
    'GET /v1/partner/payments/5000001/status 200/status: "refunded"',
  ]);
  t.same(unnamedInDelivery(doc, { event: 'payment.refunded' }), ['event "payment.refunded" has no webhook in the document']);
});
