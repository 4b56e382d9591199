/**
 * The readiness report (GET /_sandbox/report), a check-receiver run made from the server
 * (POST /_sandbox/receiver-checks), and the requirements file a team writes its own checklist in.
 * The requirements schema is published as readiness/requirements.schema.json (a copy written by
 * `obsim report --requirements-schema`, checked equal by test/readiness/requirements.test.ts).
 */
import { CONSENT_STATUSES } from '../src/domain/consent.js';
import { EVENT_NAMES } from '../src/domain/machine.js';
import { MERCHANT_STATUSES } from '../src/domain/merchant.js';
import { FAILURE_REASONS, PAYMENT_STATUSES } from '../src/domain/payment.js';
import { DEFAULT_ITEM_IDS } from '../src/domain/readiness-checklist.js';
import { SMELL_CODES } from '../src/domain/readiness-smells.js';

const counts = { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } } as const;
const ids = { type: 'array', items: { type: 'integer' } } as const;
/** A transition's name: `<from> -> <to>`, optionally ` (<reason>)`. */
const TRANSITION_NAME = '^[a-z_]+ -> [a-z_]+( \\([a-z_]+\\))?$';

const statesSeen = {
  type: 'object',
  required: ['reached', 'unreached'],
  additionalProperties: false,
  properties: { reached: counts, unreached: { type: 'array', items: { type: 'string' } } },
} as const;

export const ReadinessReport = {
  $id: 'SandboxReadinessReport',
  title: 'SandboxReadinessReport',
  description:
    "What the sandbox saw, judged for go-live (docs/readiness.md): each partner-facing operation with the statuses it answered and those not yet met; the states and events reached; smells with the journal entries that prove them (GET /_sandbox/requests/{id}); the checklist and its verdict. Computed from the journal as it is kept: `journal.truncated` says older entries were dropped by the journal's bounds.",
  type: 'object',
  required: ['sandboxId', 'generatedAt', 'verdict', 'checklistSource', 'journal', 'operations', 'lifecycles', 'smells', 'checklist'],
  additionalProperties: false,
  properties: {
    sandboxId: { type: 'string' },
    generatedAt: { type: 'string', description: 'Wall clock (ISO 8601)' },
    verdict: { type: 'string', enum: ['met', 'unmet'], description: 'met when no checklist item is unmet' },
    checklistSource: { type: 'string', description: '`default`, or the name of the requirements applied' },
    journal: {
      type: 'object',
      required: ['entries', 'truncated'],
      additionalProperties: false,
      properties: {
        entries: { type: 'integer' },
        truncated: { type: 'boolean' },
        faults: { type: 'integer', description: "Entries the sandbox's fault profile injected a fault into (docs/chaos.md)" },
      },
    },
    deprecatedCalls: {
      type: 'array',
      description:
        'Calls to operations deprecated in the contract version that served them (docs/contract-versions.md), each with its count and the journal id of the first; absent when there were none',
      items: {
        type: 'object',
        required: ['operationId', 'method', 'path', 'contractVersion', 'calls', 'firstEntry'],
        additionalProperties: false,
        properties: {
          operationId: { type: 'string' },
          method: { type: 'string' },
          path: { type: 'string' },
          contractVersion: { type: 'string' },
          calls: { type: 'integer', minimum: 1 },
          firstEntry: { type: 'integer', description: 'GET /_sandbox/requests/{id}' },
        },
      },
    },
    operations: {
      type: 'array',
      items: {
        type: 'object',
        required: ['operationId', 'method', 'path', 'called', 'calls', 'statuses', 'unseen', 'evidence', 'evidenceByStatus'],
        additionalProperties: false,
        properties: {
          operationId: { type: 'string' },
          method: { type: 'string' },
          path: { type: 'string', description: 'The OpenAPI path template' },
          called: { type: 'boolean' },
          calls: { type: 'integer' },
          statuses: { ...counts, description: 'Answers by status code' },
          unseen: { type: 'array', items: { type: 'string' }, description: 'Answers worth having met that were not' },
          evidence: { ...ids, description: 'Up to five journal entry ids, newest first' },
          evidenceByStatus: { type: 'object', additionalProperties: ids },
          injected: {
            ...counts,
            description:
              "Faults the sandbox's fault profile injected into its calls (docs/chaos.md), apart from `statuses`: by status, `dropped` (no answer) and `latency` (answered late, also in `statuses`). A status met this way is not unseen.",
          },
        },
      },
    },
    lifecycles: {
      type: 'object',
      required: ['payments', 'failureReasons', 'merchants', 'consents', 'transitions', 'bankRules', 'events', 'neverProduced'],
      additionalProperties: false,
      properties: {
        payments: {
          ...statesSeen,
          description: 'States reached: every state a payment passed through counts (a payment now paid counts for pending too)',
        },
        failureReasons: statesSeen,
        merchants: statesSeen,
        consents: statesSeen,
        transitions: {
          type: 'object',
          description:
            'Transitions made, by name (`pending -> failed (expired)`, `created -> pending`; a payment failure names its reason), counted per resource kind, from the transitions the sandbox keeps',
          required: ['payments', 'merchants', 'consents'],
          additionalProperties: false,
          properties: { payments: counts, merchants: counts, consents: counts },
        },
        bankRules: {
          ...counts,
          description:
            'What the integration met at banks with a profile (docs/banks.md): payments and consents each rule was behind — `bank_down` (a payment failed after its payer tried a down bank), `app_approval_expired` (a decoupled approval that never came), `next_business_day` (a settlement held to the next business day), …',
        },
        events: {
          type: 'array',
          items: {
            type: 'object',
            required: ['event', 'acknowledged', 'failed'],
            additionalProperties: false,
            properties: { event: { type: 'string' }, acknowledged: { type: 'integer' }, failed: { type: 'integer' } },
          },
        },
        neverProduced: { type: 'array', items: { type: 'string' } },
      },
    },
    smells: {
      type: 'array',
      items: {
        type: 'object',
        required: ['code', 'message', 'docs', 'evidence'],
        additionalProperties: false,
        properties: { code: { type: 'string', enum: SMELL_CODES }, message: { type: 'string' }, docs: { type: 'string' }, evidence: ids },
      },
    },
    checklist: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'title', 'status', 'because', 'evidence'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          title: { type: 'string' },
          status: { type: 'string', enum: ['met', 'unmet', 'not_applicable'] },
          because: { type: 'string' },
          evidence: ids,
        },
      },
    },
  },
} as const;

