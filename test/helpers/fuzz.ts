/**
 * Schema-driven request fuzzing (test/reliability/fuzz.test.ts, isolation tests).
 *
 * Routes come from `app.routeTable` (every route as registered), so endpoints are picked up as
 * they land. For each route a fast-check arbitrary builds requests from the route's own request
 * schemas (body, querystring, params), then mutates them: wrong types, missing and extra fields,
 * huge strings and arrays, deep nesting, `__proto__`/`constructor` keys, invalid dates, amounts
 * with many decimals, negative/huge/non-finite numbers, unicode and control characters,
 * malformed JSON and odd Content-Type values.
 *
 * A request carries `mustReject` when it is certainly invalid (a required field missing, a value
 * of a type the schema does not allow, no credentials on a protected route): a 2xx for it is a
 * validation bypass.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { RouteEntry } from '../../src/app.js';
import { sharedSchemas } from '../../schemas/index.js';
import { PARTNER, schemaErrors } from './app.js';

type Schema = Record<string, any>;

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** Certainly invalid: a 2xx answer is a defect. */
  mustReject: boolean;
  /** What was done to the request (shown on failure). */
  label: string;
}

export interface FuzzContext {
  /** Values to use for well-known field / param names so valid requests reach deep. */
  hints: Record<string, fc.Arbitrary<unknown>>;
  /** Headers that authenticate a request to this route (or {} for public routes). */
  auth: (route: RouteEntry) => Record<string, string>;
}

// ------------------------------------------------------------------------------------- schemas

const byId = new Map<string, Schema>(sharedSchemas.map((s) => [s.$id, s as Schema]));

/** Follow `{ $ref: 'Id#' }` (and `#/...` is not used in this code base). */
export function deref(schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
    const target = byId.get(s.$ref.replace(/#.*$/, ''));
    if (!target) return {};
    s = { ...target, ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref')) };
  }
  if (Array.isArray(s.allOf)) {
    const merged: Schema = { ...s, allOf: undefined };
    for (const part of s.allOf) {
      const p = deref(part);
      merged.type ??= p.type;
      merged.properties = { ...merged.properties, ...p.properties };
      merged.required = [...(merged.required ?? []), ...(p.required ?? [])];
    }
    return merged;
  }
  return s;
}

function typesOf(schema: Schema): string[] {
  const s = deref(schema);
  if (s.const !== undefined) return [jsonType(s.const)];
  if (Array.isArray(s.enum)) return [...new Set(s.enum.map(jsonType))] as string[];
  if (s.type) return [s.type].flat();
  if (s.properties) return ['object'];
  if (s.items) return ['array'];
  if (s.oneOf || s.anyOf) return [...new Set((s.oneOf ?? s.anyOf).flatMap((x: Schema) => typesOf(x)))] as string[];
  return [];
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

// ------------------------------------------------------------------------------- valid values

const SAFE_MAX = 1_000_000_000;

function stringArb(s: Schema, name: string, ctx: FuzzContext): fc.Arbitrary<unknown> {
  if (ctx.hints[name]) return ctx.hints[name];
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, 60);
  switch (s.format) {
    case 'date-time':
      return fc
        .date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2027-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('1940-01-01T00:00:00Z'), max: new Date('2026-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress().filter((e) => e.length <= (s.maxLength ?? 254));
    case 'uri':
    case 'url':
      return fc.constantFrom('https://example.test/', 'https://shop.example.test/path?q=1', 'http://127.0.0.1:9/hook');
    case 'uuid':
      return fc.uuid();
  }
  if (typeof s.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter((x) => x.length >= min && x.length <= (s.maxLength ?? Infinity));
    } catch {
      /* fall through */
    }
  }
  return fc.string({ minLength: min, maxLength: Math.max(min, max) });
}

function numberArb(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const lo = Math.max(s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1000), -SAFE_MAX);
  const hi = Math.min(s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 100_000), SAFE_MAX);
  if (integer || s.multipleOf === 1) return fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) });
  // amounts: mostly two decimals
  return fc.oneof(
    fc.integer({ min: Math.ceil(lo * 100), max: Math.floor(hi * 100) }).map((n) => n / 100),
    fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) }),
  );
}

