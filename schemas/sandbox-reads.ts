/**
 * Read side of the sandbox control API (/_sandbox/overview, merchants, payments, consents,
 * webhooks): what a dashboard needs and the provider's API does not list (payments, consents,
 * registered webhooks), with the control actions legal from each resource's state. The web
 * console is built on these and nothing else, so a script can read all it shows.
 */
import { BANK_NOTE } from './banks.js';
import type { FromSchema } from 'json-schema-to-ts';
import { CONSENT_STATUSES } from '../src/domain/consent.js';
import { EVENT_NAMES } from '../src/domain/machine.js';
import { MERCHANT_STATUSES, REPORTED_MERCHANT_STATUSES } from '../src/domain/merchant.js';
import { PAYMENT_STATUSES } from '../src/domain/payment.js';
import { Timestamp } from './common.js';
import { CONSENT_ACTIONS, MERCHANT_ACTIONS, PAYMENT_ACTIONS } from '../src/domain/controls.js';
import { DELIVERY_OUTCOMES, DELIVERY_STATES } from './sandbox.js';
import { CAUSE_KINDS, TRANSITION_RESOURCES } from '../src/domain/transitions.js';

const LIST_LIMIT = { type: 'integer', minimum: 1, maximum: 200, default: 50 } as const;
const CURSOR = {
  type: 'string',
  pattern: '^[1-9][0-9]{0,15}$',
  maxLength: 16,
  description: 'nextCursor of the previous page: the items after it, newest first',
} as const;
const NEXT_CURSOR = { type: ['string', 'null'], description: 'Pass as cursor for the next page; null on the last page' } as const;

/** A page of a list read: `items` newest first, and the cursor of the next page. */
const pageOf = <T extends object>(id: string, item: T) =>
  ({
    $id: id,
    title: id,
    type: 'object',
    required: ['items', 'nextCursor'],
    additionalProperties: false,
    properties: { items: { type: 'array', items: item }, nextCursor: NEXT_CURSOR },
  }) as const;

/** `{ state: count }` with every state present (0 when none). */
const countsOf = (states: readonly string[]) =>
  ({
    type: 'object',
    required: [...states],
    additionalProperties: false,
    properties: Object.fromEntries(states.map((s) => [s, { type: 'integer', minimum: 0 }])),
  }) as const;

export const Overview = {
  $id: 'SandboxOverview',
  title: 'SandboxOverview',
  description:
    "The caller's sandbox at a glance: its environment, clock and counts. Merchants count by reported status (pending_partner_ais counts as pending_completion); deliveries by state and by the outcome of their attempt.",
  type: 'object',
  required: ['environment', 'partnerId', 'sandboxId', 'clock', 'merchants', 'payments', 'consents', 'deliveries', 'webhooks'],
  additionalProperties: false,
  properties: {
    environment: { type: 'string', enum: ['sandbox', 'production'] },
    partnerId: { type: 'string', description: "The caller's client id" },
    sandboxId: {
      type: ['string', 'null'],
      description: 'The created sandbox (POST /_sandbox/sandboxes) the caller is; null for the configured partners',
    },
    clock: { $ref: 'SandboxClock#' },
    contractVersion: {
      type: 'string',
      description: 'The contract version the sandbox is pinned to (docs/contract-versions.md); absent: the base',
    },
    merchants: countsOf(REPORTED_MERCHANT_STATUSES),
    payments: countsOf(PAYMENT_STATUSES),
    consents: countsOf(CONSENT_STATUSES),
    deliveries: {
      type: 'object',
      required: ['byState', 'byOutcome'],
      additionalProperties: false,
      properties: { byState: countsOf(DELIVERY_STATES), byOutcome: countsOf(DELIVERY_OUTCOMES) },
    },
    webhooks: { type: 'integer', minimum: 0, description: 'Registered webhooks' },
  },
} as const;

// ---------------------------------------------------------------- merchants

export const SandboxMerchantQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: REPORTED_MERCHANT_STATUSES },
    q: { type: 'string', minLength: 1, maxLength: 200, description: 'Part of the company name or partnerRefId (case-insensitive)' },
    limit: LIST_LIMIT,
    cursor: CURSOR,
  },
} as const;
export type SandboxMerchantQueryT = FromSchema<typeof SandboxMerchantQuery>;

