/**
 * Consents table (migration 010_ais). A consent belongs to a merchant (and through it to a
 * partner); `auth_token` is the secret part of its authorizationUrl (/consent/<auth_token>).
 * Rows are written here only: created by the AIS route, changed by the lifecycle engine
 * (domain/consent.ts decides, `update` writes).
 */
import type { ConsentChange, ConsentRow, ConsentStatus, NewConsent } from '../domain/consent.js';
import { newConsentAuthToken, newConsentRequestId } from '../domain/ids.js';
import type { Db } from './db.js';

export function consentStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO consents (request_id, merchant_id, user_id, permissions, expiration_date_time, transaction_from_date_time,
       callback_url, status, auth_token, created_at, updated_at)
     VALUES (@request_id, @merchant_id, @user_id, @permissions, @expiration_date_time, @transaction_from_date_time,
       @callback_url, 'pending', @auth_token, @now, @now)
     RETURNING *`,
  );
  const byRequestId = db.prepare('SELECT * FROM consents WHERE request_id = ?');
  // the owning partner is the merchant's
  const withPartner = db.prepare(
    'SELECT c.*, m.partner_id AS owner_partner_id FROM consents c JOIN merchants m ON m.id = c.merchant_id WHERE c.request_id = ?',
  );
  const byToken = db.prepare('SELECT * FROM consents WHERE auth_token = ?');
  const forPartner = db.prepare(
    `SELECT c.* FROM consents c JOIN merchants m ON m.id = c.merchant_id
      WHERE m.partner_id = CAST(@partner AS TEXT) AND c.id < @before
        AND (@user IS NULL OR c.user_id = @user) AND (@status IS NULL OR c.status = @status)
      ORDER BY c.id DESC LIMIT CAST(@limit AS INTEGER)`,
  );
  const byStatus = db.prepare(
    'SELECT c.status, count(*) AS n FROM consents c JOIN merchants m ON m.id = c.merchant_id WHERE m.partner_id = ? GROUP BY c.status',
  );
  // a user has a handful of consents per merchant: sorted here, because SQLite's ORDER BY (a
  // temporary sorter, or the index read backwards) cost 15 µs of a 19 µs lookup, on every AIS read
  const forUser = db.prepare('SELECT * FROM consents WHERE user_id = ? AND merchant_id = ?');
  const newestFirst = (a: ConsentRow, b: ConsentRow) =>
    a.created_at === b.created_at ? b.id - a.id : a.created_at < b.created_at ? 1 : -1;
  const update = db.prepare(
    `UPDATE consents SET status = @status, updated_at = @updated_at, error_message = COALESCE(@error_message, error_message),
       consent_id = COALESCE(@consent_id, consent_id), bank_id = COALESCE(@bank_id, bank_id),
       expiration_date_time = COALESCE(@expiration_date_time, expiration_date_time)
     WHERE request_id = @request_id RETURNING *`,
  );

  return {
    insert(c: NewConsent, nowIso: string): ConsentRow {
      return insert.get({
        ...c,
        permissions: JSON.stringify(c.permissions),
        request_id: newConsentRequestId(),
        auth_token: newConsentAuthToken(),
        now: nowIso,
      }) as ConsentRow;
    },
    get: (requestId: string) => byRequestId.get(requestId) as ConsentRow | undefined,
    /** The consent and the partner that owns it (through its merchant). */
    getWithPartner(requestId: string): { row: ConsentRow; partnerId: string } | undefined {
      const r = withPartner.get(requestId) as (ConsentRow & { owner_partner_id: string }) | undefined;
      if (!r) return undefined;
      const { owner_partner_id, ...row } = r;
      return { row, partnerId: owner_partner_id };
    },
    getByToken: (token: string) => byToken.get(token) as ConsentRow | undefined,
    /** A partner's consents (through their merchants), newest first, ids below `before`. */
    listForPartner(partnerId: string, filter: { userId?: string; status?: ConsentStatus; before?: number; limit: number }): ConsentRow[] {
      return forPartner.all({
        partner: partnerId,
        before: filter.before ?? Number.MAX_SAFE_INTEGER,
        user: filter.userId ?? null,
        status: filter.status ?? null,
        limit: filter.limit,
      }) as ConsentRow[];
    },
    countByStatus: (partnerId: string) => byStatus.all(partnerId) as { status: ConsentStatus; n: number }[],
    /** The user's consents for one merchant, newest first. */
    listForUser: (userId: string, merchantId: number) => (forUser.all(userId, merchantId) as ConsentRow[]).sort(newestFirst),
    /** Write a transition decided by domain/consent.ts decideConsent; returns the new row. */
    update: (requestId: string, change: ConsentChange) => update.get({ ...change, request_id: requestId }) as ConsentRow,
  };
}