/** Arbitrary of values that (mostly) satisfy `schema`. */
export function validArb(schema: Schema | undefined, ctx: FuzzContext, name = '', depth = 0): fc.Arbitrary<unknown> {
  const s = deref(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (ctx.hints[name] && depth > 0) return ctx.hints[name];
  if (s.oneOf || s.anyOf) return fc.oneof(...(s.oneOf ?? s.anyOf).map((x: Schema) => validArb(x, ctx, name, depth)));
  const types = typesOf(s).filter((t) => t !== 'null');
  const type = types[0] ?? 'string';
  switch (type) {
    case 'object': {
      const props: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) props[k] = validArb(v, ctx, k, depth + 1);
      const required = (s.required ?? []) as string[];
      if (depth > 4) return fc.constant(Object.fromEntries(required.map((k) => [k, 'x'])));
      return fc.record(props, { requiredKeys: required.filter((k) => k in props) });
    }
    case 'array': {
      const maxLength = Math.min(s.maxItems ?? 3, 3);
      return fc.array(validArb(s.items, ctx, name, depth + 1), { minLength: Math.min(s.minItems ?? 0, maxLength), maxLength });
    }
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    default:
      return stringArb(s, name, ctx);
  }
}

// ------------------------------------------------------------------------------- nasty values

export const INVALID_DATES = [
  '9999-12-31T23:59:59.999Z',
  '0001-01-01T00:00:00.000Z',
  '1970-01-01T00:00:00.000Z',
  '2026-02-30T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-01-15T25:00:00Z',
  '2026-01-15T09:00:00',
  '0000-00-00T00:00:00Z',
  '+275760-09-13T00:00:00.001Z',
  '-000001-01-01T00:00:00Z',
  'yesterday',
  '',
  '2026-01-15',
  '1e10',
];

const CONTROL = '\u0000\u0001\u0007\b\t\n\r\u001b\u007f';
export const NASTY_STRINGS = [
  '',
  ' ',
  CONTROL,
  '\u202eevil\u202c',
  'Ω≈ç√∫ 漢字 🤖💸 ﷽',
  '\ud800',
  '\uffff\ufffe',
  "' OR 1=1 --",
  '"; DROP TABLE merchants; --',
  '<script>alert(1)</script>',
  '{{7*7}}${7*7}',
  '../../../../etc/passwd',
  '%00%0d%0a',
  'null',
  'NaN',
  '1e999',
  'A'.repeat(10_000),
];

const HUGE_STRING = 'Z'.repeat(200_000);
const HUGE_ARRAY = Array.from({ length: 20_000 }, (_, i) => i);

function deepObject(depth: number): unknown {
  let v: unknown = { leaf: true };
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

const NASTY_NUMBERS: unknown[] = [
  0,
  -0,
  -1,
  -0.01,
  0.001,
  12.345678901234567,
  1e-7,
  1e21,
  1.7976931348623157e308,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  99999999999.99,
];

/** Raw JSON number tokens JSON.stringify cannot produce. */
const RAW_NUMBERS = ['1e999', '-1e999', '123456789012345678901234567890', '1.00000000000000000000001', '-0.0', '0.1e-400'];

/** Values that certainly do not have any of `types`. */
function wrongTypeValues(types: string[]): unknown[] {
  const candidates: [string, unknown][] = [
    ['string', 'not-a-number'],
    ['integer', 42],
    ['number', 4.25],
    ['boolean', true],
    ['null', null],
    ['array', ['x']],
    ['object', { nested: 'x' }],
  ];
  return candidates
    .filter(([t]) => {
      if (types.length === 0) return false;
      if (t === 'integer') return !types.includes('integer') && !types.includes('number');
      if (t === 'number') return !types.includes('number');
      return !types.includes(t);
    })
    .map(([, v]) => v);
}

// ------------------------------------------------------------------------------- mutations

interface Path {
  keys: (string | number)[];
  schema: Schema;
  /** The key is required by its parent (and has no default). */
  required: boolean;
}

/** Every position inside a generated value, with its schema. */
function pathsOf(value: unknown, schema: Schema | undefined, keys: (string | number)[] = [], out: Path[] = [], required = true): Path[] {
  const s = deref(schema);
  out.push({ keys, schema: s, required });
  if (keys.length > 4) return out;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const req = new Set<string>(s.required ?? []);
    for (const [k, v] of Object.entries(value)) {
      const sub = s.properties?.[k];
      pathsOf(v, sub, [...keys, k], out, req.has(k) && deref(sub).default === undefined);
    }
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => pathsOf(v, s.items, [...keys, i], out, false));
  }
  return out;
}

