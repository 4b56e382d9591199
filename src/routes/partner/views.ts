/**
 * Row -> partner API response objects, in one place, so the create calls, the status reads and
 * the sandbox control API (which answers the same Payment object) agree.
 */
import type { FastifyInstance } from 'fastify';
import type { FailureReason } from '../../domain/payment.js';
import { bankPaymentStatus } from '../../domain/payment.js';
import { fromMinorUnits } from '../../domain/partner-input.js';
import type { MerchantRow } from '../../store/merchants.js';
import type { PaymentRow } from '../../store/payments.js';
import type { StoreDetails, StoreRow } from '../../store/stores.js';

export const onboardingUrl = (publicUrl: string, token: string) => `${publicUrl}/onboarding/${token}`;
export const paymentUrl = (publicUrl: string, token: string) => `${publicUrl}/pay/${token}`;

export type SubTppState = 'not_created' | 'failed' | 'created' | 'active' | 'inactive' | 'rejected';

/**
 * The sub-TPP as a partner sees it. The id is allocated at creation but reported only once the
 * sub-TPP exists: a merchant still pending_onboarding has none (standard merchant before the
 * form is submitted, or a fast-track whose sub-TPP creation failed).
 */
export function subTpp(row: MerchantRow): { id: string | null; state: SubTppState } {
  if (row.status === 'pending_onboarding') {
    return { id: null, state: row.sub_tpp_status === 'failed' ? 'failed' : 'not_created' };
  }
  const id = row.sub_tpp_id;
  switch (row.status) {
    case 'activated':
      return { id, state: 'active' };
    case 'inactive':
      return { id, state: 'inactive' };
    case 'rejected':
      return { id, state: 'rejected' };
    default:
      return { id, state: 'created' };
  }
}

/** Stored status as reported by the reads (pending_partner_ais is never stored; see merchant.ts). */
function reportedStatus(row: MerchantRow) {
  return row.status === 'pending_partner_ais' ? 'pending_completion' : row.status;
}

export function onboardingStatusView(row: MerchantRow) {
  const sub = subTpp(row);
  return {
    merchantId: row.id,
    onboardingStatus: reportedStatus(row),
    subTppId: sub.id,
    subTppDetails: { status: sub.state, isActivated: row.status === 'activated' },
  };
}

export function merchantSummaryView(row: MerchantRow) {
  const sub = subTpp(row);
  return {
    merchantId: row.id,
    clientId: row.client_id,
    companyName: row.company_name,
    contactEmail: row.contact_email,
    partnerRefId: row.partner_ref_id,
    type: row.kind,
    status: reportedStatus(row),
    subTppId: sub.id,
    subTppStatus: sub.state,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The Payment object (POST /v1/partner/payments, GET …/status, sandbox payment actions). */
export function paymentView(app: Pick<FastifyInstance, 'publicUrl' | 'store'>, row: PaymentRow, merchantName?: string) {
  const name = merchantName ?? app.store.merchants.getAny(row.merchant_id)?.company_name ?? '';
  return {
    paymentId: row.id,
    status: row.status,
    bankPaymentStatus: row.bank_payment_status ?? bankPaymentStatus(row.status, row.failure_reason),
    failureReason: (row.failure_reason ?? null) as FailureReason | null,
    amount: fromMinorUnits(row.amount_minor),
    currency: 'DKK' as const,
    referenceNumber: row.reference_number,
    merchantClientId: row.merchant_client_id,
    merchantName: name,
    paymentUrl: paymentUrl(app.publicUrl, app.store.payments.tokenFor(row.id)),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
  };
}

export function storeView(row: StoreRow) {
  const details = JSON.parse(row.details) as StoreDetails;
  return {
    storeId: row.id,
    merchantId: row.merchant_id,
    name: row.name,
    address: details.address ?? null,
    mccCode: details.mccCode ?? null,
    partnerRefId: details.partnerRefId ?? null,
    createdAt: row.created_at,
  };
}
