/**
 * POST /v1/auth/generate-token.
 *
 * Authentication of this call is not shown by the contract. obsim: in the sandbox none is
 * required (as in the contract's examples); if X-Partner-Client-Id/-Secret are sent they are
 * checked (401 when wrong) and the merchant must belong to that partner. In production the
 * partner headers are required. The contract lists 200, 400 (invalid input) and 500 for this
 * call, so a merchant problem is invalid input: 400 merchant_id_unknown (no such merchant, or
 * another partner's) and 400 merchant_id_not_activated (a merchant still onboarding cannot read
 * accounts), both naming merchantId. Credentials that are sent and wrong are 401, as on every
 * partner call.
 */
import { journalAs } from '../../plugins/journal.js';
import type { FastifyInstance } from 'fastify';
import type { GenerateTokenBody, TokenResponseT } from '../../../schemas/ais.js';
import { responses } from '../../../schemas/common.js';
import { ApiError } from '../../domain/errors.js';
import { assertActivated } from '../../domain/merchant.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app;
  const production = app.config.environment === 'production';

  app.post<{ Body: GenerateTokenBody; Reply: TokenResponseT }>(
    '/generate-token',
    {
      schema: {
        tags: ['auth'],
        operationId: 'generateToken',
        summary: 'Generate an AIS bearer token (JWT) limited to a list of permissions',
        description:
          'Returns a JWT (HS256) valid for one hour on the simulator clock (OBSIM_TOKEN_TTL). Known permissions: ais:accounts:read, ais:balance:read, ais:transactions:read. Sandbox: no authentication needed (partner headers optional, checked when sent). Production: partner headers required (401 when missing or wrong). The merchant must exist (400 merchant_id_unknown) and be activated (400 merchant_id_not_activated); the contract lists 200, 400 and 500 for this call.',
        security: production ? partnerSecurity : [{}, ...partnerSecurity],
        body: { $ref: 'GenerateTokenRequest#' },
        response: responses({ $ref: 'TokenResponse#' }),
      },
      onRequest: async (request) => {
        const id = request.headers['x-partner-client-id'];
        const secret = request.headers['x-partner-client-secret'];
        if (production || id !== undefined || secret !== undefined) request.partner = app.partners.authenticate(id, secret);
      },
    },
    async (request) => {
      const { userId, merchantId, permissions } = request.body;
      const merchant = request.partner ? store.merchants.get(merchantId, request.partner.clientId) : store.merchants.getAny(merchantId);
      if (!merchant)
        throw new ApiError('merchant_id_unknown', { message: `merchantId ${merchantId} names no merchant`, field: '/merchantId' });
      journalAs(request, merchant.partner_id);
      assertActivated(merchant, 'tokens');
      const { token } = await app.tokens.sign({ userId, merchantId, permissions });
      return { token };
    },
  );
}
