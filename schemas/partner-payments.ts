/**
 * Partner API schemas for stores, payments and webhooks (merchants are in partner.ts).
 * Request schemas set additionalProperties: false so that unknown properties are dropped by
 * default and rejected in strict mode (see src/plugins/validation.ts).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { BANK_PAYMENT_STATUS_TEXT, FAILURE_REASONS, PAYMENT_CURRENCY, PAYMENT_STATUSES } from '../src/domain/payment.js';
import { MAX_ID, Timestamp } from './common.js';
import { EVENT_NAME_ENUM, type Address } from './partner.js';

// ---------------------------------------------------------------- stores

export const CreateStoreRequest = {
  $id: 'CreateStoreRequest',
  title: 'CreateStoreRequest',
  description: "Not shown in the contract: obsim's store resource (a physical or online point of sale of an activated merchant).",
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    address: { $ref: 'Address#' },
    mccCode: { type: 'string', pattern: '^[0-9]{4}$', maxLength: 4, description: '4-digit merchant category code of this store' },
    partnerRefId: { type: 'string', maxLength: 200 },
  },
} as const;
export type CreateStoreBody = FromSchema<typeof CreateStoreRequest, { references: [typeof Address] }>;

export const StoreResponse = {
  $id: 'StoreResponse',
  title: 'StoreResponse',
  type: 'object',
  required: ['storeId', 'merchantId', 'name', 'address', 'mccCode', 'partnerRefId', 'createdAt'],
  additionalProperties: false,
  properties: {
    storeId: { type: 'integer' },
    merchantId: { type: 'integer' },
    name: { type: 'string' },
    address: { anyOf: [{ $ref: 'Address#' }, { type: 'null' }] },
    mccCode: { type: ['string', 'null'] },
    partnerRefId: { type: ['string', 'null'] },
    createdAt: Timestamp,
  },
} as const;
// a `default` fills a request in; in a response it promises nothing: defaulted properties stay optional
export type StoreResponseT = FromSchema<typeof StoreResponse, { references: [typeof Address]; keepDefaultedPropertiesOptional: true }>;

// ---------------------------------------------------------------- payments

export const CreatePaymentRequest = {
  $id: 'CreatePaymentRequest',
  title: 'CreatePaymentRequest',
  description:
    'amount in DKK: > 0, at most 2 decimals, at most 1000000. The merchant (by its clientId) must belong to the calling partner (else 404 merchant_not_found) and be activated (else 409 merchant_not_activated). Sandbox magic amounts force outcomes (GET /_sandbox/magic-values).',
  type: 'object',
  required: ['merchantClientId', 'amount', 'referenceNumber'],
  additionalProperties: false,
  properties: {
    merchantClientId: { type: 'string', format: 'uuid', maxLength: 36, description: "The merchant's clientId" },
    amount: { type: 'number', exclusiveMinimum: 0, maximum: 1_000_000, description: 'DKK, at most 2 decimals' },
    referenceNumber: {
      type: 'string',
      minLength: 1,
      maxLength: 140,
      pattern: '\\S',
      description: 'Partner reference shown to the payer; 1–140 characters, not blank',
    },
  },
} as const;
export type CreatePaymentBody = FromSchema<typeof CreatePaymentRequest>;

export const Payment = {
  $id: 'Payment',
  title: 'Payment',
  description:
    'Returned by POST /v1/partner/payments and GET /v1/partner/payments/{paymentId}/status. status: pending (waiting for the payer) -> processing (approved at the bank) -> paid, or failed (failureReason bank_rejected / payer_abandoned / expired). Currency is always DKK.',
  type: 'object',
  required: [
    'paymentId',
    'status',
    'bankPaymentStatus',
    'failureReason',
    'amount',
    'currency',
    'referenceNumber',
    'merchantClientId',
    'merchantName',
    'paymentUrl',
    'createdAt',
    'updatedAt',
    'expiresAt',
  ],
  additionalProperties: false,
  properties: {
    paymentId: { type: 'integer' },
    status: { type: 'string', enum: PAYMENT_STATUSES },
    bankPaymentStatus: {
      type: 'string',
      description: BANK_PAYMENT_STATUS_TEXT,
    },
    failureReason: { type: ['string', 'null'], enum: [...FAILURE_REASONS, null] },
    amount: { type: 'number' },
    currency: { type: 'string', enum: [PAYMENT_CURRENCY] },
    referenceNumber: { type: 'string' },
    merchantClientId: { type: 'string' },
    merchantName: { type: 'string' },
    paymentUrl: { type: 'string', description: "Hosted payment page to open in the payer's browser" },
    createdAt: Timestamp,
    updatedAt: Timestamp,
    expiresAt: { ...Timestamp, description: 'A payment still pending at this instant fails with failureReason expired' },
  },
} as const;
export type PaymentT = FromSchema<typeof Payment>;

export const PaymentIdParams = {
  type: 'object',
  required: ['paymentId'],
  properties: { paymentId: { type: 'integer', minimum: 1, maximum: MAX_ID } },
} as const;
export type PaymentIdParamsT = FromSchema<typeof PaymentIdParams>;

// ---------------------------------------------------------------- webhooks

export const CreateWebhookRequest = {
  $id: 'CreateWebhookRequest',
  title: 'CreateWebhookRequest',
  description: 'url: absolute http(s) URL (https only in production). events: one or more of the five event names, no duplicates.',
  type: 'object',
  required: ['url', 'events'],
  additionalProperties: false,
  properties: {
    url: { type: 'string', minLength: 1, maxLength: 2048 },
    events: { type: 'array', minItems: 1, maxItems: 5, uniqueItems: true, items: { type: 'string', enum: EVENT_NAME_ENUM } },
  },
} as const;
export type CreateWebhookBody = FromSchema<typeof CreateWebhookRequest>;

export const WebhookResponse = {
  $id: 'WebhookResponse',
  title: 'WebhookResponse',
  description:
    'secret signs every delivery: X-Webhook-Signature = hex HMAC-SHA256(secret, raw body). The provider shows it only in this response; in obsim, GET /_sandbox/webhooks reads it again.',
  type: 'object',
  required: ['id', 'url', 'events', 'secret', 'createdAt'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: '^wh_(?:[a-z][a-z0-9]{0,15}_)?[0-9a-f]+$' },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string', enum: EVENT_NAME_ENUM } },
    secret: { type: 'string', pattern: '^whsec_[0-9a-f]+$' },
    createdAt: Timestamp,
  },
} as const;
export type WebhookResponseT = FromSchema<typeof WebhookResponse>;

export const WebhookIdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;
export type WebhookIdParamsT = FromSchema<typeof WebhookIdParams>;

export const WebhookTestResponse = {
  $id: 'WebhookTestResponse',
  title: 'WebhookTestResponse',
  description:
    "A `webhook.test` event queued for this webhook only (whatever events it subscribes to); body { event: 'webhook.test', timestamp, data: { webhookId, message, timestamp } }, signed like every delivery. Follow it with GET /_sandbox/deliveries/{deliveryId}.",
  type: 'object',
  required: ['webhookId', 'eventId', 'deliveryId', 'status'],
  additionalProperties: false,
  properties: {
    webhookId: { type: 'string' },
    eventId: { type: 'string', description: 'Sent as X-Webhook-Id' },
    deliveryId: { type: 'integer' },
    status: { type: 'string', enum: ['queued'] },
  },
} as const;
export type WebhookTestResponseT = FromSchema<typeof WebhookTestResponse>;

export const partnerPaymentSchemas = [
  CreateStoreRequest,
  StoreResponse,
  CreatePaymentRequest,
  Payment,
  CreateWebhookRequest,
  WebhookResponse,
  WebhookTestResponse,
] as const;
