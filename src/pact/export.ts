/**
 * A sandbox's journal as a Pact Specification v4 file (GET /_sandbox/pact, `obsim pact export`):
 * one synchronous HTTP interaction per distinct operation and answer the partner met, read through
 * the served document. Which operation a request is, which ids an answer handed out and which ids
 * a later request uses are the one capture rule's answers (src/contracts/ids.ts); a used id an
 * earlier answer handed out is taken from a provider state (`fromProviderState`). The answer is
 * matched by what identifies it (a status, an error code) and by type, regex or instant everywhere
 * else (src/domain/pact.ts); each interaction names the built-in provider state that rebuilds what
 * it read. No secret of the partner's is written: credentials, tokens and secret-named values are
 * REDACTED by the one redaction policy (src/domain/redaction.ts), and the verifier's own
 * credentials replace them.
 */
import {
  deref,
  idsHandedOut,
  idsUsed,
  requestSchema,
  shapeOf,
  type Doc,
  type IdKind,
  type IdUse,
  type Operation,
} from '../contracts/ids.js';
import { pointerTokens, valueAt } from '../domain/contract-switches.js';
import { pointerToken } from '../domain/drift.js';
import { matcherFor, type PactMatcher } from '../domain/pact.js';
import type { OpenApiDocument } from '../openapi/documents.js';
import { isSecretQueryName, REDACTED, redactJsonSecrets, redactString, SECRET_NAME } from '../domain/redaction.js';
import { ExportWorld, type ExportedState } from './export-world.js';
import { answerSchemaOf, documentedOperation, providerOperationIn } from './operations.js';

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
type Generator = { type: 'ProviderState'; expression: string; dataType: 'STRING' | 'INTEGER' };
type Generators = Record<string, Generator>;

const rule = (m: PactMatcher) => ({ combine: 'AND' as const, matchers: [m] });
/** A Pact path (`$.accounts[*].iban`) one step further: item 0 stands for every item (a matching rule's path). */
const pathKey = (base: string, key: string | number) =>
  typeof key === 'number' ? `${base}[${key === 0 ? '*' : key}]` : /^[A-Za-z_][\w]*$/.test(key) ? `${base}.${key}` : `${base}['${key}']`;
/** The Pact path of one place in a body (a generator's path: every index as it is). */
const pactPathOf = (pointer: string): string =>
  pointerTokens(pointer).reduce((path, t) => (/^\d+$/.test(t) ? `${path}[${t}]` : pathKey(path, t)), '$');

/** The value a built-in provider state answers for an id of each kind (what `fromProviderState` names). */
const STATE_VALUE_OF_KIND: Partial<Record<IdKind, string>> = {
  merchant: 'merchantId',
  merchantClient: 'merchantClientId',
  payment: 'paymentId',
  webhook: 'webhookId',
  account: 'accountId',
  consentRequest: 'consentRequestId',
  consent: 'consentId',
  aisToken: 'token',
};

/** A query as it may leave obsim (the one redaction policy): a secret-named parameter's values REDACTED, JWTs and URL secrets out of the others. */
const redactedQuery = (query: Record<string, unknown>): Record<string, string[]> =>
  Object.fromEntries(
    Object.entries(query).map(([k, v]) => [k, [v].flat().map((x) => (isSecretQueryName(k) ? REDACTED : redactString(String(x))))]),
  );

/**
 * Matching rules for an answer body, walked with its schema (arrays by their first item, any
 * length); `ids` are the pointers of the ids the answer hands out (matched by type or pattern).
 */
