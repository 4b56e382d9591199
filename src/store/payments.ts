/**
 * Payments table. Amounts are integer minor units (øre); every partner-facing read filters on
 * partner_id. Numeric ids start at 5000001 (001_core).
 *
 * The hosted payment page's token is not stored: it is `pay_<id>_<mac>` (`pay_<shard>_<id>_<mac>` on a shard), the mac an HMAC of the
 * id under a random per-database secret (meta `payments.tokenSecret`), so it is as unguessable as
 * a random token while an insert maintains no extra index (092_perf_payment_writes).
 */
import { currentShardTag } from '../domain/ids.js';
import type { NewPayment, PaymentChange, PaymentRow, PaymentStatus } from '../domain/payment.js';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { metaStore, type Db } from './db.js';

/** `pay_[<shard>_]<id>_<mac>`: a shard's tokens carry its name (domain/ids.ts), a single process's none. */
const TOKEN = /^pay_(?:([a-z][a-z0-9]{0,15})_)?([1-9][0-9]{0,14})_([A-Za-z0-9_-]{22})$/;

/** How many payment tokens are remembered (a Map of id -> token, emptied when full). */
const TOKEN_MEMO = 10_000;

export function paymentStore(db: Db) {
  const tokens = new Map<number, string>();
  let tokensTag = '';
  const insert = db.prepare(
    `INSERT INTO payments (partner_id, merchant_id, merchant_client_id, amount_minor, currency, reference_number, status,
       bank_payment_status, failure_reason, bank_id, expires_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byIdForPartner = db.prepare('SELECT * FROM payments WHERE id = ? AND partner_id = ?');
  const byId = db.prepare('SELECT * FROM payments WHERE id = ?');
  const update = db.prepare(
    `UPDATE payments SET status = @status, bank_payment_status = @bank_payment_status, failure_reason = @failure_reason,
       bank_id = COALESCE(@bank_id, bank_id), bank_rule = @bank_rule, app_approval_requested_at = NULL, updated_at = @updated_at
     WHERE id = @id RETURNING *`,
  );
  const noteBank = db.prepare('UPDATE payments SET bank_id = ?, bank_rule = ?, app_approval_requested_at = ? WHERE id = ? RETURNING *');
  const noteUnavailable = db.prepare(
    "UPDATE payments SET bank_id = ?, bank_rule = 'bank_down', bank_unavailable_id = ?, bank_unavailable_at = ? WHERE id = ? RETURNING *",
  );

  const list = db.prepare(
    `SELECT * FROM payments WHERE partner_id = CAST(@partner AS TEXT) AND id < @before
       AND (@status IS NULL OR status = @status) AND (@reference IS NULL OR reference_number = @reference)
     ORDER BY id DESC LIMIT CAST(@limit AS INTEGER)`,
  );
  const byStatus = db.prepare('SELECT status, count(*) AS n FROM payments WHERE partner_id = ? GROUP BY status');
  const markOpened = db.prepare('UPDATE payments SET page_opened_at = ? WHERE id = ? RETURNING *');
  // the per-database HMAC key of payment tokens, created on first start
  const secret = Buffer.from(
    metaStore(db).getOrCreate('payments.tokenSecret', () => randomBytes(32).toString('base64url')),
    'base64url',
  );
  const mac = (id: number) => createHmac('sha256', secret).update(`payment:${id}`).digest('base64url').slice(0, 22);

  return {
    /** Insert and return the new row (built here: every value is known but the id). */
    insert(p: NewPayment, nowIso: string): PaymentRow {
      const { lastInsertRowid } = insert.run(
        p.partner_id,
        p.merchant_id,
        p.merchant_client_id,
        p.amount_minor,
        p.currency,
        p.reference_number,
        p.status,
        p.bank_payment_status,
        p.failure_reason,
        p.bank_id,
        p.expires_at,
        nowIso,
        nowIso,
      );
      return {
        id: Number(lastInsertRowid),
        ...p,
        page_opened_at: null,
        app_approval_requested_at: null,
        bank_unavailable_id: null,
        bank_unavailable_at: null,
        bank_rule: null,
        created_at: nowIso,
        updated_at: nowIso,
      };
    },
    get: (id: number, partnerId: string) => byIdForPartner.get(id, partnerId) as PaymentRow | undefined,
    /** Newest first, ids below `before`. */
    list(partnerId: string, filter: { status?: PaymentStatus; reference?: string; before?: number; limit: number }): PaymentRow[] {
      return list.all({
        partner: partnerId,
        before: filter.before ?? Number.MAX_SAFE_INTEGER,
        status: filter.status ?? null,
        reference: filter.reference ?? null,
        limit: filter.limit,
      }) as PaymentRow[];
    },
    countByStatus: (partnerId: string) => byStatus.all(partnerId) as { status: PaymentStatus; n: number }[],
    /** Unscoped read, for the engine and the hosted payment page. */
    getAny: (id: number) => byId.get(id) as PaymentRow | undefined,
    /** Record that the payer opened the hosted page (domain/payment.ts payerOpensPage); returns the new row. */
    markPageOpened: (id: number, atIso: string) => markOpened.get(atIso, id) as PaymentRow,
    /** A pending payment's bank and the bank rule it now waits under (a down bank chosen, an app approval asked for). */
    noteAppApproval: (id: number, bankId: string, atIso: string) => noteBank.get(bankId, 'app_approval', atIso, id) as PaymentRow,
    /** The payer chose `bankId` while it was down (the page offered the others). */
    noteUnavailable: (id: number, bankId: string, atIso: string) => noteUnavailable.get(bankId, bankId, atIso, id) as PaymentRow,
    /** Write a transition decided by domain/payment.ts decidePayment; returns the new row. */
    update: (id: number, change: PaymentChange) => update.get({ ...change, id }) as PaymentRow,
    /** The hosted payment page token of a payment (`paymentUrl` ends with it). */
    tokenFor(id: number): string {
      // every Payment answer shows its paymentUrl: an HMAC per read cost ~3 µs; the recent ones are kept
      const tag = currentShardTag();
      if (tag !== tokensTag || tokens.size >= TOKEN_MEMO) {
        tokens.clear();
        tokensTag = tag;
      }
      let token = tokens.get(id);
      if (token === undefined) tokens.set(id, (token = `pay_${tag}${id}_${mac(id)}`));
      return token;
    },
    /** The payment a hosted-page token names, or undefined (unknown, malformed or forged). */
    getByToken(token: string): PaymentRow | undefined {
      const m = TOKEN.exec(token);
      if (!m || (m[1] === undefined ? '' : `${m[1]}_`) !== currentShardTag()) return undefined;
      const id = Number(m[2]);
      const given = Buffer.from(m[3]);
      const expected = Buffer.from(mac(id));
      if (!timingSafeEqual(given, expected)) return undefined;
      return byId.get(id) as PaymentRow | undefined;
    },
  };
}
