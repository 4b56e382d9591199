/**
 * GET /_sandbox/scenario-draft: what a recording holds and says. Bad input and empty ranges
 * (a message and a comment-only file, never a silent scenario), a journal whose oldest entries
 * were dropped by its cap, ranges by entry id and by instant, who may record which sandbox, and
 * the recording's own read never entering the journal.
 */
import t from 'tap';
import { parse } from 'yaml';
import { build, json, OTHER_PARTNER, PARTNER, schemaErrors } from '../helpers/app.js';
import { buildTwo, call, testMerchant, sandboxHeaders } from '../helpers/partner.js';

type Draft = { yaml: string; steps: number; warnings: string[]; entries: number; deliveries: number };
type Scenario = { name: string; steps: Record<string, any>[] };

/** The draft as format=json answers it, and the scenario its file holds (null: comments only). */
const draft = async (app: Awaited<ReturnType<typeof build>>, query = '', headers: Record<string, string> = PARTNER) => {
  const res = await app.inject({ method: 'GET', url: `/_sandbox/scenario-draft?format=json${query}`, headers });
  const body = json<Draft & { code?: string; field?: string }>(res);
  const scenario = res.statusCode === 200 ? ((parse(body.yaml) as Scenario | null) ?? null) : null;
  return { status: res.statusCode, body, scenario };
};

t.test('an empty journal: a clear warning and a file of comments only, saying so', async (t) => {
  const app = await build(t);
  const r = await draft(app);
  t.equal(r.status, 200);
  t.same(schemaErrors('SandboxScenarioDraft', r.body), []);
  t.equal(r.scenario, null);
  t.match(r.body.warnings, [/Nothing to record: the journal of sandbox-partner is empty/]);
  t.ok(
    r.body.yaml.split('\n').every((l) => l === '' || l.startsWith('#')),
    'only comments: nothing a runner would take for a scenario',
  );
  t.match(r.body.yaml, /No steps were written/);
  const asYaml = await app.inject({ method: 'GET', url: '/_sandbox/scenario-draft', headers: PARTNER });
  t.equal(asYaml.statusCode, 200);
  t.match(asYaml.headers['content-type'], /^application\/yaml/);
  t.equal(asYaml.body, r.body.yaml, 'format=yaml answers the file itself');
});

t.test('ranges: by entry id, by instant; a range that matches nothing says what the journal holds', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '1h' });
  const p = await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 10, referenceNumber: 'range-1' });
  await call(app, 'GET', `/v1/partner/payments/${p.body.paymentId}/status`);
  const entries = (await call(app, 'GET', '/_sandbox/requests?limit=10')).body.items as { id: number; at: string; path: string }[];
  t.equal(entries.length, 4);
  const [status, payment, advance, merchant] = entries;

  const all = await draft(app);
  t.same(
    all.scenario!.steps.map((s) => Object.keys(s)[0]),
    ['request', 'advanceClock', 'request', 'request'],
  );
  t.equal(all.scenario!.steps[1].advanceClock, '1h');
  t.equal(all.body.entries, 4);

  const fromPayment = await draft(app, `&since=${payment.id}`);
  t.same(
    fromPayment.scenario!.steps.map((s) => s.request?.path),
    ['/v1/partner/payments', '/v1/partner/payments/${paymentId}/status'],
  );
  t.match(fromPayment.body.yaml, new RegExp(`journal entries #${payment.id}–#${status.id}`));
  const merchantOnly = await draft(app, `&until=${merchant.id}`);
  t.same(merchantOnly.scenario!.steps.length, 1);
  const byRequestId = await draft(app, `&since=${(await call(app, 'GET', `/_sandbox/requests/${payment.id}`)).body.requestId}`);
  t.equal(byRequestId.body.entries, 2, "by an entry's request id (x-request-id)");
  const byInstant = await draft(app, `&since=${encodeURIComponent(advance.at)}`);
  t.equal(byInstant.body.entries, 3, 'the advance and what came after it, by the sandbox clock');

  const none = await draft(app, `&since=${status.id + 100}`);
  t.equal(none.status, 200);
  t.equal(none.scenario, null);
  t.match(
    none.body.warnings[0],
    new RegExp(
      `no journal entry of sandbox-partner is in the range since entry #${status.id + 100} \\(it keeps entries #${merchant.id}–#${status.id}\\)`,
    ),
  );
  t.match(none.body.yaml, /^# .*Nothing to record/m);
  const future = await draft(app, '&since=2099-01-01T00:00:00Z');
  t.match(future.body.warnings[0], /in the range since 2099-01-01T00:00:00.000Z/);
});

t.test('bad input: a clear 400 naming the parameter, in the one error shape; nothing recorded', async (t) => {
  const app = await build(t);
  await testMerchant(app);
  for (const [query, field] of [
    ['&since=yesterday', 'since'],
    ['&until=12abc', 'until'],
    ['&since=5&until=2', 'until'],
    ['&since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z', 'until'],
    ['&name=Has%20Spaces', 'name'],
    ['&format=xml', 'format'],
    ['&colour=red', undefined],
  ] as const) {
    const r = await draft(app, query);
    t.equal(r.status, 400, query);
    t.same(schemaErrors('ErrorBody', r.body), [], `${query}: the error shape`);
    if (field) t.match(r.body.field ?? JSON.stringify(r.body), field, `${query}: names ${field}`);
  }
  const journal = (await call(app, 'GET', '/_sandbox/requests?limit=50')).body.items as { path: string }[];
  t.notOk(
    journal.some((e) => e.path.startsWith('/_sandbox/scenario-draft')),
    'reading a recording never enters the journal it reads',
  );
});

