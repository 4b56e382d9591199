/**
 * Seeded chaos (docs/chaos.md): a sandbox's fault profile as sent (PUT /_sandbox/faults, the
 * `faults` of a sandbox creation) and as it is in force (GET /_sandbox/faults), and the mark an
 * injected fault leaves on a journal entry or a delivery.
 */
import {
  API_FAULT_KINDS,
  FAULT_STATUSES,
  MAX_DUPLICATES,
  MAX_FAULT_DELAY_MS,
  MAX_RULES,
  MAX_VIRTUAL_DELAY_S,
  WEBHOOK_FAULT_KINDS,
} from '../src/domain/chaos.js';
import { SHIPPED_PROFILES } from '../src/domain/chaos-profiles.js';

const ms = { type: 'integer', minimum: 0, maximum: MAX_FAULT_DELAY_MS } as const;
const when = {
  type: 'string',
  enum: ['instead', 'after'],
  description:
    '`instead` (default): answered without running the endpoint, nothing changed. `after`: the endpoint ran and its change stands, then the error is answered or the connection dropped',
} as const;

const Latency = {
  type: 'object',
  required: ['distribution'],
  additionalProperties: false,
  description:
    'Real milliseconds, at most 30,000: `fixed` (ms), `uniform` (minMs..maxMs) or `normal` (meanMs, stddevMs; clipped to 0..30,000)',
  properties: {
    distribution: { type: 'string', enum: ['fixed', 'uniform', 'normal'] },
    ms,
    minMs: ms,
    maxMs: ms,
    meanMs: ms,
    stddevMs: ms,
  },
} as const;

const FaultRuleFields = {
  description:
    'One rule. API rules (`latency`, `error`, `drop`) match partner requests: `operation` (an operationId, or `METHOD /path/{template}`; absent: every /v1 operation). Webhook rules (`webhook_duplicate`, `webhook_delay`, `webhook_reorder`, `webhook_drop`) match deliveries: `event` (an event type; absent: all). A rule fires at `rate` (0–1) of what it matches, only inside `window` (instants of the sandbox clock) when given.',
  type: 'object',
  required: ['kind', 'rate'],
  additionalProperties: false,
  properties: {
    kind: { type: 'string', enum: [...API_FAULT_KINDS, ...WEBHOOK_FAULT_KINDS] },
    rate: { type: 'number', minimum: 0, maximum: 1 },
    operation: { type: 'string', minLength: 1, maxLength: 200 },
    event: { type: 'string', minLength: 1, maxLength: 100 },
    window: {
      type: 'object',
      required: ['from', 'to'],
      additionalProperties: false,
      properties: {
        from: { type: 'string', format: 'date-time', maxLength: 40 },
        to: { type: 'string', format: 'date-time', maxLength: 40 },
      },
    },
    latency: Latency,
    status: {
      type: 'integer',
      enum: [...FAULT_STATUSES],
      description:
        '429 and 503 with Retry-After and the error body; 500 with the error body; 502 and 504 as a router in front of the provider answers them (HTML)',
    },
    retryAfterSeconds: { type: 'integer', minimum: 0, maximum: 3600, description: 'Retry-After of a 429 or 503 (default 1)' },
    when,
    copies: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_DUPLICATES,
      description: 'webhook_duplicate: copies sent besides the delivery (default 1)',
    },
    delay: {
      type: 'object',
      description: 'webhook_delay: held until the sandbox clock has moved `virtualSeconds`, or for `realMs` of real time',
      additionalProperties: false,
      properties: {
        virtualSeconds: { type: 'integer', minimum: 1, maximum: MAX_VIRTUAL_DELAY_S },
        realMs: { type: 'integer', minimum: 1, maximum: MAX_FAULT_DELAY_MS },
      },
      minProperties: 1,
      maxProperties: 1,
    },
    withinMs: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_FAULT_DELAY_MS,
      description: 'webhook_reorder: held a random 0..withinMs (real), so others overtake it',
    },
  },
} as const;

export const FaultRuleSchema = { $id: 'FaultRule', title: 'FaultRule', ...FaultRuleFields } as const;

const profileDescription = `A fault profile: a shipped one by name (${Object.keys(SHIPPED_PROFILES).join(', ')}), rules of its own, or both (the named profile's rules first). \`seed\`: the same seed and the same order of matching requests give the same faults; without one a seed is chosen and shown by GET /_sandbox/faults.`;
const profileFields = {
  profile: { type: 'string', enum: Object.keys(SHIPPED_PROFILES) },
  seed: { type: 'integer', minimum: 0, maximum: 4294967295 },
} as const;

export const FaultProfileRequest = {
  $id: 'FaultProfileRequest',
  title: 'FaultProfileRequest',
  description: profileDescription,
  type: 'object',
  additionalProperties: false,
  properties: { ...profileFields, rules: { type: 'array', maxItems: MAX_RULES, items: { $ref: 'FaultRule#' } } },
} as const;

/** A scenario's `faults` step (src/scenarios/steps/faults.ts): a profile to put in force, or `clear`. */
export const FAULTS_STEP = {
  description: `Put a fault profile in force in the sandbox (PUT /_sandbox/faults, docs/chaos.md), or \`clear\` it. ${profileDescription} Give the seed a failing run printed to replay its faults.`,
  type: ['string', 'object'],
  // if/then/else rather than oneOf: a refused profile is told what is wrong in it, not that it is no string
  if: { type: 'string' },
  then: { enum: ['clear'] },
  else: {
    type: 'object',
    additionalProperties: false,
    properties: { ...profileFields, rules: { type: 'array', maxItems: MAX_RULES, items: FaultRuleFields } },
  },
} as const;

export const FaultProfileView = {
  $id: 'FaultProfile',
  title: 'FaultProfile',
  description:
    "The fault profile in force in a sandbox: its seed, the shipped profile it came from, its rules (a named profile's expanded: a window as instants), and the faults injected since it was set, by rule.",
  type: 'object',
  required: ['sandboxId', 'active', 'rules', 'injected'],
  additionalProperties: false,
  properties: {
    sandboxId: { type: 'string' },
    active: { type: 'boolean', description: 'false: no profile, nothing is injected' },
    seed: { type: 'integer' },
    profile: { type: 'string' },
    setAt: { type: 'string', description: 'On the sandbox clock (ISO 8601)' },
    rules: { type: 'array', items: { $ref: 'FaultRule#' } },
    injected: {
      type: 'array',
      items: { type: 'integer' },
      description: 'Faults injected by each rule since the profile was set (same order as rules)',
    },
  },
} as const;

/** A fault the sandbox injected (a journal entry's, a delivery's): the index of its rule in the profile, and its kind. */
export const FaultMark = {
  type: 'object',
  required: ['rule', 'kind'],
  additionalProperties: false,
  properties: { rule: { type: 'integer' }, kind: { type: 'string', enum: [...API_FAULT_KINDS, ...WEBHOOK_FAULT_KINDS] } },
} as const;

export const chaosSchemas = [FaultRuleSchema, FaultProfileRequest, FaultProfileView] as const;
