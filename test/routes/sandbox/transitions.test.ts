/**
 * Transitions on record (docs/lifecycle-and-webhooks.md, "Transitions"): every state change of a
 * payment, merchant or consent, with what caused it and the trace it belongs to; read per resource
 * by its owner only; kept by snapshots, cleared by resets, bounded per sandbox.
 */
import t from 'tap';
import { TRANSITIONS_KEPT } from '../../../src/store/transitions.js';
import { OTHER_PARTNER, PARTNER, schemaErrors } from '../../helpers/app.js';
import { aisApp } from '../../helpers/ais.js';
import { buildTwo, call, standardMerchant, testMerchant } from '../../helpers/partner.js';
import { transitionProblems } from '../../helpers/transitions.js';

const PARTNER_ID = PARTNER['x-partner-client-id'];
const traceparent = (trace: string, span = '00f067aa0ba902b7') => `00-${trace}-${span}-01`;
const TRACE_A = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACE_B = '0af7651916cd43dd8448eb211c80319c';
const TRACE_C = 'b7ad6b7169203331b7ad6b7169203331';

async function transitions(app: Awaited<ReturnType<typeof buildTwo>>, path: string, headers = PARTNER) {
  const r = await call(app, 'GET', `/_sandbox/${path}/transitions`, undefined, headers);
  if (r.status === 200) return { status: r.status, items: r.body.items as any[], body: r.body };
  return { status: r.status, items: [], body: r.body };
}

t.test("a payment's transitions: its creation by a request, a control action, a timer; each in its trace", async (t) => {
  const app = await buildTwo(t);
  const m = await testMerchant(app);
  const created = await call(
    app,
    'POST',
    '/v1/partner/payments',
    { merchantClientId: m.clientId, amount: 20, referenceNumber: 't-1' },
    { ...PARTNER, traceparent: traceparent(TRACE_A) },
  );
  t.equal(created.status, 200);
  const answered = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(created.headers.traceparent));
  t.ok(answered, 'the answer carries a traceparent');
  t.equal(answered?.[1], TRACE_A, 'in the trace the caller sent');
  t.not(answered?.[2], '00f067aa0ba902b7', "with the request's own span, not the caller's");
  const id = created.body.paymentId;

  let list = await transitions(app, `payments/${id}`);
  t.equal(list.status, 200);
  t.same(schemaErrors('SandboxTransitionList', list.body), []);
  t.match(list.items, [
    {
      resource: 'payment',
      resourceId: String(id),
      from: null,
      to: 'pending',
      at: '2026-01-15T09:00:00.000Z',
      cause: { kind: 'request', name: 'createPayment', requestId: created.headers['x-request-id'] },
      traceId: TRACE_A,
    },
  ]);

  const approved = await call(app, 'POST', `/_sandbox/payments/${id}/approve`, undefined, {
    ...PARTNER,
    traceparent: traceparent(TRACE_B),
  });
  t.equal(approved.status, 200);
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '1h' }, { ...PARTNER, traceparent: traceparent(TRACE_C) });
  list = await transitions(app, `payments/${id}`);
  t.same(schemaErrors('SandboxTransitionList', list.body), []);
  t.same(
    list.items.map((i) => [i.from, i.to, i.cause.kind, i.cause.name, i.traceId]),
    [
      [null, 'pending', 'request', 'createPayment', TRACE_A],
      ['pending', 'processing', 'control', 'approve', TRACE_B],
      ['processing', 'paid', 'timer', 'settle', TRACE_B],
    ],
    "the settlement continues the trace of the approval that scheduled it, not the clock's advance",
  );
  t.equal(list.items[1].cause.requestId, approved.headers['x-request-id']);
  t.notOk('requestId' in list.items[2].cause, 'a timer is no request');
  t.equal(list.items[2].at, '2026-01-15T09:00:05.000Z', "on the sandbox's clock: due 5 s (the settle delay) after the approval");
  t.ok(list.items[0].id < list.items[1].id && list.items[1].id < list.items[2].id, 'ids order them');
  t.same(transitionProblems(app, PARTNER_ID), []);

  await t.test("another partner's payment: 404, as for its status", async (t) => {
    const r = await transitions(app, `payments/${id}`, OTHER_PARTNER);
    t.equal(r.status, 404);
    t.equal(r.body.code, 'payment_not_found');
    t.same(schemaErrors('ErrorBody', r.body), []);
    t.equal((await transitions(app, 'payments/999999')).status, 404);
    t.equal((await transitions(app, 'payments/abc')).status, 400, 'a malformed id: 400');
  });
});

