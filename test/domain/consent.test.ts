/** Consent rules as pure functions: no database, no app. */
import t from 'tap';
import { consentTimer, decideConsent, DENIED_MESSAGE, grantsAccess, isDueToExpire } from '../../src/domain/consent.js';
import type { ConsentRow } from '../../src/domain/consent.js';

const EXPIRES = '2026-02-01T00:00:00.000Z';
const row = (over: Partial<ConsentRow> = {}): ConsentRow => ({
  id: 1,
  request_id: 'req-1',
  merchant_id: 100001,
  user_id: 'u1',
  permissions: '["ReadBalances"]',
  expiration_date_time: EXPIRES,
  transaction_from_date_time: '2025-01-01T00:00:00.000Z',
  callback_url: null,
  status: 'pending',
  consent_id: null,
  error_message: null,
  bank_id: null,
  auth_token: 'ctk_x',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

t.test('decideConsent: authorize gets a consent id, deny records why, the bank is kept', async (t) => {
  const at = Date.parse('2026-01-10T00:00:00.000Z');
  const authorized = decideConsent(row(), 'authorize', { bankId: 'nordlys-bank' }, at);
  t.match(authorized, { status: 'authorized', updated_at: '2026-01-10T00:00:00.000Z', bank_id: 'nordlys-bank', error_message: null });
  t.match(authorized.consent_id, /^cns_[0-9a-f]{32}$/);
  t.equal(decideConsent(row(), 'deny', {}, at).error_message, DENIED_MESSAGE);
  t.equal(decideConsent(row(), 'deny', { errorMessage: 'no' }, at).error_message, 'no');
  t.equal(
    decideConsent(row({ status: 'authorized', consent_id: 'cns_1' }), 'revoke', {}, at).consent_id,
    null,
    'an existing consent id is kept (null: unchanged)',
  );
  t.throws(() => decideConsent(row({ status: 'revoked' }), 'authorize', {}, at), { code: 'illegal_transition' });
});

t.test('expiry: open consents expire at their instant, not before', async (t) => {
  const due = Date.parse(EXPIRES);
  t.same(consentTimer(row()), { trigger: 'expire', dueAtMs: due });
  t.same(consentTimer(row({ status: 'authorized' })), { trigger: 'expire', dueAtMs: due });
  t.equal(consentTimer(row({ status: 'revoked' })), undefined);
  t.notOk(isDueToExpire(row(), due - 1));
  t.ok(isDueToExpire(row(), due), 'at the instant itself');
  t.notOk(isDueToExpire(row({ status: 'failed' }), due + 1));
  t.ok(grantsAccess(row({ status: 'authorized' })));
  t.notOk(grantsAccess(row({ status: 'expired' })));
});
