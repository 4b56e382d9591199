/**
 * Baseline 1: bare Fastify answering fixed JSON on obsim's routes (no auth, no validation, no
 * database). The ceiling of what any Fastify server can do on this machine.
 */
import Fastify from 'fastify';
import { listen, onboardingStatus, payment, transaction, transactionsPage } from './payloads.mjs';

const app = Fastify({ logger: false });
const status = onboardingStatus(100001);
const booked = '2026-01-15T09:00:00.000Z';
const items = Array.from({ length: 200 }, (_, i) => transaction(i, booked));
let nextPayment = 5000001;

app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/v1/partner/merchants/:merchantId/onboarding-status', async () => status);
const stored = payment(
  5000001,
  { amount: 125.5, referenceNumber: 'bench-status', merchantClientId: 'c0ffee00-0000-4000-8000-000000000001' },
  booked,
  booked,
  'pay_5000001_Zm9vYmFyYmF6cXV4cXV1',
);
app.get('/v1/partner/payments/:paymentId/status', async () => stored);
app.post('/v1/partner/payments', async (request) =>
  payment(nextPayment++, request.body, '2026-01-15T09:00:00.000Z', '2026-01-15T09:30:00.000Z', 'pay_Zm9vYmFyYmF6cXV4cXV1eA'),
);
app.post('/v1/ais/accounts/transactions', async (request) => {
  const limit = Math.min(Number(request.body.pageLimit ?? 200), 200);
  return transactionsPage(request.body, 100000, items.slice(0, limit));
});

await listen(app);
