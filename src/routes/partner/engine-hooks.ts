/**
 * Creation hooks of the lifecycle engine (src/engine): called INSIDE the creating transaction so
 * timers (settlement, expiry) and creation-time events (a test merchant's merchant.activated)
 * commit together with the row. Looked up structurally so the partner routes do not depend on
 * the engine's module (and still work in an app built without one).
 */
import type { FastifyInstance } from 'fastify';
import type { MerchantRow } from '../../store/merchants.js';
import type { PaymentRow } from '../../store/payments.js';

interface CreationHooks {
  onMerchantCreated?(row: MerchantRow): void;
  onPaymentCreated?(row: PaymentRow): void;
}

export function creationHooks(app: FastifyInstance): CreationHooks {
  return (app as unknown as { engine?: CreationHooks }).engine ?? {};
}