/** `?sandbox=` of a read of a whole sandbox (an admin's; routed by HAProxy in a cluster). */
export const SandboxParam = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  description: 'With X-Obsim-Admin-Key (or on a server without one)',
} as const;

export const ReportQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    sandbox: { ...SandboxParam, description: `${SandboxParam.description}: the sandbox to report on; without it, the caller's own` },
  },
} as const;

export const ReceiverCheckBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    webhookId: { type: 'string', maxLength: 100, description: 'The registered webhook to check; default: the newest' },
    timeoutMs: { type: 'integer', minimum: 100, maximum: 10000, default: 10000 },
  },
} as const;

export const ReceiverCheckRun = {
  $id: 'SandboxReceiverCheck',
  title: 'SandboxReceiverCheck',
  description:
    "A check-receiver run against a registered webhook (the checks of `obsim check-receiver`, signed with the webhook's own secret), as recorded for the readiness report.",
  type: 'object',
  required: ['webhookId', 'url', 'startedAt', 'passed', 'warned', 'failed', 'verdict', 'forgedAccepted', 'checks', 'hints'],
  additionalProperties: false,
  properties: {
    webhookId: { type: 'string' },
    url: { type: 'string' },
    startedAt: { type: 'string' },
    passed: { type: 'integer' },
    warned: { type: 'integer' },
    failed: { type: 'integer' },
    verdict: { type: 'string', enum: ['passed', 'failed'] },
    forgedAccepted: { type: 'boolean', description: 'A delivery with a forged or missing signature was acknowledged with 2xx' },
    checks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'title', 'status', 'reason'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          title: { type: 'string' },
          status: { type: 'string', enum: ['pass', 'warn', 'fail'] },
          reason: { type: 'string' },
        },
      },
    },
    hints: { type: 'array', items: { type: 'string' } },
  },
} as const;

