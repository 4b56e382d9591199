/**
 * A sandbox's journal as a Pact Specification v4 file (GET /_sandbox/pact, `obsim pact export`):
 * one synchronous HTTP interaction per distinct operation and answer the partner met, read through
 * the served document. The request is what was sent, with every id an earlier answer handed out
 * taken from a provider state (`fromProviderState`); the answer is matched by what identifies it
 * (a status, an error code) and by type, regex or instant everywhere else (src/domain/pact.ts);
 * each interaction names the built-in provider state that rebuilds what it read. No secret of the
 * partner's is written: credentials, tokens and secret-named values are REDACTED by the one
 * redaction policy (src/domain/redaction.ts), and the verifier's own credentials replace them.
 */
import { matcherFor, type PactMatcher } from '../domain/pact.js';
import { REDACTED, redactUrl, SECRET_NAME } from '../domain/redaction.js';
import type { DocOperation, ServedDocument } from './document.js';
import { ExportWorld, type ExportedState } from './export-world.js';
import { idKind, pathParamKind, STATE_VALUE_OF_KIND } from './ids.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A journal entry as the exporter reads it. */
export interface ExportEntry {
  id: number;
  method: string;
  path: string;
  query?: Record<string, unknown>;
  headers: Record<string, string>;
  requestBody?: unknown;
  requestBodyTruncated: boolean;
  status: number;
  responseBody?: unknown;
  responseBodyTruncated: boolean;
  code?: string;
  fault?: unknown;
  contractVersion?: string;
}

export interface PactExport {
  pact: Json;
  /** Interactions written, and journal entries read. */
  interactions: number;
  entries: number;
}

type Rules = Record<string, { combine: 'AND'; matchers: PactMatcher[] }>;
type Generators = Record<string, { type: 'ProviderState'; expression: string; dataType: 'STRING' | 'INTEGER' }>;

const rule = (m: PactMatcher) => ({ combine: 'AND' as const, matchers: [m] });
const pathKey = (base: string, key: string | number) =>
  typeof key === 'number' ? `${base}[${key === 0 ? '*' : key}]` : /^[A-Za-z_][\w]*$/.test(key) ? `${base}.${key}` : `${base}['${key}']`;

/** A value as it may leave obsim: secret-named values and URL secrets REDACTED. */
function redacted(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => redacted(v, key));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redacted(v, k)]));
  if (key !== '' && SECRET_NAME.test(key) && (typeof value === 'string' || typeof value === 'number')) return REDACTED;
  return typeof value === 'string' && /^https?:\/\//i.test(value) ? redactUrl(value) : value;
}

/** Matching rules for an answer body, walked with its schema (arrays by their first item, any length). */
function answerRules(doc: ServedDocument, schema: Json | undefined, value: unknown, path: string, rules: Rules): void {
  const { schema: s, component } = doc.resolve(schema);
  if (Array.isArray(value)) {
    rules[path] = rule({ match: 'type', min: 0 });
    if (value.length > 0) answerRules(doc, doc.child(s, 0), value[0], pathKey(path, 0), rules);
    return;
  }
  if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      const sub = doc.child(s, key);
      const facts = doc.resolve(sub).schema ?? {};
      if (isObject(v) || Array.isArray(v)) {
        answerRules(doc, sub, v, pathKey(path, key), rules);
        continue;
      }
      const kind = idKind(key, component);
      const secret = SECRET_NAME.test(key);
      rules[pathKey(path, key)] = rule(
        matcherFor(v, {
          id: kind !== undefined || secret,
          enum: facts.enum as unknown[] | undefined,
          format: facts.format as string | undefined,
          pattern: secret ? undefined : (facts.pattern as string | undefined),
          errorCode: component === 'ErrorBody' && key === 'code',
        }),
      );
    }
  }
}

/** Where a request's body carries ids an answer handed out: each becomes `${value}` of the state. */
function bodyGenerators(doc: ServedDocument, op: DocOperation, body: unknown, world: ExportWorld, gens: Generators): void {
  const walk = (schema: Json | undefined, value: unknown, path: string) => {
    const { schema: s, component } = doc.resolve(schema);
    if (!isObject(value)) return;
    for (const [key, v] of Object.entries(value)) {
      const kind = idKind(key, component);
      if (kind && (typeof v === 'string' || typeof v === 'number') && world.handed.get(String(v)) === kind && STATE_VALUE_OF_KIND[kind])
        gens[pathKey(path, key)] = {
          type: 'ProviderState',
          expression: `\${${STATE_VALUE_OF_KIND[kind]}}`,
          dataType: typeof v === 'number' ? 'INTEGER' : 'STRING',
        };
      else if (isObject(v)) walk(doc.child(s, key), v, pathKey(path, key));
    }
  };
  walk(doc.requestSchema(op), body, '$');
}

