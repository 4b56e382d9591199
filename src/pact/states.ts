/**
 * The built-in Pact provider states (docs/pact.md): the provider's resources in every state the
 * document names, each built as scenario steps (the partner API and the sandbox controls, run by
 * the scenario runner in the caller's sandbox), so a state is made the way a partner's requests
 * and a tester's control calls would make it: with its journal entries, events, webhooks and
 * transitions, on the sandbox's clock.
 */
import { CLOCK_TOLERANCE_S } from '../auth/tokens.js';
import { CONSENT_PERMISSIONS, CONSENT_STATUSES } from '../domain/consent.js';
import { invalidInput } from '../domain/errors.js';
import { MERCHANT_STATUSES } from '../domain/merchant.js';
import type { StateParam } from '../domain/pact.js';
import { FAILURE_REASONS, PAYMENT_STATUSES } from '../domain/payment.js';
import type { Step } from '../scenarios/types.js';
import { eventsParam, permissionsParam, tokenParam, userParam } from './state-params.js';

type Vars = Record<string, unknown>;

/** What setting a state up runs, and the values it answers once the steps ran. */
export interface StatePlan {
  steps: Step[];
  answers(vars: Vars): Record<string, unknown>;
  /** Steps to run after `steps`, made from what they captured. */
  then?(vars: Vars): Step[];
}

export interface ProviderStateDefinition {
  /** A name, or a pattern with `{param}` placeholders. */
  name: string;
  description: string;
  params: Record<string, StateParam>;
  /** The values the state answers, by name, with what each is. */
  answers: Record<string, string>;
  /** `built-in`, or the file it was read from. */
  source: string;
  plan(params: Vars): StatePlan;
  /** Steps that undo it; none: teardown resets the sandbox (POST /_sandbox/reset). */
  teardown?: Step[];
}

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

