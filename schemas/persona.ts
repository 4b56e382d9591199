/**
 * The persona file format (personas/*.yaml, POST /_sandbox/sandboxes { persona }, obsim serve
 * --persona): a starting world declared as data. personas/persona.schema.json is this schema,
 * written by `obsim persona schema` (a test keeps them equal).
 */
import { BANK_PROFILE_INPUT } from './banks.js';
import type { FromSchema } from 'json-schema-to-ts';
import { CONSENT_PERMISSIONS } from '../src/domain/consent.js';
import { EVENT_NAMES } from '../src/domain/machine.js';
import { FAILURE_REASONS } from '../src/domain/payment.js';

export const PERSONA_MERCHANT_STATES = ['activated', 'inactive', 'awaiting_approval', 'pending_onboarding', 'rejected'] as const;
export const PERSONA_PAYMENT_STATES = ['pending', 'processing', 'paid', 'failed'] as const;
export const PERSONA_CONSENT_STATES = ['pending', 'authorized', 'expired', 'revoked', 'failed'] as const;

export const PersonaSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://obsim.dev/persona.schema.json',
  title: 'obsim persona',
  description: 'A starting world for a sandbox: merchants in given states with their stores, payments and consents, and webhooks.',
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string' },
    contractVersion: {
      type: 'string',
      pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$',
      maxLength: 64,
      description:
        "The contract version a sandbox made from this persona is pinned to (docs/contract-versions.md; GET /_sandbox/contract/versions lists them): its requests are served by that version unless one names another with Obsim-Contract-Version. Default: base, the provider's document",
    },
    merchants: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        required: ['companyName', 'state'],
        additionalProperties: false,
        properties: {
          companyName: { type: 'string', minLength: 1, maxLength: 200 },
          contactEmail: { type: 'string', format: 'email' },
          state: {
            type: 'string',
            enum: PERSONA_MERCHANT_STATES,
            description:
              'activated / inactive: a test merchant (deactivated); pending_onboarding: a standard merchant; awaiting_approval: one that submitted the form (approved after the approval delay while the clock runs); rejected',
          },
          stores: {
            type: 'array',
            maxItems: 50,
            items: {
              type: 'object',
              required: ['name'],
              additionalProperties: false,
              properties: { name: { type: 'string', minLength: 1 } },
            },
          },
          payments: {
            type: 'array',
            maxItems: 1000,
            description: 'Only for an activated merchant (payments need one)',
            items: {
              type: 'object',
              required: ['amount', 'referenceNumber'],
              additionalProperties: false,
              properties: {
                amount: { type: 'number', exclusiveMinimum: 0 },
                referenceNumber: { type: 'string', minLength: 1 },
                state: { type: 'string', enum: PERSONA_PAYMENT_STATES, default: 'paid' },
                failureReason: { type: 'string', enum: FAILURE_REASONS, description: 'state failed only (default bank_rejected)' },
              },
            },
          },
          consents: {
            type: 'array',
            maxItems: 100,
            description: 'Only for an activated merchant',
            items: {
              type: 'object',
              required: ['userId'],
              additionalProperties: false,
              properties: {
                userId: { type: 'string', minLength: 1, description: 'a sandbox bank user, e.g. user-typical' },
                state: { type: 'string', enum: PERSONA_CONSENT_STATES, default: 'authorized' },
                permissions: { type: 'array', minItems: 1, items: { type: 'string', enum: CONSENT_PERMISSIONS } },
              },
            },
          },
        },
      },
    },
    banks: {
      type: 'object',
      description:
        'Bank profiles in force from the start, by sandbox bank id (docs/banks.md): a shipped profile by name, fields of its own, or both',
      additionalProperties: BANK_PROFILE_INPUT,
    },
    webhooks: {
      type: 'array',
      maxItems: 20,
      description: 'Registered after everything else: the starting world sends no webhooks',
      items: {
        type: 'object',
        required: ['url', 'events'],
        additionalProperties: false,
        properties: {
          url: { type: 'string', pattern: '^https?://' },
          events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENT_NAMES } },
          secret: { type: 'string', minLength: 16, maxLength: 200, description: 'A fixed secret, so receivers can be configured ahead' },
        },
      },
    },
  },
} as const;

export type Persona = FromSchema<typeof PersonaSchema>;
