/**
 * The built-in provider states of account information (docs/pact.md): a consent of a sandbox bank
 * user in any status the document names, and a bank user whose accounts and transactions an
 * activated test merchant may read; each with a bearer token for the user and merchant, made by
 * generate-token (and, asked for, moved past its expiry on the sandbox's clock).
 */
import { CLOCK_TOLERANCE_S } from '../auth/tokens.js';
import { CONSENT_PERMISSIONS, CONSENT_STATUSES, TOKEN_PERMISSIONS } from '../domain/consent.js';
import type { StateParam } from '../domain/pact.js';
import type { Step } from '../scenarios/types.js';
import { GenerateTokenRequest } from '../../schemas/ais.js';
import { asString, type ProviderStateDefinition, type Vars } from './state-definition.js';
import { merchantSteps } from './states-partner.js';

const AIS_PERMISSIONS = [...TOKEN_PERMISSIONS];

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

const userParam: StateParam = {
  type: 'string',
  default: 'user-typical',
  description: 'The sandbox bank user (user-typical, user-no-accounts, user-multi-currency, user-100k, or any other id)',
};
const tokenParam: StateParam = {
  type: 'string',
  enum: ['valid', 'expired'],
  default: 'valid',
  description: "expired: the sandbox's clock is moved past the bearer token's expiry (its exp claim) after it was made",
};

/** Past the token's expiry: the clock moved a second past its `exp` claim (read, not verified) and the clock skew verification allows. */
const expireToken = (vars: Vars): Step[] => {
  const payload = String(vars.token).split('.')[1] ?? '';
  const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8') || '{}') as { exp?: number }).exp;
  return typeof exp === 'number' ? [{ advanceClock: { to: new Date((exp + CLOCK_TOLERANCE_S + 1) * 1000).toISOString() } }] : [];
};

/** The params generate-token is sent. */
const TOKEN_FIELDS = {
  userId: { schema: GenerateTokenRequest.properties.userId },
  permissions: { schema: GenerateTokenRequest.properties.permissions },
};

const permissionsParam: StateParam = {
  type: 'array',
  items: { type: 'string', enum: TOKEN_PERMISSIONS },
  default: AIS_PERMISSIONS,
  description: "The bearer token's permissions",
};

export const aConsent: ProviderStateDefinition = {
  name: 'a consent',
  description:
    'An AIS consent of a bank user for an activated test merchant, in the status asked for (driven there by the sandbox controls), and a bearer token for the user and merchant.',
  params: {
    status: { type: 'string', enum: CONSENT_STATUSES, default: 'authorized', description: 'Its status' },
    userId: userParam,
    permissions: permissionsParam,
    token: tokenParam,
  },
  fields: TOKEN_FIELDS,
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

export const aBankUser: ProviderStateDefinition = {
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
  fields: TOKEN_FIELDS,
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
