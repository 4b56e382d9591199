/** The webhook delivery log: list, read, redeliver. Scoped to the calling partner. */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import { DeliveryIdParams, DeliveryListQuery, type DeliveryIdParamsT, type DeliveryListQueryT } from '../../../schemas/sandbox.js';
import { ApiError } from '../../domain/errors.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { deliveryView } from '../../webhooks/delivery-view.js';

export async function deliveryRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app;
  const common = { tags: ['sandbox'], security: partnerSecurity };

  app.get<{ Querystring: DeliveryListQueryT }>(
    '/deliveries',
    {
      schema: {
        ...common,
        operationId: 'listDeliveries',
        summary: 'List webhook deliveries (newest first)',
        description:
          'Filters (all optional, combined with AND): event (name), webhookId, state (pending, delivering, delivered, failed), outcome (delivered, timeout, connection_refused, connection_reset, non_2xx, redirect, error), statusCode (the HTTP status the receiver answered, 100-599); limit 1-500, default 50. total counts the matches up to 10,000; totalCapped says there are more.',
        querystring: DeliveryListQuery,
        response: responses({ $ref: 'SandboxDeliveryList#' }),
      },
    },
    async (request) => {
      const { rows, total, totalCapped } = store.deliveries.list(request.partner.clientId, request.query);
      return { items: rows.map(deliveryView), total, totalCapped };
    },
  );

  app.get<{ Params: DeliveryIdParamsT }>(
    '/deliveries/:deliveryId',
    {
      schema: {
        ...common,
        operationId: 'getDelivery',
        summary: 'Read one webhook delivery',
        description:
          "One delivery: the event and its id, the webhook and URL, the exact body sent and its X-Webhook-Signature, its state and outcome, the receiver's status code or the error, and when it was attempted and how long it took. 404 delivery_not_found for another partner's delivery.",
        params: DeliveryIdParams,
        response: responses({ $ref: 'SandboxDelivery#' }),
      },
    },
    async (request) => {
      const d = store.deliveries.get(request.params.deliveryId, request.partner.clientId);
      if (!d) throw new ApiError('delivery_not_found', { message: `Delivery ${request.params.deliveryId} not found` });
      return deliveryView(d);
    },
  );

  app.post<{ Params: DeliveryIdParamsT }>(
    '/deliveries/:deliveryId/redeliver',
    {
      schema: {
        ...common,
        operationId: 'redeliverDelivery',
        summary: 'Send a delivery again (same body, same X-Webhook-Id)',
        description:
          'Creates a new delivery (redeliveryOf = this id) of the same event to the same webhook, with the same body bytes and X-Webhook-Id, and returns it (state pending; poll GET /_sandbox/deliveries/{id} for the outcome). The webhook must still exist.',
        params: DeliveryIdParams,
        body: { $ref: 'SandboxEmptyBody#' },
        response: responses({ $ref: 'SandboxDelivery#' }),
      },
    },
    async (request) => {
      const partnerId = request.partner.clientId;
      const id = store.tx(() => store.deliveries.redeliver(request.params.deliveryId, partnerId, request.sandbox.clock.iso()));
      return deliveryView(store.deliveries.get(id, partnerId)!);
    },
  );
}
