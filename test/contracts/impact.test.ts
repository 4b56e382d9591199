/**
 * The impact report is exact on the corpus (test/helpers/changelog-corpus.ts): a partner's traffic
 * under corpus-a (a sandbox pinned to it, on a file database so the report is read by the worker
 * thread) exercises some of the changes to corpus-b; `GET /_sandbox/contract/impact?to=corpus-b`
 * names every exercised change and none of the others. The expected list is the corpus's own,
 * written by hand from the traffic below; each named entry is read back from the journal.
 */
import { join } from 'node:path';
import t from 'tap';
import { create as xml } from 'xmlbuilder2';
import { build, json, PARTNER, schemaErrors } from '../helpers/app.js';
import { CORPUS_CHANGES, CORPUS_DIR } from '../helpers/changelog-corpus.js';
import { sandboxHeaders } from '../helpers/partner.js';
import { startReceiver } from '../helpers/receiver.js';

interface Touched {
  id: string;
  breaking: boolean;
  from: string;
  evidence: { entries?: { count: number; first: number[] }; deliveries?: { count: number; first: number[] } };
}
interface Impact {
  touched: Touched[];
  untouched: { count: number; breaking: number };
  breaking: number;
  verdict: string;
  traffic: { entries: number; deliveries: number; versions: { name: string }[] };
}

