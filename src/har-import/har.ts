/**
 * A HAR file as the importer reads it: parsed, validated against HAR 1.2 as the registry's
 * `har-schema` states it (the first failing place named by its RFC 6901 pointer), and each entry
 * read into what a scenario needs: method, URL, headers by lower-case name, query, bodies (JSON,
 * a form, or text; base64 content decoded), status, times.
 *
 * What browsers and proxies put in HARs that the spec does not say: HTTP/2 pseudo-headers
 * (`:authority`), `_error` on an entry that failed (Chromium), status 0 or -1 for a request that got
 * no answer, `postData.params` without `text`, a byte order mark before the JSON.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonPointer } from '../domain/errors.js';
import { MAX_DEPTH } from '../domain/redaction.js';
import { lazyRequire } from '../lazy.js';

export class HarImportError extends Error {
  constructor(
    /** RFC 6901 pointer into the HAR ('' for the whole file). */
    readonly pointer: JsonPointer,
    message: string,
    /** `not_json`: not JSON (or cut short); `invalid`: JSON but not HAR 1.2; `empty`: no entry for the provider's API. */
    readonly kind: 'not_json' | 'invalid' | 'empty',
  ) {
    super(message);
  }
}

const ajvModule = lazyRequire<typeof import('ajv')>('ajv');
const ajvFormats = lazyRequire<typeof import('ajv-formats')>('ajv-formats');
const harSchemas = lazyRequire<Record<string, { $id: string }>>('har-schema');

let validator: ValidateFunction | undefined;
/** har-schema's files (draft-06, each with its `$id`), compiled once, on the first import. */
function harValidator(): ValidateFunction {
  if (validator) return validator;
  const { Ajv } = ajvModule();
  const ajv = new Ajv({ strict: false, allErrors: false, validateSchema: false });
  (ajvFormats() as unknown as { default: (a: unknown) => void }).default(ajv);
  const schemas = harSchemas();
  for (const [name, schema] of Object.entries(schemas)) {
    if (name === 'har') continue;
    const { $schema: _draft, ...rest } = schema as Record<string, unknown>;
    ajv.addSchema(rest);
  }
  const { $schema: _draft, ...har } = schemas.har as Record<string, unknown>;
  validator = ajv.compile(har);
  return validator;
}

function describe(e: ErrorObject): string {
  if (e.keyword === 'required') return `lacks the required "${String(e.params.missingProperty)}"`;
  if (e.keyword === 'type') return `must be of type ${String(e.params.type)}`;
  return e.message ?? 'is not valid';
}

export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  comment?: string;
  _error?: unknown;
  request: {
    method: string;
    url: string;
    headers: HarHeader[];
    queryString?: HarHeader[];
    postData?: { mimeType?: string; text?: string; params?: { name: string; value?: string }[] };
  };
  response: {
    status: number;
    statusText?: string;
    headers: HarHeader[];
    content: { mimeType?: string; text?: string; encoding?: string };
    _error?: unknown;
  };
}

export interface Har {
  log: { version: string; creator: { name: string; version?: string }; entries: HarEntry[] };
}

/** The text of a HAR file (a Buffer or a string), parsed and validated; a HarImportError otherwise. */
export function parseHar(raw: string | Uint8Array): Har {
  let text = typeof raw === 'string' ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    // cut short: the parser ran out of text (V8 says so, or names the last position)
    const position = /position (\d+)/.exec(message)?.[1];
    const cut =
      text.trim() !== '' &&
      (/end of (JSON )?input|Unterminated/i.test(message) || (position !== undefined && Number(position) >= text.trimEnd().length));
    throw new HarImportError(
      '',
      `not a HAR file: ${cut ? 'the JSON ends before it is complete (a truncated file?)' : `not JSON (${message.split('\n')[0]})`}`,
      'not_json',
    );
  }
  const validate = harValidator();
  if (!validate(parsed)) {
    const e = validate.errors![0];
    throw new HarImportError(e.instancePath as JsonPointer, `not HAR 1.2: ${e.instancePath || '/'} ${describe(e)}`, 'invalid');
  }
  const har = parsed as Har;
  if (har.log.version !== '1.2') {
    throw new HarImportError('/log/version', `not HAR 1.2: /log/version is "${har.log.version}", expected "1.2"`, 'invalid');
  }
  return har;
}

