/**
 * What a bank profile does to payments on the hosted page (docs/banks.md): a down bank refused
 * and another chosen, or the payment left to expire; decoupled approval arriving on the sandbox
 * clock, or never; a degraded bank's seeded failures; business-day settlement; and the bank and
 * rule named on the transitions. Without a profile, or with the healthy one, nothing changes.
 */
import t from 'tap';
import { build } from '../helpers/app.js';
import { advance } from '../helpers/engine.js';
import { events, newPayment, postForm, textOf } from '../helpers/hosted.js';
import { call } from '../helpers/partner.js';
import { reportMarkdown, reportText } from '../../src/readiness/render.js';

type App = Awaited<ReturnType<typeof build>>;
const setBank = async (app: App, bankId: string, body: unknown) => {
  const r = await call(app, 'PUT', `/_sandbox/banks/${bankId}`, body);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
};
const status = async (app: App, id: number) => (await call(app, 'GET', `/v1/partner/payments/${id}/status`)).body;
const transitions = async (app: App, id: number) =>
  (await call(app, 'GET', `/_sandbox/payments/${id}/transitions`)).body.items.map(
    (x: { from: string | null; to: string; reason?: string; bank?: { bankId: string; rule: string } }) =>
      `${x.from ?? 'created'}->${x.to}${x.reason ? ` (${x.reason})` : ''}${x.bank ? ` [${x.bank.bankId} ${x.bank.rule}]` : ''}`,
  );

t.test('a down bank: shown unavailable, refused with the others offered; another bank pays', async (t) => {
  const app = await build(t);
  await setBank(app, 'nordlys-bank', { profile: 'down' });
  const p = await newPayment(app);
  await advance(app, '1s');
  const page = await app.inject({ method: 'GET', url: p.path });
  await advance(app, '1s');
  t.match(page.body, /Nordlys Bank <span class="hint">DK · BIC NLYSDKKKXXX · unavailable right now/);
  t.notMatch(page.body, /Fjord Sparekasse <span class="hint">[^<]*unavailable/);
  const refused = await postForm(app, p.path, { decision: 'approve', bankId: 'nordlys-bank' });
  t.equal(refused.statusCode, 400);
  t.equal(
    textOf(refused.body, 'f-bankId-error'),
    'Error: Nordlys Bank is unavailable right now. Choose another bank, or cancel the payment.',
  );
  t.equal((await status(app, p.id)).status, 'pending');
  await advance(app, '1s');
  const other = await postForm(app, p.path, { decision: 'approve', bankId: 'fjord-sparekasse' });
  t.equal(other.statusCode, 303);
  t.equal((await status(app, p.id)).status, 'paid');
  t.same(await transitions(app, p.id), ['created->pending', 'pending->processing', 'processing->paid'], 'the down bank is behind nothing');
  const timeline = (await call(app, 'GET', `/_sandbox/payments/${p.id}`)).body.timeline;
  t.same(
    timeline.map((e: { kind: string; status: string | null; bank?: { bankId: string } }) => [e.kind, e.status, e.bank?.bankId ?? null]),
    [
      ['created', 'pending', null],
      ['page_opened', null, null],
      ['bank_unavailable', null, 'nordlys-bank'],
      ['status_changed', 'processing', null],
      ['status_changed', 'paid', null],
      ['event', null, null],
    ],
    'the timeline shows the down bank tried, then the payment with another',
  );
});

t.test('a payment left with a down bank expires, the transition naming the bank and the rule', async (t) => {
  const app = await build(t);
  await setBank(app, 'thames-mutual', { profile: 'down' });
  const p = await newPayment(app);
  await app.inject({ method: 'GET', url: p.path });
  await postForm(app, p.path, { decision: 'approve', bankId: 'thames-mutual' });
  await advance(app, '31m');
  const s = await status(app, p.id);
  t.match(s, { status: 'failed', bankPaymentStatus: 'Cancelled' });
  t.same(await transitions(app, p.id), ['created->pending', 'pending->failed (expired) [thames-mutual bank_down]']);
  t.equal(events(app, 'payment.failed').length, 1);
  t.equal(events(app, 'payment.failed')[0].data.failureReason, 'expired');
});

