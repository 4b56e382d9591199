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

t.test('the committed openapi.json validates with swagger-parser', { skip: !existsSync(FILE) && 'openapi.json not generated yet' }, async (t) => {
  await t.resolves(SwaggerParser.validate(FILE), 'no validation errors');
});

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

t.test('openapi.json on disk is what `npm run openapi` would write (parseable, same version)', { skip: !existsSync(FILE) && 'openapi.json not generated yet' }, async (t) => {
  const doc = JSON.parse(readFileSync(FILE, 'utf8')) as Doc;
  t.equal(doc.openapi, '3.1.0');
});
