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
import fc from 'fast-check';
import type { RouteEntry } from '../../src/app.js';
import { PARTNER } from './app.js';
import { deref, typesOf, validArb, type FuzzContext, type FuzzRequest, type Schema } from './fuzz-values.js';
import { bodyArb } from './fuzz-mutations.js';

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

/**
 * Routes that need credentials. Sandbox management is open to anyone unless OBSIM_ADMIN_KEY is set
 * (tested on its own); the controls' OpenAPI document is public, like /openapi.json.
 */
export function isProtected(route: RouteEntry): boolean {
  return (
    /^\/(v1\/partner|_sandbox|v1\/ais)(\/|$)/.test(route.url) &&
    !route.url.startsWith('/_sandbox/sandboxes') &&
    route.url !== '/_sandbox/openapi.json'
  );
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
