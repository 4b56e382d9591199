/**
 * Baseline 2, the limit proxy: Fastify + one better-sqlite3 statement per request (file database,
 * WAL, synchronous=NORMAL, statements prepared once): a primary-key read for onboarding-status and
 * for payment status, one INSERT for payments, one indexed range read for transactions. What a
 * well-written Fastify server must do for these calls and nothing more: obsim's own route schemas
 * (the path parameter and the body validated, the answer serialized from its response schema), the
 * partner's credentials compared (partner routes) and a bearer token required (the AIS read).
 * It does no less than the outside harness's limit proxy (its servers/fastify-sqlite.js: Fastify,
 * the same route schemas, one prepared statement), so the two instruments divide by the same work
 * (docs/performance.md, "One truth").
 *
 * Env: PORT, BASELINE_DB (file path), BASELINE_TRANSACTIONS (rows seeded on the account),
 * BASELINE_PLAIN=1 (no schemas, no credentials: the proxy `npm run bench` had before issue 74).
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { randomBytes } from 'node:crypto';
import { sharedSchemas } from '../../dist/schemas/index.js';
import { responses } from '../../dist/schemas/common.js';
import { MerchantIdParams } from '../../dist/schemas/partner.js';
import { PaymentIdParams } from '../../dist/schemas/partner-payments.js';
import { listen, payment, transactionsPage } from './payloads.mjs';

const db = new Database(process.env.BASELINE_DB ?? ':memory:');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`
  CREATE TABLE IF NOT EXISTS merchants (id INTEGER PRIMARY KEY, client_id TEXT NOT NULL, status TEXT NOT NULL,
    sub_tpp_id TEXT, sub_tpp_status TEXT);
  CREATE TABLE IF NOT EXISTS payments (id INTEGER PRIMARY KEY AUTOINCREMENT, merchant_client_id TEXT NOT NULL,
    amount_minor INTEGER NOT NULL, reference_number TEXT NOT NULL, status TEXT NOT NULL, payment_token TEXT NOT NULL,
    created_at TEXT NOT NULL, expires_at TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS transactions (id INTEGER PRIMARY KEY, account_id TEXT NOT NULL, booking_date TEXT NOT NULL,
    amount TEXT NOT NULL, currency TEXT NOT NULL, description TEXT NOT NULL, counterparty_name TEXT NOT NULL,
    counterparty_iban TEXT NOT NULL, reference TEXT NOT NULL, type TEXT NOT NULL, status TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS transactions_account ON transactions (account_id, booking_date DESC, id DESC);
  INSERT OR IGNORE INTO merchants VALUES (100001, '5b0c7c1e-0c55-4a0e-9d1c-0d2f3e4a5b6c', 'activated', 'stpp_3f9a1c2b7d4e', 'active');
`);

const ACCOUNT = 'acc_bench';
const rows = Number(process.env.BASELINE_TRANSACTIONS ?? 100000);
if ((db.prepare('SELECT count(*) FROM transactions').pluck().get() ?? 0) === 0) {
  const ins = db.prepare('INSERT INTO transactions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const start = Date.parse('2016-01-01T00:00:00.000Z');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) {
      ins.run(
        i + 1,
        ACCOUNT,
        new Date(start + i * 3_000_000).toISOString(),
        `-${(10 + (i % 990)).toFixed(2)}`,
        'DKK',
        `Card payment ${i % 97} Netto Nørrebro`,
        'Netto Nørrebro',
        'DK5000400440116243',
        `REF${String(i).padStart(10, '0')}`,
        'debit',
        'booked',
      );
    }
  })();
}
const total = db.prepare('SELECT count(*) FROM transactions WHERE account_id = ?').pluck().get(ACCOUNT);

const merchant = db.prepare('SELECT id, status, sub_tpp_id, sub_tpp_status FROM merchants WHERE id = ?');
const insertPayment = db.prepare(
  'INSERT INTO payments (merchant_client_id, amount_minor, reference_number, status, payment_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
);
const page = db.prepare('SELECT * FROM transactions WHERE account_id = ? ORDER BY booking_date DESC, id DESC LIMIT ?');
const paymentById = db.prepare('SELECT * FROM payments WHERE id = ?');
if (!paymentById.get(5000001)) {
  db.prepare(
    'INSERT INTO payments (id, merchant_client_id, amount_minor, reference_number, status, payment_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(
    5000001,
    'c0ffee00-0000-4000-8000-000000000001',
    12550,
    'bench-status',
    'pending',
    'pay_5000001_Zm9vYmFyYmF6cXV4cXV1',
    '2026-01-15T09:00:00.000Z',
    '2026-01-15T09:30:00.000Z',
  );
}

const app = Fastify({ logger: false });
for (const schema of sharedSchemas) app.addSchema(schema);
/** Partner routes: the credentials compared, 401 otherwise (obsim's partner-auth does more: a sandbox's own). */
const partner = (request, reply, done) => {
  const h = request.headers;
  if (h['x-partner-client-id'] !== 'sandbox-partner' || h['x-partner-client-secret'] !== 'sandbox-secret') {
    return void reply
      .code(401)
      .send({ status: 401, code: 'partner_credentials_invalid', message: 'unknown partner', requestId: request.id });
  }
  done();
};
const bearer = (request, reply, done) => {
  if (!request.headers.authorization?.startsWith('Bearer '))
    return void reply.code(401).send({ status: 401, code: 'token_missing', message: 'no bearer token', requestId: request.id });
  done();
};
// a refused request in the one error shape (its response schema is obsim's ErrorBody)
app.setErrorHandler((err, request, reply) => {
  const status = err.statusCode ?? 500;
  void reply
    .code(status)
    .send({ status, code: err.validation ? 'validation_failed' : 'error', message: err.message, requestId: request.id });
});
// BASELINE_PLAIN=1: no schemas and no credentials (the proxy `npm run bench` had before issue 74)
const route = (auth, schema) =>
  process.env.BASELINE_PLAIN ? {} : { onRequest: auth, schema: { ...schema, response: responses(schema.response) } };

