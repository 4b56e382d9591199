/**
 * Bank profiles (docs/banks.md, src/domain/bank-profiles.ts): the request that sets one, and the
 * sandbox banks as GET /_sandbox/banks shows them.
 */
import { BANK_RULES } from '../src/domain/bank-rules.js';
import {
  AUTHORIZATION_MODES,
  BANK_HEALTH,
  MAX_PROFILE_SECONDS,
  SETTLEMENT_MODES,
  SHIPPED_BANK_PROFILES,
} from '../src/domain/bank-profiles.js';
import { MAX_PAGE_LIMIT } from './ais.js';

const instant = { type: 'string', format: 'date-time', maxLength: 40, description: 'ISO 8601 instant on the sandbox clock' } as const;
/** Sandbox seconds, at most ten years (a window or delay past that names no instant a date can hold). */
const seconds = { type: 'number', minimum: 0, maximum: MAX_PROFILE_SECONDS } as const;
/** Ten years of days. */
const days = { type: ['integer', 'null'], minimum: 1, maximum: 3650 } as const;

/** The fields of a profile; `input` adds what only a request may send (forSeconds). */
function profileProperties(input: boolean) {
  return {
    profile: { type: 'string', enum: Object.keys(SHIPPED_BANK_PROFILES), description: 'The shipped profile it starts from' },
    health: {
      type: 'object',
      additionalProperties: false,
      description:
        'healthy; degraded (approvals answered delaySeconds late, a failureRate share rejected); down (the hosted pages offer the other banks). Inside the window from–until on the sandbox clock, if given; healthy outside it.',
      properties: {
        status: { type: 'string', enum: BANK_HEALTH },
        from: instant,
        until: instant,
        delaySeconds: { ...seconds, description: 'How late a degraded bank answers an approval (sandbox seconds, default 60)' },
        ...(input
          ? { forSeconds: { ...seconds, description: 'A window from `from` (default: now) this long: "down for an hour" is 3600' } }
          : {}),
      },
    },
    authorization: {
      type: 'object',
      additionalProperties: false,
      properties: {
        mode: {
          type: 'string',
          enum: AUTHORIZATION_MODES,
          description: 'redirect: approve on the page; decoupled: approve in the bank app',
        },
        approvalDelaySeconds: {
          type: ['number', 'null'],
          minimum: 0,
          maximum: MAX_PROFILE_SECONDS,
          description: 'decoupled: when the app approval arrives (sandbox seconds, default 120); null: never, the payment expires',
        },
      },
    },
    settlement: {
      type: 'object',
      additionalProperties: false,
      properties: {
        mode: { type: 'string', enum: SETTLEMENT_MODES },
        cutOff: {
          type: 'string',
          pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
          maxLength: 5,
          description:
            "business_days: the latest time of day (HH:MM, the bank's local time) an approval settles the same day (default 15:00)",
        },
      },
    },
    ais: {
      type: 'object',
      additionalProperties: false,
      properties: {
        historyDays: { ...days, description: 'Days of transaction history returned (null: all the consent allows)' },
        pageSize: {
          ...days,
          maximum: MAX_PAGE_LIMIT,
          description: 'Most transactions in one answer (null: the API maximum); pageLimit answers the one used',
        },
        pendingTransactions: { type: 'boolean', description: 'Whether pending transactions are listed (default true)' },
        consentMaxDays: { ...days, description: 'Longest consent granted: a longer one is shortened when authorized (null: as asked)' },
      },
    },
    failureRate: { type: 'number', minimum: 0, maximum: 1, description: 'degraded: the share of approvals rejected' },
    seed: { type: 'integer', minimum: 0, maximum: 4294967295, description: 'Same seed and same payments: the same failures' },
  } as const;
}

/** The bank and its profile's rule behind a change (a transition, a timeline entry, a delivery). */
export const BANK_NOTE = {
  type: 'object',
  required: ['bankId', 'rule'],
  additionalProperties: false,
  properties: { bankId: { type: 'string' }, rule: { type: 'string', enum: BANK_RULES } },
} as const;

/** A profile as a request sends it, inline (the persona file's schema is standalone: no $ref). */
export const BANK_PROFILE_INPUT = { type: 'object', additionalProperties: false, properties: profileProperties(true) } as const;

export const BankProfileRequest = {
  $id: 'BankProfileRequest',
  title: 'BankProfileRequest',
  description: `A bank profile: a shipped one by name (${Object.keys(SHIPPED_BANK_PROFILES).join(', ')}), fields of its own, or both (its fields over the named ones over the defaults).`,
  type: 'object',
  additionalProperties: false,
  properties: profileProperties(true),
} as const;

export const BankProfileView = {
  $id: 'BankProfile',
  title: 'BankProfile',
  description: 'A profile in force, every field filled in.',
  type: 'object',
  required: ['health', 'authorization', 'settlement', 'ais', 'failureRate', 'seed'],
  additionalProperties: false,
  properties: profileProperties(false),
} as const;

export const SandboxBankView = {
  $id: 'SandboxBank',
  title: 'SandboxBank',
  description: 'A sandbox bank and how it behaves in this sandbox: its profile (null: as every bank without one), and its health now.',
  type: 'object',
  required: ['bankId', 'name', 'bic', 'country', 'currency', 'health', 'profile'],
  additionalProperties: false,
  properties: {
    bankId: { type: 'string' },
    name: { type: 'string' },
    bic: { type: 'string' },
    country: { type: 'string' },
    currency: { type: 'string' },
    health: { type: 'string', enum: BANK_HEALTH, description: 'On the sandbox clock now' },
    profile: { oneOf: [{ $ref: 'BankProfile#' }, { type: 'null' }] },
    setAt: { type: 'string', description: 'When the profile was set, on the sandbox clock' },
  },
} as const;

export const SandboxBankList = {
  $id: 'SandboxBankList',
  title: 'SandboxBankList',
  type: 'object',
  required: ['items', 'profiles'],
  additionalProperties: false,
  properties: {
    items: { type: 'array', items: { $ref: 'SandboxBank#' } },
    profiles: {
      type: 'array',
      description: 'The shipped profiles',
      items: {
        type: 'object',
        required: ['name', 'summary'],
        additionalProperties: false,
        properties: { name: { type: 'string' }, summary: { type: 'string' } },
      },
    },
  },
} as const;

/** `banks` of a sandbox creation or a persona: a profile per bank id. */
export const BANKS_FIELD = {
  type: 'object',
  description:
    'Bank profiles in force from the start, by bank id (docs/banks.md): a problem is a 400 whose `field` is a JSON pointer (`/banks/nordlys-bank/failureRate`)',
  maxProperties: 20,
  additionalProperties: { $ref: 'BankProfileRequest#' },
} as const;

/** A scenario's `bank` step (src/scenarios/steps/bank.ts): a bank's profile to put in force, or `reset: true`. */
export const BANK_STEP = {
  description:
    'Put a bank profile in force in the sandbox (PUT /_sandbox/banks/{bankId}, docs/banks.md), or `reset: true` to clear it: `bank: {bankId: nordlys-bank, profile: outage-1h}`.',
  type: 'object',
  required: ['bankId'],
  additionalProperties: false,
  properties: {
    bankId: { type: 'string', description: 'The sandbox bank (GET /_sandbox/banks)' },
    reset: { const: true, description: 'Clear the profile: the bank behaves as without one' },
    ...profileProperties(true),
  },
} as const;

export const bankSchemas = [BankProfileRequest, BankProfileView, SandboxBankView, SandboxBankList] as const;
