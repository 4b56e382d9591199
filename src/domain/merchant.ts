/**
 * Merchant aggregate: onboarding states of the contract and every move between them.
 *
 * Stored status is one of MERCHANT_STATUSES. `pending_partner_ais` has the same meaning as
 * `pending_completion` (contract); obsim stores `pending_completion` and the fast-track create
 * response reports it as `pending_partner_ais`, as the contract shows.
 *
 * Webhook payloads name the activated state `active` (contract: merchant.activated payload);
 * `webhookStatusName()` does that mapping in one place.
 */
import { ApiError, type ErrorCode, type JsonPointer } from './errors.js';
import { newOnboardingToken, newSubTppId } from './ids.js';
import { defineMachine, type EventName } from './machine.js';
import type { FastTrackMagic } from './magic.js';
import { isSandbox, isoOf, type LifecycleSettings, type TimerRequest } from './settings.js';

export interface MerchantRow {
  id: number;
  partner_id: string;
  client_id: string;
  kind: MerchantKind;
  status: MerchantStatus;
  company_name: string;
  contact_email: string | null;
  contact_phone: string | null;
  partner_ref_id: string | null;
  /** JSON: fast-track fields and onboarding form data. */
  details: string;
  sub_tpp_id: string | null;
  sub_tpp_status: string | null;
  sub_tpp_message: string | null;
  onboarding_token: string | null;
  onboarding_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export type NewMerchant = Omit<MerchantRow, 'id' | 'client_id' | 'created_at' | 'updated_at'>;

export const MERCHANT_STATUSES = [
  'pending_onboarding',
  'pending_completion',
  'pending_partner_ais',
  'awaiting_approval',
  'activated',
  'rejected',
  'inactive',
] as const;
export type MerchantStatus = (typeof MERCHANT_STATUSES)[number];

/** The statuses reads report (`pending_partner_ais` reads as pending_completion: reportedStatus). */
export const REPORTED_MERCHANT_STATUSES = [
  'pending_onboarding',
  'pending_completion',
  'awaiting_approval',
  'activated',
  'rejected',
  'inactive',
] as const satisfies readonly MerchantStatus[];

/** How a merchant was created. */
export const MERCHANT_KINDS = ['standard', 'fast_track', 'test'] as const;
export type MerchantKind = (typeof MERCHANT_KINDS)[number];

export const MERCHANT_TRIGGERS = [
  'submit_onboarding', // standard onboarding form submitted on the hosted page
  'complete_fast_track', // billing agreement + bank linking done on the hosted page
  'approve', // regulatory approval (after OBSIM_APPROVAL_DELAY, or control API)
  'reject',
  'activate', // control API: force activation from any onboarding state
  'deactivate',
  'reactivate',
] as const;
export type MerchantTrigger = (typeof MERCHANT_TRIGGERS)[number];

export const merchantMachine = defineMachine<MerchantStatus, MerchantTrigger>('merchant', MERCHANT_STATUSES, MERCHANT_TRIGGERS, [
  {
    from: ['pending_onboarding'],
    trigger: 'submit_onboarding',
    to: 'awaiting_approval',
    events: ['merchant.onboarding.completed'],
    note: 'standard onboarding form completed',
  },
  {
    from: ['pending_completion', 'pending_partner_ais'],
    trigger: 'complete_fast_track',
    to: 'awaiting_approval',
    events: ['merchant.onboarding.completed'],
    note: 'billing agreement accepted and bank linked',
  },
  {
    from: ['awaiting_approval'],
    trigger: 'approve',
    to: 'activated',
    events: ['merchant.activated'],
    note: 'approval delay elapsed, or control call',
  },
  {
    from: ['pending_onboarding', 'pending_completion', 'pending_partner_ais', 'awaiting_approval'],
    trigger: 'reject',
    to: 'rejected',
    events: [],
    note: 'application rejected (control call)',
  },
  {
    from: ['pending_onboarding', 'pending_completion', 'pending_partner_ais', 'awaiting_approval'],
    trigger: 'activate',
    to: 'activated',
    events: ['merchant.activated'],
    note: 'control call skips the remaining onboarding',
  },
  { from: ['activated'], trigger: 'deactivate', to: 'inactive', events: ['merchant.deactivated'] },
  { from: ['inactive'], trigger: 'reactivate', to: 'activated', events: ['merchant.activated'] },
]);

/** States in which the hosted onboarding link is still useful. */
export const ONBOARDING_OPEN_STATES: readonly MerchantStatus[] = ['pending_onboarding', 'pending_completion', 'pending_partner_ais'];

/** Contract: an onboarding link is valid 7 days. */
export const ONBOARDING_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The status name used in merchant.* webhook payloads (`activated` is reported as `active`). */
export function webhookStatusName(status: MerchantStatus): string {
  return status === 'activated' ? 'active' : status;
}

/** The documents' words for a merchant event's status and previousStatus (a description: the contract types them as strings). */
export const WEBHOOK_MERCHANT_STATUS_TEXT = `One of: ${MERCHANT_STATUSES.map(webhookStatusName).join(', ')} (the stored statuses, activated named active)`;

// ---------------------------------------------------------------- creation

export interface OnboardingLink {
  token: string;
  expiresAt: string;
}

/** A new onboarding link, valid ONBOARDING_LINK_TTL_MS from `nowMs`. */
export function newOnboardingLink(nowMs: number): OnboardingLink {
  return { token: newOnboardingToken(), expiresAt: isoOf(nowMs + ONBOARDING_LINK_TTL_MS) };
}

interface Contact {
  companyName: string;
  contactEmail?: string | null;
  contactPhone?: string | null;
  partnerRefId?: string | null;
}

/** How a merchant comes into being, with what each way knows. */
export type MerchantCreation =
  | { kind: 'standard'; contact: Contact; link: OnboardingLink }
  | { kind: 'fast_track'; contact: Contact; link: OnboardingLink; details: Record<string, unknown>; failure: FastTrackMagic | undefined }
  | { kind: 'test'; companyName: string }
  | { kind: 'seed'; companyName: string; contactEmail: string; partnerRefId: string };

/**
 * The initial row of a new merchant (contract "Moves that are shown": standard ->
 * pending_onboarding with a 7-day link; fast-track -> pending_partner_ais (stored as
 * pending_completion) with a created sub-TPP, or pending_onboarding when the sub-TPP creation
 * failed; test -> activated at once). The default merchant seeded at start is an activated test
 * merchant too.
 */
export function newMerchant(partnerId: string, creation: MerchantCreation): NewMerchant {
  const base = {
    partner_id: partnerId,
    contact_email: null,
    contact_phone: null,
    partner_ref_id: null,
    details: '{}',
    sub_tpp_id: newSubTppId(),
    sub_tpp_status: null,
    sub_tpp_message: null,
    onboarding_token: null,
    onboarding_expires_at: null,
  };
  const contact = (c: Contact) => ({
    company_name: c.companyName,
    contact_email: c.contactEmail ?? null,
    contact_phone: c.contactPhone ?? null,
    partner_ref_id: c.partnerRefId ?? null,
  });
  switch (creation.kind) {
    case 'standard':
      return {
        ...base,
        ...contact(creation.contact),
        kind: 'standard',
        status: 'pending_onboarding',
        onboarding_token: creation.link.token,
        onboarding_expires_at: creation.link.expiresAt,
      };
    case 'fast_track':
      return {
        ...base,
        ...contact(creation.contact),
        kind: 'fast_track',
        status: creation.failure ? 'pending_onboarding' : 'pending_completion',
        details: JSON.stringify(creation.details),
        sub_tpp_status: creation.failure ? 'failed' : 'created',
        sub_tpp_message: creation.failure ? creation.failure.subTppMessage : null,
        onboarding_token: creation.link.token,
        onboarding_expires_at: creation.link.expiresAt,
      };
    case 'test':
      return { ...base, kind: 'test', status: 'activated', company_name: creation.companyName, sub_tpp_status: 'created' };
    case 'seed':
      return {
        ...base,
        kind: 'test',
        status: 'activated',
        company_name: creation.companyName,
        contact_email: creation.contactEmail,
        partner_ref_id: creation.partnerRefId,
        details: JSON.stringify({ seeded: true }),
        sub_tpp_status: 'created',
      };
  }
}

/** Events a merchant emits by being created: a test merchant is born activated. */
/**
 * `data` of merchant.activated, merchant.deactivated and merchant.onboarding.completed.
 * schemas/webhooks.ts describes the same shape as a JSON Schema and fails the typecheck if the
 * two drift apart.
 */
export interface MerchantEventData {
  merchantId: number;
  clientId: string;
  companyName: string;
  status: string;
  previousStatus: string;
  timestamp: string;
}

export function creationEvents(row: MerchantRow): { name: EventName; data: MerchantEventData }[] {
  return row.status === 'activated'
    ? [{ name: 'merchant.activated', data: merchantEventData(row, 'pending_onboarding', row.created_at) }]
    : [];
}

// ---------------------------------------------------------------- rules on an existing merchant

type MerchantRef = Pick<MerchantRow, 'id' | 'status'>;

/**
 * What needs an activated merchant, and what the refusal says for each: 409 where the merchant
 * is the resource acted on; 400 for generate-token, whose contract answers only 200, 400 and 500.
 */
const ACTIVATION_NEEDED: Record<
  'payments' | 'stores' | 'consents' | 'tokens',
  { code: ErrorCode; field?: JsonPointer; message?: (m: MerchantRef) => string }
> = {
  payments: {
    code: 'merchant_not_activated',
    field: '/merchantClientId',
    message: (m) => `Merchant ${m.id} is ${m.status}; only an activated merchant can take payments`,
  },
  stores: { code: 'merchant_not_activated', message: (m) => `Merchant ${m.id} is ${m.status}; stores can be added once it is activated` },
  consents: { code: 'merchant_not_activated', field: '/merchantId' },
  tokens: {
    code: 'merchant_id_not_activated',
    field: '/merchantId',
    message: (m) => `Merchant ${m.id} is ${m.status}; tokens are issued for activated merchants only`,
  },
};

/** Refused unless the merchant is activated (payments, stores, consents and tokens need one). */
export function assertActivated(merchant: MerchantRef, purpose: keyof typeof ACTIVATION_NEEDED): void {
  if (isActivated(merchant)) return;
  const rule = ACTIVATION_NEEDED[purpose];
  throw new ApiError(rule.code, { field: rule.field, message: rule.message?.(merchant) });
}

/** 409 onboarding_closed once the merchant has left the onboarding states (resend-onboarding). */
export function assertOnboardingOpen(merchant: Pick<MerchantRow, 'id' | 'status'>): void {
  if (ONBOARDING_OPEN_STATES.includes(merchant.status)) return;
  throw new ApiError('onboarding_closed', {
    message: `Merchant ${merchant.id} is ${merchant.status}; onboarding links exist only while pending_onboarding or pending_completion`,
  });
}

/** Where a hosted onboarding link stands at `nowMs`. */
export function onboardingLinkState(
  merchant: Pick<MerchantRow, 'status' | 'onboarding_expires_at'>,
  nowMs: number,
): 'open' | 'expired' | 'closed' {
  if (!ONBOARDING_OPEN_STATES.includes(merchant.status)) return 'closed';
  if (merchant.onboarding_expires_at && Date.parse(merchant.onboarding_expires_at) <= nowMs) return 'expired';
  return 'open';
}

export interface MerchantChange {
  status: MerchantStatus;
  details: string;
  updated_at: string;
}

/**
 * Apply `trigger` to a merchant at `atMs`: the next status (409 illegal_transition when the
 * table has no row), its details with `data` merged in (onboarding form data), and the events.
 */
export function decideMerchant(
  row: MerchantRow,
  trigger: MerchantTrigger,
  data: Record<string, unknown> | undefined,
  atMs: number,
): { change: MerchantChange; events: readonly EventName[] } {
  const { to, events } = merchantMachine.transition(row.status, trigger);
  const details = data ? JSON.stringify({ ...parseDetails(row.details), ...data }) : row.details;
  return { change: { status: to, details, updated_at: isoOf(atMs) }, events };
}

/** The timer a merchant needs in its state: sandbox approval after the approval delay. */
export function merchantTimer(
  row: Pick<MerchantRow, 'status' | 'updated_at'>,
  settings: LifecycleSettings,
  atMs: number,
): TimerRequest<MerchantTrigger> | undefined {
  if (row.status === 'awaiting_approval' && isSandbox(settings)) return { trigger: 'approve', dueAtMs: atMs + settings.approvalDelayMs };
  return undefined;
}

/** merchants.details (a JSON object) parsed; anything else reads as {}. */
export function parseDetails(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

// ---------------------------------------------------------------- webhook payload

/** `data` of merchant.activated / merchant.deactivated / merchant.onboarding.completed (schemas/webhooks.ts). */
export function merchantEventData(row: MerchantRow, previous: MerchantStatus, atIso: string): MerchantEventData {
  return {
    merchantId: row.id,
    clientId: row.client_id,
    companyName: row.company_name,
    status: webhookStatusName(row.status),
    previousStatus: webhookStatusName(previous),
    timestamp: atIso,
  };
}

// ---------------------------------------------------------------- how a merchant reads

export const SUB_TPP_STATES = ['not_created', 'failed', 'created', 'active', 'inactive', 'rejected'] as const;
export type SubTppState = (typeof SUB_TPP_STATES)[number];

const SUB_TPP_STATE_BY_STATUS: Partial<Record<MerchantStatus, SubTppState>> = {
  activated: 'active',
  inactive: 'inactive',
  rejected: 'rejected',
};

/**
 * The sub-TPP as a partner sees it. The id is allocated at creation but reported only once the
 * sub-TPP exists: a merchant still pending_onboarding has none (standard merchant before the
 * form is submitted, or a fast-track whose sub-TPP creation failed).
 */
export function subTpp(row: Pick<MerchantRow, 'status' | 'sub_tpp_id' | 'sub_tpp_status'>): { id: string | null; state: SubTppState } {
  if (row.status === 'pending_onboarding') return { id: null, state: row.sub_tpp_status === 'failed' ? 'failed' : 'not_created' };
  return { id: row.sub_tpp_id, state: SUB_TPP_STATE_BY_STATUS[row.status] ?? 'created' };
}

/** The status reads report: `pending_partner_ais` (the fast-track create answer's name) reads as pending_completion. */
export function reportedStatus(status: MerchantStatus): (typeof REPORTED_MERCHANT_STATUSES)[number] {
  return status === 'pending_partner_ais' ? 'pending_completion' : status;
}

export const isActivated = (row: Pick<MerchantRow, 'status'>): boolean => row.status === 'activated';
