import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { consentMachine } from '../../src/domain/consent.js';
import { build, OTHER_PARTNER, schemaErrors, T0 } from '../helpers/app.js';
import { buildTwo, call, testMerchant } from '../helpers/partner.js';
import { advance } from '../helpers/engine.js';
import { TEST_CAUSE } from '../helpers/engine.js';

const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

/** A consent as POST /v1/ais/consents creates it: row + engine.onConsentCreated, one transaction. */
function newConsent(app: FastifyInstance, merchantId: number, partnerId: string, expiresInMs = 90 * 86_400_000) {
  return app.store.tx(() => {
    const row = app.store.consents.insert(
      {
        merchant_id: merchantId,
        user_id: 'user-typical',
        permissions: ['ReadAccountsDetail', 'ReadBalances'],
        expiration_date_time: at(expiresInMs),
        transaction_from_date_time: at(-30 * 86_400_000),
        callback_url: null,
      },
      T0,
    );
    app.engine.onConsentCreated(row, partnerId, TEST_CAUSE);
    return row;
  });
}

t.test('every row of the consent table through the control API', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  for (const row of consentMachine.rows) {
    for (const from of row.from) {
      await t.test(`${from} --${row.trigger}--> ${row.to}`, async (t) => {
        const c = newConsent(app, m.merchantId, 'sandbox-partner');
        app.db.prepare('UPDATE consents SET status = ? WHERE request_id = ?').run(from, c.request_id);
        const res = await call(app, 'POST', `/_sandbox/consents/${c.request_id}/${row.trigger}`);
        t.equal(res.status, 200);
        t.same(schemaErrors('Consent', res.body), []);
        t.match(res.body, { requestId: c.request_id, status: row.to, merchantId: m.merchantId, updatedAt: T0 });
        if (row.to === 'authorized') t.match(res.body.consentId, /\S/, 'consentId populated on authorization');
        if (row.to === 'failed') t.match(res.body.errorMessage, /\S/, 'errorMessage set');
        if (row.to !== 'authorized') t.same(app.engine.timersOf('consent', c.request_id), [], 'final: no timers');
        t.equal(
          app.db.prepare('SELECT count(*) FROM events').pluck().get(),
          1,
          'consents emit no webhook events (only the test merchant did)',
        );
      });
    }
  }
});

t.test('every other state × trigger is a 409', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  const c = newConsent(app, m.merchantId, 'sandbox-partner');
  for (const from of consentMachine.states) {
    for (const trigger of consentMachine.triggers) {
      if (consentMachine.can(from, trigger)) continue;
      app.db.prepare('UPDATE consents SET status = ? WHERE request_id = ?').run(from, c.request_id);
      const res = await call(app, 'POST', `/_sandbox/consents/${c.request_id}/${trigger}`);
      t.equal(res.status, 409, `${from} × ${trigger}`);
      t.equal(res.body.code, 'illegal_transition');
    }
  }
});

t.test('deny takes an errorMessage; scoping through the merchant', async (t) => {
  const app = await buildTwo(t);
  const m = await testMerchant(app);
  const c = newConsent(app, m.merchantId, 'sandbox-partner');
  t.equal((await call(app, 'POST', `/_sandbox/consents/${c.request_id}/deny`, undefined, OTHER_PARTNER)).body.code, 'consent_not_found');
  t.equal((await call(app, 'POST', '/_sandbox/consents/nope/deny')).body.code, 'consent_not_found');
  t.match((await call(app, 'POST', `/_sandbox/consents/${c.request_id}/authorize`, { errorMessage: 'x' })).body, {
    code: 'validation_failed',
    field: 'errorMessage',
  });
  const res = await call(app, 'POST', `/_sandbox/consents/${c.request_id}/deny`, { errorMessage: 'User cancelled at the bank' });
  t.match(res.body, { status: 'failed', errorMessage: 'User cancelled at the bank' });
});

t.test('an authorized consent expires at expirationDateTime on the virtual clock', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  const c = newConsent(app, m.merchantId, 'sandbox-partner', 3_600_000);
  t.same(
    app.engine.timersOf('consent', c.request_id).map((x) => [x.trigger, x.due_at]),
    [['expire', Date.parse(T0) + 3_600_000]],
  );
  app.engine.consent(c.request_id, 'authorize', { bankId: 'nordlys-bank', cause: TEST_CAUSE });
  t.equal(app.engine.timersOf('consent', c.request_id).length, 1, 'authorized keeps its expiry timer');
  t.equal((await advance(app, '59m')).fired, 0);
  t.equal((await advance(app, '1m')).fired, 1);
  const row = app.db.prepare('SELECT status, updated_at, bank_id FROM consents WHERE request_id = ?').get(c.request_id);
  t.same(row, { status: 'expired', updated_at: at(3_600_000), bank_id: 'nordlys-bank' });
  t.equal((await call(app, 'POST', `/_sandbox/consents/${c.request_id}/revoke`)).status, 409, 'an expired consent cannot be revoked');
});
