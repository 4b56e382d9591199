/**
 * The tools `obsim mcp` offers a coding assistant: each a name, a description it can act on, a
 * JSON Schema for its input and one for its structured output (obsim's own answer schemas, from
 * the OpenAPI documents), and what it does through obsim's HTTP API. Every tool takes an
 * optional `sandbox` (an id this session knows); without it, the current sandbox. The tools that
 * only read are in read-tools.ts.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { EVENT_NAMES, type EventName } from '../domain/machine.js';
import { CONSENT_ACTIONS, MERCHANT_ACTIONS, PAYMENT_ACTIONS } from '../domain/controls.js';
import { FAILURE_REASONS, type FailureReason } from '../domain/payment.js';
import { SHIPPED_BANK_PROFILES } from '../domain/bank-profiles.js';
import { httpTransport } from '../scenarios/transport.js';
import { runTrigger } from '../scenarios/triggers.js';
import { checkReceiver } from '../webhooks/receiver-check.js';
import { component, providerOperations } from './contract.js';
import { input, READ_TOOLS, type Tool } from './read-tools.js';
import type { Session } from './session.js';

type Json = Record<string, unknown>;

/** A webhook secret or token of a sandbox this session did not create is not shown. */
function redactUnlessOwn(
  session: Session,
  sandbox: string | undefined,
  value: Record<string, unknown>,
  fields: string[],
): Record<string, unknown> {
  if (session.owns(sandbox)) return value;
  const out = { ...value };
  for (const f of fields) if (typeof out[f] === 'string') out[f] = '[hidden: not a sandbox this session created]';
  return out;
}

