/**
 * Bad requests made from an OpenAPI document alone (test/reliability/document-refusals.test.ts):
 * for one operation, a request the document calls valid (its example body, schema-valid path and
 * query values), and the places in it that can be made wrong, each with where a refusal must point.
 *
 * Nothing here reads obsim's route table or schemas: the served document is the oracle, so a
 * route whose validation drifts from what its document promises is caught.
 */
import fc from 'fast-check';

type Json = Record<string, any>;
export type Place = 'body' | 'query' | 'path';

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  op: Json;
}

/** One way to make one place of a valid request wrong, and where the refusal must point. */
export interface Site {
  place: Place;
  /** The RFC 6901 pointer a 400 must name (into the body, or `/name` of a parameter). */
  pointer: string;
  kind: string;
  /** The bad values (or, for an unknown property, the property's value). */
  values: fc.Arbitrary<unknown>;
  /** Apply a bad value to a copy of the valid request. */
  apply(req: BaseRequest, value: unknown): BaseRequest;
  /** An unknown property the document does not promise to refuse (the provider's lenient bodies). */
  lenient?: boolean;
}

export interface BaseRequest {
  path: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  hasBody: boolean;
}

export const operationsOf = (doc: Json): Operation[] =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, operationId: (op as Json).operationId as string, op: op as Json })),
  );

/** A schema with its `$ref`s into the document's components followed. */
export function deref(doc: Json, schema: Json | undefined): Json | undefined {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++) s = doc.components.schemas[String(s.$ref).split('/').pop()!];
  return s;
}

const typesOf = (s: Json): string[] => (s.type === undefined ? [] : [s.type].flat());
const escape = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** A value the schema accepts, for a path or query parameter (names the tests know get realistic ones). */
function validParam(name: string, s: Json, known: Record<string, string>): string {
  if (known[name] !== undefined) return known[name];
  if (s.enum) return String(s.enum[0]);
  if (s.default !== undefined) return String(s.default);
  const t = typesOf(s);
  if (t.includes('integer') || t.includes('number')) return String(Math.max(1, s.minimum ?? 1));
  if (s.format === 'date-time') return '2026-01-15T09:00:00.000Z';
  return 'x';
}

export function baseRequest(op: Operation, known: Record<string, string>): BaseRequest {
  const path: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const p of (op.op.parameters ?? []) as Json[]) {
    if (p.in === 'path') path[p.name] = validParam(p.name, p.schema ?? {}, known);
    else if (p.in === 'query' && p.required) query[p.name] = validParam(p.name, p.schema ?? {}, known);
  }
  const media = op.op.requestBody?.content?.['application/json'];
  return { path, query, body: structuredClone(media?.example), hasBody: media !== undefined };
}

export function urlOf(op: Operation, req: BaseRequest): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(req.path[name]));
  const qs = new URLSearchParams(req.query).toString();
  return qs ? `${path}?${qs}` : path;
}

/** Wrong values for a leaf of schema `s`, by kind (each is refused by the document's own words). */
function badValues(s: Json, place: Place): { kind: string; values: fc.Arbitrary<unknown> }[] {
  const out: { kind: string; values: fc.Arbitrary<unknown> }[] = [];
  const t = typesOf(s);
  const inBody = place === 'body';
  const numeric = t.includes('integer') || t.includes('number');
  if (s.enum) out.push({ kind: 'not one of the enum', values: fc.constantFrom('zz-not-listed', 'ZZ') });
  if (numeric) {
    if (s.maximum !== undefined)
      out.push({
        kind: 'above the maximum',
        values: fc.oneof(
          fc.constant(s.maximum + 1),
          fc.integer({ min: s.maximum + 1, max: Math.max(s.maximum + 2, Number.MAX_SAFE_INTEGER) }),
          fc.constant(1e300),
        ),
      });
    if (s.minimum !== undefined)
      out.push({
        kind: 'below the minimum',
        values: fc.oneof(
          fc.constant(s.minimum - 1),
          fc.constant(-1e300),
          fc.integer({ min: Math.min(s.minimum - 2, -Number.MAX_SAFE_INTEGER), max: s.minimum - 1 }),
        ),
      });
    if (t.includes('integer') && !t.includes('number')) out.push({ kind: 'not whole', values: fc.constantFrom(1.5, 0.25) });
    if (!t.includes('string')) out.push({ kind: 'not a number', values: fc.constantFrom('twelve', inBody ? '12' : '1e999x') });
  }
  if (t.includes('string')) {
    if (s.maxLength !== undefined)
      out.push({
        kind: 'too long',
        values: fc.integer({ min: s.maxLength + 1, max: s.maxLength + 5000 }).map((n) => 'a1'.repeat(n).slice(0, n)),
      });
    if (s.format === 'date-time' || s.format === 'date')
      out.push({ kind: 'not an instant', values: fc.constantFrom('2026-02-30T10:00:00Z', 'yesterday', '2026-13-01', '2027-02-29') });
    if (/duration/i.test(String(s.description ?? '')) || /\(ms\|s\|m\|h\|d\)/.test(String(s.pattern ?? '')))
      out.push({ kind: 'not a duration', values: fc.constantFrom('5 parsecs', 'soon', '99999999999999999d') });
    if (inBody && !numeric && !t.includes('boolean')) out.push({ kind: 'not a string', values: fc.constantFrom(12345, true) });
  }
  if (t.includes('boolean') && inBody && !t.includes('string')) out.push({ kind: 'not a boolean', values: fc.constantFrom('yes', 1) });
  if (t.includes('array') && inBody) out.push({ kind: 'not a list', values: fc.constant('x') });
  if (t.includes('object') && inBody && !t.includes('string')) out.push({ kind: 'not an object', values: fc.constantFrom(42, 'x') });
  return out;
}

