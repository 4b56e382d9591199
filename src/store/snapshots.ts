/**
 * Snapshots of a sandbox: every row its partner owns (merchants, stores, payments, consents,
 * webhooks, events, deliveries, timers, transitions) and its clock, kept in the snapshots table so
 * they survive a restart. A snapshot taken before transitions were kept gets, when restored, one
 * transition per resource into the state it holds (cause kind 'migration', as the upgrade gives
 * the resources of a database).
 *
 * - restoreInPlace: the sandbox's rows are deleted and the snapshot's put back with the same ids
 *   (they belonged to this sandbox, so no other row can hold them).
 * - cloneInto: the rows are copied into another sandbox with new ids everywhere (merchant ids and
 *   client ids, payment, consent, webhook, event and delivery ids, page tokens), every reference
 *   to them rewritten, the ids inside stored webhook bodies too. Webhook secrets are kept: a
 *   receiver configured for the snapshot accepts every sandbox started from it.
 */
import type { ClockState } from '../clock.js';
import {
  newConsentAuthToken,
  newConsentId,
  newConsentRequestId,
  newEventId,
  newMerchantClientId,
  newOnboardingToken,
  newWebhookId,
} from '../domain/ids.js';
import type { Db } from './db.js';

type Row = Record<string, unknown>;

export interface SnapshotData {
  merchants: Row[];
  stores: Row[];
  payments: Row[];
  consents: Row[];
  webhooks: Row[];
  events: Row[];
  deliveries: Row[];
  timers: Row[];
  /** Absent from snapshots taken before transitions were kept. */
  transitions?: Row[];
  defaultMerchantId: number | null;
}

export interface SnapshotRow {
  name: string;
  /** The partner whose rows it holds (a created sandbox's partner id is its sandbox id). */
  partner_id: string;
  created_at: string;
  /** The sandbox's virtual instant when it was taken. */
  clock_now_ms: number;
  /** 1: its clock was frozen. */
  clock_frozen: number;
  /** JSON SnapshotData. */
  data: string;
}

const OF_MERCHANTS = 'merchant_id IN (SELECT id FROM merchants WHERE partner_id = ?)';
/**
 * What a snapshot reads, per table. Like the reset (reset.ts) these may scan payments and timers:
 * a snapshot is rare, and an index kept only for it would cost every payment insert.
 */
export const SNAPSHOT_READS: [keyof Omit<SnapshotData, 'defaultMerchantId'>, string][] = [
  ['merchants', 'SELECT * FROM merchants WHERE partner_id = ? ORDER BY id'],
  ['stores', `SELECT * FROM stores WHERE ${OF_MERCHANTS} ORDER BY id`],
  ['payments', 'SELECT * FROM payments WHERE partner_id = ? ORDER BY id'],
  ['consents', `SELECT * FROM consents WHERE ${OF_MERCHANTS} ORDER BY id`],
  ['webhooks', 'SELECT * FROM webhooks WHERE partner_id = ? ORDER BY id'],
  ['events', 'SELECT * FROM events WHERE partner_id = ? ORDER BY rowid'],
  ['deliveries', 'SELECT * FROM deliveries WHERE partner_id = ? ORDER BY id'],
  ['timers', 'SELECT * FROM timers WHERE partner_id = ? ORDER BY id'],
  ['transitions', 'SELECT * FROM transitions WHERE partner_id = ? ORDER BY id'],
];

/** What a snapshot without transitions stands for: each resource's current state, reached at its last update. */
function transitionsOf(data: SnapshotData, partnerId: string): Row[] {
  if (data.transitions) return data.transitions;
  const partnerOf = new Map(data.merchants.map((m) => [Number(m.id), String(m.partner_id)]));
  const row = (resource: string, id: unknown, status: unknown, reason: unknown, at: unknown, owner = partnerId): Row => ({
    partner_id: owner,
    resource,
    resource_id: String(id),
    from_state: null,
    to_state: status,
    reason: reason ?? null,
    at,
    cause_kind: 'migration',
    cause_name: 'state when transitions began to be recorded',
    request_id: null,
    traceparent: null,
  });
  return [
    ...data.merchants.map((m) => row('merchant', m.id, m.status, null, m.updated_at, String(m.partner_id))),
    ...data.payments.map((p) => row('payment', p.id, p.status, p.failure_reason, p.updated_at, String(p.partner_id))),
    ...data.consents.map((c) => row('consent', c.request_id, c.status, null, c.updated_at, partnerOf.get(Number(c.merchant_id)))),
  ];
}