const MERCHANT_STATE = {
  type: 'string',
  enum: MERCHANT_STATUSES,
  description: 'The stored state of the transition table (status reports pending_partner_ais as pending_completion)',
} as const;
const MERCHANT_ACTION_LIST = {
  type: 'array',
  items: { type: 'string', enum: MERCHANT_ACTIONS },
  description: 'Control actions legal from this state (POST /_sandbox/merchants/{merchantId}/{action})',
} as const;

export const SandboxMerchantList = pageOf('SandboxMerchantList', {
  type: 'object',
  required: ['merchant', 'state', 'actions'],
  additionalProperties: false,
  properties: { merchant: { $ref: 'MerchantSummary#' }, state: MERCHANT_STATE, actions: MERCHANT_ACTION_LIST },
} as const);

export const SandboxMerchant = {
  $id: 'SandboxMerchant',
  title: 'SandboxMerchant',
  type: 'object',
  required: ['merchant', 'state', 'states', 'actions', 'onboardingUrl', 'onboardingExpiresAt', 'stores'],
  additionalProperties: false,
  properties: {
    merchant: { $ref: 'MerchantSummary#' },
    state: MERCHANT_STATE,
    states: { type: 'array', items: { type: 'string', enum: MERCHANT_STATUSES }, description: 'Every state of the table, in order' },
    actions: MERCHANT_ACTION_LIST,
    onboardingUrl: { type: ['string', 'null'], description: 'The current hosted onboarding link while onboarding is open' },
    onboardingExpiresAt: { type: ['string', 'null'], format: 'date-time' },
    stores: { type: 'array', items: { $ref: 'StoreResponse#' } },
  },
} as const;

// ---------------------------------------------------------------- payments

export const SandboxPaymentQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: PAYMENT_STATUSES },
    referenceNumber: { type: 'string', minLength: 1, maxLength: 140, description: 'Exactly this referenceNumber' },
    limit: LIST_LIMIT,
    cursor: CURSOR,
  },
} as const;
export type SandboxPaymentQueryT = FromSchema<typeof SandboxPaymentQuery>;

const PAYMENT_ACTION_LIST = {
  type: 'array',
  items: { type: 'string', enum: PAYMENT_ACTIONS },
  description: 'Control actions legal from this status (POST /_sandbox/payments/{paymentId}/{action})',
} as const;

export const SandboxPaymentList = pageOf('SandboxPaymentList', {
  type: 'object',
  required: ['payment', 'actions'],
  additionalProperties: false,
  properties: { payment: { $ref: 'Payment#' }, actions: PAYMENT_ACTION_LIST },
} as const);

export const TIMELINE_KINDS = ['created', 'page_opened', 'bank_unavailable', 'app_approval_requested', 'status_changed', 'event'] as const;

export const SandboxPayment = {
  $id: 'SandboxPayment',
  title: 'SandboxPayment',
  type: 'object',
  required: ['payment', 'actions', 'timeline'],
  additionalProperties: false,
  properties: {
    payment: { $ref: 'Payment#' },
    actions: PAYMENT_ACTION_LIST,
    timeline: {
      type: 'array',
      description:
        "Oldest first: created, every status change (pending -> processing -> paid shows both), each with its cause, the payer opening the hosted page, and the events each change emitted with their deliveries. A payment older than the sandbox's newest 10,000 transitions shows its creation and its last change.",
      items: {
        type: 'object',
        required: ['at', 'kind', 'status', 'cause', 'event', 'eventId', 'deliveries'],
        additionalProperties: false,
        properties: {
          at: Timestamp,
          kind: { type: 'string', enum: TIMELINE_KINDS },
          status: { type: ['string', 'null'], enum: [...PAYMENT_STATUSES, null] },
          cause: {
            type: ['object', 'null'],
            description:
              'What made a change (created, status_changed): as a transition names it (GET /_sandbox/payments/{paymentId}/transitions).',
            required: ['kind', 'name'],
            additionalProperties: false,
            properties: {
              kind: { type: 'string', enum: CAUSE_KINDS },
              name: { type: 'string' },
              requestId: { type: 'string' },
            },
          },
          event: { type: ['string', 'null'], enum: [...EVENT_NAMES, null] },
          eventId: { type: ['string', 'null'] },
          bank: {
            ...BANK_NOTE,
            description: "The bank and its profile's rule behind a change, or the app the payer was sent to (docs/banks.md)",
          },
          deliveries: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'state', 'outcome', 'statusCode'],
              additionalProperties: false,
              properties: {
                id: { type: 'integer' },
                state: { type: 'string', enum: DELIVERY_STATES },
                outcome: { type: ['string', 'null'], enum: [...DELIVERY_OUTCOMES, null] },
                statusCode: { type: ['integer', 'null'] },
              },
            },
          },
        },
      },
    },
  },
} as const;

