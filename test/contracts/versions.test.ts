/**
 * Contract versions served side by side (docs/contract-versions.md), with the shipped example
 * version (examples/contracts/2027-03-01.yaml): what a partner sees under each, whichever way it
 * names one (header, sandbox pin, webhook registration). Expectations come from the example
 * file's text and the RFCs (Deprecation and Sunset are parsed with structured-headers, not with
 * obsim's writer), never from the registry that serves them.
 */
import { createHmac } from 'node:crypto';
import { parseItem } from 'structured-headers';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import t from 'tap';
import { VirtualClock } from '../../src/clock.js';
import { build, json, PARTNER, schemaErrors } from '../helpers/app.js';
import { count, sandboxHeaders } from '../helpers/partner.js';
import { startReceiver } from '../helpers/receiver.js';

const CONTRACTS = 'examples/contracts';
const V = '2027-03-01';
// the example's instants (x-obsim)
const DEPRECATED_AT = Date.parse('2027-03-01T00:00:00Z');
const SUNSET_AT = Date.parse('2027-09-01T00:00:00Z');
const JSON_HEADERS = { ...PARTNER, 'content-type': 'application/json' };

async function app(t: { teardown(fn: () => unknown): void }, start = '2027-04-01T10:00:00.000Z') {
  return build(t, { clock: VirtualClock.create({ start, frozen: true }), config: { contracts: CONTRACTS } });
}

async function testMerchantClientId(a: Awaited<ReturnType<typeof app>>, headers: Record<string, string> = JSON_HEADERS) {
  const res = await a.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers, payload: { companyName: 'Versioned ApS' } });
  return json<{ clientId: string; merchantId: number }>(res);
}

/** An Ajv over one served document: its answers are checked against it. */
function documentValidator(doc: { components: { schemas: Record<string, unknown> } }, name: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'doc', ...doc });
  return ajv.getSchema(`doc#/components/schemas/${name}`)!;
}

t.test('the versions are listed, the base first, and each document is served', async (t) => {
  const a = await app(t);
  const res = await a.inject({ method: 'GET', url: '/_sandbox/contract/versions', headers: PARTNER });
  t.equal(res.statusCode, 200);
  t.same(schemaErrors('ContractVersionList', json(res)), []);
  const items = json<{ items: { name: string; file?: string; document: string; deprecations: unknown[]; sunsets: unknown[] }[] }>(
    res,
  ).items;
  t.same(
    items.map((i) => i.name),
    ['base', V],
  );
  t.equal(items[1].file, `${CONTRACTS}/2027-03-01.yaml`);
  t.same(items[1].sunsets, [
    {
      operationId: 'resendMerchantOnboarding',
      method: 'POST',
      path: '/v1/partner/merchants/{merchantId}/resend-onboarding',
      sunsetAt: '2027-09-01T00:00:00Z',
    },
  ]);
  t.ok(
    items[1].deprecations.some((d) => (d as { field?: string }).field === '/partnerRefId'),
    'a deprecated request field is listed',
  );
  const base = json(await a.inject({ method: 'GET', url: '/openapi.json' }));
  const versioned = json<{ info: { version: string }; components: { schemas: Record<string, { properties: Record<string, unknown> }> } }>(
    await a.inject({ method: 'GET', url: `/openapi.json?version=${V}` }),
  );
  t.equal(versioned.info.version, V);
  t.ok(versioned.components.schemas.Payment.properties.paymentReference, 'the new answer field is in its document');
  t.notOk(versioned.components.schemas.Payment.properties.merchantName, 'the removed one is not');
  t.ok((base as typeof versioned).components.schemas.Payment.properties.merchantName, 'the base document is the base');
  const unknown = await a.inject({ method: 'GET', url: '/openapi.json?version=1999-01-01' });
  t.equal(unknown.statusCode, 400);
  t.match(json(unknown), { code: 'unknown_contract_version', field: '/version', in: 'query' });
  t.match(json(unknown).message, /base, 2027-03-01/);
});