export function snapshotStore(db: Db) {
  const reads = SNAPSHOT_READS.map(([table, sql]) => [table, db.prepare(sql)] as const);
  const insertSnapshot = db.prepare(
    `INSERT INTO snapshots (name, partner_id, created_at, clock_now_ms, clock_frozen, data)
     VALUES (@name, @partner_id, @created_at, @clock_now_ms, @clock_frozen, @data)`,
  );
  const get = db.prepare('SELECT * FROM snapshots WHERE name = ?');
  const list = db.prepare('SELECT * FROM snapshots WHERE partner_id = ? ORDER BY created_at, name');
  const remove = db.prepare('DELETE FROM snapshots WHERE name = ?');
  const metaGet = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
  const metaSet = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  const inserts = new Map<string, ReturnType<Db['prepare']>>();

  /** Insert a row as it is (every column named), or without `omit` (a new id is assigned). */
  function put(table: string, row: Row, omit?: string): number {
    const columns = Object.keys(row).filter((c) => c !== omit);
    const key = `${table}:${columns.join(',')}`;
    let statement = inserts.get(key);
    if (!statement) {
      statement = db.prepare(
        `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      inserts.set(key, statement);
    }
    return Number(statement.run(columns.map((c) => row[c])).lastInsertRowid);
  }

  return {
    /** Every row of one partner, as it is now (call inside a transaction for a consistent read). */
    capture(partnerId: string): SnapshotData {
      const data = Object.fromEntries(reads.map(([table, statement]) => [table, statement.all(partnerId) as Row[]])) as Required<
        Omit<SnapshotData, 'defaultMerchantId'>
      >;
      const seeded = metaGet.get(`default_merchant:${partnerId}`) as string | undefined;
      return { ...data, defaultMerchantId: seeded === undefined ? null : Number(seeded) };
    },

    save(row: SnapshotRow): void {
      insertSnapshot.run(row);
    },
    get: (name: string): SnapshotRow | undefined => get.get(name) as SnapshotRow | undefined,
    listOf: (partnerId: string): SnapshotRow[] => list.all(partnerId) as SnapshotRow[],
    delete: (name: string): boolean => remove.run(name).changes > 0,

    /** Put a snapshot's rows back, same ids, into the (emptied) partner they came from. Call inside a transaction. */
    restoreInPlace(data: SnapshotData, partnerId: string): void {
      for (const [table] of SNAPSHOT_READS) {
        if (table === 'transitions') for (const row of transitionsOf(data, partnerId)) put(table, row);
        else for (const row of data[table]) put(table, row);
      }
      if (data.defaultMerchantId !== null) metaSet.run(`default_merchant:${partnerId}`, String(data.defaultMerchantId));
    },

    /** Copy a snapshot's rows into another sandbox with new ids; returns the new default merchant id. Call inside a transaction. */
    cloneInto(data: SnapshotData, sandboxId: string): number | null {
      const merchantIds = new Map<number, number>();
      const merchantClientIds = new Map<string, string>();
      const paymentIds = new Map<number, number>();
      const webhookIds = new Map<string, string>();
      const eventIds = new Map<string, string>();
      const requestIds = new Map<string, string>();
      const deliveryIds = new Map<number, number>();

      for (const m of data.merchants) {
        const clientId = newMerchantClientId();
        merchantClientIds.set(String(m.client_id), clientId);
        const id = put(
          'merchants',
          { ...m, partner_id: sandboxId, client_id: clientId, onboarding_token: m.onboarding_token === null ? null : newOnboardingToken() },
          'id',
        );
        merchantIds.set(Number(m.id), id);
      }
      for (const s of data.stores)
        put('stores', { ...s, partner_id: sandboxId, merchant_id: merchantIds.get(Number(s.merchant_id)) }, 'id');
      for (const p of data.payments) {
        const id = put(
          'payments',
          {
            ...p,
            partner_id: sandboxId,
            merchant_id: merchantIds.get(Number(p.merchant_id)),
            merchant_client_id: merchantClientIds.get(String(p.merchant_client_id)) ?? p.merchant_client_id,
          },
          'id',
        );
        paymentIds.set(Number(p.id), id);
      }
      for (const c of data.consents) {
        const requestId = newConsentRequestId();
        requestIds.set(String(c.request_id), requestId);
        put(
          'consents',
          {
            ...c,
            request_id: requestId,
            merchant_id: merchantIds.get(Number(c.merchant_id)),
            consent_id: c.consent_id === null ? null : newConsentId(),
            auth_token: newConsentAuthToken(),
          },
          'id',
        );
      }
      for (const w of data.webhooks) {
        const id = newWebhookId();
        webhookIds.set(String(w.id), id);
        put('webhooks', { ...w, id, partner_id: sandboxId });
      }
      // ids inside stored webhook bodies (what a redelivery sends) follow the rows they name
      const remapBody = (body: string): string => {
        const envelope = JSON.parse(body) as { data?: Record<string, unknown> };
        const d = envelope.data;
        if (d) {
          if (typeof d.paymentId === 'number') d.paymentId = paymentIds.get(d.paymentId) ?? d.paymentId;
          if (typeof d.merchantId === 'number') d.merchantId = merchantIds.get(d.merchantId) ?? d.merchantId;
          if (typeof d.clientId === 'string') d.clientId = merchantClientIds.get(d.clientId) ?? d.clientId;
          if (typeof d.merchantClientId === 'string') d.merchantClientId = merchantClientIds.get(d.merchantClientId) ?? d.merchantClientId;
          if (typeof d.webhookId === 'string') d.webhookId = webhookIds.get(d.webhookId) ?? d.webhookId;
        }
        return JSON.stringify(envelope);
      };
      for (const e of data.events) {
        const id = newEventId();
        eventIds.set(String(e.id), id);
        put('events', { ...e, id, partner_id: sandboxId, body: remapBody(String(e.body)) });
      }
      for (const d of data.deliveries) {
        const id = put(
          'deliveries',
          {
            ...d,
            partner_id: sandboxId,
            event_id: eventIds.get(String(d.event_id)),
            webhook_id: webhookIds.get(String(d.webhook_id)) ?? d.webhook_id,
            redelivery_of: d.redelivery_of === null ? null : (deliveryIds.get(Number(d.redelivery_of)) ?? null),
            // the signature sent was over the old body; a redelivery signs again
            signature: null,
            versioned_body: d.versioned_body === null || d.versioned_body === undefined ? null : remapBody(String(d.versioned_body)),
          },
          'id',
        );
        deliveryIds.set(Number(d.id), id);
      }
      /** The new id of a merchant, payment or consent (its request id) of the snapshot. */
      const newIdOf = (kind: unknown, id: unknown) =>
        kind === 'merchant' ? merchantIds.get(Number(id)) : kind === 'payment' ? paymentIds.get(Number(id)) : requestIds.get(String(id));
      for (const t of data.timers) {
        const aggregateId = newIdOf(t.aggregate, t.aggregate_id);
        if (aggregateId === undefined) continue;
        put('timers', { ...t, sandbox_id: sandboxId, partner_id: sandboxId, aggregate_id: String(aggregateId) }, 'id');
      }
      for (const t of transitionsOf(data, sandboxId)) {
        const resourceId = newIdOf(t.resource, t.resource_id);
        if (resourceId === undefined) continue;
        put('transitions', { ...t, partner_id: sandboxId, resource_id: String(resourceId) }, 'id');
      }
      const seeded = data.defaultMerchantId === null ? undefined : merchantIds.get(data.defaultMerchantId);
      if (seeded === undefined) return null;
      metaSet.run(`default_merchant:${sandboxId}`, String(seeded));
      return seeded;
    },
  };
}

/** The clock state that puts a sandbox back at a snapshot's instant (frozen there, or running from there). */
export function snapshotClock(row: Pick<SnapshotRow, 'clock_now_ms' | 'clock_frozen'>, wallMs: number): ClockState {
  return row.clock_frozen ? { offsetMs: 0, frozenAtMs: row.clock_now_ms } : { offsetMs: row.clock_now_ms - wallMs, frozenAtMs: null };
}
