/**
 * Fast-track magic inputs (sandbox): a registrationNumber that makes the sub-TPP creation fail,
 * so partners can test that branch. The call still answers 200 (the contract: sub-TPP failure is
 * not an HTTP error) with status pending_onboarding, subTppStatus `failed` and subTppMessage.
 * Served at GET /_sandbox/magic-values and listed in the README.
 */
export const FAST_TRACK_MAGIC = [
  {
    field: 'registrationNumber',
    value: '00000000',
    status: 'pending_onboarding',
    subTppStatus: 'failed',
    subTppMessage: 'Company registry lookup failed: registration number not found',
    description: 'The company registry does not know the number: sub-TPP not created; the merchant must use the standard onboarding form at onboardingUrl',
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
