/**
 * A HAR obsim did not write, in another provider's layout (test/fixtures/har/foreign-provider.har,
 * recorded from the foreign provider double by ./record-foreign.ts beside it: other ids, hosts, base
 * path and header casing, session cookies, a bearer token, a polling sequence, a hosted checkout,
 * an aborted request, a font and an analytics beacon), imported and run green on a fresh sandbox.
 * Neither the cookie, the bearer token nor the partner's or webhook's secret reaches the YAML.
 * The fixture itself is checked against the registry's har-schema with its own validator.
 */
import t from 'tap';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { defaultConfig } from '../../src/config.js';
import { lifecycleSettings } from '../../src/domain/settings.js';
import { importHar } from '../../src/har-import/import.js';
import { parseScenarioText, validateScenario } from '../../src/scenarios/loader.js';
import { runScenario } from '../../src/scenarios/runner.js';
import { injectTransport } from '../../src/scenarios/transport.js';
import { build, json } from '../helpers/app.js';
import { startForeignProvider } from '../helpers/foreign/provider.js';
import { failure } from '../helpers/scenarios.js';
import { harRecorder } from '../fixtures/har/foreign-recorder.js';

const text = readFileSync(new URL('../fixtures/har/foreign-provider.har', import.meta.url), 'utf8');
const har = JSON.parse(text) as {
  log: { entries: { request: { headers: { name: string; value: string }[] }; response: { content: { text?: string } } }[] };
};
const settings = lifecycleSettings(defaultConfig());

/** Every value of a request header named `name` (any casing) in the HAR. */
const headerValues = (name: string) =>
  har.log.entries.flatMap((e) => e.request.headers.filter((h) => h.name.toLowerCase() === name).map((h) => h.value));

t.test('the fixture is HAR 1.2 by har-schema (its own validator, not the importer’s)', async (t) => {
  const schemas = createRequire(import.meta.url)('har-schema') as Record<string, Record<string, unknown>>;
  const ajv = addFormats.default(new Ajv({ strict: false, validateSchema: false }));
  for (const [name, s] of Object.entries(schemas)) if (name !== 'har') ajv.addSchema({ ...s, $schema: undefined });
  t.ok(ajv.validate({ ...schemas.har, $schema: undefined }, har), JSON.stringify(ajv.errors));
});

