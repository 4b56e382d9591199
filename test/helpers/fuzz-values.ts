/**
 * The fuzzer's values (test/helpers/fuzz.ts): the shared schemas dereferenced, valid values
 * drawn from a schema, and the nasty ones (invalid dates, control characters, huge and
 * non-finite numbers, values of the wrong type).
 */
import fc from 'fast-check';
import type { RouteEntry } from '../../src/app.js';
import { sharedSchemas } from '../../schemas/index.js';

export type Schema = Record<string, any>;

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

export function typesOf(schema: Schema): string[] {
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

export const HUGE_STRING = 'Z'.repeat(200_000);
export const HUGE_ARRAY = Array.from({ length: 20_000 }, (_, i) => i);

export function deepObject(depth: number): unknown {
  let v: unknown = { leaf: true };
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

export const NASTY_NUMBERS: unknown[] = [
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
export const RAW_NUMBERS = ['1e999', '-1e999', '123456789012345678901234567890', '1.00000000000000000000001', '-0.0', '0.1e-400'];

/** Values that certainly do not have any of `types`. */
export function wrongTypeValues(types: string[]): unknown[] {
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
