/**
 * Partner API schemas (merchants, stores, payments, webhooks).
 * Request schemas set additionalProperties: false so that unknown properties are dropped by
 * default and rejected in strict mode (see src/plugins/validation.ts).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { Timestamp } from './common.js';

export const CreateMerchantRequest = {
  $id: 'CreateMerchantRequest',
  title: 'CreateMerchantRequest',
  description:
    'Standard merchant creation. The contract lists the fields but not which are required: obsim requires companyName and contactEmail (a real provider needs both to send the onboarding link) and accepts contactPhone and partnerRefId.',
  type: 'object',
  required: ['companyName', 'contactEmail'],
  additionalProperties: false,
  properties: {
    companyName: { type: 'string', minLength: 1, maxLength: 200 },
    contactEmail: { type: 'string', format: 'email', maxLength: 254 },
    contactPhone: { type: 'string', maxLength: 40 },
    partnerRefId: { type: 'string', maxLength: 200 },
  },
} as const;
export type CreateMerchantBody = FromSchema<typeof CreateMerchantRequest>;

export const StandardMerchantResponse = {
  $id: 'StandardMerchantResponse',
  title: 'StandardMerchantResponse',
  type: 'object',
  required: ['merchantId', 'clientId', 'companyName', 'contactEmail', 'onboardingUrl', 'onboardingToken', 'status', 'expiresAt'],
  additionalProperties: false,
  properties: {
    merchantId: { type: 'integer' },
    clientId: { type: 'string', format: 'uuid' },
    companyName: { type: 'string' },
    contactEmail: { type: 'string' },
    onboardingUrl: { type: 'string' },
    onboardingToken: { type: 'string' },
    status: { type: 'string', enum: ['pending_onboarding'] },
    expiresAt: { ...Timestamp, description: 'When onboardingUrl stops working: creation + 7 days, with milliseconds' },
  },
} as const;

export const MerchantIdParams = {
  type: 'object',
  required: ['merchantId'],
  properties: { merchantId: { type: 'integer', minimum: 1 } },
} as const;
export type MerchantIdParamsT = FromSchema<typeof MerchantIdParams>;

export const partnerSchemas = [CreateMerchantRequest, StandardMerchantResponse] as const;
