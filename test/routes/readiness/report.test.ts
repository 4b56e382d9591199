/**
 * GET /_sandbox/report and POST /_sandbox/receiver-checks through the API: a partner that
 * exercises half of the API sees exactly the other half unseen; who may read which report; a
 * check-receiver run from the server is what makes "verifies webhook signatures" met.
 */
import { createHmac } from 'node:crypto';
import t from 'tap';
import { build, json, OTHER_PARTNER, PARTNER, schemaErrors } from '../../helpers/app.js';
import { hook } from '../../helpers/deliveries.js';
import { buildTwo, call, testMerchant, sandboxHeaders } from '../../helpers/partner.js';
import { startReceiver } from '../../helpers/receiver.js';

const report = async (app: Awaited<ReturnType<typeof build>>, query = '', headers: Record<string, string> = PARTNER) =>
  call(app, 'GET', `/_sandbox/report${query}`, undefined, headers);

t.test('a fresh sandbox: every partner operation listed, none called, verdict unmet; the body matches its schema', async (t) => {
  const app = await build(t);
  const r = await report(app);
  t.equal(r.status, 200);
  t.same(schemaErrors('SandboxReadinessReport', r.body), []);
  t.equal(r.body.sandboxId, 'sandbox-partner');
  t.equal(r.body.verdict, 'unmet');
  t.equal(r.body.checklistSource, 'default');
  const ids = r.body.operations.map((o: { operationId: string }) => o.operationId);
  const spec = await call(app, 'GET', '/openapi.json');
  const partnerFacing = Object.entries(spec.body.paths as Record<string, Record<string, { operationId?: string }>>)
    .filter(([path]) => path.startsWith('/v1/'))
    .flatMap(([, ops]) => Object.values(ops).map((o) => o.operationId));
  t.same([...ids].sort(), [...partnerFacing].sort(), "exactly openapi.json's partner-facing operations");
  t.ok(r.body.operations.every((o: { called: boolean }) => !o.called));
  t.same(r.body.lifecycles.payments.reached, {}, 'no payment yet');
});

t.test('a partner that exercises half of the API sees exactly the other half unseen', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app); // createTestMerchant
  await call(app, 'POST', '/v1/partner/merchants', { companyName: 'Half ApS', contactEmail: 'a@example.com' }); // createMerchant
  await call(app, 'GET', '/v1/partner/merchants?page=1&limit=10'); // listMerchants
  await call(app, 'GET', `/v1/partner/merchants/${m.merchantId}/onboarding-status`); // getMerchantOnboardingStatus
  const p = await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: 'half-1' });
  await call(app, 'GET', `/v1/partner/payments/${p.body.paymentId}/status`); // getPaymentStatus
  await call(app, 'POST', '/v1/partner/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['payment.completed'] }); // registerWebhook
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: -1, referenceNumber: 'half-2' }); // a 400
  const r = await report(app);
  const called = r.body.operations.filter((o: { called: boolean }) => o.called).map((o: { operationId: string }) => o.operationId);
  t.same(called.sort(), [
    'createMerchant',
    'createPayment',
    'createTestMerchant',
    'getMerchantOnboardingStatus',
    'getPaymentStatus',
    'listMerchants',
    'registerWebhook',
  ]);
  t.same(
    r.body.operations
      .filter((o: { called: boolean }) => !o.called)
      .map((o: { operationId: string }) => o.operationId)
      .sort(),
    [
      'createConsent',
      'createFastTrackMerchant',
      'createMerchantStore',
      'generateToken',
      'getAccountBalance',
      'listAccountTransactions',
      'listAccountTransactionsInWindow',
      'listAccounts',
      'listUserConsents',
      'resendMerchantOnboarding',
      'testWebhook',
    ],
    'the other half, exactly',
  );
  const create = r.body.operations.find((o: { operationId: string }) => o.operationId === 'createPayment');
  t.same(create.statuses, { '200': 1, '400': 1 });
  t.same(create.unseen, ['401', '429', '503', '404', '409'], 'the answers not yet met are named');
  t.equal(create.evidenceByStatus['400'].length, 1);
  const entry = await call(app, 'GET', `/_sandbox/requests/${create.evidenceByStatus['400'][0]}`);
  t.equal(entry.body.status, 400, 'evidence ids are journal entries');
  t.same(r.body.lifecycles.payments.reached, { pending: 1 });
  t.same(r.body.lifecycles.merchants.reached.activated >= 1, true);
});

