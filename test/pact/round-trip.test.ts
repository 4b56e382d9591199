/**
 * Export -> verify for every shipped scenario's traffic: each scenario runs in a sandbox of its own
 * (one obsim for the file), its journal is exported as a pact (GET /_sandbox/pact), and all the
 * pacts are verified in one run of Pact's reference verifier against a fresh sandbox, obsim
 * serving the provider states the exporter named. The oracle is the verifier's verdict; the pacts
 * are also checked for what they must never carry (the partner's secrets) and for ids, tokens and
 * instants matched by type or regex rather than as literals.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { runVerifier } from '../../src/pact/verify.js';
import { expandPaths, loadScenarioFile, shippedScenariosDir } from '../../src/scenarios/loader.js';
import { runScenario } from '../../src/scenarios/runner.js';
import { injectTransport } from '../../src/scenarios/transport.js';
import { build, schemaErrors } from '../helpers/app.js';
import { obsimInProcess } from '../helpers/cli-in-process.js';

type Json = Record<string, any>;

const app = await build(t);
const url = await app.listen({ host: '127.0.0.1', port: 0 });
const dir = t.testdir({});

async function sandbox(body: Json = {}): Promise<{ clientId: string; clientSecret: string }> {
  const res = await app.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: { ttl: '1h', ...body } });
  return res.json().credentials;
}
const headers = (c: { clientId: string; clientSecret: string }) => ({
  'x-partner-client-id': c.clientId,
  'x-partner-client-secret': c.clientSecret,
});

const scenarios = expandPaths([shippedScenariosDir()]).map((f) => loadScenarioFile(f));
const pacts: { name: string; file: string; pact: Json; secrets: string[] }[] = [];
for (const scenario of scenarios) {
  const credentials = await sandbox();
  const result = await runScenario(scenario, { transport: injectTransport(app), partner: credentials });
  if (!result.passed)
    throw new Error(`scenario ${scenario.name} failed: ${JSON.stringify(result.steps.find((s) => s.status === 'failed'))}`);
  const res = await app.inject({
    method: 'GET',
    url: `/_sandbox/pact?consumer=${scenario.name}&provider=open-banking-provider`,
    headers: headers(credentials),
  });
  const webhooks = (await app.inject({ method: 'GET', url: '/_sandbox/webhooks', headers: headers(credentials) })).json().items as {
    secret: string;
  }[];
  const file = join(dir, `${scenario.name}.json`);
  writeFileSync(file, res.body);
  pacts.push({ name: scenario.name, file, pact: res.json(), secrets: [credentials.clientSecret, ...webhooks.map((w) => w.secret)] });
}

t.test("every shipped scenario exports a Pact v4 file of its distinct operations and answers, without the partner's secrets", async (t) => {
  const shipped = readdirSync(shippedScenariosDir()).filter((f) => /\.ya?ml$/.test(f));
  t.equal(pacts.length, shipped.length, `a pact for each of the ${shipped.length} shipped scenarios`);
  for (const { name, pact, secrets } of pacts) {
    t.same(schemaErrors('SandboxPact', pact), [], `${name}: the documented shape`);
    t.equal(pact.metadata.pactSpecification.version, '4.0');
    t.ok(pact.interactions.length > 0, `${name}: ${pact.interactions.length} interactions`);
    const descriptions = pact.interactions.map((i: Json) => i.description);
    t.equal(new Set(descriptions).size, descriptions.length, `${name}: one interaction per operation and answer`);
    const text = JSON.stringify(pact);
    for (const secret of secrets) t.notOk(text.includes(secret), `${name}: no secret of the partner's in the pact`);
    t.notMatch(text, /eyJ[\w-]+\.[\w-]+\.[\w-]+/, `${name}: no bearer token`);
  }
});

t.test('ids, tokens and instants are matched by type or regex, what identifies an answer by equality', async (t) => {
  const paid = pacts.find((p) => p.name === 'payment-paid')!.pact;
  const status = paid.interactions.find((i: Json) => i.description === 'getPaymentStatus answers 200 paid');
  t.same(status.providerStates, [{ name: 'a payment', params: { status: 'paid' } }], 'the state that rebuilds what it read');
  t.same(status.request.generators.path, {
    type: 'ProviderState',
    expression: '/v1/partner/payments/${paymentId}/status',
    dataType: 'STRING',
  });
  const rules = status.response.matchingRules.body;
  t.same(rules['$.paymentId'].matchers, [{ match: 'integer' }]);
  t.same(rules['$.merchantClientId'].matchers, [{ match: 'type' }]);
  t.match(rules['$.createdAt'].matchers, [{ match: 'regex', regex: /^\^\\d\{4\}/ }]);
  t.same(rules['$.status'].matchers, [{ match: 'equality' }]);
  t.same(rules['$.failureReason'].matchers, [{ match: 'equality' }]);
  const consent = pacts.find((p) => p.name === 'consent-authorized-read')!.pact;
  const accounts = consent.interactions.find((i: Json) => i.description === 'listAccounts answers 200');
  t.same(accounts.request.headers.Authorization, ['Bearer REDACTED'], 'the bearer token is not written');
  t.same(accounts.request.generators.header.Authorization.expression, 'Bearer ${token}', 'the verifier takes it from the state');
  const webhook = pacts
    .find((p) => p.name === 'webhook-test-delivery')!
    .pact.interactions.find((i: Json) => i.description === 'registerWebhook answers 200');
  t.equal(webhook.response.body.content.secret, 'REDACTED');
  t.same(
    webhook.response.matchingRules.body['$.id'].matchers,
    [{ match: 'regex', regex: '^wh_(?:[a-z][a-z0-9]{0,15}_)?[0-9a-f]+$' }],
    "an id by the document's pattern",
  );
});

t.test("all of them verify green in one run of Pact's verifier, against a fresh sandbox", async (t) => {
  const credentials = await sandbox({ name: 'pact verify', clock: { frozen: true } });
  const run = await runVerifier({ pacts: pacts.map((p) => p.file), url, credentials, command: 'obsim pact verify' });
  const total = pacts.reduce((n, p) => n + p.pact.interactions.length, 0);
  t.equal(run.results.length, total, `${total} interactions verified`);
  for (const r of run.results) t.ok(r.ok, `${r.consumer}: ${r.description}`, { problems: r.problems });
});

t.test('obsim pact export writes the same pact for a sandbox', async (t) => {
  const credentials = await sandbox();
  await runScenario(
    scenarios.find((s) => s.name === 'payment-paid')!,
    { transport: injectTransport(app), partner: credentials },
  );
  const http = (await app.inject({ method: 'GET', url: '/_sandbox/pact?consumer=shop', headers: headers(credentials) })).json();
  const out = join(dir, 'exported.json');
  const exportOf = (secret: string, ...more: string[]) =>
    obsimInProcess(['pact', 'export', '--base-url', url, '--sandbox', credentials.clientId, '--partner-client-secret', secret, ...more]);
  const run = await exportOf(credentials.clientSecret, '--consumer', 'shop', '--out', out);
  t.equal(run.code, 0, 'exits 0', { stderr: run.stderr });
  t.same(JSON.parse(readFileSync(out, 'utf8')), http);
  const refused = await exportOf('wrong');
  t.equal(refused.code, 2, 'a refusal exits 2');
  t.match(refused.stderr, /^obsim pact export: GET \/_sandbox\/pact\?consumer=partner&provider=provider answered 401: .*\n$/);
  const unreachable = await obsimInProcess(['pact', 'export', '--base-url', 'http://127.0.0.1:9']);
  t.equal(unreachable.code, 2, 'no obsim there exits 2');
  t.match(unreachable.stderr, /^obsim pact export: cannot reach http:\/\/127\.0\.0\.1:9 .*\(--base-url\)\n$/, 'naming the flag it takes');
});
