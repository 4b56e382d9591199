/**
 * Bank profiles (docs/banks.md): how one sandbox bank behaves in one sandbox. A bank without a
 * profile behaves as every bank always has (the payer approves at once, settlement follows at
 * once or after the settle delay, any day, every account read alike); a profile changes its
 * health, how the payer authorizes, when it settles and what its account-data reads return.
 *
 * As sent, a profile is a shipped profile by name, fields of its own, or both (its fields over
 * the named ones over the defaults); as kept, every field is filled in, so what is shown is what
 * is in force. The checks a JSON Schema cannot make are here, each naming its field as an RFC
 * 6901 pointer into the request body.
 */
import { newSeed } from './chaos.js';
import { invalidInput as invalid, type JsonPointer } from './errors.js';

export const BANK_HEALTH = ['healthy', 'degraded', 'down'] as const;
export type BankHealth = (typeof BANK_HEALTH)[number];
export const AUTHORIZATION_MODES = ['redirect', 'decoupled'] as const;
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];
export const SETTLEMENT_MODES = ['instant', 'business_days'] as const;
export type SettlementMode = (typeof SETTLEMENT_MODES)[number];

/** A profile in force: every field filled in. */
export interface BankProfile {
  /** The shipped profile it was made from, if any. */
  profile?: string;
  health: {
    status: BankHealth;
    /** The window on the sandbox clock in which `status` holds (outside it the bank is healthy). */
    from?: string;
    until?: string;
    /** How much longer a degraded bank takes to answer an approval (sandbox seconds). */
    delaySeconds: number;
  };
  authorization: {
    mode: AuthorizationMode;
    /** decoupled: when the payer's approval in the app arrives; null: never (the payment expires). */
    approvalDelaySeconds: number | null;
  };
  settlement: {
    mode: SettlementMode;
    /** business_days: the latest time of day (the bank's local time, HH:MM) an approval settles the same day. */
    cutOff: string;
  };
  ais: {
    /** Days of transaction history the bank returns (null: all the consent allows). */
    historyDays: number | null;
    /** The most transactions the bank returns in one answer (null: the API's own maximum). */
    pageSize: number | null;
    /** Whether pending (not yet booked) transactions are listed. */
    pendingTransactions: boolean;
    /** The longest consent the bank grants, in days (null: what is asked for). */
    consentMaxDays: number | null;
  };
  /** degraded: the share of approved payments the bank rejects (0–1), drawn from `seed`. */
  failureRate: number;
  seed: number;
}

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object | null ? Partial<NonNullable<T[K]>> | Extract<T[K], null> : T[K] };

/** A profile as sent (PUT /_sandbox/banks/{bankId}, `banks` of a sandbox, a persona, a scenario step). */
export type BankProfileInput = Omit<DeepPartial<BankProfile>, 'health'> & {
  health?: Partial<BankProfile['health']> & {
    /** Shorthand for a window from now: `until` = now + forSeconds. */
    forSeconds?: number;
  };
};

export const DEFAULT_PROFILE: Omit<BankProfile, 'seed'> = {
  health: { status: 'healthy', delaySeconds: 60 },
  authorization: { mode: 'redirect', approvalDelaySeconds: 120 },
  settlement: { mode: 'instant', cutOff: '15:00' },
  ais: { historyDays: null, pageSize: null, pendingTransactions: true, consentMaxDays: null },
  failureRate: 0,
};

/** The shipped profiles (docs/banks.md lists them with what each does). */
export const SHIPPED_BANK_PROFILES: Record<string, { summary: string; input: BankProfileInput }> = {
  healthy: { summary: 'Behaves as a bank without a profile (a base for overrides)', input: {} },
  degraded: {
    summary: 'Answers approvals a minute late, and rejects a quarter of the payments approved at it',
    input: { health: { status: 'degraded' }, failureRate: 0.25 },
  },
  down: {
    summary: 'Unavailable until the profile is changed: the hosted pages offer the other banks',
    input: { health: { status: 'down' } },
  },
  'outage-1h': {
    summary: 'Unavailable for one hour of the sandbox clock from when it is set',
    input: { health: { status: 'down', forSeconds: 3600 } },
  },
  'slow-app-approval': {
    summary: 'The payer approves in the bank app; the approval arrives ten minutes later',
    input: { authorization: { mode: 'decoupled', approvalDelaySeconds: 600 } },
  },
  'app-approval-timeout': {
    summary: 'The payer is asked to approve in the bank app and never does: the payment expires',
    input: { authorization: { mode: 'decoupled', approvalDelaySeconds: null } },
  },
  'weekend-settlement': {
    summary: 'Settles on business days only (09:00 to a 15:00 cut-off, closed on the days its country’s banks close)',
    input: { settlement: { mode: 'business_days', cutOff: '15:00' } },
  },
  'strict-ais': {
    summary: '90 days of history, 50 transactions an answer, no pending ones, consents of at most 90 days',
    input: { ais: { historyDays: 90, pageSize: 50, pendingTransactions: false, consentMaxDays: 90 } },
  },
};

/** Longest duration a profile takes (delays, windows): ten years of sandbox time, the clock's longest step too. */
export const MAX_PROFILE_SECONDS = 315_360_000;

