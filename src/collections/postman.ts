/**
 * A Postman Collection v2.1 of a served document: openapi-to-postmanv2 converts it (folders by
 * tag, the document's examples, descriptions, example answers), then obsim makes it runnable
 * against a sandbox: partner headers and bearer auth from variables, the contract version header,
 * the chained ids, the checks, the sandbox steps a converter cannot know and the Flows folder
 * (./plan.ts). The environment is one sandbox's (./environment.ts).
 */
import { operationsOf, routeKey, type Operation } from '../contracts/walk.js';
import type { OpenApiDocument } from '../openapi/documents.js';
import {
  AUTHORIZE_CONSENT,
  CLOCK_VARIABLES,
  DEFAULT_USER,
  flows,
  operationPlan,
  type Check,
  type OperationPlan,
  type Step,
} from './plan.js';
import { prepareScript, testScript, tokenScript } from './scripts.js';

type Json = Record<string, unknown>;
interface Header {
  key: string;
  value: string;
  disabled?: boolean;
  description?: unknown;
}
interface PostmanUrl {
  path?: string[];
  host?: string[];
  query?: { key: string; value: string; disabled?: boolean }[];
  variable?: { key: string; value: string }[];
}
interface PostmanRequest extends Json {
  method: string;
  url: PostmanUrl | string;
  header?: Header[];
  body?: Json;
  auth?: Json;
}
export interface PostmanItem extends Json {
  name: string;
  item?: PostmanItem[];
  request?: PostmanRequest;
  event?: Json[];
}
export interface PostmanCollection extends Json {
  info: Json;
  item: PostmanItem[];
  variable?: { key: string; value: string; type?: string; description?: string }[];
  event?: Json[];
}

/** The variables the tests chain from answer to request (declared on the collection, empty until set). */
export const CHAINED_VARIABLES = [
  'onboardingMerchantId',
  'testMerchantId',
  'testMerchantClientId',
  'paymentId',
  'webhookId',
  'bearerToken',
  'consentRequestId',
  'consentId',
  'accountId',
  ...Object.keys(CLOCK_VARIABLES),
];

/** Headers of the document a partner does not send by default: obsim's fault injection and the optional request id. */
const OPTIONAL_HEADERS = new Set(['prefer', 'x-request-id']);

const partnerHeaders = (): Header[] => [
  { key: 'X-Partner-Client-Id', value: '{{partnerClientId}}' },
  { key: 'X-Partner-Client-Secret', value: '{{partnerClientSecret}}' },
];
const versionHeader = (): Header => ({
  key: 'Obsim-Contract-Version',
  value: '{{contractVersion}}',
  description: 'The contract version this collection was made for (docs/contract-versions.md)',
});
const bearer = () => ({ type: 'bearer', bearer: [{ key: 'token', value: '{{bearerToken}}', type: 'string' }] });
const script = (listen: 'prerequest' | 'test', source: string) => ({
  listen,
  script: { type: 'text/javascript', exec: source.split('\n') },
});

const isPartner = (op: Operation) => op.path.startsWith('/v1/partner/') || op.id === 'generateToken';

async function convert(doc: OpenApiDocument): Promise<PostmanCollection> {
  const { convertV2 } = await import('openapi-to-postmanv2');
  return new Promise((resolve, reject) =>
    convertV2(
      { type: 'json', data: structuredClone(doc) },
      { folderStrategy: 'Tags', parametersResolution: 'Example', requestNameSource: 'Fallback', includeWebhooks: false },
      (err, result) => {
        if (err || !result.result || !result.output?.[0]) return reject(err ?? new Error(`openapi-to-postmanv2: ${result.reason}`));
        resolve(result.output[0].data as PostmanCollection);
      },
    ),
  );
}

/** Each request of the converted collection by the route it calls (`POST /v1/partner/payments`). */
function requestsByRoute(items: PostmanItem[], out = new Map<string, PostmanItem>()): Map<string, PostmanItem> {
  for (const item of items) {
    if (item.item) requestsByRoute(item.item, out);
    const request = item.request;
    if (!request || typeof request.url === 'string') continue;
    out.set(routeKey(request.method, `/${(request.url.path ?? []).join('/')}`), item);
  }
  return out;
}

