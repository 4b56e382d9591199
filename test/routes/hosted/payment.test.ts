import t from 'tap';
import { build } from '../../helpers/app.js';
import { events, newPayment, postForm, tagOf, textOf } from '../../helpers/hosted.js';
import { TEST_CAUSE } from '../../helpers/engine.js';

const row = (app: Awaited<ReturnType<typeof build>>, id: number) =>
  app.db.prepare('SELECT status, failure_reason, bank_id, bank_payment_status FROM payments WHERE id = ?').get(id) as {
    status: string;
    failure_reason: string | null;
    bank_id: string | null;
    bank_payment_status: string;
  };

t.test('GET /pay/:token shows the bank choice with the payment summary, escaped, with the hosted-page headers', async (t) => {
  const app = await build(t);
  const p = await newPayment(app, 1234.5, '<script>alert(1)</script> & Co');
  const res = await app.inject({ method: 'GET', url: p.path });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/html; charset=utf-8/);
  t.match(res.headers['content-security-policy'], /default-src 'none'/);
  t.equal(res.headers['cache-control'], 'no-store');
  t.notMatch(res.body, /<script>/, 'the hostile merchant name is not markup');
  t.match(res.body, '&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co');
  t.match(res.body, 'DKK 1,234.50');
  t.match(res.body, 'INV-1001');
  t.match(res.body, '<legend>Your bank</legend>');
  for (const bank of ['Nordlys Bank', 'Fjord Sparekasse', 'Baltic Credit AB', 'Rhein Direktbank', 'Thames Mutual']) t.match(res.body, bank);
  t.match(res.body, /<button type="submit" name="decision" value="approve"/);
  t.match(res.body, /<button type="submit" name="decision" value="reject"/);
  t.match(res.body, /<button type="submit" name="decision" value="abandon"/);
  t.notMatch(res.body, /\s(src|href)="(https?:)?\/\//, 'no external assets');
  t.notMatch(res.body, /<script/i, 'no scripts at all');
});

t.test('approve without a bank: 400, the error next to the bank choice, nothing changes', async (t) => {
  const app = await build(t);
  const p = await newPayment(app);
  const res = await postForm(app, p.path, { decision: 'approve' });
  t.equal(res.statusCode, 400);
  t.match(textOf(res.body, 'f-bankId-error'), 'Choose your bank.');
  t.match(tagOf(res.body, 'f-bankId'), /aria-invalid="true"/);
  t.match(tagOf(res.body, 'f-bankId'), /autofocus/, 'focus lands on the first invalid field');
  t.match(res.body, /class="error-summary"[\s\S]*href="#f-bankId"/);
  t.equal(row(app, p.id).status, 'pending');

  const unknownBank = await postForm(app, p.path, { decision: 'approve', bankId: 'no-such-bank' });
  t.equal(unknownBank.statusCode, 400);
  t.match(unknownBank.body, 'Choose one of the banks in the list.');
  const noDecision = await postForm(app, p.path, { bankId: 'nordlys-bank', decision: 'steal' });
  t.equal(noDecision.statusCode, 400);
  t.match(textOf(noDecision.body, 'f-decision-error'), 'Choose Approve payment');
  t.match(noDecision.body, /<input type="radio" id="f-bankId" name="bankId" value="nordlys-bank" checked>/, 'the chosen bank stays chosen');
  t.equal(row(app, p.id).status, 'pending');
  t.same(events(app, 'payment.completed'), []);
});

t.test('approve: 303 back to the page, payment paid with the chosen bank, payment.completed emitted, page shows Paid', async (t) => {
  const app = await build(t);
  const p = await newPayment(app, 125.5);
  const res = await postForm(app, p.path, { decision: 'approve', bankId: 'fjord-sparekasse' });
  t.equal(res.statusCode, 303);
  t.equal(res.headers.location, p.path);
  t.same(row(app, p.id), {
    status: 'paid',
    failure_reason: null,
    bank_id: 'fjord-sparekasse',
    bank_payment_status: 'AcceptedSettlementCompleted',
  });
  t.same(app.engine.timersOf('payment', p.id), [], 'no settlement or expiry timer left behind');
  app.clock.advance(3_600_000);
  t.equal(row(app, p.id).status, 'paid', 'nothing fires later');
  const [completed, ...more] = events(app, 'payment.completed');
  t.same(more, []);
  t.match(completed.data, {
    paymentId: p.id,
    status: 'paid',
    amount: 125.5,
    currency: 'DKK',
    bankPaymentStatus: 'AcceptedSettlementCompleted',
    referenceNumber: 'INV-1001',
  });
  const page = await app.inject({ method: 'GET', url: p.path });
  t.equal(page.statusCode, 200);
  t.match(page.body, '<h1>Payment completed</h1>');
  t.match(page.body, 'data-status="paid"');
  t.match(page.body, 'Fjord Sparekasse');
  t.notMatch(page.body, '<form method="post"', 'no more buttons on a final payment');

  const again = await postForm(app, p.path, { decision: 'reject', bankId: 'nordlys-bank' });
  t.equal(again.statusCode, 303, 'a second POST just shows the result');
  t.equal(row(app, p.id).status, 'paid');
  t.equal(events(app, 'payment.failed').length, 0);
});

