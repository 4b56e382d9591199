/**
 * A journal entry as obsim keeps it, how a page of entries is written (src/store/journal.ts) and
 * read back, and the two views of an entry: the API's (JournalEntry) and a matcher's.
 *
 * A page is a JSON array of entry tuples (positions below) rather than of objects: no property
 * names repeated in every entry, and migration 099 writes the same tuple from SQL. The answers'
 * bodies are a second array beside it: what reads every entry (the index, a verification) does
 * not parse them. A body known to be whole JSON (what Fastify parsed or serialized) is written
 * into the page as it is, wrapped as `{"json": …}`, rather than as a string of JSON: no escaping
 * when written, and read back parsed; any other body is a string.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { JournalEntry as JournalEntrySchema } from '../../schemas/journal.js';
import type { FaultMark } from '../domain/chaos.js';
import { changedResources, journalBody, type JournalResources, type MatchableEntry } from '../domain/journal.js';

/**
 * A body as the journal holds it: its text (`json`: the text is whole JSON), or, read back from
 * a page, its value; null when there was none.
 */
export type KeptBody = { text: string; json: boolean } | { value: unknown } | null;

/** An answered request as the journal keeps it. */
export interface StoredEntry {
  id: number;
  at: string;
  wallAt: string;
  method: string;
  path: string;
  status: number;
  code: string | null;
  field: string | null;
  durationMs: number;
  requestId: string;
  /** What the entry counts for in --journal-max-bytes. */
  size: number;
  query: Record<string, unknown>;
  /** Kept headers, credentials redacted (domain/journal.ts journalHeaders). */
  headers: Record<string, string>;
  /**
   * The resources a write changed, when they were worked out as it was recorded (an answer too
   * long to keep whole); otherwise null, and they are worked out from `params` and the answer
   * when the entry is shown (a JSON parse of every answer was a tenth of the journal's cost).
   */
  resources: JournalResources | null;
  /** The route's parameters of a successful write (null otherwise). */
  params: Record<string, unknown> | null;
  requestBody: KeptBody;
  requestBodyTruncated: boolean;
  responseBody: KeptBody;
  responseBodyTruncated: boolean;
  /** The fault the sandbox's fault profile injected (docs/chaos.md); null: none. */
  fault: FaultMark | null;
  /** The W3C trace id of the request's span (docs/operations.md); null in entries kept before traces. */
  traceId: string | null;
  /** The contract version that served the request (docs/contract-versions.md); null: the base. */
  contractVersion: string | null;
}

/** An entry's tuple without its request body, which follows it in the page (see tupleJson). */
type Tuple = [
  id: number,
  at: string,
  wallAt: string,
  method: string,
  path: string,
  status: number,
  code: string | null,
  field: string | null,
  durationMs: number,
  requestId: string,
  size: number,
  query: Record<string, unknown>,
  headers: Record<string, string>,
  resources: JournalResources | null,
  params: Record<string, unknown> | null,
  requestBody: unknown,
  requestBodyTruncated: 0 | 1,
  responseBodyTruncated: 0 | 1,
  // written only when there is one (null when a trace id follows): pages of entries without a fault are as before
  fault?: FaultMark | null,
  traceId?: string | null,
  contractVersion?: string,
];

/** A body as page JSON: whole JSON as it is (wrapped), other text as a string. */
function bodyJson(b: KeptBody): string {
  if (b === null) return 'null';
  if ('value' in b) return JSON.stringify({ json: b.value });
  return b.json ? `{"json":${b.text}}` : JSON.stringify(b.text);
}

function bodyOf(x: unknown): KeptBody {
  if (x === null || x === undefined) return null;
  if (typeof x === 'string') return { text: x, json: false };
  return { value: (x as { json: unknown }).json };
}

/**
 * An entry as it waits for its write, encoded as it is recorded: the JSON of its tuple up to the
 * request body (one flat string), and the rest as it is (the bodies are strings that exist
 * anyway). An entry waiting as a StoredEntry was a dozen objects and strings that every
 * collection of the young generation copied while it waited (docs/performance.md, "The request
 * journal's cost").
 */
export interface EncodedEntry {
  head: string;
  requestBody: KeptBody;
  requestBodyTruncated: boolean;
  responseBody: KeptBody;
  responseBodyTruncated: boolean;
  fault: FaultMark | null;
  traceId: string | null;
  contractVersion: string | null;
}

export function encodeEntry(e: StoredEntry): EncodedEntry {
  return {
    head: JSON.stringify([
      e.id,
      e.at,
      e.wallAt,
      e.method,
      e.path,
      e.status,
      e.code,
      e.field,
      e.durationMs,
      e.requestId,
      e.size,
      e.query,
      e.headers,
      e.resources,
      e.params,
    ]),
    requestBody: e.requestBody,
    requestBodyTruncated: e.requestBodyTruncated,
    responseBody: e.responseBody,
    responseBodyTruncated: e.responseBodyTruncated,
    fault: e.fault,
    traceId: e.traceId,
    contractVersion: e.contractVersion,
  };
}

/** The tuple's text: the optional tail (fault, trace id, contract version) only as far as its last value. */
function tupleJson(x: EncodedEntry): string {
  const version = x.contractVersion === null ? '' : `,${JSON.stringify(x.contractVersion)}`;
  const trace = x.traceId === null ? (version === '' ? '' : ',null') : `,"${x.traceId}"`;
  const fault = x.fault === null ? (trace === '' ? '' : ',null') : `,${JSON.stringify(x.fault)}`;
  return `${x.head.slice(0, -1)},${bodyJson(x.requestBody)},${x.requestBodyTruncated ? 1 : 0},${x.responseBodyTruncated ? 1 : 0}${fault}${trace}${version}]`;
}

