/**
 * Sandbox control API schemas (/_sandbox/*, OpenAPI tag `sandbox`). These endpoints are obsim's
 * own, not the provider's: they drive time, outcomes and webhook deliveries for testing.
 */
import { BANK_NOTE } from './banks.js';
import { FaultMark } from './chaos.js';
import type { FromSchema } from 'json-schema-to-ts';
import { FAILURE_REASONS } from '../src/domain/payment.js';
import { EVENT_NAMES } from '../src/domain/machine.js';
import { MERCHANT_STATUSES } from '../src/domain/merchant.js';
import { MAX_ID, Timestamp } from './common.js';
import { CONSENT_ACTIONS, MERCHANT_ACTIONS, PAYMENT_ACTIONS } from '../src/domain/controls.js';

/** Body of the control calls that take none: absent, `null` or `{}`; anything else is a 400. */
export const EmptyBody = {
  $id: 'SandboxEmptyBody',
  title: 'SandboxEmptyBody',
  description: 'No body (or an empty JSON object).',
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {},
} as const;

export const ClockState = {
  $id: 'SandboxClock',
  title: 'SandboxClock',
  description: 'The virtual clock: the only "now" of the simulator (timestamps, expiries, settlement delays).',
  type: 'object',
  required: ['now', 'frozen', 'offsetMs'],
  additionalProperties: false,
  properties: {
    now: { ...Timestamp, description: 'Current simulated instant' },
    frozen: { type: 'boolean', description: 'true: time moves only when advanced (--clock-frozen); false: it runs with the wall clock' },
    offsetMs: { type: 'integer', description: 'Simulated time minus wall-clock time, in ms' },
  },
} as const;

export const ClockAdvanceRequest = {
  $id: 'SandboxClockAdvanceRequest',
  title: 'SandboxClockAdvanceRequest',
  description:
    'Exactly one of: `ms` (whole milliseconds), `duration` ("500ms", "5s", "2m", "1h", "7d"), `to` (an ISO 8601 instant not in the past). Every timer that falls due (settlement, expiry, approval, consent expiry) fires in time order.',
  type: 'object',
  additionalProperties: false,
  properties: {
    ms: { type: 'integer', minimum: 0, maximum: 315_360_000_000 },
    duration: { type: 'string', pattern: '^\\s*\\d+(\\.\\d+)?\\s*(ms|s|m|h|d)\\s*$', maxLength: 20, description: 'e.g. 5s, 2m, 1h, 7d' },
    to: { type: 'string', format: 'date-time', maxLength: 40 },
  },
} as const;
export type ClockAdvanceBody = FromSchema<typeof ClockAdvanceRequest>;

export const ClockAdvanceResponse = {
  $id: 'SandboxClockAdvanceResponse',
  title: 'SandboxClockAdvanceResponse',
  type: 'object',
  required: ['now', 'fired'],
  additionalProperties: false,
  properties: {
    now: Timestamp,
    fired: { type: 'integer', description: "Timed transitions of the caller's sandbox that fired during the advance" },
  },
} as const;

export const MerchantActionParams = {
  type: 'object',
  required: ['merchantId', 'action'],
  properties: {
    merchantId: { type: 'integer', minimum: 1, maximum: MAX_ID },
    action: { type: 'string', enum: MERCHANT_ACTIONS },
  },
} as const;
export type MerchantActionParamsT = FromSchema<typeof MerchantActionParams>;

export const MerchantActionResponse = {
  $id: 'SandboxMerchantActionResponse',
  title: 'SandboxMerchantActionResponse',
  description: 'Statuses are the stored onboarding status values (activated, not the webhook name active).',
  type: 'object',
  required: ['merchantId', 'status', 'previousStatus'],
  additionalProperties: false,
  properties: {
    merchantId: { type: 'integer' },
    status: { type: 'string', enum: MERCHANT_STATUSES },
    previousStatus: { type: 'string', enum: MERCHANT_STATUSES },
  },
} as const;

export const PaymentActionParams = {
  type: 'object',
  required: ['paymentId', 'action'],
  properties: {
    paymentId: { type: 'integer', minimum: 1, maximum: MAX_ID },
    action: { type: 'string', enum: PAYMENT_ACTIONS },
  },
} as const;
export type PaymentActionParamsT = FromSchema<typeof PaymentActionParams>;