const asString = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** The steps that create a merchant of `kind` and drive it to `status`; captures `merchant.id`, `merchant.clientId`, `merchant.token`. */
function merchantSteps(kind: MerchantKind, status: string, companyName: string, subTppFailed = false): Step[] {
  // a fast-track whose sub-TPP creation failed falls back to standard onboarding (magic registrationNumber)
  const controls = (subTppFailed ? MERCHANT_PATHS.standard : MERCHANT_PATHS[kind])[status];
  if (controls === undefined)
    throw invalidInput(
      '/params/status',
      `A ${kind} merchant cannot be in status ${status}: it can be ${Object.keys(MERCHANT_PATHS[kind]).join(', ')}`,
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

const aMerchant: ProviderStateDefinition = {
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

const aPayment: ProviderStateDefinition = {
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

const aWebhook: ProviderStateDefinition = {
  name: 'a webhook',
  description: 'A webhook registration of the partner (POST /v1/partner/webhooks), for the events asked for.',
  params: {
    url: { type: 'string', default: 'https://partner.example.test/webhooks', description: 'Where it delivers' },
    events: eventsParam,
  },
  answers: { webhookId: 'its id', url: 'its URL' },
  source: 'built-in',
  plan(params) {
    return {
      steps: [
        {
          request: {
            method: 'POST',
            path: '/v1/partner/webhooks',
            body: { url: params.url, events: params.events },
            capture: { 'webhook.id': 'id' },
          },
        },
      ],
      answers: (vars) => ({ webhookId: vars['webhook.id'], url: params.url }),
    };
  },
};

/** A test merchant, a bearer token for `userId` and (unless `consent` is none) a consent driven to its status. */
function consentSteps(userId: string, consent: string, permissions: unknown): Step[] {
  const steps: Step[] = [
    ...merchantSteps('test', 'activated', 'Pact AIS App ApS'),
    {
      request: {
        method: 'POST',
        path: '/v1/auth/generate-token',
        auth: 'none',
        body: { userId, merchantId: '${merchant.id}', permissions },
        capture: { token: 'token' },
      },
    },
  ];
  if (consent === 'none') return steps;
  steps.push({
    request: {
      method: 'POST',
      path: '/v1/ais/consents',
      auth: 'bearer',
      body: {
        merchantId: '${merchant.id}',
        userId,
        permissions: [...CONSENT_PERMISSIONS],
        expirationDateTime: '${now+90d}',
        transactionFromDateTime: '${now-365d}',
      },
      capture: { 'consent.requestId': 'requestId' },
    },
  });
  const control = (action: string): Step => ({ control: { consent: '${consent.requestId}', action, capture: { consent: '$' } } });
  if (consent === 'authorized') steps.push(control('authorize'));
  if (consent === 'failed') steps.push(control('deny'));
  if (consent === 'revoked') steps.push(control('authorize'), control('revoke'));
  if (consent === 'expired') steps.push(control('authorize'), control('expire'));
  return steps;
}

const consentAnswers = (vars: Vars, userId: string) => {
  const consent = vars.consent as { consentId?: string } | undefined;
  return {
    userId,
    merchantId: vars['merchant.id'],
    token: vars.token,
    ...(vars['consent.requestId'] !== undefined ? { consentRequestId: vars['consent.requestId'] } : {}),
    ...(consent?.consentId !== undefined ? { consentId: consent.consentId } : {}),
  };
};

/** Past the token's expiry: the clock moved a second past its `exp` claim (read, not verified) and the clock skew verification allows. */
const expireToken = (vars: Vars): Step[] => {
  const payload = String(vars.token).split('.')[1] ?? '';
  const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8') || '{}') as { exp?: number }).exp;
  return typeof exp === 'number' ? [{ advanceClock: { to: new Date((exp + CLOCK_TOLERANCE_S + 1) * 1000).toISOString() } }] : [];
};

const aConsent: ProviderStateDefinition = {
  name: 'a consent',
  description:
    'An AIS consent of a bank user for an activated test merchant, in the status asked for (driven there by the sandbox controls), and a bearer token for the user and merchant.',
  params: {
    status: { type: 'string', enum: CONSENT_STATUSES, default: 'authorized', description: 'Its status' },
    userId: userParam,
    permissions: permissionsParam,
    token: tokenParam,
  },
  answers: {
    consentRequestId: 'its requestId',
    consentId: 'its consentId (once authorized)',
    userId: 'the bank user',
    merchantId: "the merchant's merchantId",
    token: 'a bearer token for the user and merchant (generate-token)',
  },
  source: 'built-in',
  plan(params) {
    const userId = asString(params.userId);
    return {
      steps: consentSteps(userId, asString(params.status), params.permissions),
      answers: (vars) => consentAnswers(vars, userId),
      ...(params.token === 'expired' ? { then: expireToken } : {}),
    };
  },
};

const aBankUser: ProviderStateDefinition = {
  name: 'a bank user with accounts and transactions',
  description:
    "A sandbox bank user whose accounts and transactions an activated test merchant may read: a bearer token and (unless consent is none) a consent in that status. The accounts and transactions are the sandbox bank's, the same for a user id everywhere.",
  params: {
    userId: userParam,
    consent: {
      type: 'string',
      enum: ['none', ...CONSENT_STATUSES],
      default: 'authorized',
      description: 'The status of the consent made for it, or none',
    },
    permissions: permissionsParam,
    token: tokenParam,
  },
  answers: {
    userId: 'the bank user',
    merchantId: "the merchant's merchantId",
    token: 'a bearer token for the user and merchant',
    consentRequestId: "the consent's requestId (unless consent is none)",
    accountId: "the user's first account (when the consent lets it be read)",
    iban: "that account's IBAN",
  },
  source: 'built-in',
  plan(params) {
    const userId = asString(params.userId);
    const consent = asString(params.consent);
    const steps = consentSteps(userId, consent, params.permissions);
    if (consent === 'authorized' && (params.permissions as unknown[]).includes('ais:accounts:read'))
      steps.push({
        request: {
          method: 'POST',
          path: '/v1/ais/accounts',
          auth: 'bearer',
          body: { userId, merchantId: '${merchant.id}' },
          capture: { accounts: 'accounts' },
        },
      });
    return {
      steps,
      ...(params.token === 'expired' ? { then: expireToken } : {}),
      answers: (vars) => {
        const first = (vars.accounts as { accountId?: string; iban?: string }[] | undefined)?.[0];
        return {
          ...consentAnswers(vars, userId),
          ...(first ? { accountId: first.accountId, iban: first.iban } : {}),
        };
      },
    };
  },
};

const noData: ProviderStateDefinition = {
  name: 'no data',
  description: 'The sandbox emptied (POST /_sandbox/reset): only its default merchant, as when it was created.',
  params: {},
  answers: {},
  source: 'built-in',
  plan: () => ({ steps: [{ control: { reset: true } }], answers: () => ({}) }),
};

export const BUILT_IN_STATES: readonly ProviderStateDefinition[] = [aMerchant, aPayment, aWebhook, aConsent, aBankUser, noData];
