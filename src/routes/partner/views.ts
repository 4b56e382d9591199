/**
 * Row -> partner API response objects, in one place, so the create calls, the status reads and
 * the sandbox control API (which answers the same Payment object) agree.
 */
import type { FastifyInstance } from 'fastify';
import { isActivated, reportedStatus, subTpp } from '../../domain/merchant.js';
import { fromMinorUnits } from '../../domain/partner-input.js';
import { bankPaymentStatus, PAYMENT_CURRENCY } from '../../domain/payment.js';
import type { MerchantRow } from '../../domain/merchant.js';
import type { PaymentRow } from '../../domain/payment.js';
import type { StoreDetails, StoreRow } from '../../store/stores.js';

export const TEST_MERCHANT_MESSAGE = 'Test merchant created and activated: it can accept payments at once (sandbox only).';

export const onboardingUrl = (publicUrl: string, token: string) => `${publicUrl}/onboarding/${token}`;
export const paymentUrl = (publicUrl: string, token: string) => `${publicUrl}/pay/${token}`;

/** `{ name: value }`, or nothing when the value is null: contract string fields are absent, never null. */
const present = <K extends string>(name: K, value: string | null): { [P in K]?: string } =>
  value === null ? {} : ({ [name]: value } as { [P in K]: string });

export function onboardingStatusView(row: Pick<MerchantRow, 'id' | 'status' | 'sub_tpp_id' | 'sub_tpp_status'>) {
  const sub = subTpp(row);
  return {
    merchantId: row.id,
    onboardingStatus: reportedStatus(row.status),
    ...present('subTppId', sub.id),
    subTppDetails: { status: sub.state, isActivated: isActivated(row) },
  };
}

export function merchantSummaryView(row: MerchantRow) {
  const sub = subTpp(row);
  return {
    merchantId: row.id,
    clientId: row.client_id,
    companyName: row.company_name,
    ...present('contactEmail', row.contact_email),
    ...present('partnerRefId', row.partner_ref_id),
    type: row.kind,
    status: reportedStatus(row.status),
    ...present('subTppId', sub.id),
    subTppStatus: sub.state,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * The Payment object (POST /v1/partner/payments, GET …/status, sandbox payment actions).
 * `merchantName` is the creating call's; otherwise it is read (the Payment shows it).
 */
export function paymentView(app: Pick<FastifyInstance, 'publicUrl' | 'store'>, row: PaymentRow, merchantName?: string) {
  const name = merchantName ?? app.store.merchants.nameOf(row.merchant_id) ?? '';
  return {
    paymentId: row.id,
    status: row.status,
    bankPaymentStatus: row.bank_payment_status ?? bankPaymentStatus(row.status, row.failure_reason),
    failureReason: row.failure_reason ?? null,
    amount: fromMinorUnits(row.amount_minor),
    currency: PAYMENT_CURRENCY,
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