function applyPlan(item: PostmanItem, plan: OperationPlan): void {
  const request = item.request!;
  const url = request.url as PostmanUrl;
  for (const v of url.variable ?? []) if (plan.params[v.key]) v.value = `{{${plan.params[v.key]}}}`;
  for (const p of url.query ?? []) if (plan.params[p.key]) p.value = `{{${plan.params[p.key]}}}`;
  const headers = (request.header ?? []).map((h) => (OPTIONAL_HEADERS.has(h.key.toLowerCase()) ? { ...h, disabled: true } : h));
  request.header = [...headers, versionHeader(), ...(isPartner(plan.op) ? partnerHeaders() : [])];
  if (isPartner(plan.op)) delete request.auth;
  else request.auth = bearer();
  if (plan.body !== undefined && request.body) request.body = { ...request.body, raw: plan.body };
  item.event = events(plan.prepare.length ? prepareScript('postman', plan.prepare) : undefined, plan.checks);
}

const events = (prerequest: string | undefined, checks: readonly Check[]) => [
  ...(prerequest ? [script('prerequest', prerequest)] : []),
  script('test', testScript('postman', checks)),
];

/** A request obsim writes itself (a Flows step, a sandbox control). */
function stepItem(step: Step): PostmanItem {
  const headers: Header[] = [
    ...(step.body === undefined ? [] : [{ key: 'Content-Type', value: 'application/json' }]),
    { key: 'Accept', value: 'application/json' },
    ...(step.path.startsWith('/v1/') ? [versionHeader()] : []),
    ...(step.auth === 'partner' ? partnerHeaders() : []),
  ];
  return {
    name: step.name,
    request: {
      method: step.method,
      url: `{{baseUrl}}${step.path}`,
      header: headers,
      ...(step.auth === 'bearer' ? { auth: bearer() } : {}),
      ...(step.body === undefined ? {} : { body: { mode: 'raw', raw: step.body, options: { raw: { language: 'json' } } } }),
      ...(step.description ? { description: step.description } : {}),
    },
    event: events(prepareScript('postman', step.prepare), step.checks),
  };
}

const ABOUT = (version: string) =>
  [
    '',
    `Made by obsim for contract version ${version} from the document it serves (/openapi.json${version === 'base' ? '' : `?version=${version}`}).`,
    'Converted by openapi-to-postmanv2: the folders (one per tag), the requests, their example bodies, descriptions and example answers.',
    'Added by obsim: partner headers and bearer auth from variables, the Obsim-Contract-Version header, the ids chained from answer to request, the checks of every answer, the token and sandbox-clock scripts, the consent step and the Flows folder. Run it with the environment of GET /_sandbox/collections/postman/environment (docs/partner-tools.md).',
  ].join('\n');

/**
 * The collection of `doc` (the document contract version `version` serves); `base`, for a version,
 * the provider's document, so the tests can check what the version adds and removes.
 */
export async function postmanCollection(
  doc: OpenApiDocument,
  version: string,
  base: OpenApiDocument | undefined,
): Promise<PostmanCollection> {
  const collection = await convert(doc);
  const byRoute = requestsByRoute(collection.item);
  for (const op of operationsOf(doc)) {
    const item = byRoute.get(routeKey(op.method, op.path));
    if (item) applyPlan(item, operationPlan(doc, op, version, base));
  }
  for (const folder of collection.item) {
    const at = (folder.item ?? []).findIndex((i) => i.request && byRoute.get('POST /v1/ais/consents') === i);
    if (at >= 0) folder.item!.splice(at + 1, 0, stepItem(AUTHORIZE_CONSENT));
  }
  collection.item = collection.item.filter((folder) => !folder.item || folder.item.length > 0);
  collection.item.push({
    name: 'Flows',
    description: 'The main stories, in order: run this folder alone (or the whole collection) against a fresh sandbox.',
    item: flows(doc, version, base).map((flow) => ({ name: flow.name, item: flow.steps.map(stepItem) })),
  });
  const info = collection.info as { name?: string; description?: { content?: string; type?: string } | string };
  info.name = `${String(info.name)} — contract ${version}`;
  const described = typeof info.description === 'object' ? (info.description.content ?? '') : (info.description ?? '');
  info.description = { content: described + ABOUT(version), type: 'text/plain' };
  collection.variable = [
    { key: 'baseUrl', value: 'http://127.0.0.1:4010', type: 'string', description: 'The obsim address (the environment sets it)' },
    { key: 'contractVersion', value: version, type: 'string', description: 'Sent as Obsim-Contract-Version on every provider request' },
    { key: 'userId', value: DEFAULT_USER, type: 'string', description: 'The sandbox bank user of the AIS requests' },
    ...CHAINED_VARIABLES.map((key) => ({ key, value: '', type: 'string', description: 'Set by a test script' })),
  ];
  collection.event = [script('prerequest', tokenScript('postman'))];
  return collection;
}