// ---------------------------------------------------------------- consents and webhooks

export const SandboxConsentQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    userId: { type: 'string', minLength: 1, maxLength: 200, description: 'Only this bank user' },
    status: { type: 'string', enum: CONSENT_STATUSES },
    limit: LIST_LIMIT,
    cursor: CURSOR,
  },
} as const;
export type SandboxConsentQueryT = FromSchema<typeof SandboxConsentQuery>;

export const SandboxConsentList = pageOf('SandboxConsentList', {
  type: 'object',
  required: ['consent', 'actions'],
  additionalProperties: false,
  properties: {
    consent: { $ref: 'Consent#' },
    actions: {
      type: 'array',
      items: { type: 'string', enum: CONSENT_ACTIONS },
      description: 'Control actions legal from this status (POST /_sandbox/consents/{requestId}/{action})',
    },
  },
} as const);

export const SandboxWebhookList = {
  $id: 'SandboxWebhookList',
  title: 'SandboxWebhookList',
  description:
    "The caller's registered webhooks, oldest first, with their signing secrets (the provider shows a secret only when the webhook is created; a sandbox lets its owner read it again).",
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  properties: { items: { type: 'array', items: { $ref: 'WebhookResponse#' } } },
} as const;

// ---------------------------------------------------------------- transitions

export const SandboxTransition = {
  $id: 'SandboxTransition',
  title: 'SandboxTransition',
  description:
    'One state change of a payment, merchant or consent (docs/lifecycle-and-webhooks.md, "Transitions"): the state it left (null: created in `to`), the one it reached, when on the sandbox\'s clock, what caused it, and the trace it belongs to.',
  type: 'object',
  required: ['id', 'resource', 'resourceId', 'from', 'to', 'at', 'cause'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer', description: 'Increases with every transition of the process: orders them.' },
    resource: { type: 'string', enum: TRANSITION_RESOURCES },
    resourceId: { type: 'string', description: 'The paymentId or merchantId (as a string), or the consent requestId.' },
    from: { type: ['string', 'null'], description: 'null when the resource was created in `to`.' },
    to: { type: 'string' },
    reason: { type: 'string', description: "Why, where the state carries one: a failed payment's failureReason." },
    at: Timestamp,
    cause: {
      type: 'object',
      required: ['kind', 'name'],
      additionalProperties: false,
      properties: {
        kind: { type: 'string', enum: CAUSE_KINDS },
        name: {
          type: 'string',
          description:
            "request: the provider operation's operationId; control, console: the action; scenario_step: the scenario and its step; hosted_page: what the payer, merchant or bank user did; timer: the timer's trigger; seed: start, sandbox created or reset.",
        },
        requestId: { type: 'string', description: 'The request that made the change (its x-request-id); absent for a timer.' },
      },
    },
    traceId: {
      type: 'string',
      pattern: '^[0-9a-f]{32}$',
      description: 'The W3C trace id of the trace the change belongs to (docs/operations.md).',
    },
    bank: { ...BANK_NOTE, description: 'The bank and the rule of its profile behind the change (docs/banks.md), when one was.' },
  },
} as const;

export const SandboxTransitionList = {
  $id: 'SandboxTransitionList',
  title: 'SandboxTransitionList',
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  properties: {
    items: {
      type: 'array',
      description: 'Oldest first. A sandbox keeps its newest 10,000 transitions.',
      items: { $ref: 'SandboxTransition#' },
    },
  },
} as const;

export const sandboxReadSchemas = [
  Overview,
  SandboxMerchantList,
  SandboxMerchant,
  SandboxPaymentList,
  SandboxPayment,
  SandboxConsentList,
  SandboxWebhookList,
  SandboxTransition,
  SandboxTransitionList,
] as const;
