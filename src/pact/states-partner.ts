/**
 * The built-in provider states of the partner API (docs/pact.md): a merchant, created the way the
 * document allows (test, standard, fast-track) and driven to any onboarding status by the sandbox
 * controls; a payment to an activated test merchant in any status. Built as scenario steps, so
 * each is made the way a partner's requests and a tester's control calls would make it.
 */
import { invalidInput } from '../domain/errors.js';
import { MERCHANT_STATUSES } from '../domain/merchant.js';
import { toMinorUnits } from '../domain/partner-input.js';
import { FAILURE_REASONS, PAYMENT_STATUSES } from '../domain/payment.js';
import type { Step } from '../scenarios/types.js';
import { TestMerchantRequest } from '../../schemas/partner.js';
import { CreatePaymentRequest } from '../../schemas/partner-payments.js';
import { asString, type ProviderStateDefinition, type Vars } from './state-definition.js';

const MERCHANT_KINDS = ['test', 'standard', 'fast-track'] as const;
type MerchantKind = (typeof MERCHANT_KINDS)[number];

/** The statuses each way of creating a merchant can reach, and the controls that reach each from creation. */
const MERCHANT_PATHS: Record<MerchantKind, Record<string, string[]>> = {
  test: { activated: [], inactive: ['deactivate'] },
  standard: {
    pending_onboarding: [],
    awaiting_approval: ['submit-onboarding'],
    activated: ['submit-onboarding', 'approve'],
    rejected: ['submit-onboarding', 'reject'],
    inactive: ['submit-onboarding', 'approve', 'deactivate'],
  },
  'fast-track': {
    pending_partner_ais: [],
    pending_completion: [],
    awaiting_approval: ['complete-fast-track'],
    activated: ['complete-fast-track', 'approve'],
    rejected: ['complete-fast-track', 'reject'],
    inactive: ['complete-fast-track', 'approve', 'deactivate'],
  },
};

function merchantKind(params: Vars): MerchantKind {
  if (params.kind !== undefined) return params.kind as MerchantKind;
  const status = params.status as string | undefined;
  if (status === undefined || status in MERCHANT_PATHS.test) return 'test';
  return status === 'pending_completion' || status === 'pending_partner_ais' ? 'fast-track' : 'standard';
}

/** The steps that create a merchant of `kind` and drive it to `status`; captures `merchant.id`, `merchant.clientId`, `merchant.token`. */
export function merchantSteps(kind: MerchantKind, status: string, companyName: string, subTppFailed = false): Step[] {
  // a fast-track whose sub-TPP creation failed falls back to standard onboarding (magic registrationNumber)
  const paths = subTppFailed ? MERCHANT_PATHS.standard : MERCHANT_PATHS[kind];
  const controls = Object.hasOwn(paths, status) ? paths[status] : undefined;
  if (controls === undefined)
    throw invalidInput(
      '/params/status',
      `A ${kind} merchant${subTppFailed ? ' whose sub-TPP creation failed' : ''} cannot be in status ${status}: it can be ${Object.keys(paths).join(', ')}`,
    );
  const capture = { 'merchant.id': 'merchantId', 'merchant.clientId': 'clientId', 'merchant.created': '$' };
  const create: Step =
    kind === 'test'
      ? { request: { method: 'POST', path: '/v1/partner/merchants/test', body: { companyName }, capture } }
      : kind === 'standard'
        ? {
            request: {
              method: 'POST',
              path: '/v1/partner/merchants',
              body: { companyName, contactEmail: 'pact-${unique}@example.test' },
              capture,
            },
          }
        : {
            request: {
              method: 'POST',
              path: '/v1/partner/merchants/fast-track',
              body: {
                companyName,
                contactEmail: 'pact-${unique}@example.test',
                registrationNumber: subTppFailed ? '00000000' : '${random.digits(8)}',
                website: 'https://pact.example.test',
                iban: 'DK5000400440116243',
              },
              capture,
            },
          };
  return [create, ...controls.map((action): Step => ({ control: { merchant: '${merchant.id}', action } }))];
}

const merchantAnswers = (vars: Vars, status: string) => {
  const created = vars['merchant.created'] as { companyName?: string; onboardingToken?: string } | undefined;
  return {
    merchantId: vars['merchant.id'],
    merchantClientId: vars['merchant.clientId'],
    companyName: created?.companyName,
    status,
    ...(created?.onboardingToken !== undefined ? { onboardingToken: created.onboardingToken } : {}),
  };
};

