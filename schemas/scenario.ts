/**
 * The scenario file format (scenarios/*.yaml|json). One story per file: a name, optional
 * variables, and a list of steps. Each step is an object with exactly ONE step-kind key (the
 * keys of STEP_KINDS below) plus an optional `name`.
 *
 * This module is the source of truth: scenarios/scenario.schema.json is a copy written for
 * editors (YAML files point to it with `# yaml-language-server: $schema=./scenario.schema.json`)
 * and test/scenarios/schema.test.ts checks the two are equal. The step reference in
 * docs/scenarios-and-cli.md is checked against STEP_KINDS and the descriptions here.
 *
 * Every string anywhere in a step may use templating: `${merchant.clientId}`, `${uuid}`,
 * `${unique}`, `${random.int}`, `${now+90d}` … (see src/scenarios/template.ts). A string that is
 * exactly one `${…}` keeps the value's type (a number stays a number).
 */

import { BANK_STEP } from './banks.js';
import { REQUEST_MATCHER } from './journal.js';
import { FAULTS_STEP } from './chaos.js';
import { EXPECT_REPORT_STEP } from './readiness.js';

const duration = {
  type: 'string',
  pattern: '^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h|d)?\\s*$',
  description: 'A duration: `250ms`, `5s`, `2m`, `1h`, `8d` (a bare number is milliseconds)',
} as const;

const expectation = {
  type: 'object',
  additionalProperties: false,
  description: 'What the response must look like. A failed expectation stops the scenario with a diff.',
  properties: {
    status: {
      description: 'Expected HTTP status (or a list of accepted statuses). Default: any 2xx.',
      oneOf: [
        { type: 'integer', minimum: 100, maximum: 599 },
        { type: 'array', minItems: 1, items: { type: 'integer', minimum: 100, maximum: 599 } },
      ],
    },
    body: {
      description:
        'Partial match of the JSON body: every property given must be present and equal (objects recursively, arrays element by element). Matchers in strings: `$any`, `$absent`, `$type:string|number|integer|boolean|object|array|null`, `$regex:<pattern>`.',
    },
    headers: {
      type: 'object',
      description: 'Response headers that must be present with these values (names case-insensitive; matchers allowed).',
      additionalProperties: { type: 'string' },
    },
  },
} as const;

const capture = {
  type: 'object',
  description:
    'Variables to set from the response body: `{ "merchant.clientId": "clientId", "account": "accounts[0].accountId" }`. The path `$` is the whole body.',
  propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$' },
  additionalProperties: { type: 'string' },
} as const;

export const REQUEST_STEP = {
  type: 'object',
  description: 'An HTTP call to the simulator.',
  required: ['method', 'path'],
  additionalProperties: false,
  properties: {
    method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'], description: 'HTTP method' },
    path: {
      type: 'string',
      pattern: '^(/|\\$\\{)',
      description:
        'Path (and optional query string) on the simulator, e.g. `/v1/partner/merchants`; or a variable holding a link obsim handed out (`${paymentUrl}`): its path and query are requested',
    },
    query: {
      type: 'object',
      description: 'Query parameters added to the path',
      additionalProperties: { type: ['string', 'number', 'boolean'] },
    },
    auth: {
      type: 'string',
      enum: ['partner', 'bearer', 'none'],
      description:
        '`partner` (default): the X-Partner-Client-Id / X-Partner-Client-Secret headers of the run; `bearer`: Authorization: Bearer with `token`; `none`: no credentials',
    },
    token: { type: 'string', description: 'Bearer token for `auth: bearer`. Default: `${token}`' },
    headers: { type: 'object', description: 'Extra request headers', additionalProperties: { type: 'string' } },
    body: { description: 'JSON request body (any JSON value); templated' },
    rawBody: { type: 'string', description: 'A raw request body sent as is (instead of `body`), e.g. malformed JSON' },
    form: {
      type: 'object',
      description:
        'An HTML form submission (instead of `body`): sent as application/x-www-form-urlencoded, e.g. the hosted onboarding form',
      additionalProperties: { type: ['string', 'number', 'boolean'] },
    },
    expect: expectation,
    capture,
  },
} as const;

export const CONTROL_TARGETS = {
  merchant: ['submit-onboarding', 'complete-fast-track', 'approve', 'reject', 'activate', 'deactivate', 'reactivate'],
  payment: ['approve', 'complete', 'fail', 'abandon', 'expire'],
  consent: ['authorize', 'deny', 'revoke', 'expire'],
  delivery: ['redeliver'],
} as const;

