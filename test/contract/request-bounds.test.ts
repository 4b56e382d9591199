/**
 * What a request may carry is bounded in the documents themselves (docs/errors.md): every string
 * a request of either served document takes has a length limit (or a fixed list of values), every
 * number a lowest and a highest value, every list a longest length; and every object a control
 * takes is closed (`additionalProperties: false`, or a fixed list of property names), so a typo
 * there is refused, not ignored. Three control objects are checked by a schema of their own and
 * say so: an inline persona (personas/persona.schema.json), an inline scenario
 * (scenarios/scenario.schema.json) and an imported HAR (the registry's har-schema: a HAR is open to
 * the `_`-prefixed fields browsers add).
 */
import t from 'tap';
import { build } from '../helpers/app.js';

type Json = Record<string, any>;
const CHECKED_ELSEWHERE: Record<string, RegExp> = {
  'POST /_sandbox/sandboxes body/persona': /persona\.schema\.json/,
  'POST /_sandbox/scenarios/run body/scenario': /scenario\.schema\.json/,
  'POST /_sandbox/scenarios/import body': /har-schema/,
};

function unbounded(doc: Json, strict: boolean): string[] {
  const schemas = doc.components.schemas as Json;
  const out = new Set<string>();
  const walk = (node: Json | undefined, at: string, seen: Set<string>): void => {
    if (!node || typeof node !== 'object') return;
    if (node.$ref) {
      const name = String(node.$ref).split('/').pop()!;
      if (seen.has(name)) return;
      return walk(schemas[name] as Json, at, new Set([...seen, name]));
    }
    for (const k of ['oneOf', 'anyOf', 'allOf'] as const) for (const s of (node[k] ?? []) as Json[]) walk(s, at, seen);
    const types = [node.type ?? []].flat() as string[];
    const fixed = node.enum !== undefined || node.const !== undefined;
    if ((types.includes('object') || node.properties) && !fixed) {
      const closed = node.additionalProperties === false || Array.isArray(node.propertyNames?.enum);
      // a map: any name (or any name of a pattern), each value of one schema
      const map = typeof node.additionalProperties === 'object' || (node.additionalProperties === true && node.propertyNames !== undefined);
      if (strict && !closed && !map && !CHECKED_ELSEWHERE[at]?.test(String(node.description)))
        out.add(`${at}: an object open to unknown properties`);
      if (map && node.maxProperties === undefined) out.add(`${at}: a map without maxProperties`);
      for (const [k, v] of Object.entries((node.properties ?? {}) as Json)) walk(v as Json, `${at}/${k}`, seen);
      if (map && typeof node.additionalProperties === 'object') walk(node.additionalProperties as Json, `${at}/*`, seen);
    }
    if (types.includes('array')) {
      if (node.maxItems === undefined) out.add(`${at}: a list without maxItems`);
      walk(node.items as Json, `${at}/0`, seen);
    }
    if (types.includes('string') && !fixed && node.maxLength === undefined) out.add(`${at}: a string without maxLength`);
    const numeric = types.includes('number') || types.includes('integer');
    if (numeric && !fixed) {
      if (node.maximum === undefined && node.exclusiveMaximum === undefined) out.add(`${at}: a number without a maximum`);
      if (node.minimum === undefined && node.exclusiveMinimum === undefined) out.add(`${at}: a number without a minimum`);
    }
  };
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const o = op as Json;
      const where = `${method.toUpperCase()} ${path}`;
      const body = o.requestBody?.content?.['application/json']?.schema as Json | undefined;
      if (body) walk(body, `${where} body`, new Set());
      for (const p of (o.parameters ?? []) as Json[])
        if (p.in !== 'header') walk(p.schema as Json, `${where} ${p.in}/${p.name}`, new Set());
    }
  }
  return [...out];
}

t.test('every string, number, list and control object a request takes is bounded by its document', async (t) => {
  const app = await build(t);
  for (const [url, strict] of [
    ['/openapi.json', false],
    ['/_sandbox/openapi.json', true],
  ] as const) {
    const doc = (await app.inject({ url })).json<Json>();
    t.same(unbounded(doc, strict), [], url);
  }
});

t.test('the check finds what it looks for', async (t) => {
  const doc = {
    components: { schemas: { Open: { type: 'object', properties: { n: { type: 'integer', minimum: 0 }, s: { type: 'string' } } } } },
    paths: {
      '/_sandbox/x': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Open' } } } } } },
    },
  };
  t.same(unbounded(doc, true).sort(), [
    'POST /_sandbox/x body/n: a number without a maximum',
    'POST /_sandbox/x body/s: a string without maxLength',
    'POST /_sandbox/x body: an object open to unknown properties',
  ]);
});
