/**
 * Magic values (sandbox): inputs that force an outcome, so partners can test every branch.
 * The one list; served at GET /_sandbox/magic-values and listed in docs/sandbox-controls.md.
 */

/** Payment amounts that force an outcome instead of the automatic settlement. */
export const MAGIC_AMOUNTS = [
  {
    amount: 666.66,
    outcome: 'bank_rejected',
    description: 'The bank rejects the payment at the settlement time: payment.failed, failureReason bank_rejected',
  },
  {
    amount: 777.77,
    outcome: 'payer_abandoned',
    description: 'The payer abandons at the settlement time: payment.failed, failureReason payer_abandoned',
  },
  {
    amount: 888.88,
    outcome: 'expired',
    description: 'Never settles by itself; expires after OBSIM_PAYMENT_EXPIRY: payment.failed, failureReason expired',
  },
  {
    amount: 999.99,
    outcome: 'stay_pending',
    description: 'Stays pending until the payer acts on paymentUrl or a control call completes or fails it (no expiry)',
  },
] as const;
export type MagicOutcome = (typeof MAGIC_AMOUNTS)[number]['outcome'];

/** The outcome an amount (in DKK, e.g. 666.66) forces, if it is a magic amount. */
export function magicOutcome(amount: number): MagicOutcome | undefined {
  return MAGIC_AMOUNTS.find((m) => m.amount === amount)?.outcome;
}

/** True for an amount that forces an outcome (generators of ordinary amounts avoid these). */
export const isMagicAmount = (amount: number): boolean => magicOutcome(amount) !== undefined;

/**
 * Fast-track registration numbers that make the sub-TPP creation fail. The call still answers
 * 200 (contract: sub-TPP failure is not an HTTP error) with status pending_onboarding,
 * subTppStatus `failed` and subTppMessage.
 */
export const FAST_TRACK_MAGIC = [
  {
    field: 'registrationNumber',
    value: '00000000',
    status: 'pending_onboarding',
    subTppStatus: 'failed',
    subTppMessage: 'Company registry lookup failed: registration number not found',
    description:
      'The company registry does not know the number: sub-TPP not created; the merchant must use the standard onboarding form at onboardingUrl',
  },
  {
    field: 'registrationNumber',
    value: '99999999',
    status: 'pending_onboarding',
    subTppStatus: 'failed',
    subTppMessage: 'Sub-TPP creation rejected: the company is not active in the company registry',
    description: 'The company registry lists the company as dissolved/inactive: sub-TPP not created; standard onboarding at onboardingUrl',
  },
] as const;

export type FastTrackMagic = (typeof FAST_TRACK_MAGIC)[number];

/** The sub-TPP failure forced by a fast-track request, if any. */
export function fastTrackFailure(input: { registrationNumber: string }): FastTrackMagic | undefined {
  const reg = input.registrationNumber.trim();
  return FAST_TRACK_MAGIC.find((m) => m.field === 'registrationNumber' && m.value === reg);
}