app.get('/healthz', async () => ({ status: 'ok' }));
app.get(
  '/v1/partner/merchants/:merchantId/onboarding-status',
  route(partner, { params: MerchantIdParams, response: { $ref: 'OnboardingStatusResponse#' } }),
  async (request, reply) => {
    const m = merchant.get(Number(request.params.merchantId));
    if (!m) return reply.code(404).send({ status: 404, code: 'merchant_not_found', message: 'no such merchant', requestId: request.id });
    return {
      merchantId: m.id,
      onboardingStatus: m.status,
      subTppId: m.sub_tpp_id,
      subTppDetails: { status: m.sub_tpp_status, isActivated: m.status === 'activated' },
    };
  },
);
app.get(
  '/v1/partner/payments/:paymentId/status',
  route(partner, { params: PaymentIdParams, response: { $ref: 'Payment#' } }),
  async (request, reply) => {
    const p = paymentById.get(Number(request.params.paymentId));
    if (!p) return reply.code(404).send({ status: 404, code: 'payment_not_found', message: 'no such payment', requestId: request.id });
    const body = { amount: p.amount_minor / 100, referenceNumber: p.reference_number, merchantClientId: p.merchant_client_id };
    return { ...payment(p.id, body, p.created_at, p.expires_at, p.payment_token), status: p.status };
  },
);
app.post(
  '/v1/partner/payments',
  route(partner, { body: { $ref: 'CreatePaymentRequest#' }, response: { $ref: 'Payment#' } }),
  async (request) => {
    const now = Date.now();
    const created = new Date(now).toISOString();
    const expires = new Date(now + 1_800_000).toISOString();
    const token = `pay_${randomBytes(16).toString('base64url')}`;
    const b = request.body;
    const { lastInsertRowid } = insertPayment.run(
      b.merchantClientId,
      Math.round(b.amount * 100),
      b.referenceNumber,
      'pending',
      token,
      created,
      expires,
    );
    return payment(Number(lastInsertRowid), b, created, expires, token);
  },
);
app.post(
  '/v1/ais/accounts/transactions',
  route(bearer, { body: { $ref: 'TransactionsRequest#' }, response: { $ref: 'TransactionsResponse#' } }),
  async (request) => {
    const limit = Math.min(Number(request.body.pageLimit ?? 200), 200);
    const items = page.all(ACCOUNT, limit).map((r) => ({
      transactionId: `txn_${String(r.id).padStart(8, '0')}`,
      amount: r.amount,
      currency: r.currency,
      description: r.description,
      bookingDate: r.booking_date,
      valueDate: r.booking_date,
      counterparty: { name: r.counterparty_name, iban: r.counterparty_iban },
      reference: r.reference,
      type: r.type,
      status: r.status,
    }));
    return transactionsPage(request.body, total, items);
  },
);

await listen(app);