const status = {
  oneOf: [
    { type: 'integer', minimum: 100, maximum: 599 },
    { type: 'string', pattern: '^[1-5]xx$' },
  ],
  description: 'An HTTP status (409) or a class (4xx)',
} as const;

/** A team's own checklist (docs/readiness.md "Your own requirements"), as a scenario's expectReport takes it inline. */
export const RequirementsBody = {
  description: 'What must have been seen in a sandbox before go-live; replaces the default checklist of `obsim report`.',
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', maxLength: 200, description: "Shown as the checklist's source" },
    operations: {
      type: 'array',
      description: 'Each must have been called and answered 2xx; with `statuses`, each of those answers must have been met',
      items: {
        oneOf: [
          { type: 'string', minLength: 1, description: 'An operationId, or "METHOD /path/{template}"' },
          {
            type: 'object',
            required: ['operation'],
            additionalProperties: false,
            properties: {
              operation: { type: 'string', minLength: 1 },
              statuses: { type: 'array', minItems: 1, items: status },
            },
          },
        ],
      },
    },
    events: {
      type: 'array',
      description: 'Each delivered and acknowledged with 2xx at least once',
      items: { type: 'string', enum: EVENT_NAMES },
    },
    states: {
      type: 'object',
      additionalProperties: false,
      description: 'States at least one row reached (passing through counts: a payment now paid reached pending)',
      properties: {
        payments: { type: 'array', items: { type: 'string', enum: PAYMENT_STATUSES } },
        failureReasons: { type: 'array', items: { type: 'string', enum: FAILURE_REASONS } },
        merchants: { type: 'array', items: { type: 'string', enum: MERCHANT_STATUSES } },
        consents: { type: 'array', items: { type: 'string', enum: CONSENT_STATUSES } },
      },
    },
    transitions: {
      type: 'object',
      additionalProperties: false,
      description:
        'Transitions at least one row made, named `<from> -> <to>` (`created` for a creation), a payment failure with its reason in parentheses: `pending -> failed (expired)`',
      properties: {
        payments: { type: 'array', items: { type: 'string', pattern: TRANSITION_NAME } },
        merchants: { type: 'array', items: { type: 'string', pattern: TRANSITION_NAME } },
        consents: { type: 'array', items: { type: 'string', pattern: TRANSITION_NAME } },
      },
    },
    smells: {
      description: '"absent": no smell at all; or the smells that must not be found',
      oneOf: [
        { type: 'string', const: 'absent' },
        { type: 'array', items: { type: 'string', enum: SMELL_CODES } },
      ],
    },
    checks: {
      type: 'array',
      description: 'Items of the default checklist to keep',
      items: { type: 'string', enum: DEFAULT_ITEM_IDS },
    },
  },
} as const;

/** A requirements file: the published schema (readiness/requirements.schema.json). */
export const Requirements = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://obsim.dev/readiness/requirements.schema.json',
  title: 'obsim readiness requirements',
  ...RequirementsBody,
} as const;

/** A scenario's expectReport step (src/scenarios/steps/report.ts). */
export const EXPECT_REPORT_STEP = {
  type: 'object',
  description:
    "The sandbox's go-live readiness report (GET /_sandbox/report, docs/readiness.md) must have this verdict (default met), judged by `requirements` when given (the requirements file format, inline) or by the default checklist; `items` names checklist items that must have a given status. The report covers the sandbox's whole journal, not only this run: run with --isolate for a fresh sandbox.",
  additionalProperties: false,
  properties: {
    verdict: { type: 'string', enum: ['met', 'unmet'], description: 'Default met' },
    requirements: RequirementsBody,
    items: {
      type: 'object',
      description: 'Checklist item id -> the status it must have, e.g. `{ verifies_webhook_signatures: met }`',
      additionalProperties: { type: 'string', enum: ['met', 'unmet', 'not_applicable'] },
    },
  },
} as const;

export const readinessSchemas = [ReadinessReport, ReceiverCheckRun] as const;