t.test('reject at the bank: failed, bank_rejected, payment.failed with the reason', async (t) => {
  const app = await build(t);
  const p = await newPayment(app);
  t.equal((await postForm(app, p.path, { decision: 'reject', bankId: 'nordlys-bank' })).statusCode, 303);
  t.match(row(app, p.id), { status: 'failed', failure_reason: 'bank_rejected', bank_id: 'nordlys-bank', bank_payment_status: 'Rejected' });
  t.match(events(app, 'payment.failed')[0].data, { paymentId: p.id, status: 'failed', failureReason: 'bank_rejected' });
  const page = await app.inject({ method: 'GET', url: p.path });
  t.match(page.body, '<h1>Payment failed</h1>');
  t.match(page.body, 'The bank rejected the payment.');
  t.match(page.body, '<code>bank_rejected</code>');
});

t.test('cancel (abandon) needs no bank: failed, payer_abandoned', async (t) => {
  const app = await build(t);
  const p = await newPayment(app);
  t.equal((await postForm(app, p.path, { decision: 'abandon' })).statusCode, 303);
  t.match(row(app, p.id), { status: 'failed', failure_reason: 'payer_abandoned', bank_id: null });
  t.match(events(app, 'payment.failed')[0].data, { failureReason: 'payer_abandoned' });
  const page = await app.inject({ method: 'GET', url: p.path });
  t.match(page.body, 'The payment was cancelled at the bank.');
});

t.test('magic amount 666.66: the payer approves but the bank rejects', async (t) => {
  const app = await build(t);
  const p = await newPayment(app, 666.66);
  await postForm(app, p.path, { decision: 'approve', bankId: 'nordlys-bank' });
  t.match(row(app, p.id), { status: 'failed', failure_reason: 'bank_rejected' });
  t.equal(events(app, 'payment.completed').length, 0);
});

t.test('processing (approved through the control path) shows "processing"', async (t) => {
  const app = await build(t);
  const p = await newPayment(app);
  app.engine.payment(p.id, 'approve', { bankId: 'thames-mutual', cause: TEST_CAUSE });
  const page = await app.inject({ method: 'GET', url: p.path });
  t.equal(page.statusCode, 200);
  t.match(page.body, '<h1>Payment processing</h1>');
  t.match(page.body, 'data-status="processing"');
  t.equal((await postForm(app, p.path, { decision: 'abandon' })).statusCode, 303, 'no decisions once approved');
  t.equal(row(app, p.id).status, 'processing');
});

t.test('expired link: 410 page, nothing can be decided any more', async (t) => {
  const app = await build(t, { config: { settleDelayMs: 3_600_000 } });
  const p = await newPayment(app);
  app.clock.advance(31 * 60_000); // past OBSIM_PAYMENT_EXPIRY (30m): the expiry timer fires
  t.match(row(app, p.id), { status: 'failed', failure_reason: 'expired' });
  const page = await app.inject({ method: 'GET', url: p.path });
  t.equal(page.statusCode, 410);
  t.match(page.body, '<h1>This payment link has expired</h1>');
  const post = await postForm(app, p.path, { decision: 'approve', bankId: 'nordlys-bank' });
  t.equal(post.statusCode, 410);
  t.equal(row(app, p.id).status, 'failed');
});

t.test('pending past expiresAt before the timer fired also reads as expired', async (t) => {
  const app = await build(t);
  const p = await newPayment(app);
  app.db.prepare('UPDATE payments SET expires_at = ? WHERE id = ?').run(app.clock.iso(-1), p.id);
  const page = await app.inject({ method: 'GET', url: p.path });
  t.equal(page.statusCode, 410);
  t.match(page.body, 'its link expired at');
  t.equal((await postForm(app, p.path, { decision: 'approve', bankId: 'nordlys-bank' })).statusCode, 410);
  t.equal(row(app, p.id).status, 'pending');
});

t.test('unknown token: HTML 404', async (t) => {
  const app = await build(t);
  const res = await app.inject({ method: 'GET', url: '/pay/pay_doesnotexist' });
  t.equal(res.statusCode, 404);
  t.match(res.headers['content-type'], /text\/html/);
  t.match(res.body, 'Payment link not found');
  const post = await postForm(app, '/pay/<script>', { decision: 'approve' });
  t.equal(post.statusCode, 404);
  t.notMatch(post.body, '<script>');
});

t.test('hosted pages are not in the OpenAPI document', async (t) => {
  const app = await build(t);
  const doc = JSON.parse((await app.inject({ method: 'GET', url: '/openapi.json' })).body) as { paths: Record<string, unknown> };
  t.notOk(Object.keys(doc.paths).some((p) => p.startsWith('/pay') || p.startsWith('/onboarding')));
});

t.test('a body the page cannot read answers an HTML error page, not JSON', async (t) => {
  const app = await build(t);
  const p = await newPayment(app);
  for (const url of [p.path, '/onboarding/onb_whatever']) {
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/xml' },
      payload: '<decision>approve</decision>',
    });
    t.equal(res.statusCode, 415, url);
    t.match(res.headers['content-type'], /^text\/html/);
    t.match(res.body, '<h1>This request could not be handled</h1>');
    t.match(res.body, 'unsupported_media_type');
  }
  const json = await app.inject({ method: 'POST', url: p.path, payload: { decision: 'abandon' } });
  t.equal(json.statusCode, 303, 'a JSON body with the same fields works too');
  t.equal(row(app, p.id).status, 'failed');
});
