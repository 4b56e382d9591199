/**
 * POST /_sandbox/scenarios/import over HTTP: a HAR the sandbox itself exported becomes a scenario
 * (format=yaml and format=json, the latter against its schema); bad input is a 4xx in the one
 * error shape naming the HAR pointer that fails har-schema, and changes nothing; the import is
 * not journaled; the controls' credentials and unknown query parameters as everywhere. One obsim
 * for the file (so one importer thread, started once), each test in a sandbox of its own.
 */
import t from 'tap';
import { parse } from 'yaml';
import { buildApp } from '../../../src/app.js';
import { VirtualClock } from '../../../src/clock.js';
import { json, PARTNER, schemaErrors, T0 } from '../../helpers/app.js';
import { harWith } from '../../helpers/har.js';

// the off-thread test below learns when the import's handler runs
let handlerEntered: (() => void) | undefined;
const app = await buildApp({
  logger: false,
  clock: VirtualClock.create({ start: T0, frozen: true }),
  config: { db: ':memory:', validateResponses: true },
});
app.addHook('preHandler', async (request) => {
  if (request.url.startsWith('/_sandbox/scenarios/import')) handlerEntered?.();
});
await app.ready();
t.teardown(() => app.close());

/** A sandbox of its own for a test: its partner headers. */
async function sandbox(): Promise<Record<string, string>> {
  const s = json<{ credentials: { clientId: string; clientSecret: string } }>(
    await app.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: { clock: { frozen: true } } }),
  );
  return { 'x-partner-client-id': s.credentials.clientId, 'x-partner-client-secret': s.credentials.clientSecret };
}

const post = (headers: Record<string, string>, payload: string | Buffer, query = '') =>
  app.inject({
    method: 'POST',
    url: `/_sandbox/scenarios/import${query}`,
    headers: { ...headers, 'content-type': 'application/json' },
    payload,
  });

t.test('the sandbox’s own HAR, imported: the scenario as YAML, or with its summary as JSON', async (t) => {
  const partner = await sandbox();
  const merchant = json(
    await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: partner, payload: { companyName: 'Import Shop' } }),
  );
  const payment = json(
    await app.inject({
      method: 'POST',
      url: '/v1/partner/payments',
      headers: partner,
      payload: { merchantClientId: merchant.clientId, amount: 10, referenceNumber: 'imp-1' },
    }),
  );
  await app.inject({ method: 'GET', url: `/v1/partner/payments/${payment.paymentId}/status`, headers: partner });
  const har = (await app.inject({ method: 'GET', url: '/_sandbox/requests?format=har', headers: partner })).body;
  const before = json(await app.inject({ method: 'GET', url: '/_sandbox/requests', headers: partner })).items.length;

  const asYaml = await post(partner, har, '?name=from-har');
  t.equal(asYaml.statusCode, 200);
  t.match(asYaml.headers['content-type'], /^application\/yaml/);
  const scenario = parse(asYaml.body);
  t.equal(scenario.name, 'from-har');
  t.match(scenario.steps, [
    { request: { method: 'POST', path: '/v1/partner/merchants/test', capture: { clientId: 'clientId' } } },
    {
      request: {
        method: 'POST',
        path: '/v1/partner/payments',
        body: { merchantClientId: '${clientId}' },
        capture: { paymentId: 'paymentId' },
      },
    },
    { request: { method: 'GET', path: '/v1/partner/payments/${paymentId}/status', expect: { status: 200, body: { status: 'pending' } } } },
  ]);
  t.notOk(asYaml.body.includes(partner['x-partner-client-secret']), 'no credential in it');

  const asJson = await post(partner, har, '?format=json');
  t.equal(asJson.statusCode, 200);
  const body = json(asJson);
  t.same(schemaErrors('SandboxHarImport', body), []);
  t.match(body.summary, { entries: 3, taken: 3, steps: 3, variables: ['clientId', 'paymentId'], skipped: [], flagged: [] });
  t.match(body.lines[0], /^3 entries: 3 taken as 3 steps\./);
  const after = json(await app.inject({ method: 'GET', url: '/_sandbox/requests', headers: partner })).items.length;
  t.equal(after, before, 'the imports are not in the journal');
});

