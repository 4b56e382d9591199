/**
 * The request journal's rules (docs/journal.md): what of a request is kept (credentials never),
 * how a matcher is applied to an entry, how a count is judged, and which entries are the near
 * misses a failed verification explains itself with. Pure: the store keeps the entries, the
 * journal plugin records them, the routes translate HTTP.
 */
import { pointer, type JsonPointer } from './errors.js';
import { partialMatch, short } from './match.js';
import { CREDENTIAL_HEADERS, CREDENTIAL_PROPERTIES, CREDENTIAL_REDACTED } from './redaction.js';

/** Written in place of a credential (the one redaction policy, ./redaction.ts): the header is known to have been sent, its value is not kept. */
export const REDACTED = CREDENTIAL_REDACTED;

/** Request headers a journal entry keeps (lower case); every other header is left out. */
const KEPT_HEADERS = [
  'accept',
  'content-length',
  'content-type',
  'idempotency-key',
  'prefer',
  'user-agent',
  'x-obsim-scenario',
  'x-partner-client-id',
  'x-request-id',
] as const;

/** A JSON text that may hold one of them as a property name (only such texts are parsed to redact). */
const MAY_HOLD_CREDENTIAL = new RegExp(`"(?:${[...CREDENTIAL_PROPERTIES].join('|')})"\\s*:`);

/** What the journal does with a header, by its (lower-case) name: keep it, or keep that it was sent. */
const HEADER_RULE = new Map<string, 'keep' | 'redact'>([
  ...KEPT_HEADERS.map((name) => [name, 'keep'] as const),
  ...CREDENTIAL_HEADERS.map((name) => [name, 'redact'] as const),
]);

/**
 * The headers of a request as the journal keeps them: a fixed list, credentials redacted. Walks
 * the headers sent (a handful) rather than looking up every name the journal knows.
 */
export function journalHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const rule = HEADER_RULE.get(name);
    if (rule === undefined) continue;
    const v = headers[name];
    if (v === undefined) continue;
    if (rule === 'keep') {
      out[name] = Array.isArray(v) ? v.join(', ') : v;
      continue;
    }
    const first = Array.isArray(v) ? (v[0] ?? '') : v;
    // the scheme says what kind of credential was sent (Bearer, Basic); the rest never
    const scheme = name === 'authorization' ? first.match(/^([A-Za-z]+) /)?.[1] : undefined;
    out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
  }
  return out;
}

/** Nesting kept in a stored body; anything deeper is replaced (it cannot be checked for credentials cheaply). */
const MAX_DEPTH = 32;

