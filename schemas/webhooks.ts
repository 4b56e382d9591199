/**
 * Webhook deliveries: the envelope of each event and its `data`, the headers every delivery
 * carries. Registered as shared schemas (so they are components of the OpenAPI document) and
 * listed under its OpenAPI 3.1 `webhooks` (src/plugins/swagger.ts), so a partner can generate
 * receiver types. The domain declares its payload types (src/domain/payment.ts, merchant.ts);
 * the types below check that they match these schemas; test/contract/webhooks-openapi.test.ts validates every delivery obsim sends.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { EVENT_NAMES } from '../src/domain/machine.js';
import { WEBHOOK_MERCHANT_STATUS_TEXT, type MerchantEventData as DomainMerchantEventData } from '../src/domain/merchant.js';
import {
  BANK_PAYMENT_STATUS_TEXT,
  FAILURE_REASONS,
  PAYMENT_CURRENCY,
  PAYMENT_STATUSES,
  type PaymentEventData as DomainPaymentEventData,
} from '../src/domain/payment.js';

type SameOrNever<S, D> = [S] extends [D] ? ([D] extends [S] ? D : never) : never;

const TIMESTAMP = { type: 'string', format: 'date-time', description: 'ISO 8601 with milliseconds' } as const;

export const PaymentEventData = {
  $id: 'PaymentEventData',
  title: 'PaymentEventData',
  description:
    '`data` of payment.completed and payment.failed (the contract table), plus failureReason on payment.failed (obsim: bank_rejected, payer_abandoned or expired).',
  type: 'object',
  required: [
    'paymentId',
    'referenceNumber',
    'status',
    'amount',
    'currency',
    'merchantClientId',
    'merchantName',
    'bankPaymentStatus',
    'timestamp',
  ],
  additionalProperties: false,
  properties: {
    paymentId: { type: 'integer' },
    referenceNumber: { type: 'string' },
    status: { type: 'string', enum: PAYMENT_STATUSES, description: 'paid for payment.completed, failed for payment.failed' },
    amount: { type: 'number', description: 'DKK, as created' },
    currency: { type: 'string', enum: [PAYMENT_CURRENCY] },
    merchantClientId: { type: 'string' },
    merchantName: { type: 'string' },
    bankPaymentStatus: {
      type: 'string',
      description: `AcceptedSettlementCompleted for a settled payment; Rejected or Cancelled for a failed one. ${BANK_PAYMENT_STATUS_TEXT}`,
    },
    timestamp: TIMESTAMP,
    failureReason: { type: 'string', enum: FAILURE_REASONS, description: 'payment.failed only' },
  },
} as const;
/** The domain's type, or never (failing every use) when it and the schema above disagree. */
export type PaymentEventDataT = SameOrNever<FromSchema<typeof PaymentEventData>, DomainPaymentEventData>;

export const MerchantEventData = {
  $id: 'MerchantEventData',
  title: 'MerchantEventData',
  description:
    '`data` of merchant.activated and merchant.deactivated (the contract table; status names the activated state `active`), and of merchant.onboarding.completed (payload not shown by the contract: obsim sends the same fields).',
  type: 'object',
  required: ['merchantId', 'clientId', 'companyName', 'status', 'previousStatus', 'timestamp'],
  additionalProperties: false,
  properties: {
    merchantId: { type: 'integer' },
    clientId: { type: 'string' },
    companyName: { type: 'string' },
    status: { type: 'string', description: WEBHOOK_MERCHANT_STATUS_TEXT },
    previousStatus: { type: 'string', description: WEBHOOK_MERCHANT_STATUS_TEXT },
    timestamp: TIMESTAMP,
  },
} as const;
/** The domain's type, or never (failing every use) when it and the schema above disagree. */
export type MerchantEventDataT = SameOrNever<FromSchema<typeof MerchantEventData>, DomainMerchantEventData>;

export const WebhookTestData = {
  $id: 'WebhookTestData',
  title: 'WebhookTestData',
  description: '`data` of the test delivery (POST /v1/partner/webhooks/{id}/test; payload not shown by the contract).',
  type: 'object',
  required: ['webhookId', 'message', 'timestamp'],
  additionalProperties: false,
  properties: { webhookId: { type: 'string' }, message: { type: 'string' }, timestamp: TIMESTAMP },
} as const;

/** The envelope of one event: { event, timestamp, data }. */
function envelopeSchema<const N extends string, const D extends string>(name: N, dataRef: D, id: string) {
  return {
    $id: id,
    title: id,
    description: `The body of a ${name} delivery.`,
    type: 'object',
    required: ['event', 'timestamp', 'data'],
    additionalProperties: false,
    properties: {
      event: { type: 'string', const: name },
      timestamp: TIMESTAMP,
      data: { $ref: `${dataRef}#` },
    },
  } as const;
}

export const PaymentCompletedEvent = envelopeSchema('payment.completed', 'PaymentEventData', 'PaymentCompletedEvent');
export const PaymentFailedEvent = envelopeSchema('payment.failed', 'PaymentEventData', 'PaymentFailedEvent');
export const MerchantActivatedEvent = envelopeSchema('merchant.activated', 'MerchantEventData', 'MerchantActivatedEvent');
export const MerchantDeactivatedEvent = envelopeSchema('merchant.deactivated', 'MerchantEventData', 'MerchantDeactivatedEvent');
export const MerchantOnboardingCompletedEvent = envelopeSchema(
  'merchant.onboarding.completed',
  'MerchantEventData',
  'MerchantOnboardingCompletedEvent',
);
export const WebhookTestEvent = envelopeSchema('webhook.test', 'WebhookTestData', 'WebhookTestEvent');

/** Event name -> the schema of its delivery body. */
export const EVENT_SCHEMAS = {
  'payment.completed': PaymentCompletedEvent,
  'payment.failed': PaymentFailedEvent,
  'merchant.activated': MerchantActivatedEvent,
  'merchant.deactivated': MerchantDeactivatedEvent,
  'merchant.onboarding.completed': MerchantOnboardingCompletedEvent,
  'webhook.test': WebhookTestEvent,
} as const satisfies Record<(typeof EVENT_NAMES)[number] | 'webhook.test', { $id: string }>;

export const webhookSchemas = [PaymentEventData, MerchantEventData, WebhookTestData, ...Object.values(EVENT_SCHEMAS)];