const getAt = (root: unknown, segs: string[]): unknown => segs.reduce<unknown>((v, k) => (v as Json | undefined)?.[k], root);
/** A copy of `root` with `value` at `segs`, the objects on the way made when missing. */
function setAt(root: unknown, segs: string[], value: unknown): unknown {
  if (segs.length === 0) return value;
  const copy = (structuredClone(root) ?? {}) as Json;
  let node = copy;
  for (const k of segs.slice(0, -1)) {
    if (node[k] === undefined || node[k] === null) node[k] = {};
    node = node[k] as Json;
  }
  node[segs.at(-1)!] = value;
  return copy;
}

/**
 * Every place of an operation's request that can be made wrong: each body property the document
 * describes, at every depth (those of the example, and those it leaves out, added), each query and
 * path parameter, and an unknown property in every object of the body and the query string. A
 * strict door (obsim's controls) refuses the unknown ones; the provider's drops an unknown body
 * property (marked `lenient`).
 */
export function sitesOf(doc: Json, op: Operation, base: BaseRequest, opts: { strict: boolean }): Site[] {
  const sites: Site[] = [];
  for (const p of (op.op.parameters ?? []) as Json[]) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    const place: 'path' | 'query' = p.in;
    for (const bad of badValues(deref(doc, p.schema) ?? {}, place)) {
      sites.push({
        place,
        pointer: `/${escape(p.name)}`,
        kind: bad.kind,
        values: bad.values.filter((v) => typeof v !== 'boolean'),
        apply: (req, v) => ({ ...req, [place]: { ...req[place], [p.name]: String(v) } }),
      });
    }
  }
  if (opts.strict) {
    sites.push({
      place: 'query',
      pointer: '/zzUnknown',
      kind: 'an unknown query parameter',
      values: fc.constantFrom('1', 'x'),
      apply: (req, v) => ({ ...req, query: { ...req.query, zzUnknown: String(v) } }),
    });
  }
  if (!base.hasBody) return sites;
  const walk = (schema: Json | undefined, segs: string[], depth: number, value: unknown): void => {
    const s = deref(doc, schema);
    if (!s || depth > 6) return;
    const pointer = segs.map((k) => `/${escape(k)}`).join('');
    if (segs.length > 0) {
      for (const bad of badValues(s, 'body')) {
        sites.push({
          place: 'body',
          pointer,
          kind: bad.kind,
          values: bad.values,
          apply: (req, v) => ({ ...req, body: setAt(req.body, segs, v) }),
        });
      }
    }
    const types = typesOf(s);
    const isObject = types.includes('object') || (s.properties !== undefined && types.length === 0);
    if (isObject && (value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value)))) {
      const here = (value ?? {}) as Json;
      const closed = s.additionalProperties === false || Array.isArray(s.propertyNames?.enum);
      const map = typeof s.additionalProperties === 'object';
      if (opts.strict ? closed : s.properties !== undefined && !map) {
        sites.push({
          place: 'body',
          pointer: `${pointer}/zzUnknown`,
          kind: 'an unknown property',
          lenient: !opts.strict,
          values: fc.constantFrom(1, 'x', { deep: true }),
          apply: (req, v) => ({ ...req, body: setAt(req.body, segs, { ...(getAt(req.body, segs) as Json | undefined), zzUnknown: v }) }),
        });
      }
      for (const [k, sub] of Object.entries((s.properties ?? {}) as Json)) {
        if (k in here) {
          walk(sub as Json, [...segs, k], depth + 1, here[k]);
          continue;
        }
        // a property the example leaves out: its leaves are sent on their own; an object without
        // required properties is made present (empty) to reach inside it
        const subSchema = deref(doc, sub as Json) ?? {};
        const object = typesOf(subSchema).includes('object') || subSchema.properties !== undefined;
        if (object && (subSchema.required?.length ?? 0) > 0) continue;
        walk(sub as Json, [...segs, k], depth + 1, object ? {} : undefined);
      }
      if (map) for (const [k, v] of Object.entries(here)) walk(s.additionalProperties as Json, [...segs, k], depth + 1, v);
    }
    if (types.includes('array') && Array.isArray(value) && value.length > 0) walk(s.items as Json, [...segs, '0'], depth + 1, value[0]);
  };
  const schema = op.op.requestBody.content['application/json'].schema as Json;
  walk(schema, [], 0, base.body ?? {});
  return sites;
}