t.test('bad input: one 4xx naming the place, nothing changed', async (t) => {
  const partner = await sandbox();
  const cases: [string, string | Buffer, number, string, string, RegExp][] = [
    ['not JSON', 'this is not json', 400, 'malformed_json', '', /not a HAR file: not JSON/],
    ['cut short', harWith().slice(0, 200), 400, 'malformed_json', '', /ends before it is complete/],
    ['empty', '', 400, 'malformed_json', '', /the body is empty/],
    ['JSON, not a HAR', '{"hello":1}', 400, 'validation_failed', '', /not HAR 1\.2: \/ lacks the required "log"/],
    [
      'an entry without its response',
      harWith({ response: undefined }),
      400,
      'validation_failed',
      '/log/entries/0',
      /lacks the required "response"/,
    ],
    [
      'a status that is not a number',
      harWith({ response: { ...JSON.parse(harWith()).log.entries[0].response, status: 'ok' } }),
      400,
      'validation_failed',
      '/log/entries/0/response/status',
      /must be of type integer/,
    ],
    ['HAR 1.1', harWith({}, { version: '1.1' }), 400, 'validation_failed', '/log/version', /expected "1\.2"/],
    [
      'a 60th second (the schema’s pattern admits it, no clock has it)',
      harWith({ startedDateTime: '2026-12-31T23:59:60Z' }),
      400,
      'validation_failed',
      '/log/entries/0/startedDateTime',
      /is not an instant/,
    ],
    ['a time past the last instant', harWith({ time: 1e308 }), 400, 'validation_failed', '/log/entries/0/time', /after the last instant/],
    [
      'no entry for the provider’s API',
      harWith(),
      422,
      'unprocessable',
      '/log/entries',
      /no entry of this HAR is a request to the provider's API \(1 entries: cdn\.example\.test/,
    ],
  ];
  for (const [what, payload, status, code, field, message] of cases) {
    const res = await post(partner, payload);
    t.equal(res.statusCode, status, `${what}: ${status}`);
    const body = json(res);
    t.same(schemaErrors('ErrorBody', body), [], `${what}: the error shape`);
    t.match(body, { code, field, message }, what);
    t.equal(body.message.split('\n').length, 1, `${what}: one line`);
  }
  t.equal((await post(partner, harWith(), '?nope=1')).statusCode, 400, 'an unknown query parameter');
  t.match(json(await post(partner, harWith(), '?nope=1')), { code: 'unknown_field' });
  t.equal((await post({}, harWith(), '')).statusCode, 401, 'the controls’ credentials');
  const tooLarge = await post(partner, Buffer.alloc(64 * 1024 * 1024 + 1, 0x20));
  t.equal(tooLarge.statusCode, 413, 'a body over 64 MB');
  t.match(json(tooLarge), { code: 'payload_too_large' });
  const res = await app.inject({
    method: 'POST',
    url: '/_sandbox/scenarios/import',
    headers: { ...partner, 'content-type': 'text/plain' },
    payload: 'x',
  });
  t.equal(res.statusCode, 415, 'another media type');
  t.same(
    json(await app.inject({ method: 'GET', url: '/_sandbox/requests', headers: partner })).items,
    [],
    'nothing recorded, nothing changed',
  );
  const elsewhere = await app.inject({
    method: 'POST',
    url: '/_sandbox/clock/advance',
    headers: { ...partner, 'content-type': 'application/json' },
    payload: JSON.stringify({ ms: 1, pad: 'x'.repeat(1_100_000) }),
  });
  t.equal(elsewhere.statusCode, 413, 'the 64 MB limit is this route’s alone: another control keeps the 1 MB one');
});

t.test('what no answer can break on: a body nested 20,000 deep, an instant no clock has in a comment: imported, not a 500', async (t) => {
  const partner = await sandbox();
  const poll = (text: string, comment?: string) => ({
    ...(comment ? { comment } : {}),
    request: { ...JSON.parse(harWith()).log.entries[0].request, url: 'https://api.provider.test/v1/partner/payments/1/status' },
    response: { ...JSON.parse(harWith()).log.entries[0].response, content: { size: text.length, mimeType: 'application/json', text } },
  });
  for (const [what, entry] of [
    ['an answer nested 20,000 objects deep', poll(`{"status":"paid","x":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`)],
    ['an answer nested 20,000 lists deep', poll(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)],
    [
      'a comment naming a 13th month on the sandbox clock',
      poll('{"status":"paid"}', 'journal entry 1, at 2026-13-01T00:00:00.000Z on the sandbox clock'),
    ],
  ] as const) {
    const res = await post(partner, harWith(entry), '?format=json');
    t.equal(res.statusCode, 200, what);
    t.match(json(res).summary, { entries: 1, taken: 1, steps: 1 }, what);
  }
});

t.test('off the request path: once the import’s handler runs, the server still answers other requests before it is done', async (t) => {
  const entered = new Promise<void>((resolve) => (handlerEntered = resolve));
  await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 'Busy Shop' } });
  const entry = JSON.parse((await app.inject({ method: 'GET', url: '/_sandbox/requests?format=har', headers: PARTNER })).body).log
    .entries[0];
  const big = JSON.stringify({
    log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: Array.from({ length: 8_000 }, () => entry) },
  });
  t.ok(big.length > 5_000_000, `a HAR of ${Math.round(big.length / 1e6)} MB`);
  const order: string[] = [];
  const importing = post(PARTNER, big, '?format=json').then((res) => {
    order.push('import');
    return res;
  });
  await entered;
  // the handler has run by now: an import done on this thread would already be answered
  await new Promise((resolve) => setImmediate(resolve));
  const health = await app.inject({ method: 'GET', url: '/healthz' });
  order.push('healthz');
  t.equal(health.statusCode, 200);
  const res = await importing;
  t.equal(res.statusCode, 200);
  t.match(json(res).summary, { entries: 8_000, taken: 8_000 });
  t.same(order, ['healthz', 'import'], 'the health check was answered while the worker thread translated');
});