t.test('who may read a report: its own credentials, an admin with ?sandbox=, nobody else', async (t) => {
  const app = await buildTwo(t, { config: { adminKey: 'admin-key-1' } });
  const admin = { 'x-obsim-admin-key': 'admin-key-1' };
  const created = await call(app, 'POST', '/_sandbox/sandboxes', {}, admin);
  const creds = sandboxHeaders(created.body);
  const sandboxId = created.body.sandboxId;
  await call(app, 'POST', '/v1/partner/merchants/test', { companyName: 'Own ApS' }, creds);

  const own = await report(app, '', creds);
  t.equal(own.status, 200);
  t.equal(own.body.sandboxId, sandboxId);
  t.ok(own.body.operations.find((o: { operationId: string }) => o.operationId === 'createTestMerchant').called);

  const byAdmin = await report(app, `?sandbox=${sandboxId}`, admin);
  t.equal(byAdmin.status, 200);
  t.same(
    byAdmin.body.operations.map((o: { calls: number }) => o.calls),
    own.body.operations.map((o: { calls: number }) => o.calls),
    'the same report',
  );
  const defaultByAdmin = await report(app, '?sandbox=default', admin);
  t.equal(defaultByAdmin.body.sandboxId, 'sandbox-partner');
  t.notOk(
    defaultByAdmin.body.operations.find((o: { operationId: string }) => o.operationId === 'createTestMerchant').called,
    "the default partner's report shows none of the sandbox's calls",
  );

  t.equal((await report(app, `?sandbox=${sandboxId}`, {})).body.code, 'admin_key_required');
  t.equal((await report(app, `?sandbox=${sandboxId}`, { 'x-obsim-admin-key': 'wrong' })).body.code, 'admin_key_invalid');
  const other = await report(app, `?sandbox=${sandboxId}`, OTHER_PARTNER);
  t.equal(other.status, 404, "another partner's credentials never read this sandbox");
  t.equal(other.body.code, 'sandbox_not_found');
  const unknown = await report(app, '?sandbox=sbx_nope', admin);
  t.equal(unknown.status, 404);
  t.same(schemaErrors('ErrorBody', unknown.body), []);
  t.equal((await report(app, '', {})).status, 401, 'no credentials, no sandbox named');
  t.equal((await report(app, '?sandbox=', admin)).status, 400, 'an empty sandbox name');
  t.equal((await report(app, '?color=red')).status, 400, 'an unknown parameter');
});

t.test('the report names no secret', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  const wh = await hook(app, 'http://127.0.0.1:9/hooks', ['payment.completed']);
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: 'sec-1' });
  const res = await app.inject({ method: 'GET', url: '/_sandbox/report', headers: PARTNER });
  t.notMatch(res.body, wh.secret);
  t.notMatch(res.body, 'sandbox-secret');
  t.equal(json(res).verdict, 'unmet');
});

t.test('check-receiver from the server: a receiver that verifies signatures meets the item; one that does not is a smell', async (t) => {
  const app = await build(t);
  let secret = '';
  const verifying = await startReceiver(t, (req, res, r) => {
    const expected = createHmac('sha256', secret).update(r.raw).digest('hex');
    res.writeHead(req.headers['x-webhook-signature'] === expected ? 200 : 401).end();
  });
  const lax = await startReceiver(t);

  const none = await call(app, 'POST', '/_sandbox/receiver-checks', {});
  t.equal(none.status, 404, 'no webhook registered');
  t.equal(none.body.code, 'webhook_not_found');

  const wh = await hook(app, verifying.url, ['payment.completed']);
  secret = wh.secret;
  const run = await call(app, 'POST', '/_sandbox/receiver-checks', {});
  t.equal(run.status, 200);
  t.same(schemaErrors('SandboxReceiverCheck', run.body), []);
  t.match(run.body, { webhookId: wh.id, url: verifying.url, verdict: 'passed', failed: 0, forgedAccepted: false });
  t.ok(verifying.received.length >= 9, 'the checks were sent to the registered URL');
  let r = await report(app);
  t.match(
    r.body.checklist.find((i: { id: string }) => i.id === 'verifies_webhook_signatures'),
    { status: 'met' },
  );

  const laxHook = await hook(app, lax.url, ['payment.completed']);
  const laxRun = await call(app, 'POST', '/_sandbox/receiver-checks', { webhookId: laxHook.id, timeoutMs: 2000 });
  t.match(laxRun.body, { verdict: 'failed', forgedAccepted: true });
  r = await report(app);
  t.match(
    r.body.checklist.find((i: { id: string }) => i.id === 'verifies_webhook_signatures'),
    { status: 'unmet' },
  );
  t.ok(r.body.smells.some((s: { code: string }) => s.code === 'forged_signature_accepted'));

  const listed = await call(app, 'GET', '/_sandbox/receiver-checks');
  t.same(
    listed.body.items.map((i: { webhookId: string }) => i.webhookId),
    [laxHook.id, wh.id],
    'recorded, newest first',
  );
  t.equal((await call(app, 'GET', '/_sandbox/receiver-checks', undefined, OTHER_PARTNER)).status, 401, 'not a partner of this app');
  t.equal((await call(app, 'POST', '/_sandbox/receiver-checks', { webhookId: 'wh_other' })).status, 404);
  t.equal((await call(app, 'POST', '/_sandbox/receiver-checks', { timeoutMs: 5 })).status, 400, 'a timeout below 100 ms');
  t.equal((await call(app, 'GET', '/_sandbox/receiver-checks')).body.items.length, 2, 'refused runs record nothing');
});

