/**
 * Consent aggregate (AIS). Contract values: pending, authorized, expired, revoked, failed.
 * Transitions are not shown in the contract; obsim's table is below. A consent expires at its
 * expirationDateTime on the virtual clock: by its timer, or, when it is read after that
 * instant before the timer fired, by the same 'expire' transition applied at that instant.
 */
import { newConsentId } from './ids.js';
import { defineMachine } from './machine.js';
import { isoOf, type TimerRequest } from './settings.js';

export interface ConsentRow {
  id: number;
  request_id: string;
  merchant_id: number;
  user_id: string;
  /** JSON array of ConsentPermission. */
  permissions: string;
  expiration_date_time: string;
  transaction_from_date_time: string;
  callback_url: string | null;
  status: ConsentStatus;
  consent_id: string | null;
  error_message: string | null;
  bank_id: string | null;
  auth_token: string;
  created_at: string;
  updated_at: string;
}

export interface NewConsent {
  merchant_id: number;
  user_id: string;
  permissions: readonly ConsentPermission[];
  expiration_date_time: string;
  transaction_from_date_time: string;
  callback_url: string | null;
}

export const CONSENT_STATUSES = ['pending', 'authorized', 'expired', 'revoked', 'failed'] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

export const CONSENT_TRIGGERS = ['authorize', 'deny', 'expire', 'revoke'] as const;
export type ConsentTrigger = (typeof CONSENT_TRIGGERS)[number];

/** The permission strings an AIS bearer token can carry (the contract shows these three). */
export const TOKEN_PERMISSIONS = ['ais:accounts:read', 'ais:balance:read', 'ais:transactions:read'] as const;
export type TokenPermission = (typeof TOKEN_PERMISSIONS)[number];

export const CONSENT_PERMISSIONS = ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail'] as const;
export type ConsentPermission = (typeof CONSENT_PERMISSIONS)[number];

/** errorMessage of a consent denied by a control call that gives none. */
export const DENIED_MESSAGE = 'The user denied the consent at the bank';
/** errorMessage of a consent the user denied on the hosted bank page. */
export const DENIED_ON_BANK_PAGE = 'The user denied access at the bank';

export const consentMachine = defineMachine<ConsentStatus, ConsentTrigger>('consent', CONSENT_STATUSES, CONSENT_TRIGGERS, [
  { from: ['pending'], trigger: 'authorize', to: 'authorized', events: [], note: 'user authorized on the bank page (or control call)' },
  { from: ['pending'], trigger: 'deny', to: 'failed', events: [], note: 'user denied (errorMessage set)' },
  {
    from: ['pending', 'authorized'],
    trigger: 'expire',
    to: 'expired',
    events: [],
    note: 'expirationDateTime passed on the virtual clock (or control call)',
  },
  { from: ['authorized'], trigger: 'revoke', to: 'revoked', events: [], note: 'revoked (control call)' },
]);

export interface ConsentChange {
  status: ConsentStatus;
  updated_at: string;
  /** null keeps the stored value. */
  error_message: string | null;
  consent_id: string | null;
  bank_id: string | null;
  /** A bank that grants shorter consents shortens it on authorization (docs/banks.md); null keeps it. */
  expiration_date_time: string | null;
}

/**
 * Apply `trigger` at `atMs` (409 illegal_transition when the table has no row): a denial records
 * why, an authorization gets the provider consent id, a chosen bank is remembered.
 */
export function decideConsent(
  row: ConsentRow,
  trigger: ConsentTrigger,
  input: { errorMessage?: string; bankId?: string },
  atMs: number,
): ConsentChange {
  const { to } = consentMachine.transition(row.status, trigger);
  return {
    status: to,
    updated_at: isoOf(atMs),
    error_message: trigger === 'deny' ? (input.errorMessage ?? DENIED_MESSAGE) : null,
    consent_id: trigger === 'authorize' && !row.consent_id ? newConsentId() : null,
    bank_id: input.bankId ?? null,
    expiration_date_time: null,
  };
}

/** The expiry a bank granting at most `maxDays` days gives a consent authorized at `atMs` (undefined: as asked). */
export function grantedExpiry(row: Pick<ConsentRow, 'expiration_date_time'>, maxDays: number | null, atMs: number): string | undefined {
  if (maxDays === null) return undefined;
  const latest = atMs + maxDays * 86_400_000;
  return Date.parse(row.expiration_date_time) > latest ? isoOf(latest) : undefined;
}

/** An open consent expires at its expirationDateTime. */
export function consentTimer(row: Pick<ConsentRow, 'status' | 'expiration_date_time'>): TimerRequest<ConsentTrigger> | undefined {
  if (row.status !== 'pending' && row.status !== 'authorized') return undefined;
  const due = Date.parse(row.expiration_date_time);
  return Number.isFinite(due) ? { trigger: 'expire', dueAtMs: due } : undefined;
}

/** True when the consent is still open but its expiration instant has passed at `nowMs`. */
export function isDueToExpire(row: Pick<ConsentRow, 'status' | 'expiration_date_time'>, nowMs: number): boolean {
  const timer = consentTimer(row);
  return timer !== undefined && timer.dueAtMs <= nowMs;
}

export function consentPermissions(row: Pick<ConsentRow, 'permissions'>): ConsentPermission[] {
  return JSON.parse(row.permissions) as ConsentPermission[];
}

/** Still waiting for the user on the bank page (its authorizationUrl works). */
export const awaitsUser = (row: Pick<ConsentRow, 'status'>): boolean => row.status === 'pending';

/** Grants access to account data (authorized, and not expired as read through the engine). */
export const grantsAccess = (row: Pick<ConsentRow, 'status'>): boolean => row.status === 'authorized';
