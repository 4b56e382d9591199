/** Payment endpoints of the partner API. */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import { PaymentIdParams, type CreatePaymentBody, type PaymentIdParamsT, type PaymentT } from '../../../schemas/partner-payments.js';
import { ApiError } from '../../domain/errors.js';
import { assertActivated } from '../../domain/merchant.js';
import { toMinorUnits } from '../../domain/partner-input.js';
import { newPayment } from '../../domain/payment.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { paymentView } from './views.js';

export async function paymentRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app;

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
      const now = request.sandbox.clock.nowMs();
      const { row, merchantName } = store.tx(() => {
        const merchant = store.merchants.getByClientId(merchantClientId, partnerId);
        if (!merchant) {
          throw new ApiError('merchant_not_found', { field: 'merchantClientId', message: `No merchant with clientId ${merchantClientId}` });
        }
        assertActivated(merchant, 'payments');
        const row = store.payments.insert(
          newPayment({ partnerId, merchant, amountMinor, referenceNumber }, now, request.sandbox.settings),
          new Date(now).toISOString(),
        );
        request.sandbox.onPaymentCreated(row);
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