t.test('each report counts what the journal keeps now: after more requests, past its bounds, after a clear', async (t) => {
  const app = await build(t, { config: { journalMaxEntries: 5 } });
  const calls = async () =>
    (await report(app)).body.operations.find((o: { operationId: string }) => o.operationId === 'listMerchants').calls as number;
  for (let i = 0; i < 3; i++) await call(app, 'GET', `/v1/partner/merchants?page=${i + 1}`);
  t.equal(await calls(), 3);
  t.equal((await report(app)).body.journal.truncated, false);
  for (let i = 0; i < 4; i++) await call(app, 'GET', `/v1/partner/merchants?page=${i + 4}`);
  t.equal(await calls(), 5, 'the bounds dropped the two oldest');
  const r = await report(app);
  t.same(r.body.journal, { entries: 5, truncated: true, faults: 0 }, 'and the report says so');
  await call(app, 'DELETE', '/_sandbox/requests');
  t.equal(await calls(), 0, 'a cleared journal: nothing counted');
  await call(app, 'GET', '/v1/partner/merchants?page=9');
  t.equal(await calls(), 1);
});

t.test("injected faults are counted apart from the partner's own answers (docs/chaos.md)", async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  await call(app, 'PUT', '/_sandbox/faults', {
    seed: 1,
    rules: [
      { kind: 'error', operation: 'createPayment', rate: 1, status: 503 },
      { kind: 'latency', operation: 'listMerchants', rate: 1, latency: { distribution: 'fixed', ms: 1 } },
    ],
  });
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: 'f-1' });
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: 'f-2' });
  await call(app, 'GET', '/v1/partner/merchants');
  await call(app, 'DELETE', '/_sandbox/faults');
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: 'f-3' });
  const r = await report(app);
  t.same(schemaErrors('SandboxReadinessReport', r.body), []);
  const op = (id: string) => r.body.operations.find((o: { operationId: string }) => o.operationId === id);
  t.same(op('createPayment').statuses, { 200: 1 }, "the partner's own answers");
  t.same(op('createPayment').injected, { 503: 2 }, 'the injected ones apart');
  t.notOk(op('createPayment').unseen.includes('503'), 'a 503 met because it was injected was met');
  t.same(op('listMerchants').injected, { latency: 1 });
  t.same(op('listMerchants').statuses, { 200: 1 }, 'a late answer is still an answer');
  t.equal(r.body.journal.faults, 3);
});

t.test('lifecycles: every state a payment passed through counts, and the transitions made, by name', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  const pay = async (ref: string) =>
    (await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 4, referenceNumber: ref })).body.paymentId;
  const approvedThenPaid = await pay('l-1');
  await call(app, 'POST', `/_sandbox/payments/${approvedThenPaid}/approve`);
  await call(app, 'POST', `/_sandbox/payments/${await pay('l-2')}/expire`);
  await pay('l-3');
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '6s' }); // settles l-1 (processing) and l-3 (pending)
  const r = await report(app);
  t.same(schemaErrors('SandboxReadinessReport', r.body), []);
  t.same(
    r.body.lifecycles.payments.reached,
    { pending: 3, processing: 1, paid: 2, failed: 1 },
    'passing through counts: all three were pending',
  );
  t.same(r.body.lifecycles.transitions.payments, {
    'created -> pending': 3,
    'pending -> processing': 1,
    'processing -> paid': 1,
    'pending -> failed (expired)': 1,
    'pending -> paid': 1,
  });
  t.same(r.body.lifecycles.transitions.merchants, { 'created -> activated': 2 }, 'the seeded merchant and the test merchant');
  t.same(r.body.lifecycles.transitions.consents, {});
});
