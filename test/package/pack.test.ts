/**
 * The package is publishable (`npm publish --dry-run` is clean but for the login it cannot have
 * here), and `npm pack` makes a package that installs into a fresh project from the tarball and
 * works: the library, the typed client, the Testcontainers module and the bin (`npx obsim
 * --version`, `obsim openapi`), under node:test and Vitest (the examples of
 * docs/testing-with-obsim.md, run as written), and its types check from the consumer's side.
 *
 * The native SQLite driver (better-sqlite3) carries its binaries inside its registry package (one
 * Node-API binary per platform, for every supported Node line), so both installs take it from
 * there: nothing compiled, nothing downloaded from outside the registry.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import ts from 'typescript';
import { buildIsCurrent, ROOT } from '../helpers/processes.js';
import { scratchDir } from '../helpers/scratch.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(600_000));

const docs = readFileSync(join(ROOT, 'docs/testing-with-obsim.md'), 'utf8');
/** The code block after `<!-- example:NAME -->` in docs/testing-with-obsim.md. */
function example(name: string): string {
  const m = docs.match(new RegExp(`<!-- example:${name} -->\\n\`\`\`js\\n([\\s\\S]*?)\`\`\``));
  if (!m) throw new Error(`docs/testing-with-obsim.md: no example:${name} block`);
  return m[1];
}
const NODE_TEST = example('node-test');
const VITEST = example('vitest');

const TYPED = `
import { startObsim, type Obsim } from 'obsim';
import { createObsimClient, type JournalEntry } from 'obsim/client';
import { ObsimContainer } from 'obsim/testcontainers';

export async function typed(): Promise<number> {
  const sim: Obsim = await startObsim({ clock: { frozen: true } });
  const res = await createObsimClient({ baseUrl: sim.baseUrl }).api.GET('/v1/partner/merchants/{merchantId}/onboarding-status', {
    params: { path: { merchantId: 1 } },
  });
  const entry: JournalEntry | undefined = undefined;
  // @ts-expect-error: the path parameter is a number
  await createObsimClient().api.GET('/v1/partner/merchants/{merchantId}/onboarding-status', { params: { path: { merchantId: 'x' } } });
  const container: typeof ObsimContainer = ObsimContainer;
  void entry; void container; void res;
  await sim.close();
  return 1;
}
`;

const RUNTIME = `
import { startObsim } from 'obsim';
import { createObsimClient } from 'obsim/client';
import { ObsimContainer } from 'obsim/testcontainers';
const sim = await startObsim({ clock: { frozen: true } });
const client = createObsimClient({ baseUrl: sim.baseUrl });
const created = await client.api.POST('/v1/partner/merchants/test', { body: { companyName: 'Installed ApS' } });
console.log(JSON.stringify({ status: created.response.status, merchant: created.data?.status, container: typeof ObsimContainer }));
await sim.close();
`;

const TESTCONTAINERS = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
  .devDependencies.testcontainers;
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

