/**
 * The recording rules on journals written by hand (src/domain/scenario-draft*.ts): which values
 * become variable references and which stay literal, and which captures survive.
 */
import t from 'tap';
import { draftScenario, type DraftEntry } from '../../src/domain/scenario-draft.js';

const AT = '2026-01-15T09:00:00.000Z';
let nextId = 1;
const entry = (e: Partial<DraftEntry> & Pick<DraftEntry, 'method' | 'path' | 'status'>): DraftEntry => ({
  id: nextId++,
  at: AT,
  query: {},
  headers: { 'x-partner-client-id': 'sandbox-partner' },
  requestBodyTruncated: false,
  durationMs: 1,
  responseBodyTruncated: false,
  ...e,
});

const steps = (entries: DraftEntry[]) =>
  draftScenario({ name: 'n', origin: 'a test', entries, deliveries: [], truncated: false }).scenario!.steps as {
    request: { path: string; expect: { body?: Record<string, unknown> }; capture?: Record<string, string> };
  }[];

t.test('a number is a variable only under a key naming an id: a count equal to a payment id stays a count', async (t) => {
  const s = steps([
    entry({ method: 'POST', path: '/v1/partner/payments', status: 200, responseBody: { paymentId: 2, status: 'pending' } }),
    entry({
      method: 'GET',
      path: '/v1/partner/payments',
      status: 200,
      responseBody: { totalCount: 2, items: [{ paymentId: 2, status: 'pending' }] },
    }),
  ]);
  t.same(s[0].request.capture, { paymentId: 'paymentId' }, 'the id is captured where it is handed out');
  t.same(s[1].request.expect.body, { totalCount: 2, items: [{ paymentId: '${paymentId}', status: 'pending' }] });
});

t.test('a path segment that names an Object property is not taken for a kind', async (t) => {
  const s = steps([
    entry({ method: 'POST', path: '/v1/partner/payments', status: 200, responseBody: { paymentId: 7 } }),
    entry({ method: 'GET', path: '/v1/partner/constructor/7', status: 404, responseBody: { code: 'not_found', id: 7 } }),
    entry({ method: 'GET', path: '/v1/partner/payments/7/status', status: 200, responseBody: { status: 'pending' } }),
  ]);
  t.equal(s[1].request.path, '/v1/partner/constructor/7', 'no payment kind under /constructor');
  t.same(s[1].request.expect.body, { code: 'not_found' });
  t.equal(s[2].request.path, '/v1/partner/payments/${paymentId}/status');
});

t.test('a capture is kept only when a later step refers to it', async (t) => {
  const s = steps([
    entry({ method: 'POST', path: '/v1/partner/payments', status: 200, responseBody: { paymentId: 1 } }),
    entry({ method: 'POST', path: '/v1/partner/payments', status: 200, responseBody: { paymentId: 2 } }),
    entry({ method: 'GET', path: '/v1/partner/payments/2/status', status: 200, responseBody: { status: 'pending' } }),
  ]);
  t.equal(s[0].request.capture, undefined, 'payment 1 is never used again');
  t.same(s[1].request.capture, { paymentId2: 'paymentId' });
  t.equal(s[2].request.path, '/v1/partner/payments/${paymentId2}/status');
});

t.test('on a frozen clock a delivery goes after the hosted-page write that caused it: a link token names its payment', async (t) => {
  const token = 'pay_5000004_Y1q4TrJkCgXiHbe-GBlXzc';
  const entries = [
    entry({ method: 'POST', path: '/v1/partner/webhooks', status: 200, responseBody: { id: 'wh_1', url: 'https://x.test/h' } }),
    entry({
      method: 'POST',
      path: '/v1/partner/payments',
      status: 200,
      responseBody: { paymentId: 5000004, status: 'pending', paymentUrl: `http://localhost:4010/pay/${token}` },
    }),
    entry({ method: 'POST', path: `/pay/${token}`, status: 400, requestBody: { decision: 'approve', bankId: 'down-bank' } }),
    entry({ method: 'GET', path: '/v1/partner/payments/5000004/status', status: 200, responseBody: { status: 'pending' } }),
    entry({ method: 'POST', path: `/pay/${token}`, status: 303, requestBody: { decision: 'approve', bankId: 'up-bank' } }),
  ];
  const { scenario } = draftScenario({
    name: 'n',
    origin: 'a test',
    entries,
    deliveries: [
      {
        id: 1,
        event: 'payment.completed',
        webhookId: 'wh_1',
        body: JSON.stringify({ event: 'payment.completed', data: { paymentId: 5000004, status: 'paid' } }),
        createdAt: AT,
        redeliveryOf: null,
      },
    ],
    truncated: false,
  });
  const kinds = scenario!.steps.map((s) => Object.keys(s).find((k) => k !== 'name'));
  t.equal(kinds.at(-1), 'expectWebhook', 'after the approval that paid it, not after the refused one or the read');
});