/** A copy of a JSON value with every credential property's value replaced by REDACTED. */
export function redactJson(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return `${REDACTED}: nested deeper than ${MAX_DEPTH}`;
  if (Array.isArray(value)) return value.map((v) => redactJson(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = CREDENTIAL_PROPERTIES.has(k) && (typeof v === 'string' || typeof v === 'number') ? REDACTED : redactJson(v, depth + 1);
  }
  return out;
}

/**
 * A body as the journal stores it: its text (JSON re-serialized after redaction), cut at `limit`
 * bytes with `truncated` set. A body is never refused because of the journal.
 */
export function journalBody(body: unknown, limit: number): { text: string | null; truncated: boolean } {
  if (body === undefined || body === null || body === '') return { text: null, truncated: false };
  let text: string;
  if (typeof body === 'string') {
    text = body;
    // parsing and re-serializing every answer (a page of 20 transactions is ~8 KB) cost more than
    // the rest of the journal: only a text that names a credential property is parsed
    if ((body.startsWith('{') || body.startsWith('[')) && MAY_HOLD_CREDENTIAL.test(body)) {
      try {
        text = JSON.stringify(redactJson(JSON.parse(body)));
      } catch {
        /* not JSON after all: kept as sent */
      }
    }
  } else if (Buffer.isBuffer(body)) text = body.toString('utf8');
  else text = JSON.stringify(redactJson(body)) ?? '';
  // a UTF-16 unit is at most 3 bytes of UTF-8: most texts are under the limit without counting
  if (text.length * 3 <= limit || Buffer.byteLength(text, 'utf8') <= limit) return { text, truncated: false };
  return {
    text: Buffer.from(text, 'utf8')
      .subarray(0, limit)
      .toString('utf8')
      .replace(/\uFFFD$/, ''),
    truncated: true,
  };
}

/** The error code and field of a refused request, from its ErrorBody. */
export function refusal(status: number, responseText: string | null): { code: string | null; field: string | null } {
  if (status < 400 || responseText === null || !responseText.startsWith('{')) return { code: null, field: null };
  try {
    const body = JSON.parse(responseText) as { code?: unknown; field?: unknown };
    return {
      code: typeof body.code === 'string' ? body.code : null,
      field: typeof body.field === 'string' ? body.field : null,
    };
  } catch {
    return { code: null, field: null };
  }
}

export interface JournalResources {
  merchantId?: number;
  paymentId?: number;
  consentId?: string;
  webhookId?: string;
  deliveryId?: number;
}

const ID_KEYS = ['merchantId', 'paymentId', 'consentId', 'webhookId', 'deliveryId'] as const;

/**
 * The account-data reads the contract makes POSTs (their filters travel in the body): they change
 * nothing. Telling them from writes spares the journal reading their answers, which grow with a
 * page of transactions, for ids they do not create.
 */
const READS_BY_POST = new Set(['/v1/ais/accounts', '/v1/ais/accounts/balance', '/v1/ais/accounts/transactions']);

/** Whether a request can change anything: not GET/HEAD, not an account-data read. */
export const isWrite = (method: string, path: string): boolean =>
  method !== 'GET' && method !== 'HEAD' && !(method === 'POST' && READS_BY_POST.has(path));

/**
 * The resources a request created or changed: for a successful write (isWrite), the ids its
 * path names and the top-level ids of its answer (`id` of a webhook or delivery answer counted as
 * such by the path). A read changes nothing and names none.
 */
export function changedResources(method: string, path: string, params: unknown, response: unknown, status: number): JournalResources {
  const out: Record<string, unknown> = {};
  if (!isWrite(method, path) || status >= 400) return out;
  const take = (source: unknown) => {
    if (source === null || typeof source !== 'object') return;
    for (const key of ID_KEYS) {
      const v = (source as Record<string, unknown>)[key];
      if (out[key] !== undefined) continue;
      if (key === 'merchantId' || key === 'paymentId' || key === 'deliveryId') {
        const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
        if (Number.isSafeInteger(n)) out[key] = n;
      } else if (typeof v === 'string' && v !== '') out[key] = v;
    }
  };
  take(params);
  take(response);
  if (response !== null && typeof response === 'object') {
    const id = (response as { id?: unknown }).id;
    if (typeof id === 'string' && /^\/v1\/partner\/webhooks/.test(path)) out.webhookId ??= id;
    if (typeof id === 'number' && /^\/_sandbox\/deliveries/.test(path)) out.deliveryId ??= id;
    if (typeof id === 'string' && /^\/v1\/ais\/consents/.test(path)) out.consentId ??= id;
  }
  return out;
}

// ---------------------------------------------------------------- matching

/** What a journal entry looks like to a matcher (the API's view of an entry). */
export interface MatchableEntry {
  id: number;
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  requestBody?: unknown;
  status: number;
  code?: string;
}

export interface RequestMatcher {
  method?: string;
  /** Exact path, or a pattern: `{name}` and `*` match one segment, `**` the rest. */
  path?: string;
  pathPrefix?: string;
  /** A status (201) or a class ("4xx"). */
  status?: number | string;
  code?: string;
  /** Each given query parameter equals the given string. */
  query?: Record<string, string>;
  /** Partial match of the request body (the scenario matchers: $any, $absent, $type:…, $regex:…). */
  body?: unknown;
  /** `$.a.b[0]` -> the value it must equal in the request body. */
  jsonPath?: Record<string, unknown>;
  headerPresent?: string[];
  headerAbsent?: string[];
}

export interface Difference {
  field: string;
  expected: unknown;
  actual: unknown;
}

const patternCache = new Map<string, RegExp>();

/** `/v1/partner/merchants/{id}/stores`, `/v1/partner/*`, `/_sandbox/**` as a RegExp; a plain path matches itself. */
export function pathPattern(pattern: string): RegExp {
  let re = patternCache.get(pattern);
  if (!re) {
    const source = pattern
      .split('/')
      .map((segment) => {
        if (segment === '**') return '.*';
        if (segment === '*' || /^\{[^/{}]+\}$/.test(segment)) return '[^/]+';
        return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    re = new RegExp(`^${source.replace(/\/\.\*$/, '(?:/.*)?')}$`);
    if (patternCache.size > 1000) patternCache.clear();
    patternCache.set(pattern, re);
  }
  return re;
}

/** The value at `$.a.b[0].c` (dot and bracket notation from the root), or `undefined`. */
export function jsonPathValue(value: unknown, path: string): unknown {
  if (!/^\$((\.[A-Za-z_$][\w$-]*)|(\[\d+\])|(\['[^']*'\]))*$/.test(path)) throw new Error(`"${path}" is not a supported JSON path`);
  const steps = [...path.matchAll(/\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['([^']*)'\]/g)].map(
    (m) => m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[3]),
  );
  let at: unknown = value;
  for (const step of steps) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[step];
  }
  return at;
}

/** The first problem in a matcher, as a pointer into the matcher and a reason (null: usable). */
export function matcherProblem(m: RequestMatcher): { field: JsonPointer; message: string } | null {
  for (const path of Object.keys(m.jsonPath ?? {})) {
    try {
      jsonPathValue({}, path);
    } catch (err) {
      return { field: pointer('jsonPath', path), message: `${(err as Error).message} (use $.name, $.a.b, $.items[0])` };
    }
  }
  return null;
}

function statusMatches(expected: number | string, actual: number): boolean {
  if (typeof expected === 'number') return expected === actual;
  return Math.floor(actual / 100) === Number(expected[0]);
}

/** Every criterion of `m` that `e` does not meet (empty: it matches). */
export function differences(m: RequestMatcher, e: MatchableEntry): Difference[] {
  const out: Difference[] = [];
  if (m.method !== undefined && m.method.toUpperCase() !== e.method)
    out.push({ field: 'method', expected: m.method.toUpperCase(), actual: e.method });
  if (m.path !== undefined && !pathPattern(m.path).test(e.path)) out.push({ field: 'path', expected: m.path, actual: e.path });
  if (m.pathPrefix !== undefined && !e.path.startsWith(m.pathPrefix))
    out.push({ field: 'pathPrefix', expected: m.pathPrefix, actual: e.path });
  if (m.status !== undefined && !statusMatches(m.status, e.status)) out.push({ field: 'status', expected: m.status, actual: e.status });
  if (m.code !== undefined && m.code !== e.code) out.push({ field: 'code', expected: m.code, actual: e.code ?? null });
  for (const [k, v] of Object.entries(m.query ?? {})) {
    const actual = e.query[k];
    if (String(actual) !== v) out.push({ field: `query.${k}`, expected: v, actual: actual ?? null });
  }
  if (m.body !== undefined) {
    for (const miss of partialMatch(m.body, e.requestBody).slice(0, 5)) {
      // a value the entry lacks is null here: the document requires `actual` (JSON has no undefined)
      out.push({ field: miss.path === '(root)' ? 'body' : `body.${miss.path}`, expected: miss.expected, actual: miss.actual ?? null });
    }
  }
  for (const [path, expected] of Object.entries(m.jsonPath ?? {})) {
    const actual = jsonPathValue(e.requestBody, path);
    if (JSON.stringify(actual) !== JSON.stringify(expected)) out.push({ field: `jsonPath.${path}`, expected, actual: actual ?? null });
  }
  for (const name of m.headerPresent ?? []) {
    if (e.headers[name.toLowerCase()] === undefined)
      out.push({ field: `headers.${name.toLowerCase()}`, expected: '(present)', actual: '(absent)' });
  }
  for (const name of m.headerAbsent ?? []) {
    const v = e.headers[name.toLowerCase()];
    if (v !== undefined) out.push({ field: `headers.${name.toLowerCase()}`, expected: '(absent)', actual: v });
  }
  return out;
}

export interface CountExpectation {
  count?: number;
  atLeast?: number;
  atMost?: number;
}

/** The expectation as given, or "at least one" when none is. */
export function expectation(e: CountExpectation): CountExpectation {
  return e.count === undefined && e.atLeast === undefined && e.atMost === undefined ? { atLeast: 1 } : e;
}

export function countMet(e: CountExpectation, actual: number): boolean {
  const x = expectation(e);
  if (x.count !== undefined && actual !== x.count) return false;
  if (x.atLeast !== undefined && actual < x.atLeast) return false;
  if (x.atMost !== undefined && actual > x.atMost) return false;
  return true;
}

/** "exactly 1", "at least 2", "between 1 and 3" …: how a test report says it. */
export function describeExpectation(e: CountExpectation): string {
  const x = expectation(e);
  if (x.count !== undefined) return `exactly ${x.count}`;
  if (x.atLeast !== undefined && x.atMost !== undefined) return `between ${x.atLeast} and ${x.atMost}`;
  return x.atLeast !== undefined ? `at least ${x.atLeast}` : `at most ${x.atMost}`;
}

/** Weight of a differing criterion: a wrong method or path is further away than a wrong body value. */
function weight(field: string): number {
  if (field === 'method' || field === 'path' || field === 'pathPrefix') return 3;
  if (field === 'status' || field === 'code') return 2;
  return 1;
}

/** 0 (same start) to 1 (nothing in common): orders near misses whose paths differ by how far they do. */
function pathDistance(expected: string | undefined, actual: string): number {
  if (expected === undefined) return 0;
  let same = 0;
  while (same < expected.length && same < actual.length && expected[same] === actual[same]) same++;
  return 1 - same / Math.max(expected.length, actual.length, 1);
}

export interface NearMiss<E> {
  entry: E;
  distance: number;
  differences: Difference[];
}

/**
 * The entries closest to matching `m` that do not match it, closest first (then newest first):
 * distance = the weighted number of criteria they miss. Entries missing every criterion given
 * are not near misses.
 */
export function nearMisses<E extends MatchableEntry>(m: RequestMatcher, entries: readonly E[], limit = 3): NearMiss<E>[] {
  const criteria = Object.entries(m).filter(([, v]) => v !== undefined).length;
  const scored: NearMiss<E>[] = [];
  for (const entry of entries) {
    const diffs = differences(m, entry);
    if (diffs.length === 0) continue;
    const missedCriteria = new Set(diffs.map((d) => d.field.split('.')[0])).size;
    if (missedCriteria >= criteria && criteria > 1) continue;
    const distance = diffs.reduce((n, d) => n + weight(d.field.split('.')[0]), 0) + pathDistance(m.path ?? m.pathPrefix, entry.path);
    scored.push({ entry, distance: Math.round(distance * 100) / 100, differences: diffs });
  }
  scored.sort((a, b) => a.distance - b.distance || b.entry.id - a.entry.id);
  return scored.slice(0, limit);
}

/** One line for a test report: `POST /v1/partner/payments -> 201`. */
export function describeEntry(e: MatchableEntry): string {
  return `#${e.id} ${e.method} ${e.path} -> ${e.status}${e.code ? ` ${e.code}` : ''}`;
}

/** One line per difference, for a test report. */
export function describeDifferences(diffs: readonly Difference[]): string[] {
  return diffs.map((d) => `${d.field}: expected ${short(d.expected)}, was ${short(d.actual)}`);
}
