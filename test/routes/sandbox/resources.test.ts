import t from 'tap';
import { consentMachine } from '../../../src/domain/consent.js';
import {
  CONSENT_TRIGGER,
  MERCHANT_TRIGGER,
  consentActions,
  merchantActions,
  paymentActions,
  paymentTrigger,
} from '../../../src/domain/controls.js';
import { merchantMachine, MERCHANT_STATUSES } from '../../../src/domain/merchant.js';
import { paymentMachine, PAYMENT_STATUSES } from '../../../src/domain/payment.js';
import { CONSENT_STATUSES } from '../../../src/domain/consent.js';
import { CONSENT_ACTIONS, MERCHANT_ACTIONS, PAYMENT_ACTIONS } from '../../../src/domain/controls.js';
import { build, OTHER_PARTNER, PARTNER, schemaErrors, T0 } from '../../helpers/app.js';
import { buildTwo, call, standardMerchant, testMerchant } from '../../helpers/partner.js';
import { startReceiver } from '../../helpers/receiver.js';

t.test('legal actions are read from the transition tables, and each one the API offers it accepts', async (t) => {
  for (const s of MERCHANT_STATUSES) {
    t.same(
      merchantActions(s),
      MERCHANT_ACTIONS.filter((a) => merchantMachine.can(s, MERCHANT_TRIGGER[a])),
      s,
    );
  }
  t.same(merchantActions('pending_onboarding'), ['submit-onboarding', 'reject', 'activate']);
  t.same(merchantActions('activated'), ['deactivate']);
  t.same(paymentActions('pending'), ['approve', 'complete', 'fail', 'abandon', 'expire']);
  t.same(paymentActions('processing'), ['complete', 'fail']);
  t.same(paymentActions('paid'), []);
  for (const s of PAYMENT_STATUSES) for (const a of paymentActions(s)) t.ok(paymentMachine.can(s, paymentTrigger(a)));
  t.same(consentActions('authorized'), ['revoke', 'expire']);
  for (const s of CONSENT_STATUSES)
    t.same(
      consentActions(s),
      CONSENT_ACTIONS.filter((a) => consentMachine.can(s, CONSENT_TRIGGER[a])),
    );
  t.same(PAYMENT_ACTIONS.length, 5);
});

t.test('overview counts the caller only, with every state present', async (t) => {
  const app = await buildTwo(t);
  const m = await testMerchant(app);
  await standardMerchant(app);
  for (const ref of ['a', 'b', 'c']) {
    await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 5, referenceNumber: ref });
  }
  const theirs = await testMerchant(app, OTHER_PARTNER);
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: theirs.clientId, amount: 5, referenceNumber: 'x' }, OTHER_PARTNER);
  const r = await call(app, 'GET', '/_sandbox/overview');
  t.equal(r.status, 200);
  t.same(schemaErrors('SandboxOverview', r.body), []);
  t.equal(r.body.environment, 'sandbox');
  t.equal(r.body.partnerId, 'sandbox-partner');
  t.equal(r.body.sandboxId, null);
  t.same(r.body.clock, { now: T0, frozen: true, offsetMs: 0 });
  t.equal(r.body.payments.pending, 3);
  t.equal(r.body.payments.paid, 0);
  t.equal(r.body.merchants.pending_onboarding, 1);
  t.ok(r.body.merchants.activated >= 2, 'default merchant + test merchant');
  t.same(r.body.consents, { pending: 0, authorized: 0, expired: 0, revoked: 0, failed: 0 });
  t.equal(r.body.webhooks, 0);
  t.equal((await call(app, 'GET', '/_sandbox/overview', undefined, OTHER_PARTNER)).body.payments.pending, 1);
  t.equal((await call(app, 'GET', '/_sandbox/overview', undefined, {})).status, 401);
});

