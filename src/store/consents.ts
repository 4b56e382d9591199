/**
 * Consents table (migration 010_ais). A consent belongs to a merchant (and through it to a
 * partner); `auth_token` is the secret part of its authorizationUrl (/consent/<auth_token>).
 *
 * Expiry is always computed correctly on read: a pending or authorized consent whose
 * expiration_date_time is at or before the virtual clock's now is persisted as `expired`
 * (updated_at = the expiration instant) before it is returned, whether or not the engine's
 * expiry timer has fired yet. Transitions go through the lifecycle engine (app.engine.consent),
 * which writes this table with the same column names.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ConsentStatus } from '../domain/consent.js';
import type { Db } from './db.js';

export const CONSENT_PERMISSIONS = ['ReadAccountsDetail', 'ReadBalances', 'ReadTransactionsDetail'] as const;
export type ConsentPermission = (typeof CONSENT_PERMISSIONS)[number];

// a type alias (not an interface) so it is assignable to the engine's indexable ConsentRowLike
export type ConsentRow = {
  id: number;
  request_id: string;
  merchant_id: number;
  user_id: string;
  /** JSON array of ConsentPermission. */
  permissions: string;
  expiration_date_time: string;
  transaction_from_date_time: string;
  callback_url: string | null;
  status: ConsentStatus;
  consent_id: string | null;
  error_message: string | null;
  bank_id: string | null;
  auth_token: string;
  created_at: string;
  updated_at: string;
};

export interface NewConsent {
  merchant_id: number;
  user_id: string;
  permissions: readonly ConsentPermission[];
  expiration_date_time: string;
  transaction_from_date_time: string;
  callback_url: string | null;
}

export function newConsentAuthToken(): string {
  return `ctk_${randomBytes(24).toString('base64url')}`;
}

export function consentPermissions(row: ConsentRow): ConsentPermission[] {
  return JSON.parse(row.permissions) as ConsentPermission[];
}

/** True when the row is still open (pending/authorized) but its expiration instant has passed. */
export function isDueToExpire(row: Pick<ConsentRow, 'status' | 'expiration_date_time'>, nowMs: number): boolean {
  return (row.status === 'pending' || row.status === 'authorized') && Date.parse(row.expiration_date_time) <= nowMs;
}

export function consentStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO consents (request_id, merchant_id, user_id, permissions, expiration_date_time, transaction_from_date_time,
       callback_url, status, auth_token, created_at, updated_at)
     VALUES (@request_id, @merchant_id, @user_id, @permissions, @expiration_date_time, @transaction_from_date_time,
       @callback_url, 'pending', @auth_token, @now, @now)
     RETURNING *`,
  );
  const byRequestId = db.prepare('SELECT * FROM consents WHERE request_id = ?');
  const byToken = db.prepare('SELECT * FROM consents WHERE auth_token = ?');
  const forUser = db.prepare('SELECT * FROM consents WHERE user_id = ? AND merchant_id = ? ORDER BY created_at DESC, id DESC');
  const expire = db.prepare(
    `UPDATE consents SET status = 'expired', updated_at = expiration_date_time
     WHERE id = ? AND status IN ('pending', 'authorized') RETURNING *`,
  );

  /** Persist a due expiry, return the current row. */
  const refresh = (row: ConsentRow, nowMs: number): ConsentRow =>
    isDueToExpire(row, nowMs) ? ((expire.get(row.id) as ConsentRow | undefined) ?? row) : row;

  return {
    insert(c: NewConsent, nowIso: string): ConsentRow {
      return insert.get({
        ...c,
        permissions: JSON.stringify(c.permissions),
        request_id: randomUUID(),
        auth_token: newConsentAuthToken(),
        now: nowIso,
      }) as ConsentRow;
    },
    refresh,
    get(requestId: string, nowMs: number): ConsentRow | undefined {
      const row = byRequestId.get(requestId) as ConsentRow | undefined;
      return row && refresh(row, nowMs);
    },
    getByToken(token: string, nowMs: number): ConsentRow | undefined {
      const row = byToken.get(token) as ConsentRow | undefined;
      return row && refresh(row, nowMs);
    },
    /** The user's consents for one merchant, newest first, expiry applied. */
    listForUser(userId: string, merchantId: number, nowMs: number): ConsentRow[] {
      return (forUser.all(userId, merchantId) as ConsentRow[]).map((row) => refresh(row, nowMs));
    },
  };
}
export type ConsentStore = ReturnType<typeof consentStore>;