t.test('a failure names its reason; an untouched payment settles on its own timer, in its creation trace', async (t) => {
  const app = await buildTwo(t);
  const m = await testMerchant(app);
  const body = (ref: string) => ({ merchantClientId: m.clientId, amount: 5, referenceNumber: ref });
  const failed = await call(app, 'POST', '/v1/partner/payments', body('f-1'));
  await call(app, 'POST', `/_sandbox/payments/${failed.body.paymentId}/expire`);
  const untouched = await call(app, 'POST', '/v1/partner/payments', body('f-2'), { ...PARTNER, traceparent: traceparent(TRACE_A) });
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '10s' });
  const f = await transitions(app, `payments/${failed.body.paymentId}`);
  t.match(f.items[1], { from: 'pending', to: 'failed', reason: 'expired', cause: { kind: 'control', name: 'expire' } });
  const u = await transitions(app, `payments/${untouched.body.paymentId}`);
  t.same(
    u.items.map((i) => [i.from, i.to, i.cause.kind, i.traceId]),
    [
      [null, 'pending', 'request', TRACE_A],
      ['pending', 'paid', 'timer', TRACE_A],
    ],
  );
  t.match(u.items[0].traceId, /^[0-9a-f]{32}$/);
  const plain = await transitions(app, `payments/${failed.body.paymentId}`);
  t.not(plain.items[0].traceId, plain.items[1].traceId, 'a request without traceparent starts a trace of its own');
});

t.test('who made the change: the console, a scenario step, a persona; a forged cause is ignored', async (t) => {
  const app = await buildTwo(t);
  const m = await testMerchant(app);
  const pay = async (ref: string) =>
    (await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 3, referenceNumber: ref })).body.paymentId;
  const cases: [Record<string, string>, string, string][] = [
    [{ 'x-obsim-console': 'action' }, 'console', 'complete'],
    [{ 'x-obsim-cause': 'scenario_step: checkout story #4 control' }, 'scenario_step', 'checkout story #4 control'],
    [{ 'x-obsim-cause': 'persona: shop-with-history' }, 'persona', 'shop-with-history'],
    [{ 'x-obsim-cause': 'timer: settle' }, 'control', 'complete'],
    [{ 'x-obsim-cause': 'seed: start' }, 'control', 'complete'],
    [{ 'x-obsim-cause': 'nonsense' }, 'control', 'complete'],
  ];
  for (const [headers, kind, name] of cases) {
    const id = await pay(`c-${kind}-${name}`);
    const r = await call(app, 'POST', `/_sandbox/payments/${id}/complete`, undefined, { ...PARTNER, ...headers });
    t.equal(r.status, 200);
    const [, done] = (await transitions(app, `payments/${id}`)).items;
    t.match(done.cause, { kind, name }, JSON.stringify(headers));
  }
  const consoleCreated = await call(
    app,
    'POST',
    '/v1/partner/payments',
    { merchantClientId: m.clientId, amount: 3, referenceNumber: 'x' },
    {
      ...PARTNER,
      'x-obsim-console': 'action',
    },
  );
  const [first] = (await transitions(app, `payments/${consoleCreated.body.paymentId}`)).items;
  t.match(first.cause, { kind: 'console', name: 'createPayment' });
});

t.test("a merchant's transitions: created, onboarding submitted, approved by its timer; the seeded merchant's creation", async (t) => {
  const app = await buildTwo(t);
  const seeded = app.store.transitions.ofPartner(PARTNER_ID);
  t.match(seeded, [{ resource: 'merchant', from_state: null, to_state: 'activated', cause_kind: 'seed', cause_name: 'start' }]);
  const m = await standardMerchant(app);
  await call(app, 'POST', `/_sandbox/merchants/${m.merchantId}/submit-onboarding`, undefined, {
    ...PARTNER,
    traceparent: traceparent(TRACE_B),
  });
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '31s' });
  const list = await transitions(app, `merchants/${m.merchantId}`);
  t.same(schemaErrors('SandboxTransitionList', list.body), []);
  t.same(
    list.items.map((i) => [i.from, i.to, i.cause.kind, i.cause.name]),
    [
      [null, 'pending_onboarding', 'request', 'createMerchant'],
      ['pending_onboarding', 'awaiting_approval', 'control', 'submit-onboarding'],
      ['awaiting_approval', 'activated', 'timer', 'approve'],
    ],
  );
  t.equal(list.items[2].traceId, TRACE_B, 'the approval continues the trace of the submission');
  t.equal((await transitions(app, `merchants/${m.merchantId}`, OTHER_PARTNER)).body.code, 'merchant_not_found');
  t.same(transitionProblems(app, PARTNER_ID), []);
});

