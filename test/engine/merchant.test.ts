import t from 'tap';
import { merchantMachine, webhookStatusName, type MerchantTrigger } from '../../src/domain/merchant.js';
import { build, OTHER_PARTNER, PARTNER, schemaErrors, T0 } from '../helpers/app.js';
import { buildTwo, call, standardMerchant, testMerchant } from '../helpers/partner.js';
import { advance, watchEvents } from '../helpers/engine.js';
import { TEST_CAUSE } from '../helpers/engine.js';

const ACTION: Record<MerchantTrigger, string> = {
  submit_onboarding: 'submit-onboarding',
  complete_fast_track: 'complete-fast-track',
  approve: 'approve',
  reject: 'reject',
  activate: 'activate',
  deactivate: 'deactivate',
  reactivate: 'reactivate',
};

t.test('every row of the merchant table, through the control API, with its events', async (t) => {
  const app = await build(t);
  const watch = await watchEvents(t, app);
  for (const row of merchantMachine.rows) {
    for (const from of row.from) {
      await t.test(`${from} --${row.trigger}--> ${row.to}`, async (t) => {
        const m = await standardMerchant(app);
        app.db.prepare('UPDATE merchants SET status = ? WHERE id = ?').run(from, m.merchantId);
        const res = await call(app, 'POST', `/_sandbox/merchants/${m.merchantId}/${ACTION[row.trigger]}`);
        t.equal(res.status, 200);
        t.same(schemaErrors('SandboxMerchantActionResponse', res.body), []);
        t.same(res.body, { merchantId: m.merchantId, status: row.to, previousStatus: from });
        t.equal(app.store.merchants.get(m.merchantId, 'sandbox-partner')?.status, row.to, 'stored');
        const events = await watch.next(t);
        t.same(
          events.map((e) => e.event),
          row.events,
          'events of the row',
        );
        for (const e of events) {
          t.match(e.data, {
            merchantId: m.merchantId,
            clientId: m.clientId,
            companyName: 'Std ApS',
            status: webhookStatusName(row.to),
            previousStatus: webhookStatusName(from),
            timestamp: T0,
          });
          t.equal(e.timestamp, T0);
        }
        if (row.to === 'activated') t.equal(events[0]?.data.status, 'active', 'activated is reported as active');
      });
    }
  }
});

t.test('every other state × trigger is a 409 that changes nothing', async (t) => {
  const app = await build(t);
  const m = await standardMerchant(app);
  let checked = 0;
  for (const from of merchantMachine.states) {
    for (const trigger of merchantMachine.triggers) {
      if (merchantMachine.can(from, trigger)) continue;
      app.db.prepare('UPDATE merchants SET status = ? WHERE id = ?').run(from, m.merchantId);
      const res = await call(app, 'POST', `/_sandbox/merchants/${m.merchantId}/${ACTION[trigger]}`);
      t.equal(res.status, 409, `${from} × ${trigger}`);
      t.equal(res.body.code, 'illegal_transition');
      t.same(schemaErrors('ErrorBody', res.body), []);
      t.equal(app.store.merchants.get(m.merchantId, 'sandbox-partner')?.status, from);
      checked++;
    }
  }
  t.ok(checked > 20);
  t.equal(
    app.db
      .prepare(`SELECT count(*) FROM events WHERE name LIKE 'merchant.%' AND body LIKE ?`)
      .pluck()
      .get(`%"merchantId":${m.merchantId},%`),
    0,
    'no event',
  );
});

t.test('awaiting_approval is approved after OBSIM_APPROVAL_DELAY on the virtual clock', async (t) => {
  const app = await build(t, { config: { approvalDelayMs: 30_000 } });
  const watch = await watchEvents(t, app);
  const m = await standardMerchant(app);
  await call(app, 'POST', `/_sandbox/merchants/${m.merchantId}/submit-onboarding`);
  t.same(
    (await watch.next(t)).map((e) => [e.event, e.data.status, e.data.previousStatus]),
    [['merchant.onboarding.completed', 'awaiting_approval', 'pending_onboarding']],
  );
  t.same(
    app.engine.timersOf('merchant', m.merchantId).map((x) => [x.trigger, x.due_at]),
    [['approve', Date.parse(T0) + 30_000]],
  );
  t.equal((await advance(app, '29s')).fired, 0);
  t.equal(app.store.merchants.get(m.merchantId, 'sandbox-partner')?.status, 'awaiting_approval');
  t.equal((await advance(app, '1s')).fired, 1);
  t.equal(app.store.merchants.get(m.merchantId, 'sandbox-partner')?.status, 'activated');
  const events = await watch.next(t);
  t.match(events, [
    { event: 'merchant.activated', timestamp: '2026-01-15T09:00:30.000Z', data: { status: 'active', previousStatus: 'awaiting_approval' } },
  ]);
  const status = await call(app, 'GET', `/v1/partner/merchants/${m.merchantId}/onboarding-status`);
  t.match(status.body, { onboardingStatus: 'activated', subTppDetails: { isActivated: true } });
});

