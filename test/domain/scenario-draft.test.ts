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
