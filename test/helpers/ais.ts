/**
 * AIS test helpers (not a test file: tap runs *.test.ts only). An app with a known JWT secret,
 * an activated merchant, and shortcuts for tokens and consents.
 */
import type { FastifyInstance } from 'fastify';
import type { MerchantStatus } from '../../src/domain/merchant.js';
import { build, json } from './app.js';
import { TEST_CAUSE } from '../helpers/engine.js';

export const JWT_SECRET = 'obsim-test-secret-0123456789abcdef-0123456789';
export const ALL_TOKEN_PERMISSIONS = ['ais:accounts:read', 'ais:balance:read', 'ais:transactions:read'];
export const ALL_CONSENT_PERMISSIONS = ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail'];

interface Teardown {
  teardown(fn: () => unknown): void;
}

export function createMerchant(
  app: FastifyInstance,
  status: MerchantStatus = 'activated',
  partnerId = 'sandbox-partner',
  name = 'Acme Shop ApS',
): number {
  return app.store.merchants.insert(
    {
      partner_id: partnerId,
      kind: 'test',
      status,
      company_name: name,
      contact_email: null,
      contact_phone: null,
      partner_ref_id: null,
      details: '{}',
      sub_tpp_id: null,
      sub_tpp_status: null,
      sub_tpp_message: null,
      onboarding_token: null,
      onboarding_expires_at: null,
    },
    app.clock.iso(),
  ).id;
}

export interface AisContext {
  app: FastifyInstance;
  merchantId: number;
  /** A token (string) for userId/merchant with these permissions (default: all). */
  token(userId: string, permissions?: string[], merchantId?: number): Promise<string>;
  /** Authorization header for such a token. */
  bearer(userId: string, permissions?: string[], merchantId?: number): Promise<{ authorization: string }>;
  /** POST /v1/ais/consents (defaults: all permissions, expires in 90 days, history from 2025-01-01). */
  createConsent(userId: string, body?: Record<string, unknown>): Promise<any>;
  /** Create and authorize (through the engine) a consent; returns the consent as listed. */
  authorizedConsent(userId: string, body?: Record<string, unknown>): Promise<any>;
}

export async function aisApp(t: Teardown, config: Record<string, unknown> = {}): Promise<AisContext> {
  const app = await build(t, { config: { jwtSecret: JWT_SECRET, ...config } });
  const merchantId = createMerchant(app);
  const ctx: AisContext = {
    app,
    merchantId,
    async token(userId, permissions = ALL_TOKEN_PERMISSIONS, mId = merchantId) {
      const res = await app.inject({ method: 'POST', url: '/v1/auth/generate-token', payload: { userId, merchantId: mId, permissions } });
      if (res.statusCode !== 200) throw new Error(`generate-token ${res.statusCode}: ${res.body}`);
      return json(res).token as string;
    },
    async bearer(userId, permissions, mId) {
      return { authorization: `Bearer ${await ctx.token(userId, permissions, mId)}` };
    },
    async createConsent(userId, body = {}) {
      const payload = {
        userId,
        merchantId,
        permissions: ALL_CONSENT_PERMISSIONS,
        expirationDateTime: app.clock.iso(90 * 86_400_000),
        transactionFromDateTime: '2025-01-01T00:00:00Z',
        ...body,
      };
      const res = await app.inject({
        method: 'POST',
        url: '/v1/ais/consents',
        headers: await ctx.bearer(userId, ['ais:accounts:read'], payload.merchantId),
        payload,
      });
      if (res.statusCode !== 200) throw new Error(`create consent ${res.statusCode}: ${res.body}`);
      return json(res);
    },
    async authorizedConsent(userId, body = {}) {
      const c = await ctx.createConsent(userId, body);
      app.engine.consent(c.requestId, 'authorize', { bankId: 'nordlys-bank', cause: TEST_CAUSE });
      return { ...c, ...app.store.consents.get(c.requestId) };
    },
  };
  return ctx;
}

/** Replace ids and timestamps so snapshots are stable. */
export function normalise(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .replace(/"(requestId|consentId|clientId|jti)":"[^"]+"/g, '"$1":"<$1>"')
      .replace(/"merchantId":\d+/g, '"merchantId":"<merchantId>"')
      .replace(/\/consent\/ctk_[A-Za-z0-9_-]+/g, '/consent/<token>'),
  );
}