function getAt(root: unknown, keys: (string | number)[]): unknown {
  let cur = root as any;
  for (const k of keys) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = cur[k];
  }
  return cur;
}

function objectPaths(paths: Path[]): Path[] {
  const objects = paths.filter((p) => typesOf(p.schema).includes('object'));
  return objects.length ? objects : paths.slice(0, 1);
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

function setAt(root: unknown, keys: (string | number)[], value: unknown, remove = false): unknown {
  if (keys.length === 0) return value;
  const copy = clone(root) as any;
  let cur = copy;
  for (const k of keys.slice(0, -1)) {
    if (cur === null || typeof cur !== 'object') return copy;
    cur = cur[k];
  }
  if (cur === null || typeof cur !== 'object') return copy;
  const last = keys[keys.length - 1];
  if (remove) {
    if (Array.isArray(cur)) cur.splice(last as number, 1);
    else delete cur[last];
  } else {
    // own property even for "__proto__"
    Object.defineProperty(cur, last, { value, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

const RAW = '\u0000RAW:';

interface Mutation {
  value: unknown;
  invalid: boolean;
  label: string;
}

function mutationsAt(path: Path): fc.Arbitrary<Mutation> {
  const s = path.schema;
  const types = typesOf(s);
  const where = path.keys.join('.') || '(body)';
  const options: fc.Arbitrary<Mutation>[] = [];
  const wrong = wrongTypeValues(types).filter(() => !(s.enum && s.enum.includes(null)));
  if (wrong.length) options.push(fc.constantFrom(...wrong).map((value) => ({ value, invalid: true, label: `wrong type at ${where}` })));
  if (Array.isArray(s.enum) && types.includes('string')) {
    options.push(
      fc
        .constantFrom('NOT_IN_ENUM', String(s.enum[0]).toUpperCase() + ' ')
        .map((value) => ({ value, invalid: !s.enum.includes(value), label: `not in enum at ${where}` })),
    );
  }
  options.push(fc.constantFrom(...NASTY_STRINGS).map((value) => ({ value, invalid: false, label: `nasty string at ${where}` })));
  options.push(
    fc.constantFrom(...NASTY_NUMBERS).map((value) => ({ value, invalid: false, label: `nasty number ${String(value)} at ${where}` })),
  );
  options.push(
    fc
      .constantFrom(...RAW_NUMBERS)
      .map((raw) => ({ value: RAW + raw, invalid: !types.includes('string'), label: `raw number ${raw} at ${where}` })),
  );
  options.push(
    fc
      .constantFrom(...INVALID_DATES)
      .map((value) => ({ value, invalid: false, label: `invalid date ${JSON.stringify(value)} at ${where}` })),
  );
  options.push(fc.constant({ value: HUGE_STRING, invalid: false, label: `200k string at ${where}` }));
  options.push(fc.constant({ value: HUGE_ARRAY, invalid: !types.includes('array') && types.length > 0, label: `20k array at ${where}` }));
  options.push(
    fc.constant({ value: deepObject(2000), invalid: !types.includes('object') && types.length > 0, label: `2000-deep object at ${where}` }),
  );
  options.push(
    fc.string({ unit: 'binary', maxLength: 30 }).map((value) => ({ value, invalid: false, label: `random unicode at ${where}` })),
  );
  return fc.oneof(...options);
}

/** A body: valid, or valid then mutated once or twice. Returns the JSON text. */
export function bodyArb(schema: Schema | undefined, ctx: FuzzContext): fc.Arbitrary<{ text: string; invalid: boolean; label: string }> {
  const valid = validArb(schema, ctx);
  const asText = (v: unknown) => JSON.stringify(v).replace(new RegExp(`"${RAW.replace('\u0000', '\\\\u0000')}([^"]*)"`, 'g'), '$1');
  const mutated = valid.chain((v) => {
    const paths = pathsOf(v, schema);
    const droppable = paths.filter((p) => p.keys.length > 0 && p.required);
    const choices: fc.Arbitrary<Mutation & { keys: (string | number)[]; remove?: boolean }>[] = [
      fc.constantFrom(...paths).chain((p) => mutationsAt(p).map((m) => ({ ...m, keys: p.keys }))),
      // extra properties, including prototype-pollution keys (own properties, so they are sent)
      fc
        .tuple(fc.constantFrom(...objectPaths(paths)), fc.constantFrom('__proto__', 'constructor', 'prototype', 'unknownField', ''))
        .map(([p, key]) => ({
          keys: [...p.keys, key],
          value: key === 'constructor' ? { prototype: { polluted: true } } : { polluted: true },
          invalid: false,
          label: `extra key ${JSON.stringify(key)} at ${p.keys.join('.') || '(body)'}`,
        })),
    ];
    // boundary values that still match the field's pattern: every digit run inflated
    // ("5s" -> "999999999999s", "2026-01-15" -> "999999999999-…"): found the clock-advance 500
    const withDigits = paths.filter((p) => typeof getAt(v, p.keys) === 'string' && /\d/.test(getAt(v, p.keys) as string));
    if (withDigits.length) {
      choices.push(
        fc
          .tuple(fc.constantFrom(...withDigits), fc.constantFrom('999999999999', '0', '00000000000000000001', '9007199254740993'))
          .map(([p, digits]) => ({
            keys: p.keys,
            value: (getAt(v, p.keys) as string).replace(/\d+/g, digits),
            invalid: false,
            label: `digits -> ${digits} at ${p.keys.join('.')}`,
          })),
      );
    }
    if (droppable.length) {
      choices.push(
        fc
          .constantFrom(...droppable)
          .map((p) => ({ keys: p.keys, value: undefined, remove: true, invalid: true, label: `missing required ${p.keys.join('.')}` })),
      );
    }
    return fc.oneof(...choices).map((m) => {
      // dropping a required array item or an element of an array is not certainly invalid
      const invalid = m.invalid && !(m.remove && typeof m.keys[m.keys.length - 1] === 'number');
      return { text: asText(setAt(v, m.keys, m.value, m.remove)), invalid, label: m.label };
    });
  });
  return fc.oneof(
    { weight: 2, arbitrary: valid.map((v) => ({ text: asText(v), invalid: false, label: 'valid body' })) },
    { weight: 3, arbitrary: mutated },
  );
}

// ---------------------------------------------------------------------- raw payloads & headers

export const MALFORMED_JSON: string[] = [
  '{',
  '{"a":1,}',
  "{'a':1}",
  '\ufeff{}',
  '',
  ' ',
  'null',
  '[]',
  '[{}]',
  '"text"',
  '123',
  'true',
  '{"a":1}{"b":2}',
  '{"a":1} trailing',
  '{"a":"\u0000"}',
  '{"__proto__":{"polluted":true}}',
  '{"a":{"__proto__":{"polluted":true}}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":"\\ud800"}',
  '{"a":1e999}',
  '['.repeat(100_000) + ']'.repeat(100_000),
  '{"a":'.repeat(50_000) + '1' + '}'.repeat(50_000),
  '\u0000\u0001\u0002',
  Buffer.from([0xff, 0xfe, 0xfd, 0x7b, 0x7d]).toString('latin1'),
];

/** Content-Type values behind the Fastify content-type CVEs, and other odd ones. */
export const CONTENT_TYPES: (string | undefined)[] = [
  'application/json',
  ' application/json',
  '\tapplication/json',
  'application/json\t',
  'application/json\tx',
  'application/json ;charset=utf-8',
  'application/json;',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'Application/Json; Charset=UTF-8',
  'application/jsonx',
  'application/json, text/plain',
  'application/json;charset="utf-8"; foo',
  'application/vnd.api+json',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  '*/*',
  '',
  'garbage',
  undefined,
];

// --------------------------------------------------------------------------- route requests

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function encodeQuery(q: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) {
      parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(typeof item === 'object' ? JSON.stringify(item) : String(item))}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

function paramNames(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
}

function fillUrl(url: string, params: Record<string, unknown>): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

/** Params that can never be valid for a typed param (the raw text is put in the URL as is). */
const PARAM_MUTATIONS = [
  'abc',
  '-1',
  '0',
  '1.5',
  '99999999999999999999999',
  '1e3',
  '%00',
  '%2e%2e%2f',
  '%E2%80%AE',
  '%F0%9F%92%B8',
  '%ZZ',
  'x'.repeat(250),
  '%20',
  '__proto__',
  'constructor',
];

/** Routes that need credentials. Sandbox management is open to anyone unless OBSIM_ADMIN_KEY is set (tested on its own). */
export function isProtected(route: RouteEntry): boolean {
  return /^\/(v1\/partner|_sandbox|v1\/ais)(\/|$)/.test(route.url) && !route.url.startsWith('/_sandbox/sandboxes');
}

export function isApiRoute(route: RouteEntry): boolean {
  return /^\/(v1|_sandbox)(\/|$)/.test(route.url);
}

/** An arbitrary of requests to `route`. */
export function requestArb(route: RouteEntry, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const schema = route.schema ?? {};
  const names = paramNames(route.url);
  const paramsSchema = deref(schema.params as Schema);
  const querySchema = deref(schema.querystring as Schema);
  const hasBody = BODY_METHODS.has(route.method);
  const auth = ctx.auth(route);

  const params = fc.record(
    Object.fromEntries(
      names.map((n) => [n, ctx.hints[n] ?? validArb(paramsSchema.properties?.[n] ?? { type: 'string', minLength: 1 }, ctx, n, 1)]),
    ),
  ) as fc.Arbitrary<Record<string, unknown>>;
  const query = querySchema.properties ? (validArb(querySchema, ctx) as fc.Arbitrary<Record<string, unknown>>) : fc.constant({});
  const body = hasBody ? bodyArb(schema.body as Schema, ctx) : fc.constant(undefined);

  const headersFor = (b: unknown): Record<string, string> => ({
    ...auth,
    ...(b !== undefined ? { 'content-type': 'application/json' } : {}),
  });
  const base = fc.record({ params, query, body }).map(({ params: p, query: q, body: b }) => ({
    method: route.method,
    url: fillUrl(route.url, p) + encodeQuery(q),
    headers: headersFor(b),
    payload: b?.text,
    mustReject: b?.invalid ?? false,
    label: b?.label ?? 'no body',
  }));

  const variants: fc.Arbitrary<FuzzRequest>[] = [base];

  // a path param replaced with junk
  if (names.length) {
    variants.push(
      fc.tuple(base, fc.record(Object.fromEntries(names.map((n) => [n, fc.constantFrom(...PARAM_MUTATIONS)])))).chain(([r, bad]) =>
        fc.constantFrom(...names).map((which) => {
          const pType = typesOf(paramsSchema.properties?.[which] ?? {});
          const raw = bad[which];
          const numericOnly = pType.length > 0 && !pType.includes('string');
          return {
            ...r,
            url:
              route.url.replace(/:([A-Za-z0-9_]+)/g, (_, n: string) =>
                n === which ? raw : encodeURIComponent(String(pathParamFromUrl(r.url, route.url, n))),
              ) + queryOf(r.url),
            mustReject: r.mustReject || (numericOnly && !/^-?\d+$/.test(raw)),
            label: `${r.label}; param ${which}=${raw.slice(0, 40)}`,
          };
        }),
      ),
    );
  }

  // querystring junk: wrong types, duplicates, unknown keys, huge values
  if (querySchema.properties) {
    const keys = Object.keys(querySchema.properties);
    variants.push(
      fc
        .tuple(
          base,
          fc.constantFrom(...keys),
          fc.constantFrom<unknown>('abc', -1, 0, 1e30, '1.5', ['1', '2'], 'x'.repeat(5000), '', '%00', 'true'),
        )
        .map(([r, key, value]) => {
          const t = typesOf(querySchema.properties[key]);
          const certainlyBad = typeof value === 'string' && value === 'abc' && t.length > 0 && !t.includes('string');
          const [path] = r.url.split('?');
          const existing = Object.fromEntries(new URLSearchParams(queryOf(r.url).slice(1)));
          return {
            ...r,
            url: path + encodeQuery({ ...existing, [key]: value, unknownParam: 'x' }),
            mustReject: r.mustReject || certainlyBad,
            label: `${r.label}; query ${key}=${String(value).slice(0, 30)}`,
          };
        }),
    );
  }

  // malformed JSON, and odd content types
  if (hasBody) {
    variants.push(
      fc.tuple(base, fc.constantFrom(...MALFORMED_JSON)).map(([r, raw]) => ({
        ...r,
        payload: raw,
        mustReject: false,
        label: `malformed JSON ${JSON.stringify(raw.slice(0, 30))}`,
      })),
      fc.tuple(base, fc.constantFrom(...CONTENT_TYPES)).map(([r, ct]) => {
        const headers = { ...r.headers };
        if (ct === undefined) delete headers['content-type'];
        else headers['content-type'] = ct;
        return { ...r, headers, label: `${r.label}; content-type ${JSON.stringify(ct)}` };
      }),
    );
  }

  // credentials: missing, wrong, duplicated-looking
  if (isProtected(route)) {
    variants.push(
      fc.tuple(base, fc.constantFrom('none', 'wrong-secret', 'wrong-id', 'bearer-junk', 'empty')).map(([r, how]) => {
        const headers = { ...r.headers };
        for (const k of Object.keys(auth)) delete headers[k];
        if (how === 'wrong-secret')
          Object.assign(headers, { ...PARTNER, 'x-partner-client-secret': `${PARTNER['x-partner-client-secret']}x` });
        if (how === 'wrong-id') Object.assign(headers, { ...PARTNER, 'x-partner-client-id': 'nobody' });
        if (how === 'bearer-junk') headers.authorization = 'Bearer not.a.jwt';
        if (how === 'empty') Object.assign(headers, { 'x-partner-client-id': '', 'x-partner-client-secret': '', authorization: '' });
        return { ...r, headers, mustReject: true, label: `${r.label}; credentials ${how}` };
      }),
    );
  }

  return fc.oneof(...variants);
}

function queryOf(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? '' : url.slice(i);
}

/** The value of param `name` in a URL filled from `pattern`. */
function pathParamFromUrl(filled: string, pattern: string, name: string): string {
  const path = filled.split('?')[0].split('/');
  const pat = pattern.split('/');
  const i = pat.indexOf(`:${name}`);
  return i >= 0 ? decodeURIComponent(path[i] ?? '') : '';
}

/** Requests every body route gets regardless of the random ones: all content types, all malformed bodies, an oversize body. */
export function fixedCases(
  route: RouteEntry,
  ctx: FuzzContext,
  sample: { params: string; validBody: string; missingBody: string | undefined },
): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  if (!BODY_METHODS.has(route.method)) return out;
  const auth = ctx.auth(route);
  const url = sample.params;
  for (const ct of CONTENT_TYPES) {
    const headers: Record<string, string> = { ...auth };
    if (ct !== undefined) headers['content-type'] = ct;
    out.push({
      method: route.method,
      url,
      headers,
      payload: sample.validBody,
      mustReject: false,
      label: `valid body; content-type ${JSON.stringify(ct)}`,
    });
    if (sample.missingBody !== undefined) {
      out.push({
        method: route.method,
        url,
        headers,
        payload: sample.missingBody,
        mustReject: true,
        label: `required field missing; content-type ${JSON.stringify(ct)}`,
      });
    }
  }
  for (const raw of MALFORMED_JSON) {
    out.push({
      method: route.method,
      url,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: raw,
      mustReject: false,
      label: `malformed JSON ${JSON.stringify(raw.slice(0, 30))}`,
    });
  }
  // over bodyLimit (1 MiB)
  const big = JSON.stringify({ companyName: 'x'.repeat(1_100_000) });
  out.push({
    method: route.method,
    url,
    headers: { ...auth, 'content-type': 'application/json' },
    payload: big,
    mustReject: true,
    label: 'body over 1 MiB',
  });
  return out;
}

/** A fixed valid-ish instance for `fixedCases` (first value of the arbitraries for a seed). */
export function sampleFor(
  route: RouteEntry,
  ctx: FuzzContext,
  seed: number,
): { params: string; validBody: string; missingBody: string | undefined } {
  const schema = route.schema ?? {};
  const names = paramNames(route.url);
  const paramsSchema = deref(schema.params as Schema);
  const [params] = fc.sample(
    fc.record(
      Object.fromEntries(
        names.map((n) => [n, ctx.hints[n] ?? validArb(paramsSchema.properties?.[n] ?? { type: 'string', minLength: 1 }, ctx, n, 1)]),
      ),
    ),
    { seed, numRuns: 1 },
  );
  const querySchema = deref(schema.querystring as Schema);
  const [query] = querySchema.properties ? fc.sample(validArb(querySchema, ctx), { seed, numRuns: 1 }) : [{}];
  const [body] = fc.sample(validArb(schema.body as Schema, ctx), { seed, numRuns: 1 });
  const bodySchema = deref(schema.body as Schema);
  const required = ((bodySchema.required ?? []) as string[]).filter((k) => deref(bodySchema.properties?.[k]).default === undefined);
  let missingBody: string | undefined;
  if (required.length && body && typeof body === 'object') {
    const copy = { ...(body as Record<string, unknown>) };
    delete copy[required[0]];
    missingBody = JSON.stringify(copy);
  }
  return {
    params: fillUrl(route.url, params) + encodeQuery(query as Record<string, unknown>),
    validBody: JSON.stringify(body ?? {}),
    missingBody,
  };
}

// ------------------------------------------------------------------------------- checking

/**
 * sha256 over every table (rows sorted), the state a partner could observe. The request journal
 * is left out: recording every request, the refused ones too, is its job.
 */
export function stateDigest(app: FastifyInstance, exclude: readonly string[] = ['schema_migrations', 'journal']): string {
  const tables = (app.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[]).filter(
    (t) => !exclude.includes(t),
  );
  const h = createHash('sha256');
  for (const t of tables) {
    // an excluded table's AUTOINCREMENT counter is excluded with it
    const where = t === 'sqlite_sequence' ? ` WHERE name NOT IN (${exclude.map((x) => `'${x}'`).join(', ')})` : '';
    const rows = app.db
      .prepare(`SELECT * FROM "${t}"${where}`)
      .raw()
      .all()
      .map((r) => JSON.stringify(r))
      .sort();
    h.update(`${t}\n${rows.join('\n')}\n`);
  }
  return h.digest('hex');
}

export interface FuzzFigures {
  cases: number;
  fiveXx: number;
  offShape: number;
  stateChanged: number;
  bypass: number;
  byStatus: Record<string, number>;
}

export function newFigures(): FuzzFigures {
  return { cases: 0, fiveXx: 0, offShape: 0, stateChanged: 0, bypass: 0, byStatus: {} };
}

/** Await in-flight webhook deliveries (if the worker exists) so the digest is stable. */
export async function settle(app: FastifyInstance): Promise<void> {
  const worker = (app as unknown as { webhooks?: { drain?: () => Promise<void> } }).webhooks;
  if (worker?.drain) await worker.drain();
}

/**
 * Send one request and check the properties. Returns the problems (empty = fine) and updates
 * the figures.
 */
export async function sendAndCheck(
  app: FastifyInstance,
  route: RouteEntry,
  req: FuzzRequest,
  figures: FuzzFigures,
): Promise<{ problems: string[]; res: LightMyRequestResponse }> {
  await settle(app);
  const before = stateDigest(app);
  const res = await app.inject({ method: req.method as 'POST', url: req.url, headers: req.headers, payload: req.payload });
  await settle(app);
  figures.cases++;
  figures.byStatus[res.statusCode] = (figures.byStatus[res.statusCode] ?? 0) + 1;
  const problems: string[] = [];
  const where = `${req.method} ${req.url.slice(0, 120)} [${req.label}]`;
  if (res.statusCode >= 500) {
    figures.fiveXx++;
    problems.push(`${res.statusCode} for ${where}: ${res.body.slice(0, 300)}`);
  }
  if (res.statusCode >= 400) {
    const ct = String(res.headers['content-type'] ?? '');
    if (ct.includes('json') || isApiRoute(route)) {
      let body: unknown;
      try {
        body = JSON.parse(res.body);
      } catch {
        body = res.body;
      }
      const errs = schemaErrors('ErrorBody', body);
      if ((body as { status?: number })?.status !== res.statusCode)
        errs.push(`status field ${(body as { status?: number })?.status} != ${res.statusCode}`);
      if (errs.length) {
        figures.offShape++;
        problems.push(`error body off-shape (${errs.join('; ')}) for ${where}: ${res.body.slice(0, 200)}`);
      }
    }
    if (stateDigest(app) !== before) {
      figures.stateChanged++;
      problems.push(`state changed by a rejected request (${res.statusCode}) ${where}`);
    }
  } else if (req.mustReject && res.statusCode < 300) {
    figures.bypass++;
    problems.push(`accepted (${res.statusCode}) a request that must be rejected: ${where}: ${res.body.slice(0, 200)}`);
  }
  return { problems, res };
}

/** Stable 32-bit seed for a route from a base seed. */
export function routeSeed(base: number, route: RouteEntry): number {
  return createHash('sha256').update(`${base}:${route.method} ${route.url}`).digest().readInt32LE(0);
}