export const TOOLS: Tool[] = [
  {
    name: 'create_sandbox',
    description:
      'Create an isolated sandbox (its own credentials, data and virtual clock) and make it the current one for the following tools. Answers its id, credentials and default activated merchant.',
    input: {
      type: 'object',
      additionalProperties: false,
      properties: {
        name: { type: 'string', maxLength: 100 },
        ttl: { type: 'string', description: 'Idle time before it is removed, e.g. 2h (default 1d)' },
        persona: { type: 'string', description: 'A shipped persona to start from, e.g. shop-with-history' },
        frozenClock: { type: 'boolean', description: 'Start with the clock frozen (it moves only with advance_clock)' },
        contractVersion: { type: 'string', description: 'Pin it to this contract version (list_contract_versions names them)' },
      },
    },
    output: component('SandboxCreated'),
    async run(session, args) {
      const body: Json = { name: args.name, ttl: args.ttl, persona: args.persona, contractVersion: args.contractVersion };
      if (args.frozenClock) body.clock = { frozen: true };
      const created = await session.call<
        Json & {
          sandboxId: string;
          credentials: { clientId: string; clientSecret: string };
          defaultMerchant: { merchantId: number; clientId: string } | null;
        }
      >('POST', '/_sandbox/sandboxes', { admin: true, body });
      session.adopt(created.sandboxId, created.credentials, created.defaultMerchant ?? undefined);
      return created;
    },
  },
  {
    name: 'list_sandboxes',
    description: 'List the live sandboxes of the obsim this session talks to (secrets are never listed).',
    input: { type: 'object', additionalProperties: false, properties: {} },
    output: component('SandboxList'),
    run: (session) => session.call('GET', '/_sandbox/sandboxes', { admin: true }),
  },
  {
    name: 'delete_sandbox',
    description: 'Delete a sandbox and all its data (default: the current one; the session then returns to the one it started on).',
    input: input({}),
    output: component('SandboxDeleted'),
    async run(session, args) {
      const id = session.sandbox(args.sandbox).id;
      const deleted = await session.call<object>('DELETE', `/_sandbox/sandboxes/${encodeURIComponent(id)}`, { sandbox: id });
      session.forget(id);
      return deleted;
    },
  },
  {
    name: 'get_overview',
    description: 'The sandbox at a glance: environment, clock, and counts of merchants, payments, consents and deliveries by state.',
    input: input({}),
    output: component('SandboxOverview'),
    run: (session, args) => session.call('GET', '/_sandbox/overview', { sandbox: args.sandbox }),
  },
  {
    name: 'create_test_merchant',
    description:
      'Create an activated test merchant that can take payments at once. Answers its merchantId and clientId (createPayment needs the clientId).',
    input: input({ companyName: { type: 'string', minLength: 1, maxLength: 200 } }),
    output: component('TestMerchantResponse'),
    run: (session, args) =>
      session.call('POST', '/v1/partner/merchants/test', {
        sandbox: args.sandbox,
        body: { companyName: args.companyName ?? 'Assistant Test Shop ApS' },
      }),
  },
  {
    name: 'create_payment',
    description:
      "Create a payment (pending) for an activated merchant: by merchantClientId, or the sandbox's default merchant. Answers the payment with its paymentId and the payer's paymentUrl.",
    input: input(
      {
        amount: { type: 'number', exclusiveMinimum: 0, maximum: 1000000, description: 'DKK, at most 2 decimals' },
        referenceNumber: { type: 'string', minLength: 1, maxLength: 140 },
        merchantClientId: { type: 'string', description: "The merchant's clientId (default: the sandbox's default merchant)" },
      },
      ['amount'],
    ),
    output: component('Payment'),
    run(session, args) {
      const merchantClientId = args.merchantClientId ?? session.sandbox(args.sandbox).defaultMerchant?.clientId;
      if (!merchantClientId)
        throw new Error(
          'merchantClientId is required: this sandbox has no default merchant known to the session (create_test_merchant gives one)',
        );
      return session.call('POST', '/v1/partner/payments', {
        sandbox: args.sandbox,
        body: { merchantClientId, amount: args.amount, referenceNumber: args.referenceNumber ?? `mcp-${Date.now()}` },
      });
    },
  },
  {
    name: 'register_webhook',
    description:
      'Register a webhook URL for events (default: every contract event). Deliveries are signed with the secret answered here (shown only for a sandbox this session created).',
    input: input(
      {
        url: { type: 'string', format: 'uri' },
        events: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: [...EVENT_NAMES] } },
      },
      ['url'],
    ),
    output: component('WebhookResponse'),
    async run(session, args) {
      const events = args.events ?? [...EVENT_NAMES];
      const created = await session.call<Json>('POST', '/v1/partner/webhooks', { sandbox: args.sandbox, body: { url: args.url, events } });
      return redactUnlessOwn(session, args.sandbox, created, ['secret']);
    },
  },
  {
    name: 'call_operation',
    description:
      "Call any operation of the provider API by its operationId (the names in /openapi.json, e.g. getPaymentStatus, listAccountTransactions), with `arguments` { path, query, body } validated against the operation's schemas. AIS operations need bearerToken (from generateToken).",
    input: input(
      {
        operationId: { type: 'string', enum: [...providerOperations().keys()] },
        arguments: { type: 'object', description: 'path, query and body of the operation, as its schemas in /openapi.json say' },
        bearerToken: { type: 'string', description: 'For AIS operations: a token from generateToken' },
      },
      ['operationId'],
    ),
    output: {
      type: 'object',
      required: ['operationId', 'status', 'body'],
      properties: { operationId: { type: 'string' }, status: { type: 'integer' }, body: {} },
    },
    async run(session, args) {
      const op = providerOperations().get(args.operationId as string)!;
      const a = (args.arguments ?? {}) as { path?: Record<string, unknown>; query?: Json; body?: unknown };
      const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(a.path?.[name])));
      const body = await session.call<unknown>(op.method, path, {
        sandbox: args.sandbox,
        query: a.query,
        body: a.body,
        bearer: op.bearer ? (args.bearerToken as string | undefined) : undefined,
      });
      const shown =
        body && typeof body === 'object' && !Array.isArray(body)
          ? redactUnlessOwn(session, args.sandbox, body as Json, ['secret', 'token'])
          : body;
      return { operationId: op.operationId, status: 200, body: shown };
    },
  },
  {
    name: 'get_clock',
    description: "Read the sandbox's virtual clock: now, whether it is frozen, its offset from the wall clock.",
    input: input({}),
    output: component('SandboxClock'),
    run: (session, args) => session.call('GET', '/_sandbox/clock', { sandbox: args.sandbox }),
  },
  {
    name: 'advance_clock',
    description:
      'Move the virtual clock forward by a duration (e.g. 10s, 30m, 2h, 1d) or to an instant; every settlement, expiry and approval that falls due fires in order and its webhooks are sent.',
    input: input({
      duration: { type: 'string', pattern: '^\\d+(ms|s|m|h|d)$', description: 'e.g. 30m' },
      to: { type: 'string', format: 'date-time' },
    }),
    output: component('SandboxClockAdvanceResponse'),
    run(session, args) {
      if ((args.duration === undefined) === (args.to === undefined)) throw new Error('give exactly one of duration or to');
      return session.call('POST', '/_sandbox/clock/advance', {
        sandbox: args.sandbox,
        body: args.duration ? { duration: args.duration } : { to: args.to },
      });
    },
  },
  {
    name: 'freeze_clock',
    description: 'Freeze the virtual clock: time then moves only with advance_clock.',
    input: input({}),
    output: component('SandboxClock'),
    run: (session, args) => session.call('POST', '/_sandbox/clock/freeze', { sandbox: args.sandbox, body: {} }),
  },
  {
    name: 'resume_clock',
    description: 'Let the frozen virtual clock run again from where it stands.',
    input: input({}),
    output: component('SandboxClock'),
    run: (session, args) => session.call('POST', '/_sandbox/clock/resume', { sandbox: args.sandbox, body: {} }),
  },
  {
    name: 'trigger_event',
    description:
      "Make an event happen like `obsim trigger`: create what it needs (a test merchant, a payment), drive it there, wait for the deliveries to the sandbox's webhooks and answer each one's outcome.",
    input: input(
      {
        event: { type: 'string', enum: [...EVENT_NAMES] },
        amount: { type: 'number', exclusiveMinimum: 0, maximum: 1000000 },
        reason: { type: 'string', enum: [...FAILURE_REASONS], description: 'payment.failed only' },
        merchantId: { type: 'integer', description: 'Use this merchant instead of a new one' },
      },
      ['event'],
    ),
    output: {
      type: 'object',
      required: ['event', 'what', 'deliveries', 'allDelivered'],
      properties: {
        event: { type: 'string' },
        what: { type: 'string' },
        deliveries: { type: 'array', items: { type: 'object' } },
        allDelivered: { type: 'boolean' },
      },
    },
    async run(session, args) {
      const { credentials } = session.sandbox(args.sandbox);
      const { what, deliveries } = await runTrigger(httpTransport(session.options.baseUrl), args.event as EventName, {
        partner: credentials,
        amount: (args.amount as number | undefined) ?? 120,
        merchant: args.merchantId as number | undefined,
        reason: (args.reason as FailureReason | undefined) ?? 'bank_rejected',
        timeout: 15_000,
      });
      return {
        event: args.event,
        what,
        deliveries,
        allDelivered: deliveries.length > 0 && deliveries.every((d) => d.state === 'delivered'),
      };
    },
  },
  {
    name: 'drive_payment',
    description:
      'Move a payment to an outcome: approve (processing), complete (paid), fail (with reason), abandon, expire. Only legal transitions succeed.',
    input: input(
      {
        paymentId: { type: 'integer' },
        action: { type: 'string', enum: [...PAYMENT_ACTIONS] },
        reason: { type: 'string', enum: [...FAILURE_REASONS] },
      },
      ['paymentId', 'action'],
    ),
    output: component('Payment'),
    run: (session, args) =>
      session.call('POST', `/_sandbox/payments/${args.paymentId}/${args.action}`, {
        sandbox: args.sandbox,
        body: args.reason ? { reason: args.reason } : {},
      }),
  },
  {
    name: 'drive_merchant',
    description:
      'Move a merchant through onboarding: submit-onboarding, approve, reject, activate, deactivate, reactivate and more. Only legal transitions succeed.',
    input: input({ merchantId: { type: 'integer' }, action: { type: 'string', enum: [...MERCHANT_ACTIONS] } }, ['merchantId', 'action']),
    output: component('SandboxMerchantActionResponse'),
    run: (session, args) =>
      session.call('POST', `/_sandbox/merchants/${args.merchantId}/${args.action}`, { sandbox: args.sandbox, body: {} }),
  },
  {
    name: 'drive_consent',
    description: 'Authorize, deny, revoke or expire an AIS consent (by its requestId).',
    input: input({ requestId: { type: 'string' }, action: { type: 'string', enum: [...CONSENT_ACTIONS] } }, ['requestId', 'action']),
    output: component('Consent'),
    run: (session, args) =>
      session.call('POST', `/_sandbox/consents/${encodeURIComponent(args.requestId as string)}/${args.action}`, {
        sandbox: args.sandbox,
        body: {},
      }),
  },
  ...READ_TOOLS,
  {
    name: 'check_receiver',
    description:
      "Check a webhook endpoint the way `obsim check-receiver` does: valid deliveries of every event, forged signatures, a duplicate, out-of-order and unknown events; answers each check's result and hints.",
    input: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'secret'],
      properties: {
        url: { type: 'string', format: 'uri' },
        secret: { type: 'string', description: 'The webhook secret the receiver verifies with (whsec_…)' },
        timeoutMs: { type: 'integer', minimum: 100, maximum: 10000 },
      },
    },
    output: {
      type: 'object',
      required: ['url', 'checks', 'passed', 'warned', 'failed', 'hints'],
      properties: {
        url: { type: 'string' },
        checks: { type: 'array', items: { type: 'object' } },
        passed: { type: 'integer' },
        warned: { type: 'integer' },
        failed: { type: 'integer' },
        hints: { type: 'array', items: { type: 'string' } },
      },
    },
    run: async (_session, args) =>
      checkReceiver({
        url: args.url as string,
        secret: args.secret as string,
        timeoutMs: (args.timeoutMs as number | undefined) ?? 10_000,
      }),
  },
  {
    name: 'run_scenario',
    description:
      "Run a scenario in the sandbox: a shipped one by name (e.g. payment-paid) or a YAML/JSON scenario file; answers each step with its result and the failed step's message.",
    input: input({
      name: { type: 'string' },
      file: { type: 'string', description: 'Path to a scenario file' },
      isolate: { type: 'boolean', description: 'Run in a fresh sandbox of its own' },
    }),
    output: component('SandboxScenarioRunResult'),
    run(session, args) {
      if ((args.name === undefined) === (args.file === undefined)) throw new Error('give exactly one of name or file');
      const body: Json = { isolate: args.isolate };
      if (args.name) body.name = args.name;
      else body.scenario = parseYaml(readFileSync(args.file as string, 'utf8')) as unknown;
      return session.call('POST', '/_sandbox/scenarios/run', { sandbox: args.sandbox, body });
    },
  },
  {
    name: 'set_bank_profile',
    description:
      'Make one sandbox bank behave like a real bank (docs/banks.md): down or degraded (with a window), approval in the bank app, business-day settlement, account-data limits. A shipped profile by name (healthy, degraded, down, outage-1h, slow-app-approval, app-approval-timeout, weekend-settlement, strict-ais), fields of its own (BankProfileRequest), or both; reset: true clears it. list_banks shows every bank.',
    input: input(
      {
        bankId: { type: 'string', description: 'A sandbox bank id (list_banks)' },
        profile: { type: 'string', enum: Object.keys(SHIPPED_BANK_PROFILES) },
        fields: {
          type: 'object',
          description: 'Profile fields over the named profile (health, authorization, settlement, ais, failureRate, seed)',
        },
        reset: { type: 'boolean', description: 'Clear the profile: the bank behaves as without one' },
      },
      ['bankId'],
    ),
    output: component('SandboxBank'),
    run(session, args) {
      const path = `/_sandbox/banks/${encodeURIComponent(args.bankId as string)}`;
      if (args.reset === true) return session.call('DELETE', path, { sandbox: args.sandbox });
      const body: Json = { ...((args.fields as Json | undefined) ?? {}), ...(args.profile !== undefined ? { profile: args.profile } : {}) };
      return session.call('PUT', path, { sandbox: args.sandbox, body });
    },
  },
];