t.test('another provider’s HAR becomes a scenario that runs green on a fresh sandbox, its secrets left out', async (t) => {
  const imported = importHar(text, { name: 'foreign-provider', origin: 'foreign-provider.har', settings });
  const yaml = imported.yaml;

  const bearer = headerValues('authorization').map((v) => v.replace(/^Bearer /, ''));
  const cookies = headerValues('cookie').flatMap((v) => v.split('; ').map((c) => c.split('=')[1]));
  const partnerSecret = headerValues('x-partner-client-secret');
  const webhookSecret = har.log.entries.flatMap((e) =>
    [...(e.response.content.text ?? '').matchAll(/"secret":"([^"]+)"/g)].map((m) => m[1]),
  );
  t.ok(
    bearer.length > 0 && cookies.length > 0 && partnerSecret.length > 0 && webhookSecret.length > 0,
    'the HAR holds each kind of secret',
  );
  for (const secret of [...new Set([...bearer, ...cookies, ...partnerSecret, ...webhookSecret])])
    t.notOk(yaml.includes(secret), `no ${secret.slice(0, 12)}… in the YAML`);
  t.notMatch(yaml, /eyJ[\w-]+\.[\w-]+\./, 'no JWT');
  t.notMatch(yaml, /double_session|double_region/, 'no cookie, not even its name');
  t.notMatch(JSON.stringify(parse(yaml)), /partnerbank\.example/, 'no step names the other provider’s hosts (the summary atop does)');

  const { summary } = imported;
  t.match(summary, { entries: 24, taken: 20 }, 'all but the three left out and the aborted one');
  t.match(summary.skipped, [
    /entry #3 POST sandbox-api\.partnerbank\.example\/open\/v1\/partner\/payments: no answer \(status 0, net::ERR_CONNECTION_RESET\)/,
  ]);
  t.same(
    summary.leftOut.map((l) => l.reason).sort(),
    [
      'analytics.partnerbank.example: not the provider’s API',
      'fonts.partnerbank.example: not the provider’s API',
      'hosted.double.test: not the provider’s API',
    ],
    'the font, the beacon and the checkout’s stylesheet are left out and counted',
  );
  t.match(summary.inferred, [
    /clock advance of 7s before entry #7 \(payment 9100001 went from pending to paid/,
    /payer step \(payment complete\).*the HAR shows paid/,
    /payer step \(merchant submit-onboarding\) for the visit to onboardingUrl.*the HAR shows awaiting_approval/,
    /clock advance of 35s before entry #23 \(merchant 700002 went from awaiting_approval to activated/,
  ]);
  t.same(summary.literals, [], 'every id used was handed out first');
  t.match(summary.variables, ['merchantId', 'clientId', 'paymentId', 'paymentUrl', 'paymentId2', 'paymentUrl2', 'token', 'requestId']);
  t.match(summary.notExpected, [
    {
      keys: [
        'authorizationUrl',
        'clientId',
        'merchantId',
        'onboardingToken',
        'onboardingUrl',
        'paymentId',
        'paymentUrl',
        'requestId',
        'subTppId',
        'token',
        'userId',
      ],
    },
    { keys: ['amount', 'companyName', 'contactEmail', 'currency', 'merchantName', 'permissions', 'referenceNumber'] },
    { keys: ['createdAt', 'expirationDateTime', 'expiresAt', 'message', 'transactionFromDateTime', 'updatedAt'] },
  ]);

  const steps = (parse(yaml) as { steps: Record<string, any>[] }).steps;
  const polls = steps.filter((s) => s.request?.path === '/v1/partner/payments/${paymentId}/status' || s.advanceClock !== undefined);
  t.match(
    polls,
    [
      { request: { expect: { body: { status: 'pending' } } } },
      { request: { expect: { body: { status: 'pending' } } } },
      { advanceClock: '7s' },
      { request: { expect: { body: { status: 'paid' } } } },
    ],
    'the polls keep their order and their own expectations, the clock moved where the provider’s settled the payment',
  );
  t.match(
    steps.filter(
      (s) =>
        s.request?.path === '/v1/partner/merchants/${merchantId2}/onboarding-status' || s.control?.merchant || s.advanceClock === '35s',
    ),
    [
      { request: { expect: { body: { onboardingStatus: 'pending_onboarding' } } } },
      { control: { merchant: '${merchantId2}', action: 'submit-onboarding', expect: { body: { status: 'awaiting_approval' } } } },
      { request: { expect: { body: { onboardingStatus: 'awaiting_approval' } } } },
      { advanceClock: '35s' },
      { request: { expect: { body: { onboardingStatus: 'activated', subTppDetails: { isActivated: true } } } } },
    ],
    'the signup form visited on the provider’s host: the merchant’s step for what the next read shows, then the approval on the clock',
  );
  t.match(
    steps.find((s) => s.control),
    { control: { payment: '${paymentId2}', action: 'complete', expect: { body: { status: 'paid' } } } },
  );
  t.match(
    steps.find((s) => s.request?.path === '/v1/ais/users/kaffe-user-1/consents'),
    { request: { auth: 'bearer', query: { merchantId: '${merchantId}' } } },
  );

  const app = await build(t);
  const sandbox = json<{ credentials: { clientId: string; clientSecret: string } }>(
    await app.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: { name: 'foreign-replay', clock: { frozen: true } } }),
  );
  const result = await runScenario(validateScenario(parseScenarioText(yaml, 'foreign.yaml'), 'foreign.yaml'), {
    transport: injectTransport(app),
    partner: sandbox.credentials,
  });
  t.ok(result.passed, `the import runs green${failure(result)}\n${yaml}`);
});