export const aMerchant: ProviderStateDefinition = {
  name: 'a merchant',
  description:
    'A merchant of the partner: a test merchant (activated at creation), a standard one or a fast-tracked one, in the onboarding status asked for (driven there by the sandbox controls).',
  params: {
    kind: {
      type: 'string',
      enum: MERCHANT_KINDS,
      description: 'How it was created; default: the one that reaches `status` (test for activated and inactive)',
    },
    status: { type: 'string', enum: MERCHANT_STATUSES, default: 'activated', description: 'Its onboarding status' },
    companyName: { type: 'string', default: 'Pact Shop ApS', description: 'Its company name' },
    subTppStatus: {
      type: 'string',
      enum: ['created', 'failed'],
      description: 'A fast-tracked merchant: failed makes its sub-TPP creation fail, so it onboards as a standard one',
    },
  },
  fields: { companyName: { schema: TestMerchantRequest.properties.companyName } },
  answers: {
    merchantId: 'its merchantId',
    merchantClientId: 'its clientId (what payments name as merchantClientId)',
    companyName: 'its company name',
    status: 'its status',
    onboardingToken: 'its onboarding token (standard and fast-track merchants)',
  },
  source: 'built-in',
  plan(params) {
    const kind = merchantKind(params);
    const status = asString(params.status);
    if (params.subTppStatus !== undefined && kind !== 'fast-track')
      throw invalidInput('/params/subTppStatus', 'params.subTppStatus is for a fast-tracked merchant (kind fast-track)');
    const steps = merchantSteps(kind, status, asString(params.companyName), params.subTppStatus === 'failed');
    return { steps, answers: (vars) => merchantAnswers(vars, status) };
  },
};

/** The controls that take a new payment to a status. */
function paymentControls(status: string, failureReason: string | undefined): Step[] {
  const control = (action: string, body?: Record<string, unknown>): Step => ({
    control: { payment: '${payment.id}', action, ...(body ? { body } : {}) },
  });
  if (status === 'processing') return [control('approve')];
  if (status === 'paid') return [control('approve'), control('complete')];
  if (status === 'failed') return [control('fail', { reason: failureReason ?? 'bank_rejected' })];
  return [];
}

export const aPayment: ProviderStateDefinition = {
  name: 'a payment',
  description:
    'A payment to an activated test merchant of the partner, in the status asked for: pending (as created), processing (approved at the bank), paid (approved and settled) or failed (with its failureReason). Its bankPaymentStatus is the one the status has.',
  params: {
    status: { type: 'string', enum: PAYMENT_STATUSES, default: 'pending', description: 'Its status' },
    failureReason: { type: 'string', enum: FAILURE_REASONS, description: 'Why it failed (status failed; default bank_rejected)' },
    amount: { type: 'number', default: 100, description: 'Its amount (DKK)' },
    currency: { type: 'string', enum: ['DKK'], default: 'DKK', description: 'Its currency (the provider pays in DKK only)' },
    referenceNumber: { type: 'string', default: 'pact-order-1', description: 'Its reference number' },
  },
  fields: {
    amount: { schema: CreatePaymentRequest.properties.amount, rule: (amount) => toMinorUnits(amount as number) },
    referenceNumber: { schema: CreatePaymentRequest.properties.referenceNumber },
  },
  answers: {
    paymentId: 'its paymentId',
    merchantId: "its merchant's merchantId",
    merchantClientId: "its merchant's clientId",
    referenceNumber: 'its reference number',
    amount: 'its amount',
    status: 'its status',
    bankPaymentStatus: 'its bankPaymentStatus',
    paymentUrl: 'its hosted payment page',
  },
  source: 'built-in',
  plan(params) {
    const status = asString(params.status);
    if (params.failureReason !== undefined && status !== 'failed')
      throw invalidInput('/params/failureReason', 'params.failureReason is for a payment in status failed');
    const steps: Step[] = [
      ...merchantSteps('test', 'activated', 'Pact Shop ApS'),
      {
        request: {
          method: 'POST',
          path: '/v1/partner/payments',
          body: { merchantClientId: '${merchant.clientId}', amount: params.amount, referenceNumber: params.referenceNumber },
          capture: { 'payment.id': 'paymentId' },
        },
      },
      ...paymentControls(status, params.failureReason as string | undefined),
      { request: { method: 'GET', path: '/v1/partner/payments/${payment.id}/status', capture: { payment: '$' } } },
    ];
    return {
      steps,
      answers: (vars) => {
        const payment = vars.payment as Record<string, unknown>;
        return {
          paymentId: payment.paymentId,
          merchantId: vars['merchant.id'],
          merchantClientId: payment.merchantClientId,
          referenceNumber: payment.referenceNumber,
          amount: payment.amount,
          status: payment.status,
          bankPaymentStatus: payment.bankPaymentStatus,
          paymentUrl: payment.paymentUrl,
        };
      },
    };
  },
};
