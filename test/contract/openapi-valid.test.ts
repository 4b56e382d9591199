/**
 * The two OpenAPI documents (the provider's API at /openapi.json, obsim's controls at
 * /_sandbox/openapi.json) pass a third-party validator (@apidevtools/swagger-parser: OpenAPI 3.1
 * JSON Schema + semantic checks, every $ref resolvable) with no errors, both as served and as
 * committed. Plus the checks client generators rely on: a unique operationId, summary,
 * description, described tags and security on every operation, webhooks included.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { buildApp } from '../../src/app.js';
import { DOCUMENTS as PUBLISHED } from '../../src/openapi/documents.js';
import { scaled } from '../helpers/speed.js';

// generous: CI machines run many test files at once (tap's default is 30 s per file)
t.setTimeout(scaled(180_000));

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// where each published document is served and committed (src/openapi/documents.ts)
const DOCUMENTS = Object.values(PUBLISHED);

type Op = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  security?: unknown[];
  responses?: Record<string, unknown>;
};
type Doc = {
  openapi: string;
  info: { version: string; contact?: { name?: string; url?: string }; license?: { name?: string } };
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Op>>;
  webhooks?: Record<string, Record<string, Op>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

async function servedDocuments(): Promise<Doc[]> {
  const app = await buildApp({ config: { db: ':memory:', logLevel: 'silent' }, logger: false });
  await app.ready();
  const docs = await Promise.all(DOCUMENTS.map(async (d) => JSON.parse((await app.inject({ url: d.url })).body) as Doc));
  await app.close();
  return docs;
}

/** Both documents read as one (their paths and component schemas). */
async function served(): Promise<Doc> {
  const [provider, controls] = await servedDocuments();
  return {
    ...provider,
    paths: { ...provider.paths, ...controls.paths },
    components: { ...provider.components, schemas: { ...provider.components.schemas, ...controls.components.schemas } },
  };
}

t.test('each served document validates with swagger-parser', async (t) => {
  for (const doc of await servedDocuments()) {
    t.equal(doc.openapi, '3.1.0');
    await t.resolves(SwaggerParser.validate(structuredClone(doc) as never), `${doc.info.version}: no validation errors`);
  }
});

t.test('each committed document validates with swagger-parser', async (t) => {
  for (const d of DOCUMENTS) await t.resolves(SwaggerParser.validate(`${ROOT}${d.file}`), `${d.file}: no validation errors`);
});

t.test('every operation and webhook: a unique camelCase operationId, summary, description, described tags, security', async (t) => {
  const problems: string[] = [];
  const ids = new Map<string, string>();
  const version = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string }).version;
  let operations = 0;
  for (const doc of await servedDocuments()) {
    t.equal(doc.info.version, version, 'info.version is the package version');
    t.ok(doc.info.contact?.name && doc.info.contact.url, 'info.contact');
    t.equal(doc.info.license?.name, 'MIT', 'info.license');
    const tags = new Map(doc.tags.map((tag) => [tag.name, tag.description]));
    const schemes = Object.keys(doc.components.securitySchemes);
    for (const [kind, group] of [
      ['path', doc.paths],
      ['webhook', doc.webhooks ?? {}],
    ] as const) {
      for (const [path, item] of Object.entries(group)) {
        for (const [method, op] of Object.entries(item)) {
          operations++;
          const name = `${kind} ${method.toUpperCase()} ${path}`;
          if (!op.operationId || !/^[a-z][A-Za-z0-9]+$/.test(op.operationId)) problems.push(`${name}: operationId ${op.operationId}`);
          else if (ids.has(op.operationId)) problems.push(`${name}: operationId ${op.operationId} also names ${ids.get(op.operationId)}`);
          else ids.set(op.operationId, name);
          if (!op.summary) problems.push(`${name}: summary`);
          if (!op.description || op.description.length < 40) problems.push(`${name}: description`);
          if (!op.tags?.length || !op.tags.every((tag) => tags.get(tag))) problems.push(`${name}: a tag the document does not describe`);
          if (!Array.isArray(op.security)) problems.push(`${name}: security`);
          for (const requirement of op.security ?? [])
            for (const scheme of Object.keys(requirement as object))
              if (!schemes.includes(scheme)) problems.push(`${name}: security scheme ${scheme} not defined`);
          if (!op.responses || Object.keys(op.responses).length === 0) problems.push(`${name}: responses`);
        }
      }
    }
  }
  t.same(problems, []);
  t.ok(operations >= 60, `${operations} operations checked`);
  for (const id of ['createPayment', 'getPaymentStatus', 'listAccountTransactions', 'onPaymentCompleted', 'createSandbox'])
    t.ok(ids.has(id), `${id} names an operation`);
});

t.test('schemas are named components', async (t) => {
  const doc = await served();
  const text = JSON.stringify(doc);
  t.notMatch(text, /"def-\d+"/, 'no anonymous def-N component names');
  t.notMatch(text, /#\/definitions\//, 'no dangling JSON-Schema definitions refs');
  t.ok(doc.components.schemas.ErrorBody, 'ErrorBody is a named component');
});

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
  t.match(json(malformed), { code: 'validation_failed', field: '/prefer', in: 'header' });
});
