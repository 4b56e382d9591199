/**
 * The MCP tools that read what a sandbox holds and saw (lists, the request journal, the delivery
 * log), and what every tool is made of: a name, a description, a JSON Schema for its input and
 * one for its structured output, and what it does through obsim's HTTP API (src/mcp/tools.ts has
 * the tools that act).
 */
import { EVENT_NAMES } from '../domain/machine.js';
import { component, standalone } from './contract.js';
import type { Session } from './session.js';

type Json = Record<string, unknown>;
/** Validated against `input` before `run` is called. */
export type Args = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by the tool's JSON Schema first

export interface Tool {
  name: string;
  description: string;
  input: Json;
  output: Json;
  run(session: Session, args: Args): Promise<object>;
}

const SANDBOX = { type: 'string', description: 'A sandbox id this session created (default: the current sandbox)' };
const LIMIT = { type: 'integer', minimum: 1, maximum: 200, description: 'At most this many, newest first (default 20)' };

/** An object schema of these properties, plus the optional `sandbox` every tool takes. */
export function input(properties: Json, required: string[] = []): Json {
  return { type: 'object', additionalProperties: false, required, properties: { ...properties, sandbox: SANDBOX } };
}

const event = { type: 'string', enum: [...EVENT_NAMES] };

export const READ_TOOLS: Tool[] = [
  listTool('list_payments', 'payments', 'SandboxPaymentList', 'Payments, newest first, with the actions legal for each.', {
    status: { type: 'string' },
    referenceNumber: { type: 'string' },
  }),
  listTool('list_merchants', 'merchants', 'SandboxMerchantList', 'Merchants, newest first, with the actions legal for each.', {
    status: { type: 'string' },
    q: { type: 'string', description: 'Part of the company name or partnerRefId' },
  }),
  listTool('list_consents', 'consents', 'SandboxConsentList', 'AIS consents, newest first, with the actions legal for each.', {
    status: { type: 'string' },
    userId: { type: 'string' },
  }),
  listTool(
    'search_journal',
    'requests',
    'JournalList',
    'The request journal: every request obsim answered for the sandbox, newest first, credentials redacted.',
    {
      method: { type: 'string' },
      path: { type: 'string', description: 'Exact path, e.g. /v1/partner/payments' },
      pathPrefix: { type: 'string' },
      status: { type: 'integer' },
      code: { type: 'string', description: 'Error code, e.g. merchant_not_activated' },
      since: { type: 'string', format: 'date-time' },
      until: { type: 'string', format: 'date-time' },
    },
  ),
  {
    name: 'get_journal_entry',
    description: 'One journal entry by id: method, path, redacted headers, the bodies sent and answered, status, error code, duration.',
    input: input({ id: { type: 'integer' } }, ['id']),
    output: component('JournalEntry'),
    run: (session, args) => session.call('GET', `/_sandbox/requests/${args.id}`, { sandbox: args.sandbox }),
  },
  {
    name: 'verify_requests',
    description:
      'Check how many journal entries match a request matcher ({ method, path or pathPattern, query, headers, body (partial), status, code }); when it does not hold, answers the near misses and what differed.',
    input: standalone(
      input(
        {
          request: { $ref: '#/components/schemas/RequestMatcher' },
          count: { type: 'integer', minimum: 0 },
          atLeast: { type: 'integer', minimum: 0 },
          atMost: { type: 'integer', minimum: 0 },
        },
        ['request'],
      ),
    ),
    output: component('JournalVerifyResult'),
    run: (session, args) =>
      session.call('POST', '/_sandbox/requests/verify', {
        sandbox: args.sandbox,
        body: { request: args.request, count: args.count, atLeast: args.atLeast, atMost: args.atMost },
      }),
  },
  listTool(
    'list_deliveries',
    'deliveries',
    'SandboxDeliveryList',
    'Webhook deliveries, newest first: event, URL, state, outcome, status code, error, signature and body.',
    {
      event,
      state: { type: 'string', enum: ['pending', 'delivering', 'delivered', 'failed'] },
      outcome: { type: 'string' },
      webhookId: { type: 'string' },
    },
  ),
  {
    name: 'readiness_report',
    description:
      "The sandbox's go-live readiness report: every provider operation called or not with the statuses it answered and those not yet met, the states and events reached, smells (each with the journal entry ids that prove it) and the go-live checklist with its verdict (docs/readiness.md).",
    input: input({}),
    output: component('SandboxReadinessReport'),
    run: (session, args) => session.call('GET', '/_sandbox/report', { sandbox: args.sandbox }),
  },
  {
    name: 'redeliver',
    description: 'Send a delivery again: the same body bytes and X-Webhook-Id to the same webhook.',
    input: input({ deliveryId: { type: 'integer' } }, ['deliveryId']),
    output: component('SandboxDelivery'),
    run: (session, args) => session.call('POST', `/_sandbox/deliveries/${args.deliveryId}/redeliver`, { sandbox: args.sandbox, body: {} }),
  },
  {
    name: 'list_banks',
    description:
      "The sandbox banks: each one's profile in this sandbox (null: it behaves as always), its health now, and the shipped bank profiles (set_bank_profile sets one).",
    input: input({}),
    output: component('SandboxBankList'),
    run: (session, args) => session.call('GET', '/_sandbox/banks', { sandbox: args.sandbox as string | undefined }),
  },
  {
    name: 'list_contract_versions',
    description:
      "The contract versions this obsim serves (the base, the provider's document, first): each with what it deprecates and sunsets. create_sandbox pins a sandbox to one (docs/contract-versions.md).",
    input: input({}),
    output: component('ContractVersionList'),
    run: (session, args) => session.call('GET', '/_sandbox/contract/versions', { sandbox: args.sandbox as string | undefined }),
  },
];

function listTool(name: string, resource: string, schema: string, description: string, filters: Json): Tool {
  return {
    name,
    description,
    input: input({ ...filters, limit: LIMIT }),
    output: component(schema),
    run: (session, args) => {
      const { sandbox, limit, ...query } = args;
      return session.call('GET', `/_sandbox/${resource}`, {
        sandbox: sandbox as string | undefined,
        query: { ...query, limit: limit ?? 20 },
      });
    },
  };
}
