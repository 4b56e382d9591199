/**
 * The lean payment write path (092_perf_payment_writes): hosted-page tokens derived from the id
 * (no stored token, no index to maintain), the table rebuild that dropped the column keeps every
 * row and the id sequence, and a forged or altered token finds nothing.
 */
import t from 'tap';
import { migrate } from '../../src/store/db.js';
import { databaseBefore } from '../helpers/migrations.js';
import { build, json, PARTNER } from '../helpers/app.js';

t.test('092 rebuilds payments on an existing database: rows, ids and the sequence survive', async (t) => {
  const db = databaseBefore('092_perf_payment_writes');
  t.teardown(() => db.close());
  db.prepare(
    `INSERT INTO merchants (partner_id, client_id, kind, status, company_name, created_at, updated_at)
     VALUES ('p', 'c-1', 'test', 'activated', 'Old ApS', 'then', 'then')`,
  ).run();
  const insertOld = db.prepare(
    `INSERT INTO payments (partner_id, merchant_id, merchant_client_id, amount_minor, currency, reference_number, status,
       payment_token, expires_at, created_at, updated_at) VALUES ('p', 100001, 'c-1', ?, 'DKK', ?, 'paid', ?, 'x', 'then', 'then')`,
  );
  insertOld.run(100, 'r1', 'pay_old1');
  insertOld.run(200, 'r2', 'pay_old2');
  db.prepare('DELETE FROM payments WHERE reference_number = ?').run('r2'); // the sequence remembers 5000002

  migrate(db);

  const cols = (db.prepare('PRAGMA table_info(payments)').all() as { name: string }[]).map((c) => c.name);
  t.notOk(cols.includes('payment_token'), 'no token column');
  const indexes = (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'payments'").all() as { name: string }[]
  ).map((r) => r.name);
  t.same(indexes, ['payments_partner'], "one secondary index, the partner's (098), and no token index to maintain on insert");
  t.same(db.prepare('SELECT id, amount_minor, reference_number, status FROM payments').all(), [
    { id: 5000001, amount_minor: 100, reference_number: 'r1', status: 'paid' },
  ]);
  const next = db
    .prepare(
      `INSERT INTO payments (partner_id, merchant_id, merchant_client_id, amount_minor, currency, reference_number, status, expires_at, created_at, updated_at)
       VALUES ('p', 100001, 'c-1', 300, 'DKK', 'r3', 'pending', 'x', 'now', 'now')`,
    )
    .run();
  t.equal(Number(next.lastInsertRowid), 5000003, 'ids are never reused: the sequence carried over');
  t.throws(
    () =>
      db
        .prepare(
          `INSERT INTO payments (partner_id, merchant_id, merchant_client_id, amount_minor, currency, reference_number, status, expires_at, created_at, updated_at)
           VALUES ('p', 999, 'c-1', 300, 'DKK', 'r4', 'pending', 'x', 'now', 'now')`,
        )
        .run(),
    /FOREIGN KEY/,
    'the merchant reference is still enforced',
  );
});

t.test('a fresh database starts payment ids at 5000001', async (t) => {
  const app = await build(t);
  const m = json(
    await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 'Seq ApS' } }),
  );
  const p = json(
    await app.inject({
      method: 'POST',
      url: '/v1/partner/payments',
      headers: PARTNER,
      payload: { merchantClientId: m.clientId, amount: 1, referenceNumber: 'first' },
    }),
  );
  t.equal(p.paymentId, 5000001);
});

t.test('hosted-page tokens: derived, stable, unforgeable', async (t) => {
  const app = await build(t);
  const m = json(
    await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 'Tok ApS' } }),
  );
  const pay = async (ref: string) =>
    json(
      await app.inject({
        method: 'POST',
        url: '/v1/partner/payments',
        headers: PARTNER,
        payload: { merchantClientId: m.clientId, amount: 12.5, referenceNumber: ref },
      }),
    );
  const a = await pay('a');
  const b = await pay('b');
  const tokenA = a.paymentUrl.split('/pay/')[1] as string;
  t.match(tokenA, /^pay_5000001_[A-Za-z0-9_-]{22}$/);
  t.equal(app.store.payments.tokenFor(a.paymentId), tokenA, 'the same token on every read');
  t.equal(
    json(await app.inject({ method: 'GET', url: `/v1/partner/payments/${a.paymentId}/status`, headers: PARTNER })).paymentUrl,
    a.paymentUrl,
  );
  t.equal(app.store.payments.getByToken(tokenA)?.id, a.paymentId);

  const macA = tokenA.split('_').pop()!;
  const flipped = `${macA.slice(0, -1)}${macA.endsWith('A') ? 'B' : 'A'}`;
  const forged = [
    `pay_${b.paymentId}_${macA}`, // another payment's id with this one's mac
    `pay_${a.paymentId}_${flipped}`, // one character of the mac changed
    `pay_${a.paymentId}_${macA}x`,
    `pay_0${a.paymentId}_${macA}`,
    `pay_${a.paymentId}`,
    'pay_old1',
  ];
  for (const token of forged) {
    t.equal(app.store.payments.getByToken(token), undefined, `${token} finds nothing`);
    const page = await app.inject({ method: 'GET', url: `/pay/${encodeURIComponent(token)}` });
    t.equal(page.statusCode, 404, `${token}: the hosted page says not found`);
  }
  const ok = await app.inject({ method: 'GET', url: `/pay/${tokenA}` });
  t.equal(ok.statusCode, 200);

  // another database: a token from here names nothing there (the mac key is per database)
  const other = await build(t);
  const om = json(
    await other.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 'Other ApS' } }),
  );
  const op = json(
    await other.inject({
      method: 'POST',
      url: '/v1/partner/payments',
      headers: PARTNER,
      payload: { merchantClientId: om.clientId, amount: 1, referenceNumber: 'o' },
    }),
  );
  t.equal(op.paymentId, a.paymentId, 'the same id exists there');
  t.not(op.paymentUrl.split('/pay/')[1], tokenA, 'with another token');
  t.equal(other.store.payments.getByToken(tokenA), undefined, "this database's token names nothing there");
});
