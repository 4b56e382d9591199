/**
 * The two OpenAPI documents obsim publishes, cut from the one @fastify/swagger builds from the
 * route schemas:
 *
 * - provider (`/openapi.json`, openapi.json): the provider's API only, every /v1 path and the
 *   webhooks. The document a partner generates a client from: nothing of obsim's in it.
 * - controls (`/_sandbox/openapi.json`, openapi-controls.json): obsim's own control API
 *   (/_sandbox/*) and /healthz.
 *
 * Each keeps only the component schemas its operations reach, its own tags and security
 * schemes, and carries the request and response examples of schemas/examples.ts.
 */
import { OPERATION_EXAMPLES } from '../../schemas/examples.js';
import { packageVersion } from '../package-root.js';

export type DocumentKind = 'provider' | 'controls';
export const DOCUMENT_KINDS: readonly DocumentKind[] = ['provider', 'controls'];

/** Where each document is served and committed. */
export const DOCUMENTS: Record<DocumentKind, { url: string; file: string; title: string }> = {
  provider: { url: '/openapi.json', file: 'openapi.json', title: 'Provider API' },
  controls: { url: '/_sandbox/openapi.json', file: 'openapi-controls.json', title: 'obsim controls' },
};

/** Each webhook event's operationId: what a generated receiver's handler is called. */
export const WEBHOOK_OPERATIONS = {
  'payment.completed': 'onPaymentCompleted',
  'payment.failed': 'onPaymentFailed',
  'merchant.activated': 'onMerchantActivated',
  'merchant.deactivated': 'onMerchantDeactivated',
  'merchant.onboarding.completed': 'onMerchantOnboardingCompleted',
  'webhook.test': 'onWebhookTest',
} as const;

type Json = Record<string, unknown>;
interface Operation extends Json {
  operationId?: string;
  requestBody?: { required?: boolean; content?: Record<string, { example?: unknown; schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { example?: unknown; schema?: unknown }> }>;
}
export interface OpenApiDocument extends Json {
  info: Json;
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  tags?: { name: string; description: string }[];
}

const CONTACT = { name: 'obsim maintainers', url: 'https://www.npmjs.com/package/obsim' };
const LICENSE = { name: 'MIT', identifier: 'MIT' };

const TAGS = {
  partner: 'Merchants, payments and webhook registration, authenticated with the partner credential headers.',
  auth: 'Issuing the bearer tokens (JWT) the account-information endpoints take.',
  ais: 'Account information: consents, accounts, balances and transactions (bearer token).',
  webhooks: 'The events the provider POSTs to the URLs a partner registered, each signed with X-Webhook-Signature.',
  sandbox:
    'obsim sandbox controls: the virtual clock, outcomes, deliveries, the request journal, scenarios, snapshots and sandboxes. Not part of the provider API.',
  system: 'obsim health and metrics.',
} as const;

export const SECURITY_SCHEMES = {
  partnerClientId: { type: 'apiKey', in: 'header', name: 'X-Partner-Client-Id', description: "The partner's client id." },
  partnerClientSecret: { type: 'apiKey', in: 'header', name: 'X-Partner-Client-Secret', description: "The partner's client secret." },
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A token from POST /v1/auth/generate-token, limited to the permissions it was issued with.',
  },
  webhookSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Webhook-Signature',
    description:
      'Sent by the provider on every webhook delivery: the lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the secret returned when the webhook was registered. The receiver recomputes it and compares in constant time.',
  },
  adminKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Obsim-Admin-Key',
    description: 'Sandbox management (/_sandbox/sandboxes) when the server runs with OBSIM_ADMIN_KEY; not needed otherwise.',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'GET /metrics when the server runs with OBSIM_ADMIN_KEY: OBSIM_METRICS_TOKEN (or the admin key) as a bearer token; not needed otherwise.',
  },
} as const;

const SHAPE: Record<
  DocumentKind,
  { title: string; description: string; tags: (keyof typeof TAGS)[]; schemes: (keyof typeof SECURITY_SCHEMES)[] }
