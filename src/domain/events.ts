/**
 * Webhook payloads: the envelope every delivery carries (contract "Envelope") and the test
 * delivery's data. The event-specific `data` is built by its aggregate (merchantEventData in
 * merchant.ts, paymentEventData in payment.ts).
 */
import type { EventName } from './machine.js';

/** The event a test delivery (POST /v1/partner/webhooks/{id}/test) carries; not a contract event. */
export const TEST_EVENT = 'webhook.test';

export const TEST_DELIVERY_MESSAGE = 'This is a test delivery from obsim. Verify X-Webhook-Signature with your webhook secret.';

export interface WebhookEnvelope<D = object> {
  event: EventName | typeof TEST_EVENT;
  timestamp: string;
  data: D;
}

export function envelope<D extends object>(event: EventName | typeof TEST_EVENT, data: D, atIso: string): WebhookEnvelope<D> {
  return { event, timestamp: atIso, data };
}

/** The test delivery of one webhook. */
export function testDeliveryEnvelope(
  webhookId: string,
  atIso: string,
): WebhookEnvelope<{ webhookId: string; message: string; timestamp: string }> {
  return envelope(TEST_EVENT, { webhookId, message: TEST_DELIVERY_MESSAGE, timestamp: atIso }, atIso);
}