t.test('a control approval or rejection cancels the approval timer', async (t) => {
  const app = await build(t);
  const a = await standardMerchant(app);
  const b = await standardMerchant(app);
  for (const m of [a, b]) await call(app, 'POST', `/_sandbox/merchants/${m.merchantId}/submit-onboarding`);
  await call(app, 'POST', `/_sandbox/merchants/${a.merchantId}/approve`);
  await call(app, 'POST', `/_sandbox/merchants/${b.merchantId}/reject`);
  t.same(app.engine.timersOf('merchant', a.merchantId), []);
  t.same(app.engine.timersOf('merchant', b.merchantId), [], 'final state: no timers left');
  t.equal((await advance(app, '1h')).fired, 0);
  t.equal(app.store.merchants.get(b.merchantId, 'sandbox-partner')?.status, 'rejected');
});

t.test('a test merchant emits merchant.activated at creation', async (t) => {
  const app = await build(t);
  const watch = await watchEvents(t, app);
  const m = await testMerchant(app);
  const events = await watch.next(t);
  t.match(events, [
    {
      event: 'merchant.activated',
      data: { merchantId: m.merchantId, clientId: m.clientId, status: 'active', previousStatus: 'pending_onboarding', timestamp: T0 },
    },
  ]);
});

t.test('fast-track completion, deactivate and reactivate emit their events in order', async (t) => {
  const app = await build(t);
  const watch = await watchEvents(t, app);
  const ft = await call(app, 'POST', '/v1/partner/merchants/fast-track', {
    companyName: 'Fast Co ApS',
    contactEmail: 'ops@fast.test',
    registrationNumber: '12345678',
    website: 'https://fast.test',
    iban: 'DK5000400440116243',
  });
  t.equal(ft.body.status, 'pending_partner_ais');
  const id = ft.body.merchantId;
  for (const action of ['complete-fast-track', 'approve', 'deactivate', 'reactivate']) {
    t.equal((await call(app, 'POST', `/_sandbox/merchants/${id}/${action}`)).status, 200, action);
  }
  const events = await watch.next(t);
  t.same(
    events.map((e) => [e.event, e.data.previousStatus, e.data.status]),
    [
      ['merchant.onboarding.completed', 'pending_completion', 'awaiting_approval'],
      ['merchant.activated', 'awaiting_approval', 'active'],
      ['merchant.deactivated', 'active', 'inactive'],
      ['merchant.activated', 'inactive', 'active'],
    ],
  );
});

t.test('engine.merchant merges onboarding form data into details; partner scoping', async (t) => {
  const app = await buildTwo(t);
  const m = await standardMerchant(app);
  const row = app.engine.merchant(m.merchantId, 'submit_onboarding', {
    partnerId: 'sandbox-partner',
    data: { registryNumber: '12345678' },
    cause: TEST_CAUSE,
  });
  t.equal(row.status, 'awaiting_approval');
  t.match(JSON.parse(row.details), { registryNumber: '12345678' });
  t.throws(() => app.engine.merchant(m.merchantId, 'approve', { partnerId: 'other-partner', cause: TEST_CAUSE }), {
    code: 'merchant_not_found',
  });
  const res = await call(app, 'POST', `/_sandbox/merchants/${m.merchantId}/approve`, undefined, OTHER_PARTNER);
  t.equal(res.status, 404);
  t.equal(res.body.code, 'merchant_not_found');
  t.equal((await call(app, 'POST', `/_sandbox/merchants/${m.merchantId}/fly`)).status, 400, 'unknown action');
  t.equal((await call(app, 'POST', `/_sandbox/merchants/${m.merchantId}/approve`, undefined, {})).status, 401, 'credentials required');
  t.equal((await call(app, 'POST', `/_sandbox/merchants/${m.merchantId}/approve`, undefined, PARTNER)).status, 200);
});

t.test('production: nothing is approved by itself', async (t) => {
  const app = await build(t, {
    config: { environment: 'production', partnerClientId: 'sandbox-partner', partnerClientSecret: 'sandbox-secret' },
  });
  const m = await standardMerchant(app);
  await call(app, 'POST', `/_sandbox/merchants/${m.merchantId}/submit-onboarding`);
  t.same(app.engine.timersOf('merchant', m.merchantId), []);
  await advance(app, '7d');
  t.equal(app.store.merchants.get(m.merchantId, 'sandbox-partner')?.status, 'awaiting_approval');
});