t.test(
  'an Obsim-Contract-Version header becomes contractVersion; a request the document does not allow is imported and flagged; an id nobody handed out is kept and listed',
  async (t) => {
    const copy = JSON.parse(text);
    copy.log.entries[1].request.headers.push({ name: 'Obsim-Contract-Version', value: '2026-02-01' });
    const poll = copy.log.entries.find((e: any) => /\/status$/.test(e.request.url));
    copy.log.entries.push({
      ...poll,
      request: { ...poll.request, method: 'DELETE', url: poll.request.url.replace(/\d+\/status$/, '424242/status') },
    });
    copy.log.entries.push({ ...poll, request: { ...poll.request, url: poll.request.url.replace(/payments\/\d+\/status$/, 'refunds') } });
    const imported = importHar(JSON.stringify(copy), { settings });
    t.equal(imported.summary.contractVersion, '2026-02-01');
    t.equal((parse(imported.yaml) as { contractVersion?: string }).contractVersion, '2026-02-01');
    t.match(imported.summary.flagged, [
      /^the HAR names contract version 2026-02-01: read by the base document \(this import has no contract versions\)/,
      /DELETE .*: the document does not allow DELETE on \/v1\/partner\/payments\/424242\/status/,
      /GET .*: the document has no path \/v1\/partner\/refunds/,
    ]);
    t.match(imported.yaml, /# imported as recorded, but the document does not allow DELETE/);
    t.match(imported.lines, [/^26 entries: 22 taken as 21 steps/]);
  },
);

t.test('an id used before any answer handed it out is kept as written and listed', async (t) => {
  const copy = JSON.parse(text);
  // the merchant's creation is cut from the HAR: the payment names a client id nothing handed out
  copy.log.entries.splice(1, 1);
  const imported = importHar(JSON.stringify(copy), { settings });
  t.match(imported.summary.literals, [
    /^merchantClient [0-9a-f-]{36} \(body \/merchantClientId of entry #\d+, POST \/v1\/partner\/payments\)$/,
  ]);
  const clientId = /merchantClient ([0-9a-f-]{36})/.exec(imported.summary.literals[0])![1];
  t.match(imported.yaml, new RegExp(`merchantClientId: ${clientId}`), 'written as it was');
});

t.test(
  'a failure reason obsim does not have (the double’s payer_cancelled): replayed as bank_rejected, flagged, and the reads after it expect what the replay gives',
  async (t) => {
    // a story of its own, told to the foreign double now: the payer cancels on its hosted checkout
    const provider = await startForeignProvider();
    t.teardown(() => provider.close());
    const { call, har } = harRecorder(provider);
    const merchant = await call('POST', '/v1/partner/merchants/test', { body: { companyName: 'Kaffebaren ApS' }, partner: true, at: 100 });
    const payment = await call('POST', '/v1/partner/payments', {
      body: { merchantClientId: merchant.clientId, amount: 75, referenceNumber: 'KB-2001' },
      partner: true,
      at: 1_000,
    });
    const checkout = new URL(payment.paymentUrl);
    const page = `${checkout.pathname}${checkout.search}`;
    await call('GET', page, { at: 2_000, public: checkout.origin });
    await call('POST', page, { form: { decision: 'cancel' }, at: 3_000, public: checkout.origin });
    const status = `/v1/partner/payments/${payment.paymentId}/status`;
    const read = await call('GET', status, { partner: true, at: 4_000 });
    t.match(read, { status: 'failed', failureReason: 'payer_cancelled' }, 'the double’s own word for it');
    await call('GET', status, { partner: true, at: 5_000 });

    const imported = importHar(JSON.stringify(har()), { settings });
    t.match(imported.summary.flagged, [
      new RegExp(
        `^payment ${payment.paymentId} failed with payer_cancelled, a reason obsim does not have: the replay fails it with bank_rejected`,
      ),
    ]);
    t.ok(
      imported.lines.some((l) => /^Flagged: payment \d+ failed with payer_cancelled/.test(l)),
      'said in the printed summary',
    );
    const steps = (parse(imported.yaml) as { steps: Record<string, any>[] }).steps;
    t.match(
      steps.find((s) => s.control),
      { control: { payment: '${paymentId}', action: 'fail', body: { reason: 'bank_rejected' } } },
    );
    const reads = steps.filter((s) => s.request?.path === '/v1/partner/payments/${paymentId}/status');
    t.equal(reads.length, 2);
    for (const r of reads) t.match(r.request.expect.body, { status: 'failed', failureReason: 'bank_rejected' });
    t.notMatch(imported.yaml.replace(/^#.*$/gm, ''), /payer_cancelled/, 'no step expects the word obsim never answers');

    const app = await build(t);
    const sandbox = json<{ credentials: { clientId: string; clientSecret: string } }>(
      await app.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: { name: 'cancelled-replay', clock: { frozen: true } } }),
    );
    const result = await runScenario(validateScenario(parseScenarioText(imported.yaml, 'cancelled.yaml'), 'cancelled.yaml'), {
      transport: injectTransport(app),
      partner: sandbox.credentials,
    });
    t.ok(result.passed, `the import runs green${failure(result)}\n${imported.yaml}`);
  },
);

t.test('an id under a secret’s name that no answer handed out: listed, its value kept out of the summary and the file', async (t) => {
  const copy = JSON.parse(text);
  const poll = copy.log.entries.find((e: any) => /\/status$/.test(e.request.url));
  const secret = 'ot_secret_1234567890';
  poll.request.url += `?onboardingToken=${secret}`;
  poll.request.queryString = [{ name: 'onboardingToken', value: secret }];
  const imported = importHar(JSON.stringify(copy), { settings });
  t.match(imported.summary.literals, [/^onboardingToken REDACTED \(query onboardingToken of entry #\d+, GET /]);
  t.notOk(imported.yaml.includes(secret), 'not in the file (its comments included)');
  t.notOk(JSON.stringify(imported.summary).includes(secret), 'nor in the summary');
});