export const CONTROL_STEP = {
  type: 'object',
  description:
    'A sandbox control action: a shortcut for `POST /_sandbox/{merchants|payments|consents|deliveries}/<id>/<action>` with the run partner credentials. Give exactly one target (`merchant`, `payment`, `consent`, `delivery`) and an `action`, or `reset: true` for POST /_sandbox/reset.',
  additionalProperties: false,
  properties: {
    merchant: { type: ['integer', 'string'], description: 'merchantId (actions: ' + CONTROL_TARGETS.merchant.join(', ') + ')' },
    payment: { type: ['integer', 'string'], description: 'paymentId (actions: ' + CONTROL_TARGETS.payment.join(', ') + ')' },
    consent: { type: 'string', description: 'consent requestId (actions: ' + CONTROL_TARGETS.consent.join(', ') + ')' },
    delivery: { type: ['integer', 'string'], description: 'delivery id (actions: redeliver)' },
    reset: { type: 'boolean', const: true, description: "POST /_sandbox/reset: delete this partner's data" },
    action: {
      type: 'string',
      enum: [
        ...new Set([...CONTROL_TARGETS.merchant, ...CONTROL_TARGETS.payment, ...CONTROL_TARGETS.consent, ...CONTROL_TARGETS.delivery]),
      ],
      description: 'The action for the target',
    },
    body: { type: 'object', description: 'Request body, e.g. `{ reason: bank_rejected }` for `payment … fail`' },
    expect: expectation,
    capture,
  },
} as const;

export const ADVANCE_CLOCK_STEP = {
  description:
    'Advance the virtual clock (POST /_sandbox/clock/advance); due transitions fire. A duration string (`30s`, `8d`) or `{ by: duration }` or `{ to: ISO instant }`. Sets `${now}`.',
  oneOf: [
    duration,
    {
      type: 'object',
      additionalProperties: false,
      properties: { by: duration, to: { type: 'string', description: 'ISO 8601 instant (templated, e.g. `${now+1h}`)' } },
      minProperties: 1,
      maxProperties: 1,
    },
  ],
} as const;

export const REGISTER_WEBHOOK_STEP = {
  type: 'object',
  description:
    'Register a webhook (POST /v1/partner/webhooks) whose URL is the run receiver (`${receiver.url}`; with --receiver a real local server, otherwise an address that is never reachable: deliveries are then read from the delivery log). Captures `${<as>.id}` and `${<as>.secret}` and makes it the webhook later expectWebhook steps watch.',
  required: ['events'],
  additionalProperties: false,
  properties: {
    events: {
      type: 'array',
      minItems: 1,
      items: { type: 'string' },
      description: 'Event names, e.g. `[payment.completed, payment.failed]`',
    },
    as: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'Variable name for the webhook. Default `webhook`' },
    url: { type: 'string', description: 'Override the URL (default `${receiver.url}`)' },
  },
} as const;

const webhookBase = {
  event: { type: 'string', description: 'Event name, e.g. `payment.completed`' },
  data: { description: 'Partial match of the envelope `data` (same rules and matchers as `expect.body`)' },
  webhook: { type: 'string', description: 'Which registered webhook (its `as` name). Default: the last one registered' },
  within: {
    description:
      'The bound. A duration string is VIRTUAL time: when the webhook has not arrived yet, the clock is advanced by it, then the runner looks again. An integer is REAL milliseconds to keep looking (same as timeoutMs).',
    oneOf: [duration, { type: 'integer', minimum: 0, maximum: 60000 }],
  },
  timeoutMs: { type: 'integer', minimum: 0, maximum: 60000, description: 'Real time to keep looking for the delivery (default 5000)' },
} as const;

export const EXPECT_WEBHOOK_STEP = {
  type: 'object',
  description:
    'A delivery of `event` whose data matches `data` must be made to the watched webhook, with a valid X-Webhook-Signature (HMAC-SHA256 of the exact body with the webhook secret, recomputed by the runner). Read from GET /_sandbox/deliveries (default) or from the --receiver. Each delivery satisfies one expectation only.',
  required: ['event'],
  additionalProperties: false,
  properties: {
    ...webhookBase,
    signature: { type: 'string', enum: ['valid', 'ignore'], description: '`valid` (default): the signature must verify' },
    eventId: {
      type: 'string',
      description:
        'The delivery must carry this X-Webhook-Id (e.g. a redelivery keeps the id of the first delivery). Each match sets `${last.eventId}`',
    },
    capture: { ...capture, description: 'Variables from the delivered envelope, e.g. `{ "evt": "data.paymentId" }`' },
  },
} as const;

export const EXPECT_NO_WEBHOOK_STEP = {
  type: 'object',
  description:
    'No delivery of `event` (matching `data` when given) that no expectWebhook has matched yet may reach the watched webhook. With `within`, the clock is advanced by that much first.',
  required: ['event'],
  additionalProperties: false,
  properties: {
    ...webhookBase,
    within: {
      description:
        'A duration string: advance the virtual clock by it first (e.g. past a settlement time). An integer: REAL milliseconds to keep watching (same as timeoutMs).',
      oneOf: [duration, { type: 'integer', minimum: 0, maximum: 60000 }],
    },
    timeoutMs: { type: 'integer', minimum: 0, maximum: 60000, description: 'Real time to keep watching (default 300)' },
  },
} as const;

const requestCount = { type: 'integer', minimum: 0, maximum: 100000 } as const;

