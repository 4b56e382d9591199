/**
 * `obsim pact verify` as a partner runs it: a pact recorded by a consumer test written with Pact
 * JS's own consumer DSL (test/helpers/pact-consumer.ts) is replayed by Pact's reference verifier
 * against one obsim (listening, with the example contract version loaded), obsim serving the
 * provider states. The oracle is the verifier's own verdict and messages: the recorded pact passes,
 * the same pact with one expectation changed fails with the verifier naming what changed, several
 * interactions in one sandbox each get their state clean, and a flow reading a field the example
 * version removes passes under the base and fails under it.
 *
 * One verifier run covers every pact that runs under the base (the command as a process: its exit
 * status and output); the runs under the version and the refusals before anything starts are the
 * same command tree in this process (test/helpers/cli-in-process.ts). A green run's exit 0:
 * test/docs/pact.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { build } from '../helpers/app.js';
import { obsimInProcess } from '../helpers/cli-in-process.js';
import { recordMerchantNamePact, recordPartnerFlowPact } from '../helpers/pact-consumer.js';
import { runObsim } from '../helpers/processes.js';

type Json = Record<string, any>;

const obsim = await build(t, { config: { contracts: 'examples/contracts' } });
const url = await obsim.listen({ host: '127.0.0.1', port: 0 });
const dir = t.testdir({});
const flow = await recordPartnerFlowPact(dir);
const merchantName = await recordMerchantNamePact(dir);
const read = (file: string): Json => JSON.parse(readFileSync(file, 'utf8'));
const write = (name: string, pact: Json): string => {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(pact));
  return file;
};

/** The recorded pact with one change, under another consumer name (its own file). */
function mutated(name: string, change: (pact: Json) => void): string {
  const pact = read(flow);
  pact.consumer.name = name;
  change(pact);
  return write(name, pact);
}
const interaction = (pact: Json, description: string) => pact.interactions.find((i: Json) => i.description === description);

const partnerHeaders = { 'X-Partner-Client-Id': ['id'], 'X-Partner-Client-Secret': ['secret'] };
const json = (content: unknown) => ({ contentType: 'application/json', encoded: false, content });
const fromState = (expression: string, dataType = 'STRING') => ({ type: 'ProviderState', expression, dataType });
const http = (description: string, providerStates: Json[], request: Json, response: Json) => ({
  type: 'Synchronous/HTTP',
  description,
  providerStates,
  request,
  response,
});
const pactOf = (consumer: string, interactions: Json[]) =>
  write(consumer, {
    consumer: { name: consumer },
    provider: { name: 'open-banking-provider' },
    interactions,
    metadata: { pactSpecification: { version: '4.0' } },
  });
/** GET /v1/partner/merchants answering `total` merchants: the sandbox's default one and those the states made (provider document). */
const merchantCount = (description: string, states: Json[], total: number) =>
  http(
    description,
    states,
    { method: 'GET', path: '/v1/partner/merchants', headers: partnerHeaders },
    { status: 200, body: json({ total }) },
  );

/** POST /v1/ais/accounts with the token and merchant a state answered. */
const accountsRead = (description: string, state: Json, response: Json) =>
  http(
    description,
    [state],
    {
      method: 'POST',
      path: '/v1/ais/accounts',
      headers: { Authorization: ['Bearer x'], 'Content-Type': ['application/json'] },
      body: json({ userId: 'user-typical', merchantId: 1 }),
      generators: {
        header: { Authorization: fromState('Bearer ${token}') },
        body: { '$.merchantId': fromState('${merchantId}', 'INTEGER') },
      },
    },
    response,
  );

// several interactions in one sandbox, in this order: each state built clean, whatever came before
const cleanStates = pactOf('clean-states', [
  merchantCount('a standard merchant alone', [{ name: 'a merchant', params: { kind: 'standard', status: 'pending_onboarding' } }], 2),
  http(
    'a merchant created without a state',
    [],
    {
      method: 'POST',
      path: '/v1/partner/merchants/test',
      headers: { ...partnerHeaders, 'Content-Type': ['application/json'] },
      body: json({ companyName: 'Walk-in ApS' }),
    },
    { status: 200, body: json({ status: 'activated' }) },
  ),
  merchantCount('a merchant alone, after an interaction without a state', [{ name: 'a merchant', params: {} }], 2),
  merchantCount(
    'two merchants of two states',
    [
      { name: 'a merchant', params: {} },
      { name: 'a merchant', params: { kind: 'standard', status: 'rejected' } },
    ],
    3,
  ),
  accountsRead(
    'an expired token refused',
    { name: 'a bank user with accounts and transactions', params: { token: 'expired' } },
    {
      status: 401,
      body: json({ code: 'token_expired' }),
    },
  ),
  accountsRead(
    "the next state's token valid, on the clock the expired one moved",
    { name: 'a consent', params: { status: 'authorized' } },
    {
      status: 200,
      body: json({ userId: 'user-typical' }),
    },
  ),
]);