t.test("the impact report names every change the partner's traffic exercised and none of the others", async (t) => {
  const app = await build(t, { config: { contracts: CORPUS_DIR, db: join(t.testdir({}), 'obsim.db') } });
  const receiver = await startReceiver(t);
  const created = json(
    await app.inject({ method: 'POST', url: '/_sandbox/sandboxes', headers: PARTNER, payload: { contractVersion: 'corpus-a' } }),
  );
  const H = { ...sandboxHeaders(created), 'content-type': 'application/json' };
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await app.inject({ method, url, headers: H, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: json(res), version: res.headers['obsim-contract-version'] };
  };

  const merchant = await call('POST', '/v1/partner/merchants/test', { companyName: 'Corpus ApS' });
  t.equal(merchant.status, 200);
  t.equal(merchant.version, 'corpus-a', 'the traffic runs under corpus-a');
  const hook = await call('POST', '/v1/partner/webhooks', {
    url: `${receiver.url}/hooks`,
    events: ['payment.completed', 'payment.failed', 'merchant.deactivated'],
  });
  t.equal(hook.status, 201, "corpus-a's switch: registering answers 201");
  const pay = (referenceNumber: string) =>
    call('POST', '/v1/partner/payments', { merchantClientId: merchant.body.clientId, amount: 12.5, referenceNumber });
  const payments = [await pay('corpus-1'), await pay('corpus-2')];
  t.same(
    payments.map((p) => [p.status, p.body.status, p.body.settlementRef]),
    payments.map((p) => [200, 'pending', `SET-${p.body.paymentId}`]),
  );
  const refused = await call('POST', '/v1/partner/payments', { merchantClientId: merchant.body.clientId, referenceNumber: 'no-amount' });
  t.equal(refused.status, 400);
  const status = await call('GET', `/v1/partner/payments/${payments[0].body.paymentId}/status`);
  t.equal(status.body.status, 'pending', 'read before it moved on: processing is never seen');
  const standard = await call('POST', '/v1/partner/merchants', {
    companyName: 'Partner Ref ApS',
    contactEmail: 'a@corpus.example',
    partnerRefId: 'p-1',
  });
  t.equal(standard.status, 200);
  t.equal((await call('GET', '/v1/partner/merchants')).status, 200);
  for (const p of payments) await call('POST', `/_sandbox/payments/${p.body.paymentId}/complete`, {});
  const delivered = await receiver.waitFor(2);
  t.same(
    delivered.map((d) => d.json.event),
    ['payment.completed', 'payment.completed'],
  );
  // the delivery outcomes are recorded after the receiver answered
  for (let i = 0; i < 200; i++) {
    const log = json<{ items: { state: string }[] }>(await app.inject({ method: 'GET', url: '/_sandbox/deliveries', headers: H }));
    if (log.items.length === 2 && log.items.every((d) => d.state === 'delivered')) break;
    await new Promise((r) => setTimeout(r, 10));
  }

  const res = await app.inject({ method: 'GET', url: '/_sandbox/contract/impact?to=corpus-b', headers: H });
  t.equal(res.statusCode, 200, res.body);
  const report = json<Impact>(res);
  t.same(schemaErrors('ContractImpact', report), [], 'the answer follows its schema');
  t.ok(app.reports!.computedOnWorker >= 1, "read on the readiness worker's thread");

  const exercised = Object.entries(CORPUS_CHANGES)
    .filter(([, why]) => why !== false)
    .map(([id]) => id)
    .sort();
  t.same(report.touched.map((c) => c.id).sort(), exercised, 'every exercised change, and none other');
  t.equal(report.untouched.count, Object.values(CORPUS_CHANGES).filter((why) => why === false).length, 'the others counted');
  t.ok(report.touched.every((c) => c.from === 'corpus-a'));
  t.equal(report.breaking, report.touched.filter((c) => c.breaking).length);
  t.equal(report.verdict, 'breaking');
  t.same(
    report.traffic.versions.map((v) => v.name),
    ['corpus-a'],
  );
  t.equal(report.traffic.deliveries, 2);

  // each named entry is in the journal and is a call of the change's operation
  const entry = async (id: number) => json(await app.inject({ method: 'GET', url: `/_sandbox/requests/${id}`, headers: H }));
  const byId = new Map(report.touched.map((c) => [c.id, c]));
  const partnerRef = byId.get('request-field-removed createMerchant /partnerRefId')!;
  t.same(partnerRef.evidence.entries, { count: 1, first: [partnerRef.evidence.entries!.first[0]] });
  t.match(await entry(partnerRef.evidence.entries!.first[0]), {
    method: 'POST',
    path: '/v1/partner/merchants',
    requestBody: { partnerRefId: 'p-1' },
  });
  const pending = byId.get('enum-value-removed createPayment 200 /status "pending"')!;
  t.equal(pending.evidence.entries!.count, 2, 'the two payments answered pending');
  const header = byId.get('header-added createPayment header:idempotency-key')!;
  t.equal(header.evidence.entries!.count, 3, 'every payment call lacked the new required header, the refused one too');
  const removed4xx = byId.get('status-removed createPayment 4XX')!;
  t.match(await entry(removed4xx.evidence.entries!.first[0]), { status: 400, path: '/v1/partner/payments' });
  const payload = byId.get('webhook-field-removed payment.completed /data/merchantName')!;
  t.equal(payload.evidence.deliveries!.count, 2);
  const log = json<{ items: { id: number }[] }>(await app.inject({ method: 'GET', url: '/_sandbox/deliveries', headers: H }));
  t.same([...payload.evidence.deliveries!.first].sort(), log.items.map((d) => d.id).sort(), 'the deliveries named are the sandbox’s');

  // reading the report did not land in the journal, and another sandbox's traffic is not this one's
  const journal = json<{ items: { path: string }[] }>(await app.inject({ method: 'GET', url: '/_sandbox/requests?limit=100', headers: H }));
  t.notOk(journal.items.some((e) => e.path.startsWith('/_sandbox/contract/impact')));
  const other = json<Impact>(await app.inject({ method: 'GET', url: '/_sandbox/contract/impact?to=corpus-b', headers: PARTNER }));
  t.same(other.touched, [], 'the default sandbox made no call');

  // JUnit: one failing case per touched breaking change
  const junit = await app.inject({ method: 'GET', url: '/_sandbox/contract/impact?to=corpus-b&format=junit', headers: H });
  t.match(junit.headers['content-type'], /^application\/xml/);
  const suite = xml(junit.body).end({ format: 'object' }) as {
    testsuites: { testsuite: { '@tests': string; '@failures': string; testcase: unknown[] } };
  };
  t.equal(Number(suite.testsuites.testsuite['@tests']), report.breaking);
  t.equal(Number(suite.testsuites.testsuite['@failures']), report.breaking);
  t.equal([suite.testsuites.testsuite.testcase].flat().length, report.breaking);
  const md = await app.inject({ method: 'GET', url: '/_sandbox/contract/impact?to=corpus-b&format=markdown', headers: H });
  t.match(md.headers['content-type'], /^text\/markdown/);
  t.match(md.body, /^# Upgrading sandbox sbx_/);
  t.equal(md.body.split('\n').filter((l) => l.startsWith('| ')).length, report.touched.length + 1, 'a row per touched change');
});

t.test('an unknown version in to, from or format: 400 listing the known ones, nothing read', async (t) => {
  const app = await build(t, { config: { contracts: CORPUS_DIR } });
  for (const [url, field] of [
    ['/_sandbox/contract/impact?to=corpus-z', '/to'],
    ['/_sandbox/contract/changelog?from=corpus-a&to=nope', '/to'],
    ['/_sandbox/contract/changelog?from=nope&to=corpus-b', '/from'],
  ] as const) {
    const res = await app.inject({ method: 'GET', url, headers: PARTNER });
    t.equal(res.statusCode, 400, url);
    t.match(json(res), {
      code: 'unknown_contract_version',
      field,
      in: 'query',
      message: /the versions are base, corpus-a, corpus-b$/,
    });
  }
  const unknown = await app.inject({ method: 'GET', url: '/_sandbox/contract/impact?to=corpus-b&since=1', headers: PARTNER });
  t.match(json(unknown), { status: 400, code: 'unknown_field', field: '/since', in: 'query' });
  const format = await app.inject({
    method: 'GET',
    url: '/_sandbox/contract/changelog?from=base&to=corpus-b&format=csv',
    headers: PARTNER,
  });
  t.match(json(format), { status: 400, field: '/format', in: 'query' });
  const anonymous = await app.inject({ method: 'GET', url: '/_sandbox/contract/changelog?from=base&to=corpus-b' });
  t.equal(anonymous.statusCode, 401);
});