> = {
  provider: {
    title: 'Open-banking provider API (obsim)',
    description:
      'The provider API as obsim simulates it: every /v1 path and the webhooks the provider sends. Generate a partner client from this document. Where the provider contract says "not shown", the choice obsim made is stated in the descriptions and in docs/decisions.md. obsim\'s own controls are a separate document: /_sandbox/openapi.json.',
    tags: ['partner', 'auth', 'ais', 'webhooks'],
    schemes: ['partnerClientId', 'partnerClientSecret', 'bearerAuth', 'webhookSignature'],
  },
  controls: {
    title: 'obsim sandbox controls',
    description:
      "obsim's own API beside the provider's: move a sandbox's clock, force outcomes, read deliveries and the request journal, run scenarios, take snapshots, create sandboxes, and check health. Not part of the provider API (that is /openapi.json).",
    tags: ['sandbox', 'system'],
    schemes: ['partnerClientId', 'partnerClientSecret', 'adminKey', 'metricsToken'],
  },
};

const inDocument = (kind: DocumentKind, path: string) => (kind === 'provider') === path.startsWith('/v1/');

/** The document @fastify/swagger built, with info, security schemes and examples filled in. */
export function completeDocument(doc: OpenApiDocument): OpenApiDocument {
  doc.info = { ...doc.info, version: packageVersion(), contact: CONTACT, license: LICENSE };
  doc.components.securitySchemes = SECURITY_SCHEMES;
  doc.tags = Object.entries(TAGS).map(([name, description]) => ({ name, description }));
  for (const op of operations(doc)) {
    attachExamples(op);
    markBodyOptional(op, doc.components.schemas ?? {});
  }
  return doc;
}

/**
 * A request body whose schema also accepts null (the control actions, `SandboxEmptyBody`) may be
 * left out: obsim answers a request without one as it answers `{}`, and a client generator reads
 * `required: true` as "must send one".
 */
function markBodyOptional(op: Operation, schemas: Record<string, unknown>): void {
  const media = op.requestBody?.content?.['application/json'];
  if (!op.requestBody || !media) return;
  const ref = (media.schema as { $ref?: string } | undefined)?.$ref;
  const schema = (ref?.startsWith(REF) ? schemas[ref.slice(REF.length)] : media.schema) as { type?: unknown } | undefined;
  if (Array.isArray(schema?.type) && schema.type.includes('null')) op.requestBody.required = false;
}

/** One of the two published documents, cut from the complete one. */
export function documentOf(full: OpenApiDocument, kind: DocumentKind): OpenApiDocument {
  const shape = SHAPE[kind];
  const paths = Object.fromEntries(Object.entries(full.paths).filter(([path]) => inDocument(kind, path)));
  const doc: OpenApiDocument = {
    openapi: full.openapi,
    info: { ...full.info, title: shape.title, description: shape.description },
    servers: full.servers,
    tags: shape.tags.map((name) => ({ name, description: TAGS[name] })),
    paths,
    ...(kind === 'provider' && full.webhooks ? { webhooks: full.webhooks } : {}),
    components: {
      schemas: reachableSchemas(full, { paths, webhooks: kind === 'provider' ? full.webhooks : undefined }),
      securitySchemes: Object.fromEntries(shape.schemes.map((name) => [name, SECURITY_SCHEMES[name]])),
    },
  };
  return doc;
}

function* operations(doc: Pick<OpenApiDocument, 'paths' | 'webhooks'>): Generator<Operation> {
  for (const group of [doc.paths, doc.webhooks ?? {}]) for (const item of Object.values(group)) yield* Object.values(item);
}

function attachExamples(op: Operation): void {
  const example = op.operationId ? OPERATION_EXAMPLES[op.operationId] : undefined;
  if (!example) return;
  const request = op.requestBody?.content?.['application/json'];
  if (request && example.request !== undefined) request.example = example.request;
  const ok = op.responses?.['200']?.content;
  // an operation answering several media types (a scenario draft: YAML or JSON) shows its JSON answer
  const media = ok && (ok['application/json'] ?? Object.values(ok)[0]);
  if (media && example.response !== undefined) media.example = example.response;
  // and each other type it answers, when the session saw it (the journal as HAR)
  for (const [type, value] of Object.entries(example.media ?? {})) if (ok?.[type]) ok[type].example = value;
}

const REF = '#/components/schemas/';

/** The component schemas the given operations reach, directly or through other components. */
function reachableSchemas(full: OpenApiDocument, from: Json): Record<string, unknown> {
  const all = full.components.schemas ?? {};
  const seen = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string' && v.startsWith(REF)) {
        const name = v.slice(REF.length);
        if (!seen.has(name)) {
          seen.add(name);
          visit(all[name]);
        }
      } else visit(v);
    }
  };
  visit(from);
  return Object.fromEntries(Object.entries(all).filter(([name]) => seen.has(name)));
}