t.test('a journal whose oldest entries were dropped by its cap: the file and the warning say so', async (t) => {
  const app = await build(t, { config: { journalMaxEntries: 5 } });
  const m = await testMerchant(app);
  for (let i = 0; i < 6; i++) await call(app, 'GET', `/v1/partner/merchants/${m.merchantId}/onboarding-status`);
  const r = await draft(app);
  t.ok(r.scenario, 'what is left is recorded');
  t.equal(r.scenario!.steps.length, 5);
  t.match(r.body.warnings, [/dropped its oldest entries/]);
  t.match(r.body.yaml, /^# .*dropped its oldest entries.*--journal-max-entries/m);
  t.match(r.body.yaml, /path: \/v1\/partner\/merchants\/\d+\/onboarding-status/, 'an id created before what was kept stays literal');
  const later = await draft(app, `&since=${(await call(app, 'GET', '/_sandbox/requests?limit=1')).body.items[0].id}`);
  t.same(later.body.warnings, [], 'a range that starts after what was dropped is whole');
});

t.test('the journal off: 409 journal_off', async (t) => {
  const app = await build(t, { config: { journal: false } });
  const r = await draft(app);
  t.equal(r.status, 409);
  t.equal(r.body.code, 'journal_off');
});

t.test('who may record a sandbox: its own credentials, an admin with ?sandbox=, nobody else', async (t) => {
  const app = await buildTwo(t, { config: { adminKey: 'admin-key-1' } });
  const admin = { 'x-obsim-admin-key': 'admin-key-1' };
  const created = await call(app, 'POST', '/_sandbox/sandboxes', {}, admin);
  const creds = sandboxHeaders(created.body);
  const sandboxId = created.body.sandboxId as string;
  await call(app, 'POST', '/v1/partner/merchants/test', { companyName: 'Own ApS' }, creds);
  await call(app, 'POST', '/v1/partner/merchants/test', { companyName: 'Default ApS' });

  const own = await draft(app, '', creds);
  t.equal(own.status, 200);
  t.equal(own.scenario!.name, `recorded-${sandboxId.toLowerCase().replaceAll('_', '-')}`);
  t.match(JSON.stringify(own.scenario), /Own ApS/);
  t.notMatch(JSON.stringify(own.scenario), /Default ApS/, "never another sandbox's requests");
  const byAdmin = await draft(app, `&sandbox=${sandboxId}`, admin);
  t.same(byAdmin.scenario!.steps, own.scenario!.steps, 'an admin records the same');
  t.equal((await draft(app, `&sandbox=${sandboxId}`, {})).body.code, 'admin_key_required');
  const other = await draft(app, `&sandbox=${sandboxId}`, OTHER_PARTNER);
  t.equal(other.status, 404);
  t.equal(other.body.code, 'sandbox_not_found');
  t.equal((await draft(app, '', {})).status, 401);
});

t.test('what a recording writes: literal ${ escaped, instants relative to now, secrets never, step comments', async (t) => {
  const app = await build(t);
  const m = await testMerchant(app);
  await call(app, 'POST', '/v1/partner/webhooks', { url: 'https://partner.example/hooks', events: ['payment.completed'] });
  await call(app, 'POST', '/v1/partner/payments', { merchantClientId: m.clientId, amount: 12.5, referenceNumber: 'order-${notavar}' });
  const token = await call(
    app,
    'POST',
    '/v1/auth/generate-token',
    {
      userId: 'user-typical',
      merchantId: m.merchantId,
      permissions: ['ais:accounts:read'],
    },
    {},
  );
  const now = Date.parse((await call(app, 'GET', '/_sandbox/clock')).body.now);
  await call(
    app,
    'POST',
    '/v1/ais/consents',
    {
      merchantId: m.merchantId,
      userId: 'user-typical',
      permissions: ['ReadAccountsDetail'],
      expirationDateTime: new Date(now + 90 * 86_400_000).toISOString(),
    },
    { authorization: `Bearer ${token.body.token}` },
  );
  const r = await draft(app);
  const yaml = r.body.yaml;
  const doc = parse(yaml) as { steps: Record<string, any>[] };
  const payment = doc.steps.find((s) => s.request?.path === '/v1/partner/payments')!.request;
  t.equal(payment.body.referenceNumber, 'order-$${notavar}', 'a literal ${ is escaped, so it is sent as it was');
  t.equal(payment.body.merchantClientId, '${clientId}', 'a handed-out id is a variable');
  const consent = doc.steps.find((s) => s.request?.path === '/v1/ais/consents')!.request;
  t.equal(consent.auth, 'bearer');
  t.equal(consent.body.expirationDateTime, '${now+90d}', 'an instant as a shift of the replay’s now');
  t.same(doc.steps.find((s) => s.request?.path === '/v1/auth/generate-token')!.request.capture, { token: 'token' });
  t.same(doc.steps.find((s) => s.registerWebhook)!.registerWebhook, { events: ['payment.completed'] });
  t.match(yaml, /# recorded for https:\/\/partner\.example\/hooks; a replay registers its own receiver\n {2}- registerWebhook/);
  for (const secret of ['sandbox-secret', token.body.token, '[redacted]']) t.notOk(yaml.includes(secret), `no ${secret}`);
});
