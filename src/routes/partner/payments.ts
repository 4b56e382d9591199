/** Payment endpoints of the partner API. */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import { PaymentIdParams, type CreatePaymentBody, type PaymentIdParamsT, type PaymentT } from '../../../schemas/partner-payments.js';
import { ApiError } from '../../domain/errors.js';
import { assertActivated } from '../../domain/merchant.js';
import { toMinorUnits } from '../../domain/partner-input.js';
import { newPayment } from '../../domain/payment.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { causeOf, operationOf } from '../../plugins/tracing.js';
import { paymentView } from './views.js';

export async function paymentRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app;

  app.post<{ Body: CreatePaymentBody; Reply: PaymentT }>(
    '/payments',
    {
      schema: {
        tags: ['partner'],
        operationId: 'createPayment',
        summary: 'Create a payment for an activated merchant',
        description:
          "The merchant is named by its clientId (merchantClientId): another partner's answers 404 merchant_not_found, one not activated 409 merchant_not_activated. The payment starts pending with a hosted paymentUrl where the payer approves or rejects it, and fails with reason expired when nobody finishes it within OBSIM_PAYMENT_EXPIRY (30 minutes by default) on the sandbox clock. Amounts are DKK with at most two decimals. The contract does not say referenceNumber is unique: obsim stores it as given and never de-duplicates on it.",
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
          throw new ApiError('merchant_not_found', {
            field: '/merchantClientId',
            message: `No merchant with clientId ${merchantClientId}`,
          });
        }
        assertActivated(merchant, 'payments');
        const row = store.payments.insert(
          newPayment({ partnerId, merchant, amountMinor, referenceNumber }, now, request.sandbox.settings),
          new Date(now).toISOString(),
        );
        request.sandbox.onPaymentCreated(row, causeOf(request, 'request', operationOf(request)));
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
        operationId: 'getPaymentStatus',
        summary: "A payment's current state",
        description:
          "The same Payment as at creation, with its current status (pending, processing, paid, failed) and, once failed, its failureReason. Ids are per partner: another partner's payment answers 404 payment_not_found, like a missing one. Poll sparingly: the payment.completed and payment.failed webhooks say when the state changes.",
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
