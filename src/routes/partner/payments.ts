/** Payment endpoints of the partner API. */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import { PaymentIdParams, type CreatePaymentBody, type PaymentIdParamsT, type PaymentT } from '../../../schemas/partner.js';
import { ApiError } from '../../domain/errors.js';
import { bankPaymentStatus } from '../../domain/payment.js';
import { toMinorUnits } from '../../domain/partner-input.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { creationHooks } from './engine-hooks.js';
import { paymentView } from './views.js';

export async function paymentRoutes(app: FastifyInstance): Promise<void> {
  const { store, clock } = app;

  app.post<{ Body: CreatePaymentBody; Reply: PaymentT }>(
    '/payments',
    {
      schema: {
        tags: ['partner'],
        summary: 'Create a payment for an activated merchant',
        security: partnerSecurity,
        body: { $ref: 'CreatePaymentRequest#' },
        response: responses({ $ref: 'Payment#' }),
      },
    },
    async (request) => {
      const partnerId = request.partner.clientId;
      const { merchantClientId, amount, referenceNumber } = request.body;
      const amountMinor = toMinorUnits(amount);
      const now = clock.nowMs();
      const nowIso = new Date(now).toISOString();
      const { row, merchantName } = store.tx(() => {
        const merchant = store.merchants.getByClientId(merchantClientId, partnerId);
        if (!merchant) {
          throw new ApiError('merchant_not_found', { field: 'merchantClientId', message: `No merchant with clientId ${merchantClientId}` });
        }
        if (merchant.status !== 'activated') {
          throw new ApiError('merchant_not_activated', {
            field: 'merchantClientId',
            message: `Merchant ${merchant.id} is ${merchant.status}; only an activated merchant can take payments`,
          });
        }
        const row = store.payments.insert(
          {
            partner_id: partnerId,
            merchant_id: merchant.id,
            merchant_client_id: merchant.client_id,
            amount_minor: amountMinor,
            currency: 'DKK',
            reference_number: referenceNumber,
            status: 'pending',
            bank_payment_status: bankPaymentStatus('pending', null),
            failure_reason: null,
            bank_id: null,
            expires_at: new Date(now + app.config.paymentExpiryMs).toISOString(),
          },
          nowIso,
        );
        creationHooks(app).onPaymentCreated?.(row);
        return { row, merchantName: merchant.company_name };
      });
      return paymentView(app, row, merchantName);
    },
  );

  app.get<{ Params: PaymentIdParamsT; Reply: PaymentT }>(
    '/payments/:paymentId/status',
    {
      schema: {
        tags: ['partner'],
        summary: "A payment's current state",
        security: partnerSecurity,
        params: PaymentIdParams,
        response: responses({ $ref: 'Payment#' }),
      },
    },
    async (request) => {
      const row = store.payments.get(request.params.paymentId, request.partner.clientId);
      if (!row) throw new ApiError('payment_not_found', { message: `Payment ${request.params.paymentId} not found` });
      return paymentView(app, row);
    },
  );
}
