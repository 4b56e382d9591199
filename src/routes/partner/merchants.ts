/** Merchant onboarding endpoints of the partner API. */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import type { CreateMerchantBody } from '../../../schemas/partner.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { newOnboardingToken, ONBOARDING_LINK_TTL_MS } from '../../store/merchants.js';

export async function merchantRoutes(app: FastifyInstance): Promise<void> {
  const { store, clock } = app;

  app.post<{ Body: CreateMerchantBody }>(
    '/merchants',
    {
      schema: {
        tags: ['partner'],
        summary: 'Create a merchant (standard onboarding)',
        security: partnerSecurity,
        body: { $ref: 'CreateMerchantRequest#' },
        response: responses({ $ref: 'StandardMerchantResponse#' }),
      },
    },
    async (request) => {
      const now = clock.nowMs();
      const token = newOnboardingToken();
      const row = store.tx(() =>
        store.merchants.insert(
          {
            partner_id: request.partner.clientId,
            kind: 'standard',
            status: 'pending_onboarding',
            company_name: request.body.companyName,
            contact_email: request.body.contactEmail,
            contact_phone: request.body.contactPhone ?? null,
            partner_ref_id: request.body.partnerRefId ?? null,
            details: '{}',
            sub_tpp_id: null,
            sub_tpp_status: null,
            sub_tpp_message: null,
            onboarding_token: token,
            onboarding_expires_at: new Date(now + ONBOARDING_LINK_TTL_MS).toISOString(),
          },
          new Date(now).toISOString(),
        ),
      );
      return {
        merchantId: row.id,
        clientId: row.client_id,
        companyName: row.company_name,
        contactEmail: row.contact_email!,
        onboardingUrl: `${app.publicUrl}/onboarding/${token}`,
        onboardingToken: token,
        status: 'pending_onboarding' as const,
        expiresAt: row.onboarding_expires_at!,
      };
    },
  );
}