export const EXPECT_REQUEST_STEP = {
  type: 'object',
  description:
    "Requests the code under test sent to obsim must be in the sandbox's request journal (docs/journal.md): entries matching `request`, answered since this scenario run started, not counting the runner's own requests. Keeps looking for `timeoutMs` (a scenario can wait for a partner app to create a payment); on failure, prints the near misses.",
  required: ['request'],
  additionalProperties: false,
  properties: {
    request: REQUEST_MATCHER,
    count: { ...requestCount, description: 'Exactly this many' },
    atLeast: { ...requestCount, description: 'At least this many (default 1 when no count is given)' },
    atMost: { ...requestCount, description: 'At most this many' },
    timeoutMs: { type: 'integer', minimum: 0, maximum: 60000, description: 'Real time to keep looking (default 5000)' },
  },
} as const;

export const EXPECT_NO_REQUEST_STEP = {
  type: 'object',
  description:
    "No request matching `request` may be in the sandbox's request journal since this scenario run started (the runner's own requests do not count). Keeps watching for `timeoutMs`.",
  required: ['request'],
  additionalProperties: false,
  properties: {
    request: REQUEST_MATCHER,
    timeoutMs: { type: 'integer', minimum: 0, maximum: 60000, description: 'Real time to keep watching (default 300)' },
  },
} as const;

export const WAIT_STEP = {
  description: 'Wait in real time (milliseconds, at most 30000). Prefer advanceClock: virtual time is instant.',
  oneOf: [
    { type: 'integer', minimum: 0, maximum: 30000 },
    { type: 'object', required: ['ms'], additionalProperties: false, properties: { ms: { type: 'integer', minimum: 0, maximum: 30000 } } },
  ],
} as const;

export const SET_STEP = {
  type: 'object',
  description: 'Set variables (values templated), e.g. `{ amount: 125.5, ref: "order-${unique}" }`.',
  propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$' },
} as const;

export const INCLUDE_STEP = {
  type: 'string',
  pattern: '\\.(ya?ml|json)$',
  description:
    "Run another scenario file's steps here, in this run (same variables, webhooks and sandbox): shared setup such as `include: setup/test-merchant.yaml`. The path is relative to the including file; a file that includes itself, directly or not, is refused. `obsim scenario run --watch` re-runs the files that include a changed one.",
} as const;

/** Step kind -> schema of the value under that key. Add a kind here and a handler in src/scenarios/steps. */
export const STEP_KINDS = {
  request: REQUEST_STEP,
  control: CONTROL_STEP,
  advanceClock: ADVANCE_CLOCK_STEP,
  registerWebhook: REGISTER_WEBHOOK_STEP,
  expectWebhook: EXPECT_WEBHOOK_STEP,
  expectNoWebhook: EXPECT_NO_WEBHOOK_STEP,
  expectRequest: EXPECT_REQUEST_STEP,
  expectNoRequest: EXPECT_NO_REQUEST_STEP,
  expectReport: EXPECT_REPORT_STEP,
  faults: FAULTS_STEP,
  bank: BANK_STEP,
  wait: WAIT_STEP,
  set: SET_STEP,
  include: INCLUDE_STEP,
} as const;

export type StepKind = keyof typeof STEP_KINDS;

export const ScenarioSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'obsim scenario',
  description: 'One scripted story replayed against the obsim simulator (`obsim scenario run <file>`).',
  type: 'object',
  required: ['name', 'steps'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    name: {
      type: 'string',
      pattern: '^[a-z0-9][a-z0-9-]*$',
      description: 'Unique kebab-case name (the file name without extension, by convention)',
    },
    description: { type: 'string', description: 'What the story shows, in a sentence or two' },
    tags: { type: 'array', items: { type: 'string' } },
    covers: {
      type: 'array',
      items: { type: 'string' },
      description:
        'States and events of the contract this story reaches, e.g. `payment:paid`, `event:payment.completed` (listed in docs/scenarios-and-cli.md)',
    },
    variables: { type: 'object', description: 'Initial variables (values templated)' },
    contractVersion: {
      type: 'string',
      pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$',
      description:
        'The contract version the story runs under (docs/contract-versions.md): its provider requests name it with Obsim-Contract-Version, and an isolated run pins its sandbox to it. `obsim scenario run --contract-version` overrides it',
    },
    steps: {
      type: 'array',
      minItems: 1,
      description: 'The steps, run in order; the first failed expectation stops the run',
    },
  },
  definitions: {},
} as const;

/**
 * The full schema with one definition per step kind and `steps.items` as "exactly one kind key".
 * Built from STEP_KINDS so that the two cannot drift.
 */
export const scenarioJsonSchema = buildJsonSchema();

function buildJsonSchema(): Record<string, unknown> {
  const kinds = Object.keys(STEP_KINDS) as StepKind[];
  const definitions: Record<string, unknown> = {};
  for (const kind of kinds) definitions[kind] = STEP_KINDS[kind];
  const stepVariants = kinds.map((kind) => ({
    type: 'object',
    required: [kind],
    additionalProperties: false,
    properties: { name: { type: 'string', description: 'Optional label for the step' }, [kind]: { $ref: `#/definitions/${kind}` } },
  }));
  return {
    ...ScenarioSchema,
    properties: {
      ...ScenarioSchema.properties,
      steps: { ...ScenarioSchema.properties.steps, items: { oneOf: stepVariants } },
    },
    definitions,
  };
}