// a body mismatch quoting the sandbox's bearer token
const tokenReader = pactOf('token-reader', [
  http(
    'a token asked for',
    [{ name: 'a merchant', params: {} }],
    {
      method: 'POST',
      path: '/v1/auth/generate-token',
      headers: { 'Content-Type': ['application/json'] },
      body: json({ userId: 'user-typical', merchantId: 1, permissions: ['ais:accounts:read'] }),
      generators: { body: { '$.merchantId': fromState('${merchantId}', 'INTEGER') } },
    },
    { status: 200, body: json({ token: 'a-token-of-my-own' }) },
  ),
]);

t.test("one verifier run: the recorded pact green, each changed expectation red with the verifier's words, each state clean", async (t) => {
  const status = mutated('status-changed', (p) => {
    interaction(p, 'a request to register a webhook').response.status = 201;
  });
  const type = mutated('type-changed', (p) => {
    const i = interaction(p, 'a request to create a payment');
    i.response.body.content.amount = '49.95'; // the decimal matcher now meets a string
    i.response.matchingRules.body['$.amount'] = { combine: 'AND', matchers: [{ match: 'type' }] };
  });
  const unknown = mutated('unknown-state', (p) => {
    interaction(p, "a request for a paid payment's status").providerStates = [{ name: 'a unicorn payment', params: {} }];
  });
  const junit = join(dir, 'verify.xml');
  const run = await runObsim([
    'pact',
    'verify',
    flow,
    status,
    type,
    unknown,
    cleanStates,
    tokenReader,
    merchantName,
    '--url',
    url,
    '--junit',
    junit,
  ]);
  t.equal(run.code, 1, 'exits 1: an interaction failed', { stdout: run.stdout, stderr: run.stderr });

  const recorded = read(flow);
  t.equal(recorded.metadata.pactSpecification.version, '4.0', 'the DSL wrote a V4 pact');
  for (const i of recorded.interactions) t.match(run.stdout, `PASS  shop-app -> open-banking-provider: ${i.description}`);

  t.match(run.stdout, /FAIL {2}status-changed -> open-banking-provider: a request to register a webhook\n\s+expected 201 but was 200/);
  t.match(
    run.stdout,
    /FAIL {2}type-changed -> open-banking-provider: a request to create a payment \[given a merchant\]\n\s+\$\.amount: Expected 49\.95 \(Decimal\) to be the same type as '49\.95' \(String\)/,
  );

  t.match(run.stdout, /One or more of the setup state change handlers has failed/, "the verifier's own words on an unknown state");
  t.match(
    run.stdout,
    /obsim refused the provider state "a unicorn payment": 400: No provider state "a unicorn payment": the known states are "a merchant", "a payment", "a webhook", "a consent", "a bank user with accounts and transactions", "no data"/,
  );

  for (const i of read(cleanStates).interactions)
    t.match(run.stdout, `PASS  clean-states -> open-banking-provider: ${i.description}`, 'each state clean in the one sandbox');

  t.match(
    run.stdout,
    /FAIL {2}token-reader -> open-banking-provider: a token asked for \[given a merchant\]\n\s+\$\.token: .*'a-token-of-my-own'/,
  );
  t.match(
    run.stdout,
    `PASS  receipt-printer -> open-banking-provider: a request for the merchant's name on a paid payment`,
    'green under the base',
  );

  const total = [flow, status, type, unknown, cleanStates, tokenReader, merchantName].reduce((n, f) => n + read(f).interactions.length, 0);
  t.match(run.stdout, `${total} interactions: ${total - 4} passed, 4 failed`);

  const xml = readFileSync(junit, 'utf8');
  t.equal((xml.match(/<testcase /g) ?? []).length, total, 'one testcase per interaction');
  t.equal((xml.match(/<failure /g) ?? []).length, 4, 'a failure for each interaction that failed');
  t.match(xml, `<testsuite name="shop-app -&gt; open-banking-provider" tests="${recorded.interactions.length}" failures="0"`);
  t.match(xml, /\$\.token: .*REDACTED/, 'what obsim writes quotes no token: the one redaction policy');
  t.notMatch(xml, /eyJ[\w-]+\.[\w-]+\./, 'no bearer token in the JUnit file');
  // obsim's lines follow the verifier's own report (which Pact's core prints as it is)
  const obsimsLines = run.stdout.slice(run.stdout.search(/^ {2}(PASS|FAIL) {2}/m));
  t.match(obsimsLines, /\$\.token: Expected 'REDACTED'/, "obsim's line on the mismatch, the token out");
  t.notMatch(obsimsLines, /eyJ[\w-]+\.[\w-]+\./, "no bearer token in obsim's lines");
});

