/**
 * Partner API schemas (merchants, stores, payments, webhooks).
 * Request schemas set additionalProperties: false so that unknown properties are dropped by
 * default and rejected in strict mode (see src/plugins/validation.ts).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { EVENT_NAMES } from '../src/domain/machine.js';
import { MERCHANT_KINDS, REPORTED_MERCHANT_STATUSES, SUB_TPP_STATES } from '../src/domain/merchant.js';
import { MAX_ID, Timestamp } from './common.js';

// enums come from the domain's `as const` tuples (one source per definition)
export const EVENT_NAME_ENUM = EVENT_NAMES;

export const PRIMARY_USE_CASES = [
  'PIS: In store merchant payment',
  'PIS: eCommerce merchant payment',
  'PIS: Funding an account',
  'PIS: Paying a bill',
  'PIS: Paying off debt',
] as const;

// ---------------------------------------------------------------- merchants

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
export type StandardMerchantResponseT = FromSchema<typeof StandardMerchantResponse>;

export const Person = {
  $id: 'Person',
  title: 'Person',
  description: 'A person (sole trader, beneficial owner, director, signatory).',
  type: 'object',
  required: ['fullName'],
  additionalProperties: false,
  properties: {
    fullName: { type: 'string', minLength: 1, maxLength: 200 },
    address: { type: 'string', maxLength: 500, description: 'Free-text postal address' },
    dateOfBirth: {
      type: 'string',
      format: 'date',
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
      maxLength: 10,
      description: 'YYYY-MM-DD, a real calendar date before today',
    },
  },
} as const;

export const Address = {
  $id: 'Address',
  title: 'Address',
  type: 'object',
  additionalProperties: false,
  properties: {
    street: { type: 'string', maxLength: 200 },
    city: { type: 'string', maxLength: 100 },
    postalCode: { type: 'string', maxLength: 20 },
    countryCode: {
      type: 'string',
      pattern: '^[A-Z]{2}$',
      maxLength: 2,
      default: 'DK',
      description: 'ISO 3166-1 alpha-2, upper case; defaults to DK',
    },
  },
} as const;

const PersonRef = { $ref: 'Person#' } as const;
const PersonList = { type: 'array', maxItems: 25, items: PersonRef } as const;

export const FastTrackMerchantRequest = {
  $id: 'FastTrackMerchantRequest',
  title: 'FastTrackMerchantRequest',
  description:
    'Fast-track creation with full company data. Besides the schema, obsim checks the IBAN checksum (mod-97) and that soleTrader is given when isSoleTrader is true. Sandbox magic: registrationNumber 00000000 or 99999999 makes the sub-TPP creation fail (status pending_onboarding, subTppStatus failed).',
  type: 'object',
  required: ['companyName', 'contactEmail', 'registrationNumber', 'website', 'iban'],
  additionalProperties: false,
  properties: {
    companyName: { type: 'string', minLength: 1, maxLength: 200 },
    contactEmail: { type: 'string', format: 'email', maxLength: 254 },
    registrationNumber: {
      type: 'string',
      minLength: 1,
      maxLength: 40,
      pattern: '^[A-Za-z0-9][A-Za-z0-9 ./-]*$',
      description: 'Company registration number (DK: 8-digit CVR)',
    },
    website: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048, description: 'Absolute http(s) URL' },
    iban: {
      type: 'string',
      minLength: 15,
      maxLength: 42,
      description: 'Payout IBAN; spaces between groups allowed; checksum verified. Stored without spaces, upper case.',
    },
    contactPhone: { type: 'string', maxLength: 40, pattern: '^\\+?[0-9][0-9 ()-]*$' },
    partnerRefId: { type: 'string', maxLength: 200 },
    bic: {
      type: 'string',
      pattern: '^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$',
      maxLength: 11,
      description: 'BIC/SWIFT, 8 or 11 characters, upper case',
    },
    primaryUseCase: { type: 'string', enum: PRIMARY_USE_CASES, default: 'PIS: In store merchant payment' },
    mccCode: { type: 'string', pattern: '^[0-9]{4}$', maxLength: 4, description: '4-digit merchant category code' },
    isSoleTrader: { type: 'boolean' },
    soleTrader: PersonRef,
    ubos: PersonList,
    directors: PersonList,
    signatories: PersonList,
    address: { $ref: 'Address#' },
  },
} as const;
export type FastTrackMerchantBody = FromSchema<typeof FastTrackMerchantRequest, { references: [typeof Person, typeof Address] }>;

export const FastTrackMerchantResponse = {
  $id: 'FastTrackMerchantResponse',
  title: 'FastTrackMerchantResponse',
  description:
    'status pending_partner_ais when the sub-TPP was created (subTppId set, subTppStatus created, subTppMessage null); pending_onboarding when it failed (no subTppId: no sub-TPP exists; subTppStatus failed, subTppMessage says why) — the merchant then uses the standard onboarding form at onboardingUrl.',
  type: 'object',
  required: [
    'merchantId',
    'clientId',
    'companyName',
    'contactEmail',
    'subTppStatus',
    'subTppMessage',
    'onboardingUrl',
    'onboardingToken',
    'status',
    'expiresAt',
  ],
  additionalProperties: false,
  properties: {
    merchantId: { type: 'integer' },
    clientId: { type: 'string', format: 'uuid' },
    companyName: { type: 'string' },
    contactEmail: { type: 'string' },
    subTppId: { type: 'string', description: 'The sub-TPP created for the merchant; absent when its creation failed' },
    subTppStatus: { type: 'string', enum: ['created', 'failed'] },
    subTppMessage: { type: ['string', 'null'] },
    onboardingUrl: { type: 'string' },
    onboardingToken: { type: 'string' },
    status: { type: 'string', enum: ['pending_partner_ais', 'pending_onboarding'] },
    expiresAt: { ...Timestamp, description: 'When onboardingUrl stops working: creation + 7 days' },
  },
} as const;
export type FastTrackMerchantResponseT = FromSchema<typeof FastTrackMerchantResponse>;

export const TestMerchantRequest = {
  $id: 'TestMerchantRequest',
  title: 'TestMerchantRequest',
  type: 'object',
  required: ['companyName'],
  additionalProperties: false,
  properties: { companyName: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;
export type TestMerchantBody = FromSchema<typeof TestMerchantRequest>;

export const TestMerchantResponse = {
  $id: 'TestMerchantResponse',
  title: 'TestMerchantResponse',
  description: 'Sandbox only (404 not_available_in_production on production). The merchant is activated at once and can take payments.',
  type: 'object',
  required: ['merchantId', 'clientId', 'companyName', 'status', 'message'],
  additionalProperties: false,
  properties: {
    merchantId: { type: 'integer' },
    clientId: { type: 'string', format: 'uuid' },
    companyName: { type: 'string' },
    status: { type: 'string', enum: ['activated'] },
    message: { type: 'string' },
  },
} as const;
export type TestMerchantResponseT = FromSchema<typeof TestMerchantResponse>;

const StoredMerchantStatus = {
  type: 'string',
  enum: REPORTED_MERCHANT_STATUSES,
} as const;

export const OnboardingStatusResponse = {
  $id: 'OnboardingStatusResponse',
  title: 'OnboardingStatusResponse',
  description:
    'A fast-tracked merchant reads pending_completion here (its create response said pending_partner_ais). subTppId is absent while no sub-TPP exists (a standard merchant before the onboarding form is submitted, or a failed fast-track); subTppDetails.status then says not_created or failed.',
  type: 'object',
  required: ['merchantId', 'onboardingStatus', 'subTppDetails'],
  additionalProperties: false,
  properties: {
    merchantId: { type: 'integer' },
    onboardingStatus: StoredMerchantStatus,
    subTppId: { type: 'string', description: 'Absent while no sub-TPP exists (subTppDetails.status not_created or failed)' },
    subTppDetails: {
      type: 'object',
      required: ['status', 'isActivated'],
      additionalProperties: false,
      properties: {
        status: {
          type: 'string',
          enum: SUB_TPP_STATES,
          description:
            'not_created: onboarding form not submitted yet; failed: fast-track sub-TPP creation failed; created: sub-TPP exists, merchant not active yet; active / inactive / rejected follow the merchant',
        },
        isActivated: { type: 'boolean', description: 'true exactly when the merchant is activated (can take payments)' },
      },
    },
  },
} as const;
export type OnboardingStatusResponseT = FromSchema<typeof OnboardingStatusResponse>;

export const MerchantSummary = {
  $id: 'MerchantSummary',
  title: 'MerchantSummary',
  description:
    'Item of GET /v1/partner/merchants. contactEmail, partnerRefId and subTppId are absent when the merchant has none (never null: the contract types them as strings).',
  type: 'object',
  required: ['merchantId', 'clientId', 'companyName', 'type', 'status', 'subTppStatus', 'createdAt', 'updatedAt'],
  additionalProperties: false,
  properties: {
    merchantId: { type: 'integer' },
    clientId: { type: 'string', format: 'uuid' },
    companyName: { type: 'string' },
    contactEmail: { type: 'string' },
    partnerRefId: { type: 'string' },
    type: { type: 'string', enum: MERCHANT_KINDS, description: 'How the merchant was created' },
    status: StoredMerchantStatus,
    subTppId: { type: 'string' },
    subTppStatus: { type: 'string', enum: SUB_TPP_STATES },
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
} as const;

export const MERCHANT_PAGE_DEFAULT = 20;
export const MERCHANT_PAGE_MAX = 100;

export const MerchantListQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 1, maximum: MAX_ID, default: 1, description: 'Page number, starting at 1' },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: MERCHANT_PAGE_MAX,
      default: MERCHANT_PAGE_DEFAULT,
      description: `Page size, default ${MERCHANT_PAGE_DEFAULT}, at most ${MERCHANT_PAGE_MAX}`,
    },
  },
} as const;
export type MerchantListQueryT = FromSchema<typeof MerchantListQuery>;

export const MerchantList = {
  $id: 'MerchantList',
  title: 'MerchantList',
  description: `Merchants of the calling partner, oldest first (ordered by merchantId). Default page size ${MERCHANT_PAGE_DEFAULT}, maximum ${MERCHANT_PAGE_MAX}; a page past the end has no items.`,
  type: 'object',
  required: ['items', 'page', 'limit', 'total'],
  additionalProperties: false,
  properties: {
    items: { type: 'array', items: { $ref: 'MerchantSummary#' } },
    page: { type: 'integer', minimum: 1 },
    limit: { type: 'integer', minimum: 1 },
    total: { type: 'integer', minimum: 0, description: 'Number of merchants of the partner over all pages' },
  },
} as const;
export type MerchantListT = FromSchema<typeof MerchantList, { references: [typeof MerchantSummary] }>;

export const ResendOnboardingResponse = {
  $id: 'ResendOnboardingResponse',
  title: 'ResendOnboardingResponse',
  description: 'A new onboardingToken and onboardingUrl valid 7 days from now; the previous link stops working at once.',
  type: 'object',
  required: ['merchantId', 'onboardingUrl', 'onboardingToken', 'expiresAt', 'status'],
  additionalProperties: false,
  properties: {
    merchantId: { type: 'integer' },
    onboardingUrl: { type: 'string' },
    onboardingToken: { type: 'string' },
    expiresAt: Timestamp,
    status: { type: 'string', enum: ['pending_onboarding', 'pending_completion'] },
  },
} as const;
export type ResendOnboardingResponseT = FromSchema<typeof ResendOnboardingResponse>;

export const MerchantIdParams = {
  type: 'object',
  required: ['merchantId'],
  properties: { merchantId: { type: 'integer', minimum: 1, maximum: MAX_ID } },
} as const;
export type MerchantIdParamsT = FromSchema<typeof MerchantIdParams>;

export const partnerSchemas = [
  Person,
  Address,
  CreateMerchantRequest,
  StandardMerchantResponse,
  FastTrackMerchantRequest,
  FastTrackMerchantResponse,
  TestMerchantRequest,
  TestMerchantResponse,
  OnboardingStatusResponse,
  MerchantSummary,
  MerchantList,
  ResendOnboardingResponse,
] as const;
