/**
 * POST/GET /_sandbox/pact/provider-states: the Pact verifier's state-change protocol served by
 * obsim. The statuses a state must reach come from the document's enums (openapi.json), and each
 * built state is read back through the provider's own API; setting one up goes through the engine
 * (its webhook delivered, its transitions caused by the state's steps, its requests journaled);
 * bad input is a 400 in the one error shape that changes nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { buildApp } from '../../../src/app.js';
import { build, PARTNER, schemaErrors } from '../../helpers/app.js';

type Json = Record<string, any>;
const DOC = JSON.parse(readFileSync(join(import.meta.dirname, '../../../openapi.json'), 'utf8'));
const app = await build(t);
const H = { ...PARTNER, 'content-type': 'application/json' };
const change = (payload: Json, headers: Json = H) =>
  app.inject({ method: 'POST', url: '/_sandbox/pact/provider-states', headers, payload });
const get = (url: string, headers: Json = PARTNER) => app.inject({ method: 'GET', url, headers });
async function setUp(state: string, params: Json = {}): Promise<Json> {
  const res = await change({ state, params, action: 'setup' });
  if (res.statusCode !== 200) throw new Error(`${state} ${JSON.stringify(params)}: ${res.body}`);
  return res.json();
}
const overview = async () => (await get('/_sandbox/overview')).json();

t.test('GET lists the built-in states with their params and answers, in the documented shape', async (t) => {
  const res = await get('/_sandbox/pact/provider-states');
  t.equal(res.statusCode, 200);
  t.same(schemaErrors('SandboxPactStateList', res.json()), []);
  const byName = Object.fromEntries(res.json().items.map((s: Json) => [s.name, s]));
  t.same(Object.keys(byName), [
    'a merchant',
    'a payment',
    'a webhook',
    'a consent',
    'a bank user with accounts and transactions',
    'no data',
  ]);
  t.same(
    byName['a payment'].params.status.enum,
    DOC.components.schemas.Payment.properties.status.enum,
    "a payment's statuses are the document's",
  );
  t.same([...byName['a payment'].params.failureReason.enum, null], DOC.components.schemas.Payment.properties.failureReason.enum);
  t.same(byName['a consent'].params.status.enum, DOC.components.schemas.Consent.properties.status.enum);
  for (const status of DOC.components.schemas.OnboardingStatusResponse.properties.onboardingStatus.enum)
    t.ok(byName['a merchant'].params.status.enum.includes(status), `a merchant can be ${status}`);
  t.match(byName['a payment'].answers, { paymentId: String, merchantClientId: String, bankPaymentStatus: String });
  for (const s of res.json().items) t.equal(s.source, 'built-in');
});

t.test("every merchant status the document names is built, and read back as the provider's answer", async (t) => {
  const kinds: [string, string | undefined][] = [
    ['activated', undefined],
    ['inactive', 'test'],
    ['pending_onboarding', 'standard'],
    ['awaiting_approval', 'standard'],
    ['activated', 'standard'],
    ['rejected', 'standard'],
    ['inactive', 'standard'],
    ['pending_completion', 'fast-track'],
    ['awaiting_approval', 'fast-track'],
    ['activated', 'fast-track'],
    ['rejected', 'fast-track'],
  ];
  for (const [status, kind] of kinds) {
    const values = await setUp('a merchant', { status, ...(kind ? { kind } : {}) });
    const read = (await get(`/v1/partner/merchants/${values.merchantId}/onboarding-status`)).json();
    t.equal(read.onboardingStatus, status, `${kind ?? 'default'} merchant ${status}`);
  }
  const failed = await setUp('a merchant', { kind: 'fast-track', subTppStatus: 'failed', status: 'pending_onboarding' });
  t.equal(
    (await get(`/v1/partner/merchants/${failed.merchantId}/onboarding-status`)).json().subTppDetails.status,
    'failed',
    'a fast-track whose sub-TPP failed',
  );
});

t.test('every payment status, with each failure reason, and the bankPaymentStatus it has', async (t) => {
  const cases: Json[] = [
    ...DOC.components.schemas.Payment.properties.status.enum.filter((s: string) => s !== 'failed').map((status: string) => ({ status })),
    ...['bank_rejected', 'payer_abandoned', 'expired'].map((failureReason) => ({ status: 'failed', failureReason })),
  ];
  for (const params of cases) {
    const values = await setUp('a payment', { ...params, amount: 12.5, referenceNumber: 'pact-7' });
    const read = (await get(`/v1/partner/payments/${values.paymentId}/status`)).json();
    t.match(
      read,
      { ...params, amount: 12.5, referenceNumber: 'pact-7', merchantClientId: values.merchantClientId },
      JSON.stringify(params),
    );
    t.equal(values.bankPaymentStatus, read.bankPaymentStatus, 'the answered bankPaymentStatus is the one the provider reports');
  }
});

t.test('every consent status, and a bank user whose accounts the answered token reads', async (t) => {
  for (const status of DOC.components.schemas.Consent.properties.status.enum) {
    const values = await setUp('a consent', { status });
    const list = await app.inject({
      method: 'GET',
      url: `/v1/ais/users/${values.userId}/consents?merchantId=${values.merchantId}`,
      headers: { authorization: `Bearer ${values.token}` },
    });
    t.equal(list.json()[0].requestId, values.consentRequestId);
    t.equal(list.json()[0].status, status, `consent ${status}`);
  }
  const user = await setUp('a bank user with accounts and transactions', { userId: 'user-multi-currency' });
  const page = await app.inject({
    method: 'POST',
    url: '/v1/ais/accounts/transactions',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    payload: { userId: 'user-multi-currency', merchantId: user.merchantId, accountId: user.accountId, pageLimit: 2 },
  });
  t.equal(page.statusCode, 200);
  t.equal(page.json().accountId, user.accountId);
  const expired = await setUp('a bank user with accounts and transactions', { token: 'expired' });
  const refused = await app.inject({
    method: 'POST',
    url: '/v1/ais/accounts',
    headers: { authorization: `Bearer ${expired.token}`, 'content-type': 'application/json' },
    payload: { userId: 'user-typical', merchantId: expired.merchantId },
  });
  t.equal(refused.json().code, 'token_expired', 'token: expired moves the clock past the token');
});

t.test(
  'a state is built through the engine: its webhook is delivered, its transitions name the state, its requests are journaled',
  async (t) => {
    const webhook = await setUp('a webhook', { url: 'http://127.0.0.1:9/hooks', events: ['payment.completed'] });
    const paid = await setUp('a payment', { status: 'paid' });
    const deliveries = (await get(`/_sandbox/deliveries?webhookId=${webhook.webhookId}&event=payment.completed`)).json().items;
    t.equal(deliveries.length, 1, 'payment.completed made for the webhook');
    t.equal(JSON.parse((await get(`/_sandbox/deliveries/${deliveries[0].id}`)).json().body).data.paymentId, paid.paymentId);
    const transitions = (await get(`/_sandbox/payments/${paid.paymentId}/transitions`)).json().items;
    t.same(
      transitions.map((x: Json) => [x.to, x.cause.kind, x.cause.name]),
      [
        ['pending', 'scenario_step', 'pact state: a payment #2 request'],
        ['processing', 'scenario_step', 'pact state: a payment #3 control'],
        ['paid', 'scenario_step', 'pact state: a payment #4 control'],
      ],
    );
    const journaled = (await get('/_sandbox/requests?path=/v1/partner/payments&method=POST&limit=1')).json().items[0];
    t.equal(journaled.responseBody.paymentId, paid.paymentId);
  },
);

t.test(
  'an empty state builds nothing; teardown resets the sandbox; what an interaction without a state made is not in the next state',
  async (t) => {
    const before = await overview();
    const empty = await change({ state: '', params: {}, action: 'setup' });
    t.equal(empty.statusCode, 200);
    t.same(empty.json(), {});
    t.same(await overview(), before, 'nothing made');
    // the interaction without a state creates a merchant itself, then the verifier tears its empty state down
    const made = (
      await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: H, payload: { companyName: 'Made' } })
    ).json();
    t.same((await change({ state: '', action: 'teardown' })).json(), {});
    t.equal(
      (await get(`/v1/partner/merchants/${made.merchantId}/onboarding-status`)).statusCode,
      200,
      'the teardown of no state deletes nothing',
    );
    const values = await setUp('a payment');
    t.equal(
      (await get(`/v1/partner/merchants/${made.merchantId}/onboarding-status`)).statusCode,
      404,
      "the next interaction's state is built in a reset sandbox",
    );
    const down = await change({ state: 'a payment', params: {}, action: 'teardown' });
    t.equal(down.statusCode, 200);
    t.same(down.json(), {});
    t.equal((await get(`/v1/partner/payments/${values.paymentId}/status`)).statusCode, 404, 'what setup made is gone');
    const kept = await setUp('a webhook');
    await setUp('a payment');
    t.equal(
      (await get('/_sandbox/webhooks')).json().items[0]?.id,
      kept.webhookId,
      "an interaction's second state is built beside its first",
    );
  },
);

t.test('bad input: a 400 naming what is wrong, and nothing changes', async (t) => {
  const before = await overview();
  const cases: [Json, string, string, RegExp][] = [
    [
      { state: 'a unicorn' },
      'unknown_provider_state',
      '/state',
      /No provider state "a unicorn": the known states are "a merchant", "a payment", .*"no data"/,
    ],
    [
      { state: 'a payment', params: { amount: 'ten' } },
      'validation_failed',
      '/params/amount',
      /params\.amount must be a number; got "ten"/,
    ],
    [
      { state: 'a payment', params: { status: 'refunded' } },
      'validation_failed',
      '/params/status',
      /one of "pending", "processing", "paid", "failed"/,
    ],
    [{ state: 'a payment', params: { colour: 'red' } }, 'unknown_field', '/params/colour', /takes no param "colour"/],
    [{ state: 'a payment', params: { constructor: 'x' } }, 'unknown_field', '/params/constructor', /takes no param "constructor"/],
    [
      { state: 'a merchant', params: { kind: 'test', status: 'rejected' } },
      'validation_failed',
      '/params/status',
      /A test merchant cannot be in status rejected/,
    ],
    [{ state: 'a payment', params: { amount: { value: 10 } } }, 'validation_failed', '/params/amount', /./],
    [
      { state: 'a merchant', params: { kind: 'fast-track', subTppStatus: 'failed', status: 'pending_completion' } },
      'validation_failed',
      '/params/status',
      /whose sub-TPP creation failed cannot be in status pending_completion: it can be pending_onboarding, awaiting_approval, activated/,
    ],
    // values the provider refuses in the request a param is sent in: refused before any step runs
    [{ state: 'a payment', params: { amount: -5 } }, 'validation_failed', '/params/amount', /params\.amount must be > 0; got -5/],
    [{ state: 'a payment', params: { amount: 12.345 } }, 'validation_failed', '/params/amount', /at most 2 decimal places/],
    [{ state: 'a payment', params: { referenceNumber: '   ' } }, 'validation_failed', '/params/referenceNumber', /must match pattern/],
    [{ state: 'a merchant', params: { companyName: '' } }, 'validation_failed', '/params/companyName', /fewer than 1 characters/],
    [{ state: 'a webhook', params: { url: 'not a url' } }, 'validation_failed', '/params/url', /absolute http\(s\) URL/],
    [{ state: 'a webhook', params: { events: [] } }, 'validation_failed', '/params/events', /fewer than 1 items/],
    [{ state: 'a consent', params: { permissions: [] } }, 'validation_failed', '/params/permissions', /fewer than 1 items/],
    [
      { state: 'a bank user with accounts and transactions', params: { userId: '' } },
      'validation_failed',
      '/params/userId',
      /fewer than 1 characters/,
    ],
    [{ state: 'a payment', flavour: 'x' }, 'unknown_field', '/flavour', /./],
    [{ state: 'a payment', action: 'undo' }, 'validation_failed', '/action', /./],
  ];
  for (const [payload, code, field, message] of cases) {
    const res = await change(payload);
    t.equal(res.statusCode, 400, JSON.stringify(payload));
    t.match(res.json(), { code, field, message });
    t.same(schemaErrors('ErrorBody', res.json()), []);
  }
  t.same(await overview(), before, 'nothing changed');
  const anonymous = await change({ state: 'a payment' }, { 'content-type': 'application/json' });
  t.equal(anonymous.statusCode, 401);
  t.equal(anonymous.json().code, 'partner_credentials_missing');
});

t.test("a partner's own states from --pact-states: a pattern, params, answers and a teardown of its own", async (t) => {
  const dir = t.testdir({
    'shop.yaml': `states:
  - name: a shop with a paid order {reference}
    description: A paid order of the shop
    params:
      amount: { type: number, default: 25 }
    steps:
      - request: { method: POST, path: /v1/partner/merchants/test, body: { companyName: Shop }, capture: { shop: clientId } }
      - request:
          method: POST
          path: /v1/partner/payments
          body: { merchantClientId: "\${shop}", amount: "\${amount}", referenceNumber: "\${reference}" }
          capture: { paymentId: paymentId }
      - control: { payment: "\${paymentId}", action: approve }
      - control: { payment: "\${paymentId}", action: complete }
    answers: { paymentId: "\${paymentId}", merchantClientId: "\${shop}" }
    teardown: []
  - name: a payment of {amount} DKK
    params: { amount: { type: number } }
    steps: []
`,
  });
  const own = await build(t, { config: { pactStates: dir } });
  const inject = (payload: Json) => own.inject({ method: 'POST', url: '/_sandbox/pact/provider-states', headers: H, payload });
  const list = (await own.inject({ method: 'GET', url: '/_sandbox/pact/provider-states', headers: PARTNER })).json().items;
  t.match(list[0], {
    name: 'a shop with a paid order {reference}',
    source: join(dir, 'shop.yaml'),
    params: { amount: { type: 'number', default: 25 }, reference: { type: 'string' } },
  });
  t.equal(list.length, 8, "the partner's two, then the built-in six");
  const values = (await inject({ state: 'a shop with a paid order ord-7', params: { amount: 12.5 } })).json();
  const read = (await own.inject({ method: 'GET', url: `/v1/partner/payments/${values.paymentId}/status`, headers: PARTNER })).json();
  t.match(read, { status: 'paid', referenceNumber: 'ord-7', amount: 12.5, merchantClientId: values.merchantClientId });
  t.equal((await inject({ state: 'a shop with a paid order ord-7', action: 'teardown' })).statusCode, 200);
  t.equal(
    (await own.inject({ method: 'GET', url: `/v1/partner/payments/${values.paymentId}/status`, headers: PARTNER })).statusCode,
    200,
    'its own teardown (none) keeps it',
  );
  const wrong = await inject({ state: 'a payment of lots DKK' });
  t.match(wrong.json(), { code: 'validation_failed', field: '/state', message: /amount = "lots", which is not a number/ });
});

t.test('a --pact-states file obsim cannot use stops the start, naming the file and where in it', async (t) => {
  const dir = t.testdir({ 'bad.yaml': 'states:\n  - name: x\n    steps:\n      - request: { method: FETCH, path: /x }\n' });
  await t.rejects(
    buildApp({ logger: false, config: { db: ':memory:', pactStates: dir } }).then((a) => a.ready()),
    {
      message: new RegExp(`--pact-states: pact states ${join(dir, 'bad.yaml')} at /states/0/steps`),
    },
  );
  const noItems = t.testdir({ 'lists.yaml': 'states:\n  - name: y\n    params: { tags: { type: array } }\n    steps: []\n' });
  await t.rejects(
    buildApp({ logger: false, config: { db: ':memory:', pactStates: noItems } }).then((a) => a.ready()),
    { message: new RegExp(`pact states ${join(noItems, 'lists.yaml')} at /states/0/params/tags/items: an array param needs items`) },
  );
});

t.test("GET /_sandbox/pact: the caller's sandbox's traffic, no secret of the partner's in it (one redaction policy)", async (t) => {
  const { credentials } = (await app.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: { ttl: '1h' } })).json();
  const own = { 'x-partner-client-id': credentials.clientId, 'x-partner-client-secret': credentials.clientSecret };
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzaG9wIn0.c2lnbmF0dXJl';
  // a query parameter named as a secret, and a token pasted into a field
  const created = await app.inject({
    method: 'POST',
    url: '/v1/partner/merchants/test?api_key=s3cr3t-in-a-query',
    headers: { ...own, 'content-type': 'application/json' },
    payload: { companyName: `Shop ${jwt}` },
  });
  t.equal(created.statusCode, 200);
  const res = await get('/_sandbox/pact?consumer=shop&provider=open-banking-provider', own);
  t.equal(res.statusCode, 200);
  t.same(schemaErrors('SandboxPact', res.json()), []);
  t.notMatch(res.body, 's3cr3t-in-a-query', 'no secret-named query value');
  t.notMatch(res.body, jwt, 'no token, wherever it stands');
  t.notMatch(res.body, credentials.clientSecret, "no partner's secret");
  const [interaction] = res.json().interactions;
  t.equal(interaction.description, 'createTestMerchant answers 200 activated');
  t.same(interaction.request.query, { api_key: ['REDACTED'] });
  t.equal(interaction.request.body.content.companyName, 'Shop REDACTED');
  t.equal(interaction.response.body.content.companyName, 'Shop REDACTED');
  t.same(
    (await get('/_sandbox/pact', PARTNER)).json().interactions.filter((i: Json) => i.request.query?.api_key),
    [],
    "another sandbox's export holds none of it",
  );
});

t.test("GET /_sandbox/pact under a contract version: the version's document says what the answers hand out", async (t) => {
  const versioned = await build(t, { config: { contracts: 'examples/contracts' } });
  const { credentials } = (
    await versioned.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: { ttl: '1h', contractVersion: '2027-03-01' } })
  ).json();
  const own = { 'x-partner-client-id': credentials.clientId, 'x-partner-client-secret': credentials.clientSecret };
  // the example version answers a registration 201, a status only its document gives
  const registered = await versioned.inject({
    method: 'POST',
    url: '/v1/partner/webhooks',
    headers: { ...own, 'content-type': 'application/json' },
    payload: { url: 'http://127.0.0.1:9/hooks', events: ['payment.completed'] },
  });
  t.equal(registered.statusCode, 201);
  await versioned.inject({ method: 'POST', url: `/v1/partner/webhooks/${registered.json().id}/test`, headers: own });
  const pact = (await versioned.inject({ method: 'GET', url: '/_sandbox/pact', headers: own })).json();
  t.equal(pact.metadata.obsim.contractVersion, '2027-03-01');
  const [registration, test] = pact.interactions;
  t.equal(registration.description, 'registerWebhook answers 201');
  t.same(
    registration.response.matchingRules.body['$.id'].matchers,
    [{ match: 'regex', regex: DOC.components.schemas.WebhookResponse.properties.id.pattern }],
    "the id by the pattern of the version's 201",
  );
  t.same(registration.request.headers['Obsim-Contract-Version'], ['2027-03-01']);
  t.same(test.request.generators.path.expression, '/v1/partner/webhooks/${webhookId}/test', 'the id the 201 handed out, from the state');
});

t.test('GET /_sandbox/pact: bad input is a 400 that names it; without the journal, 409 journal_off', async (t) => {
  for (const [url, code, field] of [
    ['/_sandbox/pact?colour=red', 'unknown_field', '/colour'],
    ['/_sandbox/pact?consumer=', 'validation_failed', '/consumer'],
  ]) {
    const res = await get(url);
    t.equal(res.statusCode, 400, url);
    t.match(res.json(), { code, field, in: 'query' });
    t.same(schemaErrors('ErrorBody', res.json()), []);
  }
  t.equal((await get('/_sandbox/pact', {})).statusCode, 401);
  const off = await build(t, { config: { journal: false } });
  const res = await off.inject({ method: 'GET', url: '/_sandbox/pact', headers: PARTNER });
  t.equal(res.statusCode, 409);
  t.equal(res.json().code, 'journal_off');
});