/** Learn the ids an answer hands out (an id field where the schema has one). */
function learnIds(doc: ServedDocument, schema: Json | undefined, value: unknown, world: ExportWorld): void {
  const { schema: s, component } = doc.resolve(schema);
  if (Array.isArray(value)) for (const item of value) learnIds(doc, doc.child(s, 0), item, world);
  if (!isObject(value)) return;
  for (const [key, v] of Object.entries(value)) {
    const kind = idKind(key, component);
    if (kind && (typeof v === 'string' || typeof v === 'number')) world.handed.set(String(v), kind);
    else learnIds(doc, doc.child(s, key), v, world);
  }
}

/** Values a state answers that a request body may name (an AIS read's user and merchant). */
const STATE_FIELDS = new Set(['userId', 'merchantId', 'accountId', 'merchantClientId', 'paymentId']);

/**
 * The body of a request the journal kept none of (refused before its body was read): the
 * document's required fields, each from the provider state; undefined when one is not a state value.
 */
function bodyFromState(doc: ServedDocument, op: DocOperation): { content: Json; generators: Generators } | undefined {
  const { schema } = doc.resolve(doc.requestSchema(op));
  const required = (schema?.required as string[] | undefined) ?? [];
  if (required.length === 0 || !required.every((k) => STATE_FIELDS.has(k))) return undefined;
  const content: Json = {};
  const generators: Generators = {};
  for (const key of required) {
    const integer = doc.resolve(doc.child(schema, key)).schema?.type === 'integer';
    content[key] = integer ? 0 : REDACTED;
    generators[`$.${key}`] = { type: 'ProviderState', expression: `\${${key}}`, dataType: integer ? 'INTEGER' : 'STRING' };
  }
  return { content, generators };
}

const answerTag = (entry: ExportEntry): string => {
  if (entry.code) return entry.code;
  const body = Array.isArray(entry.responseBody) ? entry.responseBody[0] : entry.responseBody;
  if (!isObject(body)) return '';
  const status = body.onboardingStatus ?? body.status;
  return typeof status === 'string' ? status : '';
};

/** The state that rebuilds what `entry` read, and the values its request takes from it. */
function stateOf(op: DocOperation, entry: ExportEntry, world: ExportWorld): ExportedState | undefined {
  const body = isObject(entry.requestBody) ? entry.requestBody : {};
  const answer = entry.responseBody;
  if (op.params.paymentId !== undefined) return world.paymentState(op.params.paymentId, entry.status === 200 ? answer : undefined);
  if (op.params.merchantId !== undefined)
    return world.merchantState(
      op.params.merchantId,
      isObject(answer) && typeof answer.onboardingStatus === 'string' ? answer.onboardingStatus : undefined,
    );
  if (op.params.id !== undefined && op.template.startsWith('/v1/partner/webhooks')) return world.webhookState(op.params.id);
  if (op.operationId === 'createPayment' && typeof body.merchantClientId === 'string')
    return world.merchantState(world.merchantOfClient(body.merchantClientId));
  if (op.operationId === 'generateToken' && body.merchantId !== undefined) return world.merchantState(String(body.merchantId));
  if (!op.template.startsWith('/v1/ais/')) return undefined;
  const account = op.params.accountId === undefined ? undefined : world.accounts.get(op.params.accountId);
  const userId = String(op.params.userId ?? body.userId ?? account?.userId ?? '');
  const merchantId = String(body.merchantId ?? entry.query?.merchantId ?? account?.merchantId ?? '');
  if (op.operationId === 'createConsent') return world.bankUserState(userId, merchantId, 'consent_missing');
  if (op.operationId === 'listUserConsents') {
    const first = Array.isArray(answer) && isObject(answer[0]) ? String(answer[0].status) : undefined;
    return world.bankUserState(userId, merchantId, first === undefined ? 'consent_missing' : undefined, first);
  }
  return world.bankUserState(userId, merchantId, entry.code);
}

