/**
 * The committed openapi.json and openapi-controls.json are the documents the simulator serves at
 * /openapi.json and /_sandbox/openapi.json, byte for byte (same formatting as `npm run openapi`). When a schema or route changes, this test fails until the
 * file is regenerated and committed, so client generators and reviewers always see the contract
 * the simulator really implements.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { buildApp } from '../../src/app.js';
import { DOCUMENTS as PUBLISHED } from '../../src/openapi/documents.js';
import { scaled } from '../helpers/speed.js';

// generous: CI machines run many test files at once (tap's default is 30 s per file)
t.setTimeout(scaled(180_000));

// where each published document is served and committed (src/openapi/documents.ts)
const DOCUMENTS = Object.values(PUBLISHED);

type Doc = { paths?: Record<string, Record<string, unknown>>; components?: { schemas?: Record<string, unknown> } };

/** Human summary of what differs, so the failure says more than "not equal". */
export function describeDrift(committed: Doc, served: Doc): string[] {
  const out: string[] = [];
  const ops = (d: Doc) =>
    new Map(
      Object.entries(d.paths ?? {}).flatMap(([p, o]) =>
        Object.entries(o).map(([m, op]) => [`${m.toUpperCase()} ${p}`, JSON.stringify(op)] as const),
      ),
    );
  const a = ops(committed);
  const b = ops(served);
  for (const k of b.keys()) if (!a.has(k)) out.push(`operation added: ${k}`);
  for (const k of a.keys()) if (!b.has(k)) out.push(`operation removed: ${k}`);
  for (const [k, v] of b) if (a.has(k) && a.get(k) !== v) out.push(`operation changed: ${k}`);
  const sa = committed.components?.schemas ?? {};
  const sb = served.components?.schemas ?? {};
  for (const k of Object.keys(sb)) if (!(k in sa)) out.push(`schema added: ${k}`);
  for (const k of Object.keys(sa)) if (!(k in sb)) out.push(`schema removed: ${k}`);
  for (const k of Object.keys(sb)) if (k in sa && JSON.stringify(sa[k]) !== JSON.stringify(sb[k])) out.push(`schema changed: ${k}`);
  return out;
}

t.test('each served document equals its committed file', async (t) => {
  // the same configuration `obsim openapi` (npm run openapi) uses
  const app = await buildApp({ config: { db: ':memory:', logLevel: 'silent' }, logger: false });
  await app.ready();
  t.teardown(() => app.close());
  for (const { url, file } of DOCUMENTS) {
    const how = `${file} is stale: run \`npm run openapi\` and commit ${file}`;
    const res = await app.inject({ url });
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], /application\/json/);
    const served = `${JSON.stringify(JSON.parse(res.body), null, 2)}\n`;
    let committed: string;
    try {
      committed = readFileSync(fileURLToPath(new URL(`../../${file}`, import.meta.url)), 'utf8');
    } catch {
      t.fail(`${file} is missing: run \`npm run openapi\` and commit it`);
      continue;
    }
    const drift = served === committed ? [] : describeDrift(JSON.parse(committed) as Doc, JSON.parse(served) as Doc);
    if (served !== committed && drift.length === 0) drift.push('formatting or key order differs');
    t.same(drift, [], how);
    t.ok(served === committed, how);
  }
});

t.test('the drift summary names what changed', async (t) => {
  const before: Doc = { paths: { '/a': { get: { x: 1 } }, '/b': { post: {} } }, components: { schemas: { A: { type: 'string' }, B: {} } } };
  const after: Doc = { paths: { '/a': { get: { x: 2 } }, '/c': { put: {} } }, components: { schemas: { A: { type: 'integer' }, C: {} } } };
  t.same(describeDrift(before, after).sort(), [
    'operation added: PUT /c',
    'operation changed: GET /a',
    'operation removed: POST /b',
    'schema added: C',
    'schema changed: A',
    'schema removed: B',
  ]);
});