t.test('decoupled approval: the page waits, the approval arrives on the sandbox clock and the payment settles', async (t) => {
  const app = await build(t);
  await setBank(app, 'rhein-direktbank', { profile: 'slow-app-approval' });
  const p = await newPayment(app);
  await app.inject({ method: 'GET', url: p.path });
  t.equal((await postForm(app, p.path, { decision: 'approve', bankId: 'rhein-direktbank' })).statusCode, 303);
  const waiting = await app.inject({ method: 'GET', url: p.path });
  t.match(waiting.body, 'data-status="awaiting-app"');
  t.match(waiting.body, 'Open the Rhein Direktbank app');
  t.equal((await status(app, p.id)).status, 'pending');
  t.equal(
    (await postForm(app, p.path, { decision: 'approve', bankId: 'fjord-sparekasse' })).statusCode,
    303,
    'approving again changes nothing',
  );
  await advance(app, '599s');
  t.equal((await status(app, p.id)).status, 'pending');
  await advance(app, '1s');
  t.match(await status(app, p.id), { status: 'paid', bankPaymentStatus: 'AcceptedSettlementCompleted' });
  t.same(await transitions(app, p.id), [
    'created->pending',
    'pending->processing [rhein-direktbank app_approval]',
    'processing->paid [rhein-direktbank app_approval]',
  ]);
  t.equal(events(app, 'payment.completed').length, 1);
});

t.test('decoupled approval that never comes: the payment expires; cancelling from the waiting page works', async (t) => {
  const app = await build(t);
  await setBank(app, 'baltic-credit', { profile: 'app-approval-timeout' });
  const p = await newPayment(app);
  await app.inject({ method: 'GET', url: p.path });
  await postForm(app, p.path, { decision: 'approve', bankId: 'baltic-credit' });
  await advance(app, '30m');
  t.match(await status(app, p.id), { status: 'failed' });
  t.same((await transitions(app, p.id)).at(-1), 'pending->failed (expired) [baltic-credit app_approval_expired]');

  const q = await newPayment(app);
  await app.inject({ method: 'GET', url: q.path });
  await postForm(app, q.path, { decision: 'approve', bankId: 'baltic-credit' });
  t.equal((await postForm(app, q.path, { decision: 'abandon' })).statusCode, 303);
  t.same((await transitions(app, q.id)).at(-1), 'pending->failed (payer_abandoned) [baltic-credit app_approval]');
});

/** Approve `n` payments at a degraded bank and read each outcome after its late answer. */
async function degradedOutcomes(seed: number, n: number): Promise<string[]> {
  const app = await build(t);
  await setBank(app, 'fjord-sparekasse', { profile: 'degraded', failureRate: 0.4, seed });
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = await newPayment(app);
    await app.inject({ method: 'GET', url: p.path });
    await postForm(app, p.path, { decision: 'approve', bankId: 'fjord-sparekasse' });
    ids.push(p.id);
  }
  const processing = await Promise.all(ids.map((id) => status(app, id)));
  if (processing.some((s) => s.status !== 'processing')) throw new Error('a degraded bank answers late');
  await advance(app, '60s');
  return Promise.all(ids.map(async (id) => (await status(app, id)).status as string));
}

t.test('a degraded bank: late answers, a seeded share rejected, the same seed and sequence the same failures', async (t) => {
  const first = await degradedOutcomes(42, 25);
  const again = await degradedOutcomes(42, 25);
  const other = await degradedOutcomes(7, 25);
  t.same(again, first, 'same seed, same sequence: the same outcomes');
  t.not(other.join(), first.join(), 'another seed: other outcomes');
  const failed = first.filter((s) => s === 'failed').length;
  t.ok(failed >= 4 && failed <= 18, `about 40 % fail (${failed} of 25)`);
  t.ok(first.every((s) => s === 'paid' || s === 'failed'));
});

t.test('the degraded failure names its bank and rule, with the documented failure reason', async (t) => {
  const app = await build(t);
  await setBank(app, 'nordlys-bank', { profile: 'degraded', failureRate: 1, seed: 1 });
  const p = await newPayment(app);
  await app.inject({ method: 'GET', url: p.path });
  await postForm(app, p.path, { decision: 'approve', bankId: 'nordlys-bank' });
  await advance(app, '1m');
  t.match(await status(app, p.id), { status: 'failed', bankPaymentStatus: 'Rejected' });
  t.same(await transitions(app, p.id), [
    'created->pending',
    'pending->processing [nordlys-bank degraded_failure]',
    'processing->failed (bank_rejected) [nordlys-bank degraded_failure]',
  ]);
  t.equal(events(app, 'payment.failed')[0].data.failureReason, 'bank_rejected');
  const approval = (await call(app, 'GET', '/_sandbox/requests?method=POST&pathPrefix=/pay/')).body.items[0];
  const entry = (await call(app, 'GET', `/_sandbox/requests/${approval.id}`)).body;
  t.same(
    entry.bank,
    [{ resource: 'payment', resourceId: String(p.id), bankId: 'nordlys-bank', rule: 'degraded_failure' }],
    'the journal names it',
  );
});