const entry = (t: Tuple, responseBody: unknown): StoredEntry => ({
  id: t[0],
  at: t[1],
  wallAt: t[2],
  method: t[3],
  path: t[4],
  status: t[5],
  code: t[6],
  field: t[7],
  durationMs: t[8],
  requestId: t[9],
  size: t[10],
  query: t[11],
  headers: t[12],
  resources: t[13],
  params: t[14],
  requestBody: bodyOf(t[15]),
  requestBodyTruncated: t[16] === 1,
  responseBody: bodyOf(responseBody),
  responseBodyTruncated: t[17] === 1,
  fault: t[18] ?? null,
  traceId: t[19] ?? null,
  contractVersion: t[20] ?? null,
});

/** The texts of a page holding `entries` (oldest first): the entries, and their answers' bodies. */
export const encodePage = (entries: readonly EncodedEntry[]): { data: string; answers: string } => ({
  data: `[${entries.map(tupleJson).join(',')}]`,
  answers: `[${entries.map((x) => bodyJson(x.responseBody)).join(',')}]`,
});

/** An encoded entry read back. */
export const decodeEntry = (x: EncodedEntry): StoredEntry => {
  const page = encodePage([x]);
  return decodePage(page.data, page.answers)[0];
};

/** The entries of a page, oldest first; without `answers`, every responseBody is null. */
export function decodePage(data: string, answers: string | null = null): StoredEntry[] {
  const bodies = answers === null ? [] : (JSON.parse(answers) as unknown[]);
  return (JSON.parse(data) as Tuple[]).map((t, i) => entry(t, bodies[i] ?? null));
}

/** A body as the API shows it: JSON parsed; other text as it is (unless it parses: entries from before migration 099). */
function shown(b: Exclude<KeptBody, null>, truncated: boolean): unknown {
  if ('value' in b) return b.value;
  if (b.json) return JSON.parse(b.text) as unknown;
  if (truncated || !(b.text.startsWith('{') || b.text.startsWith('['))) return b.text;
  try {
    return JSON.parse(b.text) as unknown;
  } catch {
    return b.text;
  }
}

/** The resources a successful write changed (JournalEntry.resources). */
export function resourcesOf(e: StoredEntry): JournalResources {
  if (e.resources !== null) return e.resources;
  if (e.params === null) return {};
  const answer = e.responseBodyTruncated || e.responseBody === null ? undefined : shown(e.responseBody, false);
  return changedResources(e.method, e.path, e.params, answer, e.status);
}

/** An entry as the API shows it (typed from its response schema). */
export type JournalEntry = FromSchema<typeof JournalEntrySchema>;

/** An entry as the API shows it: absent rather than null where there is nothing (no body, no refusal). */
export function journalView(e: StoredEntry): JournalEntry {
  const view: JournalEntry = {
    id: e.id,
    at: e.at,
    wallAt: e.wallAt,
    method: e.method,
    path: e.path,
    query: e.query,
    headers: e.headers,
    requestBodyTruncated: e.requestBodyTruncated,
    status: e.status,
    responseBodyTruncated: e.responseBodyTruncated,
    durationMs: e.durationMs,
    requestId: e.requestId,
    resources: resourcesOf(e),
  };
  if (e.requestBody !== null) view.requestBody = shown(e.requestBody, e.requestBodyTruncated);
  if (e.code !== null) view.code = e.code;
  if (e.field !== null) view.field = e.field;
  if (e.responseBody !== null) view.responseBody = shown(e.responseBody, e.responseBodyTruncated);
  if (e.fault !== null) view.fault = e.fault;
  if (e.traceId !== null) view.traceId = e.traceId;
  if (e.contractVersion !== null) view.contractVersion = e.contractVersion;
  return view;
}

/** The request body an entry shows (undefined: none). */
export const requestBodyOf = (e: StoredEntry): unknown =>
  e.requestBody === null ? undefined : shown(e.requestBody, e.requestBodyTruncated);

/** An entry as a matcher sees it (its request body parsed only for a matcher that reads it). */
export function matchableView(e: StoredEntry, withBody: boolean): MatchableEntry {
  const view: MatchableEntry = { id: e.id, method: e.method, path: e.path, query: e.query, headers: e.headers, status: e.status };
  if (withBody && e.requestBody !== null) view.requestBody = shown(e.requestBody, e.requestBodyTruncated);
  if (e.code !== null) view.code = e.code;
  return view;
}

/** A body as record() takes it (`requestBody()`): what the journal keeps of it, cut at the body limit. */
export interface StoredBody {
  body: KeptBody;
  truncated: boolean;
}

/** What the journal keeps of a body; `json`: the body is whole JSON (Fastify parsed or serialized it). */
export function kept(body: unknown, limit: number, json: boolean): StoredBody {
  const { text, truncated } = journalBody(body, limit);
  return { body: text === null ? null : { text, json: json && !truncated }, truncated };
}

export const bodyLength = (b: KeptBody): number => (b === null || !('text' in b) ? 0 : b.text.length);

/** The resources a write changed, from its whole answer (for an answer the journal keeps cut). */
export function resourcesNow(method: string, path: string, params: unknown, payload: unknown, status: number): JournalResources {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
  let answer: unknown;
  try {
    if (text?.startsWith('{')) answer = JSON.parse(text) as unknown;
  } catch {
    /* not JSON: only the path's ids */
  }
  return changedResources(method, path, params, answer, status);
}