t.test('npm publish --dry-run is clean', async (t) => {
  const r = spawnSync('npm', ['publish', '--dry-run', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', timeout: scaled(120_000) });
  t.equal(r.status, 0, `npm publish --dry-run exits 0${r.status === 0 ? '' : `\n${r.stderr}`}`);
  t.match(r.stdout, `+ obsim@${VERSION}`);
  const warnings = r.stderr.split('\n').filter((line) => line.startsWith('npm warn') || line.startsWith('npm error'));
  t.same(
    warnings.filter((line) => !/requires you to be logged in/.test(line)),
    [],
    'no warning but the login a dry run cannot have',
  );
});

t.test('npm pack, install into a fresh project, use it there', async (t) => {
  // in memory when it can be: the two installs write some 450 MB of small files (test/helpers/scratch.ts)
  const dir = scratchDir('obsim-pack-');
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  if (!existsSync(join(ROOT, 'dist/src/index.d.ts'))) throw new Error('dist/ has no declarations: run npm run build');

  // `npm pack` builds first (prepare); a build already current is packed as it is
  const pack = ['pack', '--pack-destination', dir, '--silent', ...(buildIsCurrent() ? ['--ignore-scripts'] : [])];
  execFileSync('npm', pack, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
  t.ok(tarball, 'npm pack wrote a tarball');
  const listing = execFileSync('tar', ['tzf', join(dir, tarball)], { encoding: 'utf8' });
  for (const file of [
    'package/dist/src/index.js',
    'package/dist/src/index.d.ts',
    'package/dist/src/client/index.d.ts',
    'package/dist/src/testcontainers.d.ts',
    'package/dist/src/bin.js',
    'package/dist/src/openapi/documents.js',
    'package/openapi.json',
    'package/openapi-controls.json',
    'package/docs/partner-api.md',
    'package/dist/compiled/schemas.cjs',
    'package/personas/shop-with-history.yaml',
    'package/scenarios/payment-paid.yaml',
    'package/examples/contracts/2027-03-01.yaml',
  ])
    t.match(listing, file, `has ${file}`);
  t.notMatch(listing, /package\/(test|bench|src\/.*\.ts$)|\.test\./m, 'no tests, no bench, no TypeScript sources');

  // a global install into a prefix of its own (as `npm install --global` does into /usr/local),
  // as the README gives it; awaited further down
  const prefix = join(dir, 'global');
  const env = process.env;
  const globalInstall = new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(
      'npm',
      ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(dir, tarball)],
      { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'], timeout: scaled(480_000) },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });

  const project = join(dir, 'consumer');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      allowScripts: { 'better-sqlite3': true },
      dependencies: { obsim: `file:../${tarball}` },
      devDependencies: { vitest: '3.2.7', testcontainers: TESTCONTAINERS },
    }),
  );
  // what the checkout's own install already fetched is not asked of the registry again
  const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: project,
    env,
    encoding: 'utf8',
    timeout: scaled(480_000),
  });
  t.equal(install.status, 0, `npm install in the consumer project\n${install.stderr}`);
  const driver = spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').prepare('select 1 as one').get()"], {
    cwd: project,
    encoding: 'utf8',
  });
  t.equal(driver.status, 0, `the SQLite driver loads in the consumer project from its packaged binary\n${driver.stderr}`);
  t.notOk(
    existsSync(join(project, 'node_modules/better-sqlite3/build/Release/obj.target')),
    'nothing was compiled (node-gyp leaves its objects there)',
  );

  writeFileSync(join(project, 'sim.node.test.mjs'), NODE_TEST);
  const nodeTest = spawnSync(process.execPath, ['--test', 'sim.node.test.mjs'], {
    cwd: project,
    encoding: 'utf8',
    timeout: scaled(120_000),
  });
  t.equal(nodeTest.status, 0, `node --test\n${nodeTest.stdout}\n${nodeTest.stderr}`);
  // Node 22 reports in TAP when not on a terminal, Node 24 in its spec format
  t.match(nodeTest.stdout, /^(#|ℹ) pass 1$/m);

  writeFileSync(join(project, 'sim.vitest.test.mjs'), VITEST);
  const vitest = spawnSync(join(project, 'node_modules/.bin/vitest'), ['run', 'sim.vitest.test.mjs'], {
    cwd: project,
    encoding: 'utf8',
    timeout: scaled(120_000),
  });
  t.equal(vitest.status, 0, `vitest run\n${vitest.stdout}\n${vitest.stderr}`);
  t.match(vitest.stdout, /1 passed/);

  writeFileSync(join(project, 'runtime.mjs'), RUNTIME);
  const runtime = spawnSync(process.execPath, ['runtime.mjs'], { cwd: project, encoding: 'utf8', timeout: scaled(60_000) });
  t.equal(runtime.status, 0, runtime.stderr);
  t.same(
    JSON.parse(runtime.stdout),
    { status: 200, merchant: 'activated', container: 'function' },
    'obsim, obsim/client and obsim/testcontainers load and work',
  );

  const version = spawnSync('npx', ['--no-install', 'obsim', '--version'], { cwd: project, encoding: 'utf8', timeout: scaled(60_000) });
  t.equal(version.status, 0, version.stderr);
  t.equal(version.stdout, `${VERSION}\n`, 'npx obsim --version prints the package version');
  const controls = spawnSync('npx', ['--no-install', 'obsim', 'openapi', '--which', 'controls'], {
    cwd: project,
    encoding: 'utf8',
    timeout: scaled(60_000),
  });
  t.equal(controls.status, 0, controls.stderr);
  t.equal(
    controls.stdout,
    readFileSync(join(ROOT, 'openapi-controls.json'), 'utf8'),
    'the installed bin prints the committed controls document',
  );

  const bin = spawnSync(join(project, 'node_modules/.bin/obsim'), ['persona', 'list'], {
    cwd: project,
    encoding: 'utf8',
    timeout: scaled(60_000),
  });
  t.equal(bin.status, 0, bin.stderr);
  t.match(bin.stdout, /shop-with-history/, 'the obsim bin, with the shipped personas');

  // the global install, started beside the project's
  const global = await globalInstall;
  t.equal(global.code, 0, `npm install --global\n${global.stderr}`);
  const globalBin = spawnSync(join(prefix, 'bin', 'obsim'), ['--version'], { cwd: dir, encoding: 'utf8', timeout: scaled(60_000) });
  t.equal(globalBin.status, 0, globalBin.stderr);
  t.equal(globalBin.stdout, `${VERSION}\n`, 'the globally installed obsim prints its version');
  const globalOpenapi = spawnSync(join(prefix, 'bin', 'obsim'), ['openapi'], { cwd: dir, encoding: 'utf8', timeout: scaled(60_000) });
  t.equal(globalOpenapi.stdout, readFileSync(join(ROOT, 'openapi.json'), 'utf8'), 'and runs (it loads its native SQLite driver)');

  // the declarations, as a TypeScript consumer resolves them through the exports map
  writeFileSync(join(project, 'typed.ts'), TYPED);
  const program = ts.createProgram([join(project, 'typed.ts')], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.esnext.disposable.d.ts', 'lib.dom.d.ts'],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  t.same(diagnostics, [], 'the consumer type-checks against obsim, obsim/client and obsim/testcontainers');
});
