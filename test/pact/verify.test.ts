/**
 * `obsim pact verify` as a partner runs it: a pact recorded by a consumer test written with Pact
 * JS's own consumer DSL (test/helpers/pact-consumer.ts) is replayed by Pact's reference verifier
 * against one obsim (a process, with the example contract version loaded), obsim serving the
 * provider states. The oracle is the verifier's own verdict and messages: the recorded pact passes,
 * the same pact with one expectation changed fails with the verifier naming what changed, and a
 * flow reading a field the example version removes passes under the base and fails under it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { recordMerchantNamePact, recordPartnerFlowPact } from '../helpers/pact-consumer.js';
import { runObsim, serve } from '../helpers/processes.js';

type Json = Record<string, any>;

const obsim = await serve(['--db', ':memory:', '--contracts', 'examples/contracts']);
t.teardown(() => obsim.stop());
const dir = t.testdir({});
const flow = await recordPartnerFlowPact(dir);
const merchantName = await recordMerchantNamePact(dir);
const read = (file: string): Json => JSON.parse(readFileSync(file, 'utf8'));

/** The recorded pact with one change, under another consumer name (its own file). */
function mutated(name: string, change: (pact: Json) => void): string {
  const pact = read(flow);
  pact.consumer.name = name;
  change(pact);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(pact));
  return file;
}
const interaction = (pact: Json, description: string) => pact.interactions.find((i: Json) => i.description === description);

t.test('the recorded pact of the partner flow verifies green, every interaction reported, JUnit written', async (t) => {
  const junit = join(dir, 'verify.xml');
  const run = await runObsim(['pact', 'verify', flow, '--url', obsim.url, '--junit', junit]);
  t.equal(run.code, 0, 'exits 0', { stdout: run.stdout, stderr: run.stderr });
  const pact = read(flow);
  t.equal(pact.metadata.pactSpecification.version, '4.0', 'the DSL wrote a V4 pact');
  for (const i of pact.interactions) t.match(run.stdout, `PASS  shop-app -> open-banking-provider: ${i.description}`);
  t.match(run.stdout, `${pact.interactions.length} interactions: ${pact.interactions.length} passed, 0 failed`);
  const xml = readFileSync(junit, 'utf8');
  t.equal((xml.match(/<testcase /g) ?? []).length, pact.interactions.length, 'one testcase per interaction');
  t.notMatch(xml, /<failure/);
});

t.test('one expectation changed: the verifier fails naming it, and obsim exits 1', async (t) => {
  const status = mutated('status-changed', (p) => {
    interaction(p, 'a request to register a webhook').response.status = 201;
  });
  const type = mutated('type-changed', (p) => {
    const i = interaction(p, 'a request to create a payment');
    i.response.body.content.amount = '49.95'; // the decimal matcher now meets a string
    i.response.matchingRules.body['$.amount'] = { combine: 'AND', matchers: [{ match: 'type' }] };
  });
  const run = await runObsim(['pact', 'verify', status, type, '--url', obsim.url]);
  t.equal(run.code, 1, 'exits 1', { stdout: run.stdout, stderr: run.stderr });
  t.match(run.stdout, /FAIL {2}status-changed -> open-banking-provider: a request to register a webhook\n\s+expected 201 but was 200/);
  t.match(
    run.stdout,
    /FAIL {2}type-changed -> open-banking-provider: a request to create a payment \[given a merchant\]\n\s+\$\.amount: Expected 49\.95 \(Decimal\) to be the same type as '49\.95' \(String\)/,
  );
  t.match(run.stdout, /12 interactions: 10 passed, 2 failed/);
});

