/**
 * Transitions (docs/lifecycle-and-webhooks.md, "Transitions"): every state change of one payment,
 * merchant or consent of the caller's sandbox, oldest first, with its cause and trace.
 */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import { MerchantIdParams, type MerchantIdParamsT } from '../../../schemas/partner.js';
import { PaymentIdParams, type PaymentIdParamsT } from '../../../schemas/partner-payments.js';
import { ApiError } from '../../domain/errors.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { transitionView } from '../../store/transitions.js';

const ConsentParams = {
  type: 'object',
  required: ['requestId'],
  properties: { requestId: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

const DESCRIPTION =
  "Oldest first: its creation (from null), then every change, each with the instant on the sandbox's clock, its cause (the request, control action, console action, scenario step, hosted page or timer that made it) and the W3C trace id it belongs to. The sandbox keeps its newest 10,000 transitions; snapshots and resets treat them as the rest of its data.";

export async function transitionRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app;
  const common = { tags: ['sandbox'], security: partnerSecurity };
  const list = { response: responses({ $ref: 'SandboxTransitionList#' }) };

  app.get<{ Params: PaymentIdParamsT }>(
    '/payments/:paymentId/transitions',
    {
      schema: {
        ...common,
        ...list,
        operationId: 'listPaymentTransitions',
        summary: "A payment's transitions",
        description: `${DESCRIPTION} 404 payment_not_found for another partner's payment.`,
        params: PaymentIdParams,
      },
    },
    async (request) => {
      const partnerId = request.partner.clientId;
      const { paymentId } = request.params;
      if (!store.payments.get(paymentId, partnerId)) throw new ApiError('payment_not_found', { message: `Payment ${paymentId} not found` });
      return { items: store.transitions.ofResource(partnerId, 'payment', paymentId).map(transitionView) };
    },
  );

  app.get<{ Params: MerchantIdParamsT }>(
    '/merchants/:merchantId/transitions',
    {
      schema: {
        ...common,
        ...list,
        operationId: 'listMerchantTransitions',
        summary: "A merchant's transitions",
        description: `${DESCRIPTION} 404 merchant_not_found for another partner's merchant.`,
        params: MerchantIdParams,
      },
    },
    async (request) => {
      const partnerId = request.partner.clientId;
      const { merchantId } = request.params;
      if (!store.merchants.get(merchantId, partnerId))
        throw new ApiError('merchant_not_found', { message: `Merchant ${merchantId} not found` });
      return { items: store.transitions.ofResource(partnerId, 'merchant', merchantId).map(transitionView) };
    },
  );

  app.get<{ Params: { requestId: string } }>(
    '/consents/:requestId/transitions',
    {
      schema: {
        ...common,
        ...list,
        operationId: 'listConsentTransitions',
        summary: "A consent's transitions",
        description: `${DESCRIPTION} Consents are scoped through their merchant; 404 consent_not_found for another partner's consent.`,
        params: ConsentParams,
      },
    },
    async (request) => {
      const partnerId = request.partner.clientId;
      const { requestId } = request.params;
      if (store.consents.getWithPartner(requestId)?.partnerId !== partnerId) {
        throw new ApiError('consent_not_found', { message: `Consent ${requestId} not found` });
      }
      return { items: store.transitions.ofResource(partnerId, 'consent', requestId).map(transitionView) };
    },
  );
}
