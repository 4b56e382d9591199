/**
 * The OpenAPI document passes a third-party validator (@apidevtools/swagger-parser: OpenAPI 3.1
 * JSON Schema + semantic checks, every $ref resolvable) with no errors, both as served and as
 * committed. Plus the checks client generators rely on.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { buildApp } from '../../src/app.js';

// generous: CI machines run many test files at once (tap's default is 30 s per file)
t.setTimeout(180_000);

const FILE = fileURLToPath(new URL('../../openapi.json', import.meta.url));

type Op = { operationId?: string; tags?: string[]; summary?: string; responses?: Record<string, unknown> };
type Doc = { openapi: string; paths: Record<string, Record<string, Op>>; components: { schemas: Record<string, unknown> } };

async function served(): Promise<Doc> {
  const app = await buildApp({ config: { db: ':memory:', logLevel: 'silent' }, logger: false });
  await app.ready();
  const res = await app.inject({ url: '/openapi.json' });
  await app.close();
  return JSON.parse(res.body) as Doc;
}

t.test('the served document validates with swagger-parser', async (t) => {
  const doc = await served();
  t.equal(doc.openapi, '3.1.0');
  await t.resolves(SwaggerParser.validate(structuredClone(doc) as never), 'no validation errors');
});

t.test(
  'the committed openapi.json validates with swagger-parser',
  { skip: !existsSync(FILE) && 'openapi.json not generated yet' },
  async (t) => {
    await t.resolves(SwaggerParser.validate(FILE), 'no validation errors');
  },
);

t.test('every operation has a tag, a summary and documented responses; schemas are named components', async (t) => {
  const doc = await served();
  const problems: string[] = [];
  const tags = new Set(['auth', 'ais', 'partner', 'sandbox', 'system']);
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const name = `${method.toUpperCase()} ${path}`;
      if (!op.tags?.length || !op.tags.every((tag) => tags.has(tag))) problems.push(`${name}: tag`);
      if (!op.summary) problems.push(`${name}: summary`);
      if (!op.responses || Object.keys(op.responses).length === 0) problems.push(`${name}: responses`);
    }
  }
  t.same(problems, []);
  const text = JSON.stringify(doc);
  t.notMatch(text, /"def-\d+"/, 'no anonymous def-N component names');
  t.notMatch(text, /#\/definitions\//, 'no dangling JSON-Schema definitions refs');
  t.ok(doc.components.schemas.ErrorBody, 'ErrorBody is a named component');
});

t.test(
  'openapi.json on disk is what `npm run openapi` would write (parseable, same version)',
  { skip: !existsSync(FILE) && 'openapi.json not generated yet' },
  async (t) => {
    const doc = JSON.parse(readFileSync(FILE, 'utf8')) as Doc;
    t.equal(doc.openapi, '3.1.0');
  },
);

type Param = { name: string; in: string; required?: boolean; description?: string; schema?: { type?: string; pattern?: string } };
type Response = { headers?: Record<string, { description?: string; schema?: { type?: string } }> };

t.test('header parameters: Prefer on every /v1 operation, x-request-id on the AIS operations (optional, documentation only)', async (t) => {
  const doc = await served();
  const problems: string[] = [];
  let v1 = 0;
  let ais = 0;
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const name = `${method.toUpperCase()} ${path}`;
      const params = ((op as { parameters?: Param[] }).parameters ?? []).filter((p) => p.in === 'header');
      const prefer = params.find((p) => p.name.toLowerCase() === 'prefer');
      const requestId = params.find((p) => p.name.toLowerCase() === 'x-request-id');
      if (path.startsWith('/v1/')) {
        v1++;
        if (!prefer) problems.push(`${name}: no Prefer header parameter`);
        else {
          if (prefer.required) problems.push(`${name}: Prefer must be optional`);
          if (!/code=.*delay=/s.test(prefer.description ?? ''))
            problems.push(`${name}: Prefer description does not explain code= and delay=`);
        }
      } else if (prefer) problems.push(`${name}: Prefer only applies to /v1`);
      if (path.startsWith('/v1/ais/')) {
        ais++;
        if (!requestId) problems.push(`${name}: no x-request-id header parameter`);
        else {
          if (requestId.required) problems.push(`${name}: x-request-id must be optional`);
          if (requestId.schema?.type !== 'string') problems.push(`${name}: x-request-id must be a string`);
          // a pattern would make request validation answer 400 where obsim replaces the id
          if (requestId.schema?.pattern !== undefined) problems.push(`${name}: x-request-id must not carry a validating pattern`);
          if (!/generates an id/.test(requestId.description ?? ''))
            problems.push(`${name}: x-request-id description does not say a malformed id is replaced`);
        }
      }
    }
  }
  t.same(problems, []);
  t.equal(ais, 6, 'the six AIS operations');
  t.ok(v1 >= 18, `every /v1 operation checked (${v1})`);
});

t.test('response headers: x-request-id on every documented response; X-Total-Count on GET …/transactions', async (t) => {
  const doc = await served();
  const problems: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const headers = (response as Response).headers ?? {};
        if (headers['x-request-id']?.schema?.type !== 'string')
          problems.push(`${method.toUpperCase()} ${path} ${status}: no x-request-id response header`);
      }
    }
  }
  t.same(problems, []);
  const list = doc.paths['/v1/ais/accounts/{accountId}/transactions'].get.responses!['200'] as Response;
  t.equal(list.headers?.['X-Total-Count']?.schema?.type, 'integer');
  t.match(list.headers?.['X-Total-Count']?.description, /number of transactions matching/);
  const post = doc.paths['/v1/ais/accounts/transactions'].post.responses!['200'] as Response;
  t.notOk(post.headers?.['X-Total-Count'], 'the POST variant reports totalTransactions in its body instead');
});

t.test('the documented header parameters do not validate: a malformed x-request-id is still replaced, never a 400', async (t) => {
  const { aisApp } = await import('../helpers/ais.js');
  const { json, schemaErrors } = await import('../helpers/app.js');
  const { app, merchantId, bearer, authorizedConsent } = await aisApp(t);
  await authorizedConsent('user-typical');
  const headers = await bearer('user-typical');
  const call = (extra: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: '/v1/ais/accounts',
      headers: { ...headers, ...extra },
      payload: { userId: 'user-typical', merchantId },
    });

  const good = await call({ 'x-request-id': 'trace.42:abc-DEF_9' });
  t.equal(good.statusCode, 200);
  t.equal(good.headers['x-request-id'], 'trace.42:abc-DEF_9', 'a well-formed id is echoed');
  t.same(schemaErrors('AccountsResponse', json(good)), []);

  for (const bad of ['has space', 'x'.repeat(129), 'semi;colon', '']) {
    const res = await call({ 'x-request-id': bad });
    t.equal(res.statusCode, 200, `"${bad.slice(0, 20)}" is not a 400`);
    t.match(res.headers['x-request-id'], /^req_[0-9a-f]{24}$/, 'replaced by a generated id');
  }

  const forced = await call({ prefer: 'code=503' });
  t.equal(forced.statusCode, 503, 'Prefer still works on a documented operation');
  t.equal(json(forced).code, 'forced_status');
  t.same(schemaErrors('ErrorBody', json(forced)), []);
  const malformed = await call({ prefer: 'code=abc' });
  t.equal(malformed.statusCode, 400);
  t.match(json(malformed), { code: 'validation_failed', field: 'Prefer' });
});