t.test('Obsim-Contract-Version picks the version per request; every answer names the one that served it', async (t) => {
  const a = await app(t);
  const { clientId } = await testMerchantClientId(a);
  const doc = json(await a.inject({ method: 'GET', url: `/openapi.json?version=${V}` }));
  const paymentOfVersion = documentValidator(doc, 'Payment');
  const pay = (version?: string) =>
    a.inject({
      method: 'POST',
      url: '/v1/partner/payments',
      headers: { ...JSON_HEADERS, ...(version ? { 'obsim-contract-version': version } : {}) },
      payload: { merchantClientId: clientId, amount: 12.5, referenceNumber: 'v-1' },
    });
  const base = await pay();
  t.equal(base.headers['obsim-contract-version'], 'base');
  t.same(schemaErrors('Payment', json(base)), [], 'the base answers by the base');
  t.equal(json(base).merchantName, 'Versioned ApS');
  const versioned = await pay(V);
  t.equal(versioned.headers['obsim-contract-version'], V);
  t.match(versioned.headers['content-type'], /^application\/json/, 'labelled JSON like the base');
  const body = json(versioned);
  t.ok(paymentOfVersion(body), `valid against the version's document: ${JSON.stringify(paymentOfVersion.errors)}`);
  t.equal(body.paymentReference, `PAY-${body.paymentId}`, 'x-obsim: template PAY-{paymentId}');
  t.notOk('merchantName' in body, 'x-obsim: merchantName is no longer sent');
  // a value now sent: authorized while the bank settles (the base says processing)
  await a.inject({ method: 'POST', url: `/_sandbox/payments/${body.paymentId}/approve`, headers: JSON_HEADERS, payload: {} });
  const read = (version: string) =>
    a.inject({
      method: 'GET',
      url: `/v1/partner/payments/${body.paymentId}/status`,
      headers: { ...PARTNER, 'obsim-contract-version': version },
    });
  t.equal(json(await read('base')).status, 'processing');
  t.equal(json(await read(V)).status, 'authorized');
  // a status code changed: registering a webhook answers 201
  const hook = (version: string) =>
    a.inject({
      method: 'POST',
      url: '/v1/partner/webhooks',
      headers: { ...JSON_HEADERS, 'obsim-contract-version': version },
      payload: { url: 'http://127.0.0.1:9/hooks', events: ['payment.completed'] },
    });
  t.equal((await hook('base')).statusCode, 200);
  t.equal((await hook(V)).statusCode, 201);
  // the controls are not versioned
  const control = await a.inject({ method: 'GET', url: '/_sandbox/overview', headers: { ...PARTNER, 'obsim-contract-version': V } });
  t.equal(control.statusCode, 200);
  t.notOk(control.headers['obsim-contract-version']);
});

t.test('an unknown version is a 400 naming the header and the known versions, and changes nothing', async (t) => {
  const a = await app(t);
  const before = count(a, 'merchants');
  const res = await a.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test',
    headers: { ...JSON_HEADERS, 'obsim-contract-version': '2030-01-01' },
    payload: { companyName: 'Nobody ApS' },
  });
  t.equal(res.statusCode, 400);
  t.same(schemaErrors('ErrorBody', json(res)), []);
  t.match(json(res), { code: 'unknown_contract_version', field: '/obsim-contract-version', in: 'header' });
  t.match(json(res).message, /"2030-01-01".*base, 2027-03-01/);
  t.equal(count(a, 'merchants'), before, 'nothing created');
  const sandboxes = count(a, 'sandboxes');
  const pin = await a.inject({
    method: 'POST',
    url: '/_sandbox/sandboxes',
    headers: { 'content-type': 'application/json' },
    payload: { contractVersion: 'nope' },
  });
  t.equal(pin.statusCode, 400);
  t.match(json(pin), { code: 'unknown_contract_version', field: '/contractVersion', in: 'body' });
  t.equal(count(a, 'sandboxes'), sandboxes, 'no sandbox created');
});

t.test('a sandbox pinned at creation is served by its version; the header still picks another for one request', async (t) => {
  const a = await app(t);
  const created = json(
    await a.inject({
      method: 'POST',
      url: '/_sandbox/sandboxes',
      headers: { 'content-type': 'application/json' },
      payload: { contractVersion: V },
    }),
  );
  t.equal(created.contractVersion, V);
  t.same(schemaErrors('SandboxCreated', created), []);
  const headers = { ...sandboxHeaders(created), 'content-type': 'application/json' };
  const overview = json(await a.inject({ method: 'GET', url: '/_sandbox/overview', headers }));
  t.equal(overview.contractVersion, V);
  const payment = (extra: Record<string, string> = {}) =>
    a.inject({
      method: 'POST',
      url: '/v1/partner/payments',
      headers: { ...headers, ...extra },
      payload: { merchantClientId: created.defaultMerchant.clientId, amount: 1, referenceNumber: 'pin' },
    });
  const pinned = await payment();
  t.equal(pinned.headers['obsim-contract-version'], V);
  t.ok(json(pinned).paymentReference);
  const asBase = await payment({ 'obsim-contract-version': 'base' });
  t.equal(asBase.headers['obsim-contract-version'], 'base');
  t.notOk(json(asBase).paymentReference);
  // the journal says which version served each request
  const entries = json<{ items: { contractVersion?: string; path: string; responseBody?: unknown }[] }>(
    await a.inject({ method: 'GET', url: '/_sandbox/requests?path=/v1/partner/payments', headers }),
  ).items;
  t.same(
    entries.map((e) => e.contractVersion ?? 'base'),
    ['base', V],
    'newest first',
  );
  t.match(entries[1].responseBody, { paymentReference: String }, 'the journal keeps the answer the version sent, as JSON');
});