t.test('merchants: list with status and search filters, cursor, detail with legal actions and onboarding link', async (t) => {
  const app = await buildTwo(t);
  const names = ['Alpha 100% ApS', 'Beta_Shop', 'Gamma A/S'];
  for (const companyName of names) await testMerchant(app, PARTNER, companyName);
  const pending = await standardMerchant(app);
  await testMerchant(app, OTHER_PARTNER, 'Alpha elsewhere');

  const all = await call(app, 'GET', '/_sandbox/merchants?limit=2');
  t.same(schemaErrors('SandboxMerchantList', all.body), []);
  t.equal(all.body.items.length, 2);
  t.equal(all.body.items[0].merchant.merchantId, pending.merchantId, 'newest first');
  t.ok(all.body.nextCursor);
  const next = await call(app, 'GET', `/_sandbox/merchants?limit=2&cursor=${all.body.nextCursor}`);
  t.ok(next.body.items.every((i: any) => i.merchant.merchantId < Number(all.body.nextCursor)));

  const q = await call(app, 'GET', '/_sandbox/merchants?q=alpha');
  t.same(
    q.body.items.map((i: any) => i.merchant.companyName),
    ['Alpha 100% ApS'],
    'case-insensitive, own merchants only',
  );
  t.same((await call(app, 'GET', '/_sandbox/merchants?q=0%25')).body.items.length, 1, '% matches itself');
  t.same((await call(app, 'GET', '/_sandbox/merchants?q=alpha_')).body.items.length, 0, '_ matches itself, not the space');
  t.same((await call(app, 'GET', '/_sandbox/merchants?q=a_shop')).body.items.length, 1);
  const p = await call(app, 'GET', '/_sandbox/merchants?status=pending_onboarding');
  t.same(
    p.body.items.map((i: any) => [i.merchant.merchantId, i.state, i.actions]),
    [[pending.merchantId, 'pending_onboarding', ['submit-onboarding', 'reject', 'activate']]],
  );
  for (const bad of ['status=active', 'limit=0', 'limit=201', 'cursor=abc', 'cursor=0', 'q=']) {
    const r = await call(app, 'GET', `/_sandbox/merchants?${bad}`);
    t.equal(r.status, 400, bad);
    t.match(r.body, { code: 'validation_failed', field: bad.split('=')[0] }, bad);
  }
  t.match((await call(app, 'GET', '/_sandbox/merchants?nope=1')).body, { code: 'unknown_field', field: 'nope' });

  const d = await call(app, 'GET', `/_sandbox/merchants/${pending.merchantId}`);
  t.same(schemaErrors('SandboxMerchant', d.body), []);
  t.equal(d.body.onboardingUrl, pending.onboardingUrl);
  t.same(d.body.states, [...MERCHANT_STATUSES]);
  await call(app, 'POST', `/_sandbox/merchants/${pending.merchantId}/submit-onboarding`);
  const after = await call(app, 'GET', `/_sandbox/merchants/${pending.merchantId}`);
  t.equal(after.body.state, 'awaiting_approval');
  t.same(after.body.actions, ['approve', 'reject', 'activate']);
  t.equal(after.body.onboardingUrl, null, 'the link is gone once onboarding is closed');
  await call(app, 'POST', `/_sandbox/merchants/${pending.merchantId}/approve`);
  const s = await call(app, 'POST', `/v1/partner/merchants/${pending.merchantId}/stores`, { name: 'Store <1>' });
  t.equal(s.status, 200, JSON.stringify(s.body));
  t.same(
    (await call(app, 'GET', `/_sandbox/merchants/${pending.merchantId}`)).body.stores.map((x: any) => x.name),
    ['Store <1>'],
  );
  const theirs = await call(app, 'GET', '/_sandbox/merchants?q=elsewhere', undefined, OTHER_PARTNER);
  const id = theirs.body.items[0].merchant.merchantId;
  t.equal((await call(app, 'GET', `/_sandbox/merchants/${id}`)).status, 404, "another partner's merchant is not found");
});

