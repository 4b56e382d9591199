/**
 * Merchants table. Statements are prepared once; every read filters on partner_id so another
 * partner's merchant is indistinguishable from a missing one.
 */
import type { MerchantChange, MerchantRow, MerchantStatus, NewMerchant } from '../domain/merchant.js';
import { newMerchantClientId } from '../domain/ids.js';
import { likeEscape, type Db } from './db.js';

export function merchantStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO merchants (partner_id, client_id, kind, status, company_name, contact_email, contact_phone, partner_ref_id,
       details, sub_tpp_id, sub_tpp_status, sub_tpp_message, onboarding_token, onboarding_expires_at, created_at, updated_at)
     VALUES (@partner_id, @client_id, @kind, @status, @company_name, @contact_email, @contact_phone, @partner_ref_id,
       @details, @sub_tpp_id, @sub_tpp_status, @sub_tpp_message, @onboarding_token, @onboarding_expires_at, @created_at, @updated_at)
     RETURNING *`,
  );
  const byIdForPartner = db.prepare('SELECT * FROM merchants WHERE id = ? AND partner_id = ?');
  // the onboarding-status read needs three columns: SELECT * made a JS string of each of 17 (~7 µs a read)
  const statusForPartner = db.prepare('SELECT id, status, sub_tpp_id, sub_tpp_status FROM merchants WHERE id = ? AND partner_id = ?');
  const nameById = db.prepare('SELECT company_name FROM merchants WHERE id = ?').pluck();
  const byId = db.prepare('SELECT * FROM merchants WHERE id = ?');
  // every AIS request resolves its token's merchant to a partner (and its answer to a client id):
  // one column, not the row with its onboarding details
  const partnerById = db.prepare('SELECT partner_id FROM merchants WHERE id = ?').pluck();
  const clientIdById = db.prepare('SELECT client_id FROM merchants WHERE id = ?').pluck();
  // the payment path needs four columns; SELECT * also decoded `details` (the fast-track JSON)
  const byClientIdForPartner = db.prepare(
    'SELECT id, client_id, status, company_name FROM merchants WHERE client_id = ? AND partner_id = ?',
  );
  const byOnboardingToken = db.prepare('SELECT * FROM merchants WHERE onboarding_token = ?');
  const update = db.prepare(
    'UPDATE merchants SET status = @status, details = @details, updated_at = @updated_at WHERE id = @id RETURNING *',
  );
  const updateOnboarding = db.prepare(
    'UPDATE merchants SET onboarding_token = ?, onboarding_expires_at = ?, updated_at = ? WHERE id = ? RETURNING *',
  );
  const pageForPartner = db.prepare(
    'SELECT * FROM merchants WHERE partner_id = CAST(? AS TEXT) ORDER BY id LIMIT CAST(? AS INTEGER) OFFSET CAST(? AS INTEGER)',
  );
  const countForPartner = db.prepare('SELECT count(*) FROM merchants WHERE partner_id = ?').pluck();
  // newest first below a cursor; q matches the name or partnerRefId anywhere (LIKE, ASCII case-insensitive)
  const search = db.prepare(
    `SELECT * FROM merchants WHERE partner_id = CAST(@partner AS TEXT) AND id < @before
       AND (@statuses IS NULL OR status IN (SELECT value FROM json_each(@statuses)))
       AND (@q IS NULL OR company_name LIKE @q ESCAPE '\\' OR partner_ref_id LIKE @q ESCAPE '\\')
     ORDER BY id DESC LIMIT CAST(@limit AS INTEGER)`,
  );
  const byStatus = db.prepare('SELECT status, count(*) AS n FROM merchants WHERE partner_id = ? GROUP BY status');

  return {
    insert(m: NewMerchant, nowIso: string): MerchantRow {
      return insert.get({ ...m, client_id: newMerchantClientId(), created_at: nowIso, updated_at: nowIso }) as MerchantRow;
    },
    get: (id: number, partnerId: string) => byIdForPartner.get(id, partnerId) as MerchantRow | undefined,
    /** What GET …/onboarding-status shows of a partner's merchant. */
    getStatus: (id: number, partnerId: string) =>
      statusForPartner.get(id, partnerId) as Pick<MerchantRow, 'id' | 'status' | 'sub_tpp_id' | 'sub_tpp_status'> | undefined,
    /** A merchant's company name (a Payment shows it), unscoped. */
    nameOf: (id: number) => nameById.get(id) as string | undefined,
    /** Unscoped read, for the engine, hosted pages and AIS (which hold a token or an id, not a partner). */
    getAny: (id: number) => byId.get(id) as MerchantRow | undefined,
    /** The partner a merchant belongs to (any partner's merchant), or undefined. */
    partnerOf: (id: number) => partnerById.get(id) as string | undefined,
    /** A merchant's client id (any partner's merchant), or undefined. */
    clientIdOf: (id: number) => clientIdById.get(id) as string | undefined,
    /** The merchant a payment names (id, client_id, status, company_name only). */
    getByClientId: (clientId: string, partnerId: string) =>
      byClientIdForPartner.get(clientId, partnerId) as Pick<MerchantRow, 'id' | 'client_id' | 'status' | 'company_name'> | undefined,
    getByOnboardingToken: (token: string) => byOnboardingToken.get(token) as MerchantRow | undefined,
    /** Write a transition decided by domain/merchant.ts decideMerchant; returns the new row. */
    update: (id: number, change: MerchantChange) => update.get({ ...change, id }) as MerchantRow,
    /** Replace the onboarding link: the previous token no longer finds the merchant. */
    setOnboardingToken: (id: number, token: string, expiresAtIso: string, nowIso: string) =>
      updateOnboarding.get(token, expiresAtIso, nowIso, id) as MerchantRow,
    /** Newest first, ids below `before`; `statuses` (stored values) and `q` (a substring of the name or partnerRefId) narrow it. */
    search(partnerId: string, filter: { statuses?: readonly MerchantStatus[]; q?: string; before?: number; limit: number }): MerchantRow[] {
      return search.all({
        partner: partnerId,
        before: filter.before ?? Number.MAX_SAFE_INTEGER,
        statuses: filter.statuses ? JSON.stringify(filter.statuses) : null,
        q: filter.q ? `%${likeEscape(filter.q)}%` : null,
        limit: filter.limit,
      }) as MerchantRow[];
    },
    countByStatus: (partnerId: string) => byStatus.all(partnerId) as { status: MerchantStatus; n: number }[],
    /** One page of a partner's merchants in id order (stable), plus the partner's total. */
    page(partnerId: string, page: number, limit: number): { rows: MerchantRow[]; total: number } {
      const rows = pageForPartner.all(partnerId, limit, (page - 1) * limit) as MerchantRow[];
      return { rows, total: countForPartner.get(partnerId) as number };
    },
  };
}
