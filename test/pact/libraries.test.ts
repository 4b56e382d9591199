/**
 * Pact's libraries are optional: loaded from the partner's project first, else from beside obsim,
 * else one line saying how to install them; and `obsim serve` loads none of them, nor the exporter.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import t from 'tap';
import { libraryPlaces, loadSwaggerMockValidator, loadVerifier, PactLibraryMissing } from '../../src/pact/libraries.js';
import { BIN, ROOT } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.test("the partner's project comes first", async (t) => {
  const project = t.testdir({
    'package.json': JSON.stringify({ name: 'shop-app', private: true }),
    node_modules: {
      '@pact-foundation': {
        pact: {
          'package.json': JSON.stringify({ name: '@pact-foundation/pact', version: '99.0.0', main: 'index.js' }),
          'index.js': 'exports.Verifier = class PartnersOwnVerifier {};',
        },
      },
    },
  });
  const cwd = process.cwd();
  process.chdir(project);
  t.teardown(() => process.chdir(cwd));
  t.equal(loadVerifier('obsim pact verify').name, 'PartnersOwnVerifier', "the project's @pact-foundation/pact");
  t.equal(libraryPlaces()[0], join(project, 'package.json'));
  t.equal(typeof (await loadSwaggerMockValidator('obsim pact check')).validate, 'function', "obsim's own where the project has none");
});

t.test('nowhere: one line saying how to install it', async (t) => {
  // outside the checkout: resolution walks up the folders, and the checkout's node_modules has them
  const empty = mkdtempSync(join(tmpdir(), 'obsim-no-pact-'));
  t.teardown(() => rmSync(empty, { recursive: true, force: true }));
  const places = [join(empty, 'package.json')];
  t.throws(() => loadVerifier('obsim pact verify', places), {
    constructor: PactLibraryMissing,
    message:
      'obsim pact verify needs @pact-foundation/pact, which is not installed here or beside obsim: npm install --save-dev @pact-foundation/pact@17.1.4',
  });
  await t.rejects(loadSwaggerMockValidator('obsim pact check', places), {
    message:
      'obsim pact check needs @pactflow/swagger-mock-validator, which is not installed here or beside obsim: npm install --save-dev @pactflow/swagger-mock-validator@14.5.0',
  });
  t.match(
    readFileSync(join(ROOT, 'docs/pact.md'), 'utf8'),
    'obsim pact verify needs @pact-foundation/pact, which is not installed here or beside obsim: npm install --save-dev @pact-foundation/pact@17.1.4',
    'the line the page shows',
  );
});

t.test('obsim serve loads no Pact library and not the exporter, even when a state is set up', async (t) => {
  const file = join(t.testdir({}), 'imports.txt');
  const child = spawn(
    process.execPath,
    ['--import', join(ROOT, 'test/helpers/record-imports.mjs'), ...BIN, 'serve', '--port', '0', '--db', ':memory:'],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', OBSIM_LOG_LEVEL: 'info', OBSIM_TEST_IMPORTS_FILE: file },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`obsim did not start: ${out}`)), scaled(60_000));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
  });
  t.teardown(() => child.kill('SIGKILL'));
  const res = await fetch(`${url}/_sandbox/pact/provider-states`, {
    method: 'POST',
    headers: { 'x-partner-client-id': 'sandbox-partner', 'x-partner-client-secret': 'sandbox-secret', 'content-type': 'application/json' },
    body: JSON.stringify({ state: 'a payment', params: { status: 'paid' } }),
  });
  t.equal(res.status, 200);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  const modules = readFileSync(file, 'utf8');
  t.match(modules, /src\/pact\/provider-states/, 'the imports were recorded');
  t.notMatch(modules, /@pact-foundation|swagger-mock-validator/, 'no Pact library');
  t.notMatch(modules, /src\/pact\/(export|operations|check|verify)/, 'no exporter, checker or verifier');
});
