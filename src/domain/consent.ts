/**
 * Consent aggregate (AIS). Contract values: pending, authorized, expired, revoked, failed.
 * Transitions are not shown in the contract; obsim's table:
 */
import { defineMachine } from './machine.js';

export const CONSENT_STATUSES = ['pending', 'authorized', 'expired', 'revoked', 'failed'] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

export const CONSENT_TRIGGERS = ['authorize', 'deny', 'expire', 'revoke'] as const;
export type ConsentTrigger = (typeof CONSENT_TRIGGERS)[number];

export const consentMachine = defineMachine<ConsentStatus, ConsentTrigger>('consent', CONSENT_STATUSES, CONSENT_TRIGGERS, [
  { from: ['pending'], trigger: 'authorize', to: 'authorized', events: [], note: 'user authorized on the bank page (or control call)' },
  { from: ['pending'], trigger: 'deny', to: 'failed', events: [], note: 'user denied (errorMessage set)' },
  { from: ['pending', 'authorized'], trigger: 'expire', to: 'expired', events: [], note: 'expirationDateTime passed on the virtual clock (or control call)' },
  { from: ['authorized'], trigger: 'revoke', to: 'revoked', events: [], note: 'revoked (control call)' },
]);
