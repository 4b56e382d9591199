/**
 * The load cases of `npm run bench` (bench/run.ts), each as the request it sends to every kind of
 * server it runs on; `npm run bench:ab` sends the same requests to two obsim builds.
 */
import type { LoadJob } from './load.js';
import { PARTNER_HEADERS, type ObsimFixture } from './obsim.js';

export type Kind = 'obsim' | 'obsim1h' | 'bare' | 'sqlite' | 'prism' | 'mockoon';
/** The merchant id the baselines answer for (they have no fixture). */
const BASELINE_MERCHANT = 100001;
/** The payment the baselines answer for (bench/baselines/sqlite.mjs seeds it). */
const BASELINE_PAYMENT = 5000001;

export interface CaseDef {
  id: string;
  label: string;
  servers: Kind[];
  request(kind: Kind, fx: ObsimFixture): Omit<LoadJob, 'url' | 'connections' | 'durationS'> | null;
}

const json = { 'content-type': 'application/json' };
const isObsim = (kind: Kind) => kind === 'obsim' || kind === 'obsim1h';

function txRequest(kind: Kind, fx: ObsimFixture, which: 'large' | 'small', pageLimit: number) {
  const acc = fx[which];
  if (isObsim(kind)) {
    if (!acc) return null;
    return {
      method: 'POST' as const,
      path: '/v1/ais/accounts/transactions',
      headers: { ...json, authorization: `Bearer ${acc.token}` },
      body: JSON.stringify({ userId: acc.userId, merchantId: acc.merchantId, accountId: acc.accountId, pageLimit }),
    };
  }
  return {
    method: 'POST' as const,
    path: '/v1/ais/accounts/transactions',
    headers: { ...json, authorization: 'Bearer x' },
    body: JSON.stringify({ userId: 'user-100k', merchantId: BASELINE_MERCHANT, accountId: 'acc_bench', pageLimit }),
  };
}

export const CASES: CaseDef[] = [
  {
    id: 'onboarding',
    label: 'GET onboarding-status',
    servers: ['obsim', 'obsim1h', 'bare', 'sqlite', 'prism', 'mockoon'],
    request: (kind, fx) => ({
      method: 'GET',
      path: `/v1/partner/merchants/${isObsim(kind) ? fx.merchantId : BASELINE_MERCHANT}/onboarding-status`,
      headers: PARTNER_HEADERS,
    }),
  },
  {
    id: 'paymentstatus',
    label: 'GET payment status',
    servers: ['obsim', 'bare', 'sqlite'],
    request: (kind, fx) =>
      isObsim(kind) && fx.paymentId === undefined
        ? null
        : {
            method: 'GET',
            path: `/v1/partner/payments/${isObsim(kind) ? fx.paymentId : BASELINE_PAYMENT}/status`,
            headers: PARTNER_HEADERS,
          },
  },
  {
    id: 'payments',
    label: 'POST payments',
    servers: ['obsim', 'obsim1h', 'bare', 'sqlite', 'prism', 'mockoon'],
    request: (kind, fx) => ({
      method: 'POST',
      path: '/v1/partner/payments',
      headers: { ...PARTNER_HEADERS, ...json },
      body: `{"merchantClientId":"${isObsim(kind) ? fx.merchantClientId : 'c0ffee00-0000-4000-8000-000000000001'}","amount":125.5,"referenceNumber":"bench-{{n}}"}`,
      unique: true,
    }),
  },
  {
    id: 'tx20',
    label: 'POST transactions, 20 items (100k account)',
    servers: ['obsim', 'obsim1h', 'bare', 'sqlite', 'prism', 'mockoon'],
    request: (kind, fx) => txRequest(kind, fx, 'large', 20),
  },
  {
    id: 'tx100',
    label: 'POST transactions, 100 items (100k account)',
    servers: ['obsim', 'sqlite'],
    request: (kind, fx) => txRequest(kind, fx, 'large', 100),
  },
  {
    id: 'tx200',
    label: 'POST transactions, 200 items (100k account)',
    servers: ['obsim', 'sqlite'],
    request: (kind, fx) => txRequest(kind, fx, 'large', 200),
  },
  {
    id: 'tx20small',
    label: 'POST transactions, 20 items (small account)',
    servers: ['obsim'],
    request: (kind, fx) => txRequest(kind, fx, 'small', 20),
  },
  {
    id: 'tx200small',
    label: 'POST transactions, 200 items (small account)',
    servers: ['obsim'],
    request: (kind, fx) => txRequest(kind, fx, 'small', 200),
  },
  {
    id: 'token',
    label: 'POST generate-token',
    servers: ['obsim'],
    request: (_kind, fx) =>
      fx.tokenRequest
        ? {
            method: 'POST',
            path: '/v1/auth/generate-token',
            headers: { ...PARTNER_HEADERS, ...json },
            body: JSON.stringify(fx.tokenRequest),
          }
        : null,
  },
  {
    id: 'aisread',
    label: 'POST accounts/balance (JWT + consent)',
    servers: ['obsim'],
    request: (_kind, fx) =>
      fx.large
        ? {
            method: 'POST',
            path: '/v1/ais/accounts/balance',
            headers: { ...json, authorization: `Bearer ${fx.large.token}` },
            body: JSON.stringify({ userId: fx.large.userId, merchantId: fx.large.merchantId, accountId: fx.large.accountId }),
          }
        : null,
  },
];