t.test("a consent's transitions: created by the API, authorized by a control action; scoped by its merchant", async (t) => {
  const ais = await aisApp(t);
  const { app } = ais;
  const consent = await ais.createConsent('user-typical');
  await call(app, 'POST', `/_sandbox/consents/${consent.requestId}/authorize`);
  const list = await transitions(app, `consents/${consent.requestId}`);
  t.same(schemaErrors('SandboxTransitionList', list.body), []);
  t.same(
    list.items.map((i) => [i.resource, i.from, i.to, i.cause.kind, i.cause.name]),
    [
      ['consent', null, 'pending', 'request', 'createConsent'],
      ['consent', 'pending', 'authorized', 'control', 'authorize'],
    ],
  );
  const other = await call(app, 'GET', `/_sandbox/consents/${consent.requestId}/transitions`, undefined, OTHER_PARTNER);
  t.equal(other.status, 401, 'a partner the server does not know');
  t.equal((await call(app, 'GET', '/_sandbox/consents/nope/transitions')).body.code, 'consent_not_found');
});

t.test('snapshots keep transitions, restores bring them back exactly, a reset leaves only the seeded merchant', async (t) => {
  const app = await buildTwo(t);
  const m = await testMerchant(app);
  const p = await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 9, referenceNumber: 's-1' });
  const before = app.store.transitions.ofPartner(PARTNER_ID);
  t.equal((await call(app, 'POST', '/_sandbox/snapshots', { name: 'one-pending' })).status, 200);
  await call(app, 'POST', `/_sandbox/payments/${p.body.paymentId}/complete`);
  t.equal((await transitions(app, `payments/${p.body.paymentId}`)).items.length, 2);
  const otherBefore = app.store.transitions.ofPartner(OTHER_PARTNER['x-partner-client-id']);

  t.equal((await call(app, 'POST', '/_sandbox/snapshots/one-pending/restore', {})).status, 200);
  t.same(
    app.store.transitions.ofPartner(PARTNER_ID).map(({ id: _id, ...rest }) => rest),
    before.map(({ id: _id, ...rest }) => rest),
    'the transitions at the snapshot, no more',
  );
  t.same(transitionProblems(app, PARTNER_ID), [], 'consistent with the restored states');
  t.same(app.store.transitions.ofPartner(OTHER_PARTNER['x-partner-client-id']), otherBefore, 'another sandbox untouched');

  const reset = await call(app, 'POST', '/_sandbox/reset', {});
  t.equal(reset.status, 200);
  t.ok(reset.body.deleted.transitions >= 3, 'the reset counts the transitions it removed');
  const after = app.store.transitions.ofPartner(PARTNER_ID);
  t.match(after, [{ resource: 'merchant', from_state: null, cause_kind: 'seed', cause_name: 'reset' }]);
  t.equal(after.length, 1);
  t.same(transitionProblems(app, PARTNER_ID), []);
});

t.test('bounded per sandbox: the newest transitions are kept, another sandbox keeps its own', async (t) => {
  const app = await buildTwo(t);
  const other = OTHER_PARTNER['x-partner-client-id'];
  const otherBefore = app.store.transitions.ofPartner(other).length;
  const cause = { kind: 'control' as const, name: 'bulk' };
  const write = app.db.transaction((n: number) => {
    for (let i = 0; i < n; i++) {
      app.store.transitions.record({
        partnerId: PARTNER_ID,
        resource: 'payment',
        resourceId: 1,
        from: null,
        to: `s${i}`,
        at: app.clock.iso(),
        cause,
      });
    }
  });
  write(TRANSITIONS_KEPT + 600);
  const kept = app.store.transitions.ofPartner(PARTNER_ID);
  t.ok(kept.length >= TRANSITIONS_KEPT && kept.length < TRANSITIONS_KEPT + 500, `${kept.length} kept: the bound, trimmed every 500`);
  t.equal(kept[kept.length - 1].to_state, `s${TRANSITIONS_KEPT + 599}`, 'the newest is kept');
  t.equal(kept[0].to_state, `s${TRANSITIONS_KEPT + 600 - kept.length}`, 'the oldest went first');
  t.equal(app.store.transitions.ofPartner(other).length, otherBefore, "another sandbox's are not trimmed");
});