function answerRules(
  doc: Doc,
  schema: Json | undefined,
  value: unknown,
  at: { path: string; pointer: string },
  ids: ReadonlySet<string>,
  rules: Rules,
): void {
  const shape = shapeOf(doc, schema);
  if (Array.isArray(value)) {
    rules[at.path] = rule({ match: 'type', min: 0 });
    if (value.length > 0) answerRules(doc, shape.items, value[0], { path: pathKey(at.path, 0), pointer: `${at.pointer}/0` }, ids, rules);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, v] of Object.entries(value)) {
    const sub = shape.properties[key];
    const here = { path: pathKey(at.path, key), pointer: `${at.pointer}/${pointerToken(key)}` };
    if (isObject(v) || Array.isArray(v)) {
      answerRules(doc, sub, v, here, ids, rules);
      continue;
    }
    const facts = deref(doc, sub).schema ?? {};
    const secret = SECRET_NAME.test(key);
    rules[here.path] = rule(
      matcherFor(v, {
        id: ids.has(here.pointer) || secret,
        enum: facts.enum as unknown[] | undefined,
        format: facts.format as string | undefined,
        pattern: secret ? undefined : (facts.pattern as string | undefined),
        errorCode: shape.component === 'ErrorBody' && key === 'code',
      }),
    );
  }
}

/** Values a state answers that a request body may name (an AIS read's user and merchant). */
const STATE_FIELDS = new Set(['userId', 'merchantId', 'accountId', 'merchantClientId', 'paymentId']);

/**
 * The body of a request the journal kept none of (refused before its body was read): the
 * document's required fields, each from the provider state; undefined when one is not a state value.
 */