export const PaymentActionRequest = {
  $id: 'SandboxPaymentActionRequest',
  title: 'SandboxPaymentActionRequest',
  description: 'Only for `fail`: the failure reason (default bank_rejected). Other actions take no body.',
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    reason: { type: 'string', enum: FAILURE_REASONS },
  },
} as const;
export type PaymentActionBody = { reason?: 'bank_rejected' | 'payer_abandoned' | 'expired' } | null | undefined;

export const ConsentActionParams = {
  type: 'object',
  required: ['requestId', 'action'],
  properties: {
    requestId: { type: 'string', minLength: 1, maxLength: 200 },
    action: { type: 'string', enum: CONSENT_ACTIONS },
  },
} as const;
export type ConsentActionParamsT = FromSchema<typeof ConsentActionParams>;

export const ConsentActionRequest = {
  $id: 'SandboxConsentActionRequest',
  title: 'SandboxConsentActionRequest',
  description: 'Only for `deny`: the errorMessage reported on the failed consent. Other actions take no body.',
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    errorMessage: { type: 'string', minLength: 1, maxLength: 500 },
  },
} as const;
export type ConsentActionBody = { errorMessage?: string } | null | undefined;

export const DELIVERY_STATES = ['pending', 'delivering', 'delivered', 'failed'] as const;
export const DELIVERY_OUTCOMES = [
  'delivered',
  'timeout',
  'connection_refused',
  'connection_reset',
  'non_2xx',
  'redirect',
  'error',
  'chaos_drop',
] as const;

export const Delivery = {
  $id: 'SandboxDelivery',
  title: 'SandboxDelivery',
  description:
    'One delivery attempt of one event to one webhook. No automatic retries: a failed delivery stays failed; POST /_sandbox/deliveries/{id}/redeliver sends the same body again under the same X-Webhook-Id as a new delivery.',
  type: 'object',
  required: [
    'id',
    'eventId',
    'event',
    'webhookId',
    'url',
    'state',
    'statusCode',
    'outcome',
    'error',
    'durationMs',
    'attemptedAt',
    'createdAt',
    'redeliveryOf',
    'body',
    'signature',
  ],
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    eventId: { type: 'string', description: 'Sent as X-Webhook-Id; unchanged on redelivery' },
    event: { type: 'string', enum: [...EVENT_NAMES, 'webhook.test'], description: 'Event name; webhook.test for a test delivery' },
    webhookId: { type: 'string' },
    url: { type: 'string' },
    state: { type: 'string', enum: DELIVERY_STATES },
    statusCode: { type: ['integer', 'null'], description: "Receiver's HTTP status, when it answered" },
    outcome: { type: ['string', 'null'], enum: [...DELIVERY_OUTCOMES, null], description: 'null until attempted' },
    error: { type: ['string', 'null'] },
    durationMs: { type: ['integer', 'null'], description: 'Wall-clock duration of the exchange' },
    attemptedAt: { type: ['string', 'null'], format: 'date-time', description: 'Simulated instant of the attempt' },
    createdAt: Timestamp,
    redeliveryOf: { type: ['integer', 'null'], description: 'Delivery id this one re-sends' },
    body: { type: 'string', description: 'The exact body bytes (sent, or to be sent)' },
    signature: { type: 'string', description: 'X-Webhook-Signature: hex HMAC-SHA256 of body with the webhook secret' },
    fault: {
      ...FaultMark,
      description:
        "The sandbox's fault profile acted on this delivery (docs/chaos.md): dropped (outcome chaos_drop, never sent), held back (webhook_delay, webhook_reorder), or this delivery is a duplicate (webhook_duplicate)",
    },
    bank: {
      ...BANK_NOTE,
      description:
        "The bank and its profile's rule behind the change that sent this event (docs/banks.md): why a payment failed or settled when it did",
    },
    traceparent: {
      type: 'string',
      pattern: '^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$',
      description:
        'The W3C traceparent the attempt sent (absent before the first attempt): its span, in the trace of the request or change that emitted the event, so a receiver continues that trace (docs/operations.md)',
    },
    tracestate: {
      type: 'string',
      maxLength: 512,
      description:
        'The W3C tracestate the attempt sent with its traceparent: the one the causing request carried, passed on unchanged (absent when that request sent none, and before the first attempt) (docs/operations.md)',
    },
  },
} as const;

