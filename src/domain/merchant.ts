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
import { defineMachine } from './machine.js';

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
  { from: ['pending_onboarding'], trigger: 'submit_onboarding', to: 'awaiting_approval', events: ['merchant.onboarding.completed'], note: 'standard onboarding form completed' },
  { from: ['pending_completion', 'pending_partner_ais'], trigger: 'complete_fast_track', to: 'awaiting_approval', events: ['merchant.onboarding.completed'], note: 'billing agreement accepted and bank linked' },
  { from: ['awaiting_approval'], trigger: 'approve', to: 'activated', events: ['merchant.activated'], note: 'approval delay elapsed, or control call' },
  { from: ['pending_onboarding', 'pending_completion', 'pending_partner_ais', 'awaiting_approval'], trigger: 'reject', to: 'rejected', events: [], note: 'application rejected (control call)' },
  { from: ['pending_onboarding', 'pending_completion', 'pending_partner_ais', 'awaiting_approval'], trigger: 'activate', to: 'activated', events: ['merchant.activated'], note: 'control call skips the remaining onboarding' },
  { from: ['activated'], trigger: 'deactivate', to: 'inactive', events: ['merchant.deactivated'] },
  { from: ['inactive'], trigger: 'reactivate', to: 'activated', events: ['merchant.activated'] },
]);

/** States in which the hosted onboarding link is still useful. */
export const ONBOARDING_OPEN_STATES: readonly MerchantStatus[] = ['pending_onboarding', 'pending_completion', 'pending_partner_ais'];

/** The status name used in merchant.* webhook payloads (`activated` is reported as `active`). */
export function webhookStatusName(status: MerchantStatus): string {
  return status === 'activated' ? 'active' : status;
}