function bodyFromState(op: Operation): { content: Json; generators: Generators } | undefined {
  const schema = requestSchema(op);
  const required = (deref(op.doc, schema).schema?.required as string[] | undefined) ?? [];
  if (required.length === 0 || !required.every((k) => STATE_FIELDS.has(k))) return undefined;
  const properties = shapeOf(op.doc, schema).properties;
  const content: Json = {};
  const generators: Generators = {};
  for (const key of required) {
    const integer = deref(op.doc, properties[key]).schema?.type === 'integer';
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

/** The state that rebuilds what `entry` read (by the ids its request uses), and the values its request takes from it. */
function stateOf(op: Operation, entry: ExportEntry, uses: readonly IdUse[], world: ExportWorld): ExportedState | undefined {
  const body = isObject(entry.requestBody) ? entry.requestBody : {};
  const answer = entry.responseBody;
  const used = (where: IdUse['where'], kind: IdKind) => uses.find((u) => u.where === where && u.kind === kind)?.value;
  const payment = used('path', 'payment');
  if (payment !== undefined) return world.paymentState(payment, entry.status === 200 ? answer : undefined);
  const merchant = used('path', 'merchant');
  if (merchant !== undefined)
    return world.merchantState(
      merchant,
      isObject(answer) && typeof answer.onboardingStatus === 'string' ? answer.onboardingStatus : undefined,
    );
  const webhook = used('path', 'webhook');
  if (webhook !== undefined) return world.webhookState(webhook);
  if (op.template.startsWith('/v1/ais/')) {
    const accountId = used('path', 'account');
    const account = accountId === undefined ? undefined : world.accounts.get(accountId);
    const userId = String(op.params.userId ?? body.userId ?? account?.userId ?? '');
    const merchantId = String(body.merchantId ?? entry.query?.merchantId ?? account?.merchantId ?? '');
    if (op.operationId === 'createConsent') return world.bankUserState(userId, merchantId, 'consent_missing');
    if (op.operationId === 'listUserConsents') {
      const first = Array.isArray(answer) && isObject(answer[0]) ? String(answer[0].status) : undefined;
      return world.bankUserState(userId, merchantId, first === undefined ? 'consent_missing' : undefined, first);
    }
    return world.bankUserState(userId, merchantId, entry.code);
  }
  // a payment names its merchant by client id, a token request by merchant id
  const client = used('body', 'merchantClient');
  if (client !== undefined) return world.merchantState(world.merchantOfClient(client));
  return world.merchantState(used('body', 'merchant'));
}

function interactionOf(
  op: Operation,
  entry: ExportEntry,
  uses: readonly IdUse[],
  world: ExportWorld,
  state: ExportedState | undefined,
): Json {
  const request: Json = { method: entry.method.toUpperCase(), path: entry.path };
  const generators: Record<string, unknown> = {};
  /** The state's value for a used id an earlier answer handed out (undefined: written as sent). */
  const fromState = (use: IdUse | undefined): string | undefined =>
    use !== undefined && world.handed.get(use.value) === use.kind ? STATE_VALUE_OF_KIND[use.kind] : undefined;
  const generator = (stateValue: string, dataType: Generator['dataType'] = 'STRING'): Generator => ({
    type: 'ProviderState',
    expression: `\${${stateValue}}`,
    dataType,
  });
  // path: each id segment an answer handed out, from the state
  let expression = op.template;
  let pathFromState = false;
  for (const [name, value = ''] of Object.entries(op.params)) {
    const stateValue = fromState(uses.find((u) => u.where === 'path' && u.at === name));
    if (stateValue) pathFromState = true;
    expression = expression.replace(`{${name}}`, stateValue ? `\${${stateValue}}` : encodeURIComponent(value));
  }
  if (pathFromState) generators.path = { type: 'ProviderState', expression, dataType: 'STRING' };
  const query = Object.entries(entry.query ?? {});
  if (query.length) {
    request.query = redactedQuery(entry.query ?? {});
    const queryGens: Generators = {};
    for (const use of uses) {
      const stateValue = use.where === 'query' ? fromState(use) : undefined;
      if (stateValue) queryGens[use.at] = generator(stateValue);
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
    request.body = { contentType: 'application/json', encoded: false, content: redactJsonSecrets(entry.requestBody) };
    const bodyGens: Generators = {};
    for (const use of uses) {
      const stateValue = use.where === 'body' ? fromState(use) : undefined;
      if (stateValue)
        bodyGens[pactPathOf(use.at)] = generator(
          stateValue,
          typeof valueAt(entry.requestBody, pointerTokens(use.at)) === 'number' ? 'INTEGER' : 'STRING',
        );
    }
    if (Object.keys(bodyGens).length) generators.body = bodyGens;
  }
  const made = entry.requestBody === undefined ? bodyFromState(op) : undefined;
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
    const ids = new Set(idsHandedOut(op, entry.status, entry.responseBody).map((h) => h.pointer));
    answerRules(op.doc, answerSchemaOf(op, entry.status), entry.responseBody, { path: '$', pointer: '' }, ids, rules);
    response.headers = { 'Content-Type': ['application/json'] };
    response.body = { contentType: 'application/json', encoded: false, content: redactJsonSecrets(entry.responseBody) };
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
 * The pact of `entries` (a sandbox's journal, oldest first): `versionDocument` gives the document
 * of the contract version an entry was served under (the registry's; undefined: the base).
 */
export function exportPact(input: {
  entries: readonly ExportEntry[];
  versionDocument(version: string | undefined): OpenApiDocument | undefined;
  consumer: string;
  provider: string;
  sandboxId: string;
}): PactExport {
  const world = new ExportWorld();
  const seen = new Set<string>();
  const interactions: Json[] = [];
  let version: string | undefined;
  for (const entry of input.entries) {
    const answered = entry.status > 0 && entry.fault === undefined;
    const documented = answered ? documentedOperation(entry.method, entry.path) : undefined;
    if (!documented) continue;
    const uses = idsUsed(documented, entry.query ?? {}, entry.requestBody);
    // the provider's operations become interactions; obsim's controls only tell what the sandbox holds
    const op = providerOperationIn(documented, entry.method, input.versionDocument(entry.contractVersion));
    if (op) {
      const key = `${op.operationId} ${entry.status} ${answerTag(entry)}`;
      if (!seen.has(key)) {
        seen.add(key);
        interactions.push(interactionOf(op, entry, uses, world, stateOf(op, entry, uses, world)));
        version ??= entry.contractVersion;
      }
      if (entry.status >= 200 && entry.status < 300)
        for (const h of idsHandedOut(op, entry.status, entry.responseBody)) if (!h.link) world.handed.set(String(h.value), h.kind);
    }
    world.learn(documented, uses, entry.requestBody, entry.status, entry.responseBody);
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
