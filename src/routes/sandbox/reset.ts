/** POST /_sandbox/reset and GET /_sandbox/magic-values. */
import type { FastifyInstance } from 'fastify';
import { SPECIAL_USERS } from '../../../fixtures/users.js';
import { responses } from '../../../schemas/common.js';
import { FAST_TRACK_MAGIC } from '../../domain/merchant-magic.js';
import { MAGIC_AMOUNTS } from '../../domain/payment.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import type { Db } from '../../store/db.js';
import { seedDefaultMerchant } from '../../store/seed.js';

export async function resetRoutes(app: FastifyInstance): Promise<void> {
  const common = { tags: ['sandbox'], security: partnerSecurity };
  const reset = partnerReset(app.db);

  app.post(
    '/reset',
    {
      schema: {
        ...common,
        summary: "Delete the calling partner's data",
        body: { $ref: 'SandboxEmptyBody#' },
        description:
          "Deletes the partner's merchants (and their stores, payments and consents), webhooks, events, deliveries and pending timers, in one transaction. Other partners, the clock and the sandbox bank fixtures are untouched. The default sandbox partner gets its default activated merchant again.",
        response: responses({ $ref: 'SandboxResetResponse#' }),
      },
    },
    async (request) => {
      const partnerId = request.partner.clientId;
      const deleted = app.store.tx(() => reset(partnerId));
      let defaultMerchantId: number | null = null;
      const first = app.partners.list()[0];
      if (app.config.environment === 'sandbox' && first?.clientId === partnerId) {
        defaultMerchantId = seedDefaultMerchant(app.store, app.meta, partnerId, app.clock.iso()).id;
      }
      return { deleted, defaultMerchantId };
    },
  );

  app.get(
    '/magic-values',
    {
      schema: {
        ...common,
        summary: 'Inputs that force sandbox outcomes',
        description: 'Payment amounts, fast-track registration numbers and special AIS users (README "Magic values").',
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

/**
 * Delete one partner's rows. Children of merchants and consents (any table with a foreign key
 * to them, e.g. stores, payments, consents, tables added later) are deleted first, found through
 * PRAGMA foreign_key_list, so the reset keeps working when another area adds a table.
 */
export function partnerReset(db: Db) {
  const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).pluck().all() as string[]);
  const children = new Map<string, { table: string; from: string; to: string }[]>();
  for (const table of tables) {
    for (const fk of db.prepare(`PRAGMA foreign_key_list("${table}")`).all() as { table: string; from: string; to: string | null }[]) {
      const list = children.get(fk.table) ?? [];
      list.push({ table, from: fk.from, to: fk.to ?? 'rowid' });
      children.set(fk.table, list);
    }
  }
  const counts: Record<string, number> = {};
  const run = (sql: string, ...params: unknown[]) => db.prepare(sql).run(...params).changes;

  /** Delete rows of `table` matching `where` (params), children first; counts per table. */
  function cascade(table: string, where: string, params: unknown[]): void {
    for (const child of children.get(table) ?? []) {
      if (child.table === table) continue;
      cascade(child.table, `"${child.from}" IN (SELECT "${child.to}" FROM "${table}" WHERE ${where})`, params);
    }
    counts[table] = (counts[table] ?? 0) + run(`DELETE FROM "${table}" WHERE ${where}`, ...params);
  }

  return (partnerId: string) => {
    for (const k of Object.keys(counts)) delete counts[k];
    cascade('deliveries', 'partner_id = ?', [partnerId]);
    cascade('events', 'partner_id = ?', [partnerId]);
    cascade('timers', 'partner_id = ?', [partnerId]);
    cascade('payments', 'partner_id = ?', [partnerId]);
    cascade('merchants', 'partner_id = ?', [partnerId]);
    cascade('webhooks', 'partner_id = ?', [partnerId]);
    return {
      merchants: counts.merchants ?? 0,
      payments: counts.payments ?? 0,
      stores: counts.stores ?? 0,
      webhooks: counts.webhooks ?? 0,
      events: counts.events ?? 0,
      deliveries: counts.deliveries ?? 0,
      consents: counts.consents ?? 0,
      timers: counts.timers ?? 0,
    };
  };
}
