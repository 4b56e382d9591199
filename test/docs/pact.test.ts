/**
 * docs/pact.md, run: the Try it block prints what the page says; the partner states file it shows
 * builds its state; the pact it shows verifies as the page says under the base and under the
 * example contract version, and checks clean; the state table names every built-in state and
 * param; the refusal it quotes is obsim's; the versions it pins are package.json's; and the CI job
 * of docs/container-and-ci.md uses only settings and flags that exist. The commands run in this
 * process (test/helpers/cli-in-process.ts), each starting its obsim as the page's `npx obsim pact
 * verify receipt-printer.json` does; the command as a process: test/pact/verify.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import t from 'tap';
import { parse } from 'yaml';
import { buildCli } from '../../src/cli.js';
import { SETTINGS } from '../../src/config.js';
import { PACT_VERSION, SWAGGER_MOCK_VALIDATOR_VERSION } from '../../src/pact/libraries.js';
import { BUILT_IN_STATES } from '../../src/pact/states.js';
import { build, PARTNER } from '../helpers/app.js';
import { obsimInProcess } from '../helpers/cli-in-process.js';
import { docsPage, runTryIt, tryItSkip } from '../helpers/docs.js';
import { ROOT } from '../helpers/processes.js';

const { page, block, printed } = docsPage('docs/pact.md');
const dir = t.testdir({});
const textAfter = (lead: string): string => {
  const at = page.indexOf(lead);
  const m = /```text\n([\s\S]*?)```/.exec(page.slice(at));
  if (at < 0 || !m) throw new Error(`docs/pact.md: no text block after ${lead}`);
  return m[1];
};

t.test('the Try it block prints what the page says', { skip: tryItSkip() }, async (t) => {
  const out = await runTryIt(t, block('pact-try-it', 'sh'), { clockStart: '2026-03-02T09:30:00.000Z' });
  t.equal(out, printed('pact-try-it'));
});

t.test('the partner states file on the page builds its state', async (t) => {
  const states = t.testdir({ 'shop.yaml': block('pact-states-example', 'yaml') });
  const app = await build(t, { config: { pactStates: states } });
  const res = await app.inject({
    method: 'POST',
    url: '/_sandbox/pact/provider-states',
    headers: { ...PARTNER, 'content-type': 'application/json' },
    payload: { state: 'a shop with a paid order ord-7', params: {}, action: 'setup' },
  });
  t.equal(res.statusCode, 200, res.body);
  const status = await app.inject({ method: 'GET', url: `/v1/partner/payments/${res.json().paymentId}/status`, headers: PARTNER });
  t.match(status.json(), { status: 'paid', amount: 25, referenceNumber: 'ord-7', merchantClientId: res.json().merchantClientId });
});

t.test("the page's pact verifies as the page says, under the base and under the example version, and checks clean", async (t) => {
  const file = join(dir, 'receipt-printer.json');
  writeFileSync(file, block('pact-example', 'json'));
  const base = await obsimInProcess(['pact', 'verify', file]);
  t.equal(base.code, 0, 'green under the base', { stdout: base.stdout, stderr: base.stderr });
  t.ok(base.stdout.endsWith(textAfter('`npx obsim pact verify receipt-printer.json` ends with')), 'ends as the page says', {
    stdout: base.stdout,
  });
  const next = await obsimInProcess(['pact', 'verify', file, '--contracts', 'examples/contracts', '--contract-version', '2027-03-01']);
  t.equal(next.code, 1, 'red under 2027-03-01');
  t.ok(next.stdout.endsWith(textAfter('--contract-version 2027-03-01` with')), 'ends as the page says', { stdout: next.stdout });
  const check = await obsimInProcess(['pact', 'check', file]);
  t.equal(check.code, 0);
  t.equal(check.stdout, 'no mismatch with openapi.json\n');
});

t.test('the state table names every built-in state and each of its params', async (t) => {
  for (const state of BUILT_IN_STATES) {
    const row = page.split('\n').find((line) => line.startsWith(`| \`${state.name}\` |`));
    t.ok(row, `${state.name} has a row`);
    for (const param of Object.keys(state.params)) t.match(row, `\`${param}\``, `${state.name}: ${param}`);
    for (const answer of Object.keys(state.answers)) t.match(row, `\`${answer}\``, `${state.name} answers ${answer}`);
  }
});

t.test("the refusal of an unknown state the page quotes is obsim's", async (t) => {
  const app = await build(t);
  const res = await app.inject({
    method: 'POST',
    url: '/_sandbox/pact/provider-states',
    headers: { ...PARTNER, 'content-type': 'application/json' },
    payload: { state: 'a unicorn payment' },
  });
  t.match(page, `obsim refused the provider state "a unicorn payment": 400: ${res.json().message}`);
});

t.test("the versions the page pins are package.json's", async (t) => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  t.equal(pkg.devDependencies['@pact-foundation/pact'], PACT_VERSION);
  t.equal(pkg.peerDependencies['@pact-foundation/pact'], PACT_VERSION);
  t.equal(pkg.devDependencies['@pactflow/swagger-mock-validator'], SWAGGER_MOCK_VALIDATOR_VERSION);
  t.equal(pkg.allowScripts['@pactflow/swagger-mock-validator'], false, 'its postinstall is not run');
  t.match(
    page,
    `npm install --save-dev @pact-foundation/pact@${PACT_VERSION} @pactflow/swagger-mock-validator@${SWAGGER_MOCK_VALIDATOR_VERSION}`,
  );
});

t.test('the CI job of container-and-ci.md uses only settings and flags obsim has', async (t) => {
  const ci = readFileSync(join(ROOT, 'docs/container-and-ci.md'), 'utf8');
  const section = /### CI: verifying the partner's pacts\n([\s\S]*?)(?=\n### )/.exec(ci)?.[1] ?? '';
  const job = parse(/```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '') as { jobs: { pact: { steps: { run?: string }[] } } };
  const runs = job.jobs.pact.steps.map((s) => s.run ?? '').join('\n');
  const settings = new Set<string>(SETTINGS.map((s) => s.env));
  for (const env of runs.match(/OBSIM_[A-Z_]+/g) ?? []) t.ok(settings.has(env), `${env} is a setting`);
  const pact = buildCli().commands.find((c) => c.name() === 'pact')!;
  const commands = [...runs.matchAll(/obsim pact (\w+)([^\n]*)/g)];
  t.ok(commands.length >= 3);
  for (const [, name, args] of commands) {
    const command = pact.commands.find((c: Command) => c.name() === name);
    t.ok(command, `obsim pact ${name} exists`);
    for (const flag of args.match(/--[a-z-]+/g) ?? [])
      t.ok(
        command!.options.some((o) => o.long === flag),
        `obsim pact ${name} ${flag}`,
      );
  }
});
