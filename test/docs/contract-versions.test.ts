/**
 * docs/contract-versions.md: the "Try it" block prints what the page says against an obsim serving
 * the shipped example version, and so do the changelog, impact and adopt examples (adopt against
 * the foreign provider double seeded as the page says); the page's refusal line is the one obsim
 * prints; the switches' table names every switch the file schema has.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t, { type Test } from 'tap';
import { SWITCHES_SCHEMA } from '../../src/contracts/schemas.js';
import { loadVersions } from '../../src/contracts/load.js';
import { ContractFileError } from '../../src/contracts/errors.js';
import { committedProviderDocument } from '../../src/plugins/contract-versions.js';
import { defaultConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { docsPage, runTryIt, tryItSkip } from '../helpers/docs.js';
import { startForeignProvider } from '../helpers/foreign/provider.js';
import { BIN } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

const { page, block, printed } = docsPage('docs/contract-versions.md');

t.test('the Try it block prints what the page says', { skip: tryItSkip() }, async (t) => {
  const out = await runTryIt(t, block('contract-versions-example', 'sh'), {
    contracts: 'examples/contracts',
    clockStart: '2027-04-01T00:00:00.000Z',
  });
  t.equal(out, printed('contract-versions-example'));
});

t.test("the refusal line the page shows is obsim's, for the file it names", async (t) => {
  const line = /`(obsim: contract version contracts\/next\.yaml at [^`]+)`/.exec(page)?.[1];
  t.ok(line, 'the page shows a refusal line');
  const dir = mkdtempSync(join(tmpdir(), 'docs-contracts-'));
  writeFileSync(
    join(dir, 'next.yaml'),
    'overlay: 1.0.0\ninfo: {title: next, version: next}\nactions:\n  - target: $.paths.nowhere\n    update: {x: 1}\n',
  );
  try {
    await loadVersions(dir, committedProviderDocument());
    t.fail('loaded');
  } catch (err) {
    t.ok(err instanceof ContractFileError);
    t.equal(`obsim: ${(err as Error).message.replace(dir, 'contracts')}`, line);
  }
});

t.test('every switch of the file schema is in the table', async (t) => {
  for (const name of ['deprecatedAt', 'docs', 'sunsetAt', 'status', 'headers', 'value', 'send', 'when', 'remove'])
    t.match(page, new RegExp('`[^`]*' + name), `${name} is documented`);
  t.same(Object.keys(SWITCHES_SCHEMA.properties).sort(), ['answers', 'deprecatedAt', 'docs', 'operations']);
  t.same(Object.keys(SWITCHES_SCHEMA.properties.operations.additionalProperties.properties).sort(), [
    'deprecatedAt',
    'headers',
    'status',
    'sunsetAt',
  ]);
  t.same(Object.keys(SWITCHES_SCHEMA.properties.answers.items.properties).sort(), [
    'description',
    'field',
    'in',
    'remove',
    'send',
    'value',
    'when',
  ]);
});

const obsimCommand = [process.execPath, ...BIN].map((a) => `'${a}'`).join(' ');

/** A page's block run with bash in a folder of its own (it writes files), `npx obsim` being this checkout's. */
async function runBlock(t: Test, name: string, env: Record<string, string>): Promise<string> {
  const dir = t.testdir({});
  const run = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', block(name, 'sh').replaceAll('npx obsim', obsimCommand)], {
    cwd: dir,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: scaled(120_000),
  });
  return run.stdout;
}

async function serving(t: Test): Promise<string> {
  const server = await startServer(
    { ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent', clockFrozen: true, contracts: 'examples/contracts' },
    () => undefined,
  );
  t.teardown(() => server.close());
  return server.url;
}

t.test('the changelog example prints what the page says', { skip: tryItSkip() }, async (t) => {
  t.equal(await runBlock(t, 'contract-changelog-example', { OBSIM: await serving(t) }), printed('contract-changelog-example'));
});

t.test('the impact example prints what the page says', { skip: tryItSkip() }, async (t) => {
  t.equal(await runBlock(t, 'contract-impact-example', { OBSIM: await serving(t) }), printed('contract-impact-example'));
});

t.test('the adopt example prints what the page says, against the foreign double seeded as it says', { skip: tryItSkip() }, async (t) => {
  const double = await startForeignProvider({
    drifts: [
      { id: 'registered-201', route: 'POST /v1/partner/webhooks', status: 201 },
      { id: 'region', route: 'POST /v1/partner/merchants/test', change: (json) => (json.region = 'eu-north') },
      { id: 'eur', route: 'POST /v1/partner/payments', change: (json) => (json.currency = 'EUR') },
    ],
  });
  t.teardown(() => double.close());
  const out = await runBlock(t, 'drift-adopt-example', {
    UPSTREAM: double.url,
    OBSIM_PARTNER_CLIENT_ID: double.partner.clientId,
    OBSIM_PARTNER_CLIENT_SECRET: double.partner.clientSecret,
  });
  t.equal(out, printed('drift-adopt-example'));
});