t.test('a flow reading a field the example contract version removes: red under the version naming the field', async (t) => {
  const pinned = await obsimInProcess(['pact', 'verify', merchantName, '--url', url, '--contract-version', '2027-03-01']);
  t.equal(pinned.code, 1, 'red in a new sandbox pinned to 2027-03-01', { stdout: pinned.stdout });
  t.match(pinned.stdout, 'contract version 2027-03-01');
  t.match(pinned.stdout, /\$: Actual map is missing the following keys: merchantName/);

  // --sandbox ID: the partner's own sandbox (not pinned), the version named on every request, the sandbox kept
  const { sandboxId, credentials } = (await obsim.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: {} })).json();
  const own = await obsimInProcess(
    ['pact', 'verify', merchantName, '--url', url, '--sandbox', sandboxId, '--contract-version', '2027-03-01'],
    {
      env: { OBSIM_PARTNER_CLIENT_SECRET: credentials.clientSecret },
    },
  );
  t.equal(own.code, 1, 'red under 2027-03-01 in an unpinned sandbox', { stdout: own.stdout });
  t.match(own.stdout, `sandbox ${sandboxId}, contract version 2027-03-01`);
  t.match(own.stdout, /\$: Actual map is missing the following keys: merchantName/);
  const still = await obsim.inject({
    method: 'GET',
    url: `/_sandbox/sandboxes/${sandboxId}`,
    headers: { 'x-partner-client-id': sandboxId, 'x-partner-client-secret': credentials.clientSecret },
  });
  t.equal(still.statusCode, 200, 'the sandbox is not deleted');
});

t.test('bad input: a file that is not a pact, or of a specification version obsim does not take, exits 2 in one line', async (t) => {
  const notPact = join(dir, 'not-a-pact.json');
  writeFileSync(notPact, JSON.stringify({ hello: 'world' }));
  const v5 = mutated('v5', (p) => {
    p.metadata.pactSpecification.version = '5.0.0';
  });
  const notJson = join(dir, 'broken.json');
  writeFileSync(notJson, '{ "consumer": ');
  // the process itself once: its exit status, one line on standard error, nothing on standard output
  const real = await runObsim(['pact', 'verify', notPact, '--url', url]);
  t.equal(real.code, 2);
  t.equal(real.stderr, `obsim pact verify: ${notPact}: not a pact: no consumer.name\n`, 'one line naming the file and the problem');
  t.equal(real.stdout, '', 'nothing verified');
  for (const [file, problem] of [
    [notPact, 'not a pact: no consumer.name'],
    [v5, 'Pact Specification version "5.0.0" is not supported (obsim takes 1.x, 2.x, 3.x, 4.x)'],
    [notJson, 'not a pact: not JSON'],
  ]) {
    // verify for each; check shares the reading of files (one is enough to show it)
    for (const command of file === v5 ? ['verify', 'check'] : ['verify']) {
      const run = await obsimInProcess(['pact', command, file, ...(command === 'verify' ? ['--url', url] : [])]);
      t.equal(run.code, 2, `${command} ${file}`);
      t.equal(run.stderr, `obsim pact ${command}: ${file}: ${problem}\n`, 'one line naming the file and the problem');
      t.equal(run.stdout, '', 'nothing verified');
    }
  }
  const noSecret = await obsimInProcess(['pact', 'verify', flow, '--url', url, '--sandbox', 'sbx_mine']);
  t.equal(noSecret.code, 2);
  t.equal(
    noSecret.stderr,
    'obsim pact verify: --sandbox sbx_mine needs its secret: --partner-client-secret (or OBSIM_PARTNER_CLIENT_SECRET)\n',
  );
  t.equal(noSecret.stdout, '');
  for (const [command, flag] of [
    ['verify', '--pact-states'],
    ['verify', '--contracts'],
    ['check', '--contracts'],
  ]) {
    const run = await obsimInProcess(['pact', command, flow, '--url', url, flag, dir]);
    t.equal(run.code, 2, `${command} --url ${flag}`);
    t.equal(
      run.stderr,
      `obsim pact ${command}: ${flag} is for an obsim started here; with --url the running obsim's own count (start it with ${flag})\n`,
      'a flag that would change nothing is refused in one line',
    );
  }
});
