/**
 * Control actions on merchants, payments and consents. Each is one engine call: one transaction
 * applying one row of the aggregate's transition table (409 illegal_transition otherwise), with
 * the same events and timers as the real flow.
 */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import {
  ConsentActionParams,
  MerchantActionParams,
  PaymentActionParams,
  type ConsentActionBody,
  type ConsentActionParamsT,
  type MerchantActionParamsT,
  type PaymentActionBody,
  type PaymentActionParamsT,
} from '../../../schemas/sandbox.js';
import { CONSENT_TRIGGER, MERCHANT_TRIGGER, paymentTrigger } from '../../domain/controls.js';
import { ApiError, invalidInput } from '../../domain/errors.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { causeOf } from '../../plugins/tracing.js';
import { consentView } from '../ais/consents.js';
import { paymentView } from '../partner/views.js';

export async function actionRoutes(app: FastifyInstance): Promise<void> {
  const common = { tags: ['sandbox'], security: partnerSecurity };

  app.post<{ Params: MerchantActionParamsT }>(
    '/merchants/:merchantId/:action',
    {
      schema: {
        ...common,
        operationId: 'controlMerchant',
        summary: 'Drive a merchant through onboarding',
        description:
          'submit-onboarding (pending_onboarding -> awaiting_approval, merchant.onboarding.completed), complete-fast-track (pending_completion -> awaiting_approval, merchant.onboarding.completed), approve (awaiting_approval -> activated, merchant.activated), reject (any onboarding state -> rejected), activate (any onboarding state -> activated, merchant.activated), deactivate (activated -> inactive, merchant.deactivated), reactivate (inactive -> activated, merchant.activated). Any other combination: 409 illegal_transition.',
        params: MerchantActionParams,
        body: { $ref: 'SandboxEmptyBody#' },
        response: responses({ $ref: 'SandboxMerchantActionResponse#' }),
      },
    },
    async (request) => {
      const { merchantId, action } = request.params;
      const partnerId = request.partner.clientId;
      const before = app.store.merchants.get(merchantId, partnerId);
      if (!before) throw new ApiError('merchant_not_found', { message: `Merchant ${merchantId} not found` });
      const row = request.sandbox.merchant(merchantId, MERCHANT_TRIGGER[action], { partnerId, cause: causeOf(request, 'control', action) });
      return { merchantId: row.id, status: row.status, previousStatus: before.status };
    },
  );

  app.post<{ Params: PaymentActionParamsT; Body: PaymentActionBody }>(
    '/payments/:paymentId/:action',
    {
      schema: {
        ...common,
        operationId: 'controlPayment',
        summary: 'Complete, fail or move on a payment',
        description:
          'approve (pending -> processing: the payer approved at the bank; settles after OBSIM_SETTLE_DELAY), complete (pending/processing -> paid, payment.completed), fail (pending/processing -> failed, payment.failed; body reason bank_rejected (default), payer_abandoned or expired), abandon (pending -> failed, payer_abandoned), expire (pending -> failed, expired). Answers the Payment object of GET /v1/partner/payments/{paymentId}/status.',
        params: PaymentActionParams,
        body: { $ref: 'SandboxPaymentActionRequest#' },
        response: responses({ $ref: 'Payment#' }),
      },
    },
    async (request) => {
      const { paymentId, action } = request.params;
      const reason = request.body?.reason;
      if (reason !== undefined && action !== 'fail') {
        throw invalidInput('/reason', 'reason is only accepted by the fail action');
      }
      const row = request.sandbox.payment(paymentId, paymentTrigger(action, reason), {
        partnerId: request.partner.clientId,
        cause: causeOf(request, 'control', action),
      });
      return paymentView(app, row);
    },
  );

  app.post<{ Params: ConsentActionParamsT; Body: ConsentActionBody }>(
    '/consents/:requestId/:action',
    {
      schema: {
        ...common,
        operationId: 'controlConsent',
        summary: 'Authorize, deny, revoke or expire a consent',
        description:
          'authorize (pending -> authorized), deny (pending -> failed, errorMessage from the body or a default), revoke (authorized -> revoked), expire (pending/authorized -> expired). Consents are scoped through their merchant. Answers the Consent object.',
        params: ConsentActionParams,
        body: { $ref: 'SandboxConsentActionRequest#' },
        response: responses({ $ref: 'Consent#' }),
      },
    },
    async (request) => {
      const { requestId, action } = request.params;
      const errorMessage = request.body?.errorMessage;
      if (errorMessage !== undefined && action !== 'deny') {
        throw invalidInput('/errorMessage', 'errorMessage is only accepted by the deny action');
      }
      const row = request.sandbox.consent(requestId, CONSENT_TRIGGER[action], {
        partnerId: request.partner.clientId,
        errorMessage,
        cause: causeOf(request, 'control', action),
      });
      return consentView(row, app.publicUrl);
    },
  );
}