t.test('payments: list, filters, detail timeline with the event and its delivery', async (t) => {
  const receiver = await startReceiver(t);
  const app = await build(t);
  const m = await testMerchant(app);
  const hook = await call(app, 'POST', '/v1/partner/webhooks', { url: receiver.url, events: ['payment.completed', 'payment.failed'] });
  const ids: number[] = [];
  for (const ref of ['order-1', 'order-2', 'order-3']) {
    ids.push(
      (await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 12.5, referenceNumber: ref })).body
        .paymentId,
    );
  }
  const list = await call(app, 'GET', '/_sandbox/payments');
  t.same(schemaErrors('SandboxPaymentList', list.body), []);
  t.same(
    list.body.items.map((i: any) => i.payment.paymentId),
    [...ids].reverse(),
  );
  t.same(list.body.items[0].actions, ['approve', 'complete', 'fail', 'abandon', 'expire']);
  t.equal(list.body.nextCursor, null);
  t.same(
    (await call(app, 'GET', '/_sandbox/payments?referenceNumber=order-2')).body.items.map((i: any) => i.payment.paymentId),
    [ids[1]],
  );

  await call(app, 'POST', `/_sandbox/payments/${ids[0]}/fail`, { reason: 'payer_abandoned' });
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '10s' }); // the others settle
  await receiver.waitFor(3);
  await app.webhooks.drain();
  t.same((await call(app, 'GET', '/_sandbox/payments?status=paid')).body.items.length, 2);
  const detail = await call(app, 'GET', `/_sandbox/payments/${ids[1]}`);
  t.same(schemaErrors('SandboxPayment', detail.body), []);
  t.same(detail.body.actions, []);
  t.same(
    detail.body.timeline.map((e: any) => [e.kind, e.status, e.event]),
    [
      ['created', 'pending', null],
      ['status_changed', 'paid', null],
      ['event', null, 'payment.completed'],
    ],
  );
  const event = detail.body.timeline[2];
  t.same(
    event.deliveries.map((d: any) => [d.state, d.outcome, d.statusCode]),
    [['delivered', 'delivered', 200]],
  );
  const delivery = await call(app, 'GET', `/_sandbox/deliveries/${event.deliveries[0].id}`);
  t.equal(delivery.body.eventId, event.eventId);
  t.equal(delivery.body.webhookId, hook.body.id);
  const failed = await call(app, 'GET', `/_sandbox/payments/${ids[0]}`);
  t.equal(failed.body.timeline[2].event, 'payment.failed');
  t.equal(failed.body.payment.failureReason, 'payer_abandoned');
  t.equal((await call(app, 'GET', '/_sandbox/payments/999999999')).status, 404);
  t.equal((await call(app, 'GET', '/_sandbox/payments/abc')).status, 400);
});

t.test('consents: a partner sees its merchants\u2019 consents, filtered by user and status; webhooks with secrets', async (t) => {
  const app = await buildTwo(t);
  const mine = await testMerchant(app);
  const theirs = await testMerchant(app, OTHER_PARTNER);
  const insert = (merchantId: number, user: string) =>
    app.store.tx(() =>
      app.store.consents.insert(
        {
          merchant_id: merchantId,
          user_id: user,
          permissions: ['ReadBalances'],
          expiration_date_time: '2026-06-01T00:00:00.000Z',
          transaction_from_date_time: '2025-01-01T00:00:00.000Z',
          callback_url: null,
        },
        T0,
      ),
    );
  const a = insert(mine.merchantId, 'user-a');
  insert(mine.merchantId, 'user-b');
  insert(theirs.merchantId, 'user-a');
  const list = await call(app, 'GET', '/_sandbox/consents');
  t.same(schemaErrors('SandboxConsentList', list.body), []);
  t.equal(list.body.items.length, 2);
  t.same(list.body.items[0].actions, ['authorize', 'deny', 'expire']);
  const byUser = await call(app, 'GET', '/_sandbox/consents?userId=user-a');
  t.same(
    byUser.body.items.map((i: any) => i.consent.requestId),
    [a.request_id],
  );
  await call(app, 'POST', `/_sandbox/consents/${a.request_id}/authorize`);
  t.same((await call(app, 'GET', '/_sandbox/consents?status=authorized')).body.items[0].actions, ['revoke', 'expire']);

  const created = await call(app, 'POST', '/v1/partner/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['payment.completed'] });
  const hooks = await call(app, 'GET', '/_sandbox/webhooks');
  t.same(schemaErrors('SandboxWebhookList', hooks.body), []);
  t.same(hooks.body.items, [created.body]);
  t.same((await call(app, 'GET', '/_sandbox/webhooks', undefined, OTHER_PARTNER)).body.items, []);
});