t.test('two sandboxes on two versions, interleaved, each answer only by their own', async (t) => {
  const a = await app(t);
  const make = async (contractVersion?: string) => {
    const c = json(
      await a.inject({
        method: 'POST',
        url: '/_sandbox/sandboxes',
        headers: { 'content-type': 'application/json' },
        payload: contractVersion ? { contractVersion } : {},
      }),
    );
    return { c, headers: { ...sandboxHeaders(c), 'content-type': 'application/json' } };
  };
  const [old, next] = [await make(), await make(V)];
  for (let i = 0; i < 6; i++) {
    for (const [who, versioned] of [
      [old, false],
      [next, true],
    ] as const) {
      const res = await a.inject({
        method: 'POST',
        url: '/v1/partner/payments',
        headers: who.headers,
        payload: { merchantClientId: who.c.defaultMerchant.clientId, amount: i + 1, referenceNumber: `r${i}` },
      });
      const body = json(res);
      t.equal('paymentReference' in body, versioned);
      t.equal('merchantName' in body, !versioned);
      t.equal(res.headers['obsim-contract-version'], versioned ? V : 'base');
    }
  }
});

t.test(
  'Deprecation, Sunset and Link on a deprecated operation; 410 from the sunset instant on the sandbox clock, not before',
  async (t) => {
    // one millisecond before the sunset, frozen
    const a = await app(t, new Date(SUNSET_AT - 1).toISOString());
    const { merchantId } = await testMerchantClientId(a);
    const resend = () =>
      a.inject({
        method: 'POST',
        url: `/v1/partner/merchants/${merchantId}/resend-onboarding`,
        headers: { ...PARTNER, 'obsim-contract-version': V },
      });
    const before = await resend();
    t.not(before.statusCode, 410, 'still served before the sunset');
    const [deprecation] = parseItem(String(before.headers.deprecation));
    t.ok(deprecation instanceof Date, 'Deprecation is an RFC 9651 date item');
    t.equal((deprecation as Date).getTime(), DEPRECATED_AT);
    t.equal(Date.parse(String(before.headers.sunset)), SUNSET_AT, 'Sunset is an HTTP date of the sunset instant');
    t.match(String(before.headers.sunset), /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/, 'IMF-fixdate');
    t.match(String(before.headers.link), /^<[^>]+>; rel="deprecation"/);
    const baseCall = await a.inject({ method: 'POST', url: `/v1/partner/merchants/${merchantId}/resend-onboarding`, headers: PARTNER });
    t.notOk(baseCall.headers.deprecation, 'the base does not deprecate it');
    await a.inject({ method: 'POST', url: '/_sandbox/clock/advance', headers: JSON_HEADERS, payload: { duration: '1ms' } });
    const after = await resend();
    t.equal(after.statusCode, 410);
    t.same(schemaErrors('ErrorBody', json(after)), []);
    t.match(json(after), { code: 'operation_sunset' });
    t.match(json(after).message, /2027-09-01T00:00:00Z.*2027-03-01/);
    t.ok(after.headers.sunset, 'the 410 still says when');
    // readiness: the calls to the deprecated operation, with the first journal entry
    const report = json(await a.inject({ method: 'GET', url: '/_sandbox/report', headers: PARTNER }));
    t.same(schemaErrors('SandboxReadinessReport', report), []);
    t.match(report.deprecatedCalls, [{ operationId: 'resendMerchantOnboarding', contractVersion: V, calls: 2 }]);
    const first = json(
      await a.inject({ method: 'GET', url: `/_sandbox/requests/${report.deprecatedCalls[0].firstEntry}`, headers: PARTNER }),
    );
    t.equal(first.contractVersion, V);
    t.match(first.path, /resend-onboarding$/);
  },
);