/** What the importer reads of an entry. */
export interface ReadEntry {
  /** Its place in the HAR (0-based), for the summary and comments. */
  index: number;
  method: string;
  url: URL;
  /** Lower-case names; several values joined with `, ` (HTTP/2 pseudo-headers left out). */
  headers: Record<string, string>;
  /** The contract version the request asked for, else the one its answer named (Obsim-Contract-Version). */
  contractVersion?: string;
  query: Record<string, string | string[]>;
  requestBody?: unknown;
  form: boolean;
  status: number;
  responseBody?: unknown;
  responseText: string;
  responseType: string;
  startedMs: number;
  timeMs: number;
  comment?: string;
  /** Why it got no answer (status 0 or less, `_error`), when it did not. */
  aborted?: string;
}

function headersOf(list: HarHeader[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of list) {
    if (name.startsWith(':')) continue;
    const lower = name.toLowerCase();
    out[lower] = out[lower] === undefined ? value : `${out[lower]}, ${value}`;
  }
  return out;
}

/** Whether `value` nests deeper than `limit` (looked at no deeper than that). */
function nestsDeeper(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit === 0) return true;
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (nestsDeeper(v, limit - 1)) return true;
  return false;
}

function jsonOrText(text: string, type: string): unknown {
  if (text === '') return undefined;
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      const value = JSON.parse(text) as unknown;
      // nested deeper than any answer a scenario expects (or the redaction keeps): kept as text, never
      // walked, so a HAR cannot exhaust the importer's stack
      return nestsDeeper(value, MAX_DEPTH) ? text : value;
    } catch {
      /* kept as text */
    }
  }
  return text;
}

/** The latest instant JavaScript can name (ECMA-262: 8.64e15 ms from the epoch). */
const LAST_INSTANT_MS = 8.64e15;

export function readEntry(e: HarEntry, index: number): ReadEntry {
  const url = new URL(e.request.url);
  const query: Record<string, string | string[]> = {};
  const pairs = e.request.queryString?.length ? e.request.queryString.map((q) => [q.name, q.value] as const) : [...url.searchParams];
  for (const [k, v] of pairs) {
    const had = query[k];
    query[k] = had === undefined ? v : [...[had].flat(), v];
  }
  const requestType = (e.request.postData?.mimeType ?? '').toLowerCase();
  const form = requestType.includes('x-www-form-urlencoded');
  let requestBody: unknown;
  const post = e.request.postData;
  if (post) {
    // obsim's own HAR keeps a form as the JSON object its journal holds
    const asJson = form && post.text !== undefined && /^\s*\{/.test(post.text) ? jsonOrText(post.text, 'json') : undefined;
    if (typeof asJson === 'object' && asJson !== null) requestBody = asJson;
    else if (form) {
      const params =
        post.text !== undefined ? [...new URLSearchParams(post.text)] : (post.params ?? []).map((p) => [p.name, p.value ?? '']);
      requestBody = Object.fromEntries(params);
    } else requestBody = jsonOrText(post.text ?? '', requestType);
  }
  const content = e.response.content;
  const responseType = (content.mimeType ?? '').toLowerCase();
  const responseText = content.encoding === 'base64' ? Buffer.from(content.text ?? '', 'base64').toString('utf8') : (content.text ?? '');
  const error = e._error ?? e.response._error;
  const aborted =
    e.response.status <= 0
      ? `no answer (status ${e.response.status}${error !== undefined ? `, ${String(error)}` : ''})`
      : error !== undefined && error !== null && error !== ''
        ? `failed (${String(error)})`
        : undefined;
  const headers = headersOf(e.request.headers);
  const contractVersion = headers['obsim-contract-version'] || headersOf(e.response.headers)['obsim-contract-version'] || undefined;
  const startedMs = Date.parse(e.startedDateTime);
  // har-schema's pattern admits what no clock names (a 60th second, a 13th month)
  if (Number.isNaN(startedMs))
    throw new HarImportError(
      `/log/entries/${index}/startedDateTime`,
      `not HAR 1.2: /log/entries/${index}/startedDateTime "${e.startedDateTime}" is not an instant`,
      'invalid',
    );
  const timeMs = Math.max(0, e.time);
  if (!(Math.abs(startedMs + timeMs) <= LAST_INSTANT_MS))
    throw new HarImportError(
      `/log/entries/${index}/time`,
      `not HAR 1.2: /log/entries/${index}/time ${e.time} ends after the last instant there is`,
      'invalid',
    );
  return {
    index,
    method: e.request.method.toUpperCase(),
    url,
    headers,
    contractVersion,
    query,
    requestBody,
    form,
    status: e.response.status,
    responseBody: jsonOrText(responseText, responseType),
    responseText,
    responseType,
    startedMs,
    timeMs,
    comment: e.comment,
    aborted,
  };
}
