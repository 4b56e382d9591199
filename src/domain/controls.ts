/**
 * The control API's action names (POST /_sandbox/{merchants|payments|consents}/{id}/{action})
 * and the trigger of each aggregate's transition table they fire. Which actions a resource
 * offers is read from the same tables (`machine.can`), so the console's buttons and the API's
 * 409 illegal_transition cannot disagree.
 */
import { consentMachine, type ConsentStatus, type ConsentTrigger } from './consent.js';
import { merchantMachine, type MerchantStatus, type MerchantTrigger } from './merchant.js';
import { paymentMachine, TRIGGER_BY_FAILURE_REASON, type FailureReason, type PaymentStatus, type PaymentTrigger } from './payment.js';

export const MERCHANT_ACTIONS = [
  'submit-onboarding',
  'complete-fast-track',
  'approve',
  'reject',
  'activate',
  'deactivate',
  'reactivate',
] as const;
export type MerchantAction = (typeof MERCHANT_ACTIONS)[number];

export const PAYMENT_ACTIONS = ['approve', 'complete', 'fail', 'abandon', 'expire'] as const;
export type PaymentAction = (typeof PAYMENT_ACTIONS)[number];

export const CONSENT_ACTIONS = ['authorize', 'deny', 'revoke', 'expire'] as const;
export type ConsentAction = (typeof CONSENT_ACTIONS)[number];

export const MERCHANT_TRIGGER: Record<MerchantAction, MerchantTrigger> = {
  'submit-onboarding': 'submit_onboarding',
  'complete-fast-track': 'complete_fast_track',
  approve: 'approve',
  reject: 'reject',
  activate: 'activate',
  deactivate: 'deactivate',
  reactivate: 'reactivate',
};

export const CONSENT_TRIGGER: Record<ConsentAction, ConsentTrigger> = {
  authorize: 'authorize',
  deny: 'deny',
  revoke: 'revoke',
  expire: 'expire',
};

/** `fail` fires the trigger of its reason (bank_rejected by default); `complete` settles. */
export function paymentTrigger(action: PaymentAction, reason: FailureReason = 'bank_rejected'): PaymentTrigger {
  if (action === 'fail') return TRIGGER_BY_FAILURE_REASON[reason];
  return action === 'complete' ? 'settle' : action;
}

/** Control actions legal from a merchant's stored status, in the API's order. */
export const merchantActions = (status: MerchantStatus): MerchantAction[] =>
  MERCHANT_ACTIONS.filter((action) => merchantMachine.can(status, MERCHANT_TRIGGER[action]));

export const paymentActions = (status: PaymentStatus): PaymentAction[] =>
  PAYMENT_ACTIONS.filter((action) => paymentMachine.can(status, paymentTrigger(action)));

export const consentActions = (status: ConsentStatus): ConsentAction[] =>
  CONSENT_ACTIONS.filter((action) => consentMachine.can(status, CONSENT_TRIGGER[action]));