t.test('a deprecated request field, when sent, answers Deprecation; when not sent, nothing', async (t) => {
  const a = await app(t);
  const create = (extra: Record<string, unknown>) =>
    a.inject({
      method: 'POST',
      url: '/v1/partner/merchants',
      headers: { ...JSON_HEADERS, 'obsim-contract-version': V },
      payload: { companyName: 'Fields ApS', contactEmail: 'a@fields.dk', ...extra },
    });
  const sent = await create({ partnerRefId: 'ref-1' });
  t.equal(sent.statusCode, 200);
  t.equal((parseItem(String(sent.headers.deprecation))[0] as Date).getTime(), DEPRECATED_AT);
  t.notOk((await create({})).headers.deprecation);
});

t.test('a webhook keeps the version it was registered under: its deliveries carry that version’s body, signed', async (t) => {
  const a = await app(t);
  const receiver = await startReceiver(t);
  const register = async (version: string, path: string) =>
    json(
      await a.inject({
        method: 'POST',
        url: '/v1/partner/webhooks',
        headers: { ...JSON_HEADERS, 'obsim-contract-version': version },
        payload: { url: `${receiver.url}/${path}`, events: ['payment.completed'] },
      }),
    );
  const baseHook = await register('base', 'base');
  const versionHook = await register(V, 'next');
  const { clientId } = await testMerchantClientId(a);
  // the payment itself is made under the base: the webhook's version decides its deliveries
  const payment = json(
    await a.inject({
      method: 'POST',
      url: '/v1/partner/payments',
      headers: JSON_HEADERS,
      payload: { merchantClientId: clientId, amount: 3, referenceNumber: 'w' },
    }),
  );
  await a.inject({ method: 'POST', url: `/_sandbox/payments/${payment.paymentId}/complete`, headers: JSON_HEADERS, payload: {} });
  const got = await receiver.waitFor(2);
  const byPath = Object.fromEntries(got.map((r) => [r.path.split('/').pop()!, r]));
  for (const [path, secret] of [
    ['base', baseHook.secret],
    ['next', versionHook.secret],
  ]) {
    const r = byPath[path];
    t.equal(
      r.headers['x-webhook-signature'],
      createHmac('sha256', secret).update(r.raw).digest('hex'),
      `${path}: signed over the bytes sent`,
    );
  }
  t.notOk('paymentReference' in byPath.base.json.data, 'the base webhook gets the base payload');
  t.equal(byPath.next.json.data.paymentReference, `PAY-${payment.paymentId}`, 'the version’s webhook gets its field');
  t.equal(byPath.next.json.event, 'payment.completed');
  // a redelivery sends the same bytes
  const log = json<{ items: { id: number; webhookId: string }[] }>(
    await a.inject({ method: 'GET', url: '/_sandbox/deliveries', headers: PARTNER }),
  );
  const versioned = log.items.find((d) => d.webhookId === versionHook.id)!;
  await a.inject({ method: 'POST', url: `/_sandbox/deliveries/${versioned.id}/redeliver`, headers: JSON_HEADERS, payload: {} });
  const again = (await receiver.waitFor(3))[2];
  t.same(again.raw, byPath.next.raw, 'redelivered byte for byte');
});

t.test('without --contracts: no version header on answers; the base may be named, any other is refused', async (t) => {
  const a = await build(t);
  const res = await a.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test',
    headers: JSON_HEADERS,
    payload: { companyName: 'Plain ApS' },
  });
  t.equal(res.statusCode, 200);
  t.notOk(res.headers['obsim-contract-version']);
  const named = await a.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test',
    headers: { ...JSON_HEADERS, 'obsim-contract-version': 'base' },
    payload: { companyName: 'Plain ApS' },
  });
  t.equal(named.statusCode, 200);
  const other = await a.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test',
    headers: { ...JSON_HEADERS, 'obsim-contract-version': V },
    payload: { companyName: 'Plain ApS' },
  });
  t.equal(other.statusCode, 400);
  t.match(json(other).message, /the versions are base$/);
  const list = json(await a.inject({ method: 'GET', url: '/_sandbox/contract/versions', headers: PARTNER }));
  t.same(
    list.items.map((i: { name: string }) => i.name),
    ['base'],
  );
});