function interactionOf(
  doc: ServedDocument,
  op: DocOperation,
  entry: ExportEntry,
  world: ExportWorld,
  state: ExportedState | undefined,
): Json {
  const request: Json = { method: entry.method.toUpperCase(), path: entry.path };
  const generators: Record<string, unknown> = {};
  // path: each id segment an answer handed out, from the state
  let expression = op.template;
  let fromState = false;
  for (const [name, value] of Object.entries(op.params)) {
    const kind = pathParamKind(name);
    const stateValue = kind !== undefined && world.handed.get(value) === kind ? STATE_VALUE_OF_KIND[kind] : undefined;
    if (stateValue) fromState = true;
    expression = expression.replace(`{${name}}`, stateValue ? `\${${stateValue}}` : encodeURIComponent(value));
  }
  if (fromState) generators.path = { type: 'ProviderState', expression, dataType: 'STRING' };
  const query = Object.entries(entry.query ?? {});
  if (query.length) {
    request.query = Object.fromEntries(query.map(([k, v]) => [k, (Array.isArray(v) ? v : [v]).map(String)]));
    const queryGens: Generators = {};
    for (const [k, v] of query) {
      const kind = idKind(k);
      if (kind && world.handed.get(String(v)) === kind && STATE_VALUE_OF_KIND[kind])
        queryGens[k] = { type: 'ProviderState', expression: `\${${STATE_VALUE_OF_KIND[kind]}}`, dataType: 'STRING' };
    }
    if (Object.keys(queryGens).length) generators.query = queryGens;
  }
  const headers: Record<string, string[]> = {};
  const headerGens: Generators = {};
  if (op.template.startsWith('/v1/partner/')) {
    headers['X-Partner-Client-Id'] = [REDACTED];
    headers['X-Partner-Client-Secret'] = [REDACTED];
  }
  if (op.template.startsWith('/v1/ais/')) {
    headers.Authorization = [`Bearer ${REDACTED}`];
    headerGens.Authorization = { type: 'ProviderState', expression: 'Bearer ${token}', dataType: 'STRING' };
  }
  for (const name of ['prefer', 'idempotency-key'] as const) if (entry.headers[name]) headers[name] = [entry.headers[name]];
  if (entry.contractVersion) headers['Obsim-Contract-Version'] = [entry.contractVersion];
  if (entry.requestBody !== undefined && !entry.requestBodyTruncated) {
    headers['Content-Type'] = ['application/json'];
    request.body = { contentType: 'application/json', encoded: false, content: redacted(entry.requestBody) };
    const bodyGens: Generators = {};
    bodyGenerators(doc, op, entry.requestBody, world, bodyGens);
    if (Object.keys(bodyGens).length) generators.body = bodyGens;
  }
  const made = entry.requestBody === undefined ? bodyFromState(doc, op) : undefined;
  if (made) {
    headers['Content-Type'] = ['application/json'];
    request.body = { contentType: 'application/json', encoded: false, content: made.content };
    generators.body = made.generators;
  }
  if (Object.keys(headerGens).length) generators.header = headerGens;
  request.headers = headers;
  if (Object.keys(generators).length) request.generators = generators;

  const response: Json = { status: entry.status };
  const comments: string[] = [`From journal entry #${entry.id}.`];
  if (made)
    comments.push('The journal kept no body (the request was refused before it was read): its fields come from the provider state.');
  if (entry.responseBody !== undefined && !entry.responseBodyTruncated && typeof entry.responseBody === 'object') {
    const rules: Rules = {};
    answerRules(doc, doc.answerSchema(op, entry.status), entry.responseBody, '$', rules);
    response.headers = { 'Content-Type': ['application/json'] };
    response.body = { contentType: 'application/json', encoded: false, content: redacted(entry.responseBody) };
    response.matchingRules = { body: rules, header: { 'Content-Type': rule({ match: 'regex', regex: '^application/json.*' }) } };
  } else if (entry.responseBodyTruncated)
    comments.push('The answer was longer than the journal keeps (--journal-body-limit): its body is not asserted.');
  const tag = answerTag(entry);
  return {
    type: 'Synchronous/HTTP',
    description: `${op.operationId} answers ${entry.status}${tag ? ` ${tag}` : ''}`,
    providerStates: state ? [state] : [],
    request,
    response,
    comments: { text: comments },
  };
}

/**
 * The pact of `entries` (a sandbox's journal, oldest first): `documentOf` gives the document an
 * entry was served by (its contract version's, else the base).
 */
export function exportPact(input: {
  entries: readonly ExportEntry[];
  documentOf(version: string | undefined): ServedDocument;
  consumer: string;
  provider: string;
  sandboxId: string;
}): PactExport {
  const world = new ExportWorld();
  const seen = new Set<string>();
  const interactions: Json[] = [];
  let version: string | undefined;
  for (const entry of input.entries) {
    const doc = input.documentOf(entry.contractVersion);
    const op = entry.path.startsWith('/v1/') ? doc.match(entry.method, entry.path) : undefined;
    const answered = entry.status > 0 && entry.fault === undefined;
    if (op && answered) {
      const key = `${op.operationId} ${entry.status} ${answerTag(entry)}`;
      if (!seen.has(key)) {
        seen.add(key);
        interactions.push(interactionOf(doc, op, entry, world, stateOf(op, entry, world)));
        version ??= entry.contractVersion;
      }
      if (entry.status >= 200 && entry.status < 300) learnIds(doc, doc.answerSchema(op, entry.status), entry.responseBody, world);
    }
    if (answered) world.learn(op?.operationId, entry.path, entry.requestBody, entry.status, entry.responseBody);
  }
  const pact = {
    consumer: { name: input.consumer },
    provider: { name: input.provider },
    interactions,
    metadata: {
      pactSpecification: { version: '4.0' },
      obsim: { exportedFrom: input.sandboxId, ...(version ? { contractVersion: version } : {}) },
    },
  };
  return { pact, interactions: interactions.length, entries: input.entries.length };
}