t.test('a state obsim does not know: the failure names it and the known states', async (t) => {
  const unknown = mutated('unknown-state', (p) => {
    interaction(p, "a request for a paid payment's status").providerStates = [{ name: 'a unicorn payment', params: {} }];
  });
  const run = await runObsim(['pact', 'verify', unknown, '--url', obsim.url]);
  t.equal(run.code, 1);
  t.match(run.stdout, /One or more of the setup state change handlers has failed/, "the verifier's own words");
  t.match(
    run.stdout,
    /obsim refused the provider state "a unicorn payment": 400: No provider state "a unicorn payment": the known states are "a merchant", "a payment", "a webhook", "a consent", "a bank user with accounts and transactions", "no data"/,
  );
});

t.test(
  'a flow reading a field the example contract version removes: green under the base, red under the version naming the field',
  async (t) => {
    const base = await runObsim(['pact', 'verify', merchantName, '--url', obsim.url]);
    t.equal(base.code, 0, 'green under the base', { stdout: base.stdout });
    const next = await runObsim(['pact', 'verify', merchantName, '--url', obsim.url, '--contract-version', '2027-03-01']);
    t.equal(next.code, 1, 'red under 2027-03-01', { stdout: next.stdout });
    t.match(next.stdout, 'contract version 2027-03-01');
    t.match(next.stdout, /\$: Actual map is missing the following keys: merchantName/);
  },
);

t.test("--sandbox ID: the partner's own sandbox, the contract version named on every request, the sandbox kept", async (t) => {
  const created = await fetch(`${obsim.url}/_sandbox/sandboxes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const { sandboxId, credentials } = (await created.json()) as { sandboxId: string; credentials: { clientSecret: string } };
  const run = await runObsim(
    ['pact', 'verify', merchantName, '--url', obsim.url, '--sandbox', sandboxId, '--contract-version', '2027-03-01'],
    { env: { OBSIM_PARTNER_CLIENT_SECRET: credentials.clientSecret } },
  );
  t.equal(run.code, 1, 'red under 2027-03-01 in an unpinned sandbox', { stdout: run.stdout });
  t.match(run.stdout, `sandbox ${sandboxId}, contract version 2027-03-01`);
  t.match(run.stdout, /\$: Actual map is missing the following keys: merchantName/);
  const still = await fetch(`${obsim.url}/_sandbox/sandboxes/${sandboxId}`, {
    headers: { 'x-partner-client-id': sandboxId, 'x-partner-client-secret': credentials.clientSecret },
  });
  t.equal(still.status, 200, 'the sandbox is not deleted');
});

t.test('bad input: a file that is not a pact, or of a specification version obsim does not take, exits 2 in one line', async (t) => {
  const notPact = join(dir, 'not-a-pact.json');
  writeFileSync(notPact, JSON.stringify({ hello: 'world' }));
  const v5 = mutated('v5', (p) => {
    p.metadata.pactSpecification.version = '5.0.0';
  });
  const notJson = join(dir, 'broken.json');
  writeFileSync(notJson, '{ "consumer": ');
  for (const [file, problem] of [
    [notPact, 'not a pact: no consumer.name'],
    [v5, 'Pact Specification version "5.0.0" is not supported (obsim takes 1.x, 2.x, 3.x, 4.x)'],
    [notJson, 'not a pact: not JSON'],
  ]) {
    // verify for each; check shares the reading of files (one is enough to show it)
    for (const command of file === v5 ? ['verify', 'check'] : ['verify']) {
      const run = await runObsim(['pact', command, file, ...(command === 'verify' ? ['--url', obsim.url] : [])]);
      t.equal(run.code, 2, `${command} ${file}`);
      t.equal(run.stderr, `obsim pact ${command}: ${file}: ${problem}\n`, 'one line naming the file and the problem');
      t.equal(run.stdout, '', 'nothing verified');
    }
  }
  const noSecret = await runObsim(['pact', 'verify', flow, '--url', obsim.url, '--sandbox', 'sbx_mine']);
  t.equal(noSecret.code, 2);
  t.equal(
    noSecret.stderr,
    'obsim pact verify: --sandbox sbx_mine needs its secret: --partner-client-secret (or OBSIM_PARTNER_CLIENT_SECRET)\n',
  );
});