export const DeliveryListQuery = {
  type: 'object',
  properties: {
    event: { type: 'string', maxLength: 100 },
    webhookId: { type: 'string', maxLength: 100 },
    state: { type: 'string', enum: DELIVERY_STATES },
    outcome: {
      type: 'string',
      enum: DELIVERY_OUTCOMES,
      description: 'Only attempts with this outcome (pending and in-flight deliveries have none)',
    },
    statusCode: {
      type: 'integer',
      minimum: 100,
      maximum: 599,
      description: 'Only attempts the receiver answered with this HTTP status (e.g. 500, 302)',
    },
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
  },
} as const;
export type DeliveryListQueryT = FromSchema<typeof DeliveryListQuery>;

export const DeliveryList = {
  $id: 'SandboxDeliveryList',
  title: 'SandboxDeliveryList',
  description:
    'Newest first (items holds at most `limit`). total counts the deliveries matching the filters up to 10,000; totalCapped is true when more match (counting a million would take as long as the table is big).',
  type: 'object',
  required: ['items', 'total', 'totalCapped'],
  additionalProperties: false,
  properties: {
    items: { type: 'array', items: { $ref: 'SandboxDelivery#' } },
    total: { type: 'integer', minimum: 0, maximum: 10000 },
    totalCapped: { type: 'boolean' },
  },
} as const;

export const DeliveryIdParams = {
  type: 'object',
  required: ['deliveryId'],
  properties: { deliveryId: { type: 'integer', minimum: 1, maximum: MAX_ID } },
} as const;
export type DeliveryIdParamsT = FromSchema<typeof DeliveryIdParams>;

/** Rows deleted, by kind (a reset, a deleted sandbox). */
export const DELETED_COUNTS = {
  type: 'object',
  required: ['merchants', 'payments', 'stores', 'webhooks', 'events', 'deliveries', 'consents', 'timers', 'transitions'],
  additionalProperties: false,
  properties: {
    merchants: { type: 'integer' },
    payments: { type: 'integer' },
    stores: { type: 'integer' },
    webhooks: { type: 'integer' },
    events: { type: 'integer' },
    deliveries: { type: 'integer' },
    consents: { type: 'integer' },
    timers: { type: 'integer' },
    transitions: { type: 'integer', description: 'Recorded state changes of its payments, merchants and consents.' },
  },
} as const;

export const ResetResponse = {
  $id: 'SandboxResetResponse',
  title: 'SandboxResetResponse',
  description:
    "Counts of the calling partner's rows deleted. Other partners' data, the clock and the sandbox bank fixtures are untouched. For the default sandbox partner, the default activated merchant is created again (defaultMerchantId).",
  type: 'object',
  required: ['deleted', 'defaultMerchantId'],
  additionalProperties: false,
  properties: {
    deleted: DELETED_COUNTS,
    defaultMerchantId: { type: ['integer', 'null'] },
  },
} as const;

export const MagicValues = {
  $id: 'SandboxMagicValues',
  title: 'SandboxMagicValues',
  description: 'Inputs that force an outcome in the sandbox (docs/sandbox-controls.md "Magic values").',
  type: 'object',
  required: ['amounts', 'fastTrack', 'users'],
  additionalProperties: false,
  properties: {
    amounts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['amount', 'outcome', 'description'],
        additionalProperties: false,
        properties: { amount: { type: 'number' }, outcome: { type: 'string' }, description: { type: 'string' } },
      },
    },
    fastTrack: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'value', 'description'],
        additionalProperties: true,
        properties: { field: { type: 'string' }, value: { type: 'string' }, description: { type: 'string' } },
      },
    },
    users: {
      type: 'array',
      items: {
        type: 'object',
        required: ['userId', 'description'],
        additionalProperties: false,
        properties: { userId: { type: 'string' }, description: { type: 'string' } },
      },
    },
  },
} as const;

export const sandboxSchemas = [
  EmptyBody,
  ClockState,
  ClockAdvanceRequest,
  ClockAdvanceResponse,
  MerchantActionResponse,
  PaymentActionRequest,
  ConsentActionRequest,
  Delivery,
  DeliveryList,
  ResetResponse,
  MagicValues,
] as const;