t.test('business-day settlement: before the cut-off at once; Friday evening settles Monday at 09:00 local', async (t) => {
  const app = await build(t); // Thursday 2026-01-15 10:00 in Copenhagen
  await setBank(app, 'nordlys-bank', { profile: 'weekend-settlement' });
  const early = await newPayment(app);
  await app.inject({ method: 'GET', url: early.path });
  await postForm(app, early.path, { decision: 'approve', bankId: 'nordlys-bank' });
  t.equal((await status(app, early.id)).status, 'paid', 'before the cut-off on a business day: at once');

  await advance(app, '30h'); // Friday 16:00 in Copenhagen, after the 15:00 cut-off
  const late = await newPayment(app);
  await app.inject({ method: 'GET', url: late.path });
  await postForm(app, late.path, { decision: 'approve', bankId: 'nordlys-bank' });
  t.match(await status(app, late.id), { status: 'processing', bankPaymentStatus: 'AcceptedCustomerProfile' });
  t.match((await app.inject({ method: 'GET', url: late.path })).body, 'settles it on its next business day');
  await advance(app, '3899m'); // Monday 08:59 in Copenhagen
  t.equal((await status(app, late.id)).status, 'processing');
  await advance(app, '1m');
  t.match(await status(app, late.id), { status: 'paid', bankPaymentStatus: 'AcceptedSettlementCompleted' });
  const completed = events(app, 'payment.completed').at(-1)!;
  t.equal(completed.timestamp, '2026-01-19T08:00:00.000Z', 'settled at 09:00 Copenhagen time on Monday');
  t.same((await transitions(app, late.id)).slice(1), [
    'pending->processing [nordlys-bank next_business_day]',
    'processing->paid [nordlys-bank next_business_day]',
  ]);
});

t.test('the healthy profile on every bank answers and delivers exactly as no profile', async (t) => {
  async function run(profiled: boolean) {
    const app = await build(t);
    if (profiled) for (const b of ['nordlys-bank', 'fjord-sparekasse']) await setBank(app, b, { profile: 'healthy', seed: 1 });
    const out: unknown[] = [];
    for (const [decision, bankId] of [
      ['approve', 'nordlys-bank'],
      ['reject', 'fjord-sparekasse'],
      ['abandon', ''],
    ] as const) {
      const p = await newPayment(app);
      out.push((await app.inject({ method: 'GET', url: p.path })).body.replace(/\/pay\/[\w-]+/g, '/pay/T'));
      const r = await postForm(app, p.path, bankId ? { decision, bankId } : { decision });
      out.push(r.statusCode, await status(app, p.id), await transitions(app, p.id));
    }
    const untouched = await newPayment(app);
    await advance(app, '10s');
    out.push(await status(app, untouched.id));
    out.push(app.db.prepare('SELECT name, body FROM events ORDER BY rowid').all());
    // the random parts: client ids and payment link tokens
    return JSON.stringify(out)
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
      .replace(/pay_\d+_[\w-]+/g, 'TOKEN');
  }
  t.same(await run(true), await run(false));
});

t.test('where it shows: the delivery log, the payment timeline and the readiness report name the bank and rule', async (t) => {
  const app = await build(t);
  await call(app, 'POST', '/v1/partner/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['payment.completed', 'payment.failed'] });
  await setBank(app, 'baltic-credit', { profile: 'app-approval-timeout' });
  await setBank(app, 'nordlys-bank', { profile: 'weekend-settlement' });
  const timedOut = await newPayment(app);
  await app.inject({ method: 'GET', url: timedOut.path });
  await postForm(app, timedOut.path, { decision: 'approve', bankId: 'baltic-credit' });
  const waiting = (await call(app, 'GET', `/_sandbox/payments/${timedOut.id}`)).body.timeline;
  t.match(waiting.at(-1), { kind: 'app_approval_requested', bank: { bankId: 'baltic-credit', rule: 'app_approval' } });
  await advance(app, '30m');
  const failed = (await call(app, 'GET', '/_sandbox/deliveries?event=payment.failed')).body.items[0];
  t.same(failed.bank, { bankId: 'baltic-credit', rule: 'app_approval_expired' }, 'the delivery log names the bank and rule');
  const timeline = (await call(app, 'GET', `/_sandbox/payments/${timedOut.id}`)).body.timeline;
  t.match(
    timeline.find((e: { kind: string }) => e.kind === 'status_changed'),
    {
      status: 'failed',
      bank: { bankId: 'baltic-credit', rule: 'app_approval_expired' },
    },
  );

  await advance(app, '31h'); // Friday evening in Copenhagen
  const held = await newPayment(app);
  await app.inject({ method: 'GET', url: held.path });
  await postForm(app, held.path, { decision: 'approve', bankId: 'nordlys-bank' });
  await advance(app, '3d');
  const report = (await call(app, 'GET', '/_sandbox/report')).body;
  t.same(report.lifecycles.bankRules, { app_approval_expired: 1, next_business_day: 1 });
  t.match(reportText(report), 'bank profiles met: app approval expired 1, next business day 1');
  t.match(reportMarkdown(report), '- bank profiles met: `app_approval_expired` 1, `next_business_day` 1');
});
