/** POST /_sandbox/reset and GET /_sandbox/magic-values. */
import type { FastifyInstance } from 'fastify';
import { SPECIAL_USERS } from '../../../fixtures/users.js';
import { responses } from '../../../schemas/common.js';
import { FAST_TRACK_MAGIC, MAGIC_AMOUNTS } from '../../domain/magic.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { seedDefaultMerchant } from '../../store/seed.js';

export async function resetRoutes(app: FastifyInstance): Promise<void> {
  const common = { tags: ['sandbox'], security: partnerSecurity };

  app.post(
    '/reset',
    {
      schema: {
        ...common,
        operationId: 'resetSandboxData',
        summary: "Delete the calling partner's data",
        body: { $ref: 'SandboxEmptyBody#' },
        description:
          "Deletes the partner's merchants (and their stores, payments and consents), webhooks, events, deliveries and pending timers, in one transaction. Other partners, the clock and the sandbox bank fixtures are untouched. The default sandbox partner, and the partner of a created sandbox, get their default activated merchant again.",
        response: responses({ $ref: 'SandboxResetResponse#' }),
      },
    },
    async (request) => {
      const partnerId = request.partner.clientId;
      const deleted = app.store.tx(() => app.store.reset.deletePartner(partnerId));
      let defaultMerchantId: number | null = null;
      const ownsDefaultMerchant = app.partners.isDefault(partnerId) || request.partner.sandboxId === partnerId; // a created sandbox's partner
      if (app.config.environment === 'sandbox' && ownsDefaultMerchant) {
        defaultMerchantId = seedDefaultMerchant(app.store, partnerId, request.sandbox.clock.iso(), {
          kind: 'seed',
          name: 'reset',
          requestId: request.id,
          trace: request.trace,
        }).id;
      }
      return { deleted, defaultMerchantId };
    },
  );

  app.get(
    '/magic-values',
    {
      schema: {
        ...common,
        operationId: 'listMagicValues',
        summary: 'Inputs that force sandbox outcomes',
        description: 'Payment amounts, fast-track registration numbers and special AIS users (docs/sandbox-controls.md "Magic values").',
        response: responses({ $ref: 'SandboxMagicValues#' }),
      },
    },
    async () => ({
      amounts: MAGIC_AMOUNTS.map((m) => ({ amount: m.amount, outcome: m.outcome, description: m.description })),
      fastTrack: FAST_TRACK_MAGIC.map((m) => ({ ...m })),
      users: SPECIAL_USERS.map((u) => ({ userId: u.userId, description: u.description })),
    }),
  );
}