const CUT_OFF = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * The profile to put in force: the named profile and the fields sent over the defaults, checked,
 * a window made absolute on the sandbox clock (`nowMs`), a seed chosen when none was given.
 * `at`: the pointer of the profile in the request body ('' for PUT /_sandbox/banks/{bankId},
 * '/banks/nordlys-bank' inside a sandbox creation). Throws a 400 naming the first problem.
 */
export function bankProfileToApply(input: BankProfileInput, nowMs: number, at: JsonPointer = '', random?: () => number): BankProfile {
  let base: BankProfileInput = {};
  if (input.profile !== undefined) {
    const shipped = SHIPPED_BANK_PROFILES[input.profile];
    if (!shipped) throw invalid(`${at}/profile`, `profile must be one of: ${Object.keys(SHIPPED_BANK_PROFILES).join(', ')}`);
    base = shipped.input;
  }
  const health = { ...DEFAULT_PROFILE.health, ...base.health, ...input.health };
  const { forSeconds, ...window } = health;
  checkNumber(window.delaySeconds, `${at}/health/delaySeconds`);
  if (forSeconds !== undefined) {
    checkNumber(forSeconds, `${at}/health/forSeconds`);
    if (input.health?.until !== undefined) throw invalid(`${at}/health/forSeconds`, 'give until or forSeconds, not both');
    window.from ??= new Date(nowMs).toISOString();
    window.until = new Date(Date.parse(window.from) + forSeconds * 1000).toISOString();
  }
  for (const end of ['from', 'until'] as const) {
    const value = window[end];
    if (value === undefined) continue;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) throw invalid(`${at}/health/${end}`, `${end} must be an ISO 8601 instant`);
    window[end] = new Date(ms).toISOString();
  }
  if (window.from !== undefined && window.until !== undefined && Date.parse(window.until) <= Date.parse(window.from)) {
    throw invalid(`${at}/health/until`, 'until must be after from');
  }
  const authorization = { ...DEFAULT_PROFILE.authorization, ...base.authorization, ...input.authorization };
  if (authorization.approvalDelaySeconds !== null)
    checkNumber(authorization.approvalDelaySeconds, `${at}/authorization/approvalDelaySeconds`);
  const settlement = { ...DEFAULT_PROFILE.settlement, ...base.settlement, ...input.settlement };
  if (!CUT_OFF.test(settlement.cutOff)) throw invalid(`${at}/settlement/cutOff`, 'cutOff must be a time of day, HH:MM (24-hour)');
  const ais = { ...DEFAULT_PROFILE.ais, ...base.ais, ...input.ais };
  for (const key of ['historyDays', 'pageSize', 'consentMaxDays'] as const) {
    const value = ais[key];
    if (value !== null && (!Number.isInteger(value) || value < 1))
      throw invalid(`${at}/ais/${key}`, `${key} must be a whole number of at least 1, or null`);
  }
  const failureRate = input.failureRate ?? base.failureRate ?? DEFAULT_PROFILE.failureRate;
  if (!(failureRate >= 0 && failureRate <= 1)) throw invalid(`${at}/failureRate`, 'failureRate must be between 0 and 1');
  return {
    ...(input.profile !== undefined ? { profile: input.profile } : {}),
    health: window,
    authorization,
    settlement,
    ais,
    failureRate,
    seed: input.seed ?? newSeed(random),
  };
}

function checkNumber(value: unknown, field: JsonPointer): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_PROFILE_SECONDS)
    throw invalid(field, `${field.split('/').pop()} must be a number of seconds from 0 to ${MAX_PROFILE_SECONDS} (ten years)`);
}

/** The bank's health at `nowMs`: its status inside its window, healthy outside it. */
export function healthAt(profile: BankProfile | undefined, nowMs: number): BankHealth {
  if (!profile) return 'healthy';
  const { status, from, until } = profile.health;
  if (from !== undefined && nowMs < Date.parse(from)) return 'healthy';
  if (until !== undefined && nowMs >= Date.parse(until)) return 'healthy';
  return status;
}

/** A down bank comes back at the end of its window (undefined: not until its profile changes). */
export function backUpAt(profile: BankProfile, nowMs: number): number | undefined {
  return healthAt(profile, nowMs) === 'down' && profile.health.until !== undefined ? Date.parse(profile.health.until) : undefined;
}

/** What a profile changes from a bank without one, in a line (the CLI and the console show it). */
export function bankProfileSummary(p: BankProfile): string {
  const parts: string[] = [];
  if (p.profile) parts.push(`profile ${p.profile}`);
  if (p.health.status !== 'healthy') {
    const window = [p.health.from && `from ${p.health.from}`, p.health.until && `until ${p.health.until}`].filter(Boolean).join(' ');
    parts.push(`${p.health.status}${window ? ` ${window}` : ''}`);
  }
  if (p.health.status === 'degraded') parts.push(`failureRate ${p.failureRate}, seed ${p.seed}`);
  if (p.authorization.mode === 'decoupled')
    parts.push(
      `app approval ${p.authorization.approvalDelaySeconds === null ? 'never' : `after ${p.authorization.approvalDelaySeconds}s`}`,
    );
  if (p.settlement.mode === 'business_days') parts.push(`business days, cut-off ${p.settlement.cutOff}`);
  const ais = Object.entries(p.ais).filter(([k, v]) => (k === 'pendingTransactions' ? v === false : v !== null));
  if (ais.length > 0) parts.push(`ais ${ais.map(([k, v]) => `${k}=${String(v)}`).join(' ')}`);
  return parts.join('; ') || 'healthy profile';
}
