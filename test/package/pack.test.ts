/**
 * `npm pack` makes a package that installs into a fresh project from the tarball (its native
 * dependency built there as here) and works: the library, the typed client and the bin, under
 * node:test and Vitest (the examples of docs/testing-with-obsim.md, run as written), and its types
 * check from the consumer's side. Slow (an install with a
 * native build: one to three minutes), so it runs once, in one test.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import ts from 'typescript';
import { ROOT } from '../helpers/processes.js';

t.setTimeout(600_000);

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

t.test('npm pack, install into a fresh project, use it there', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-pack-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  if (!existsSync(join(ROOT, 'dist/src/index.d.ts'))) throw new Error('dist/ has no declarations: run npm run build');

  execFileSync('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
  t.ok(tarball, 'npm pack wrote a tarball');
  const listing = execFileSync('tar', ['tzf', join(dir, tarball)], { encoding: 'utf8' });
  for (const file of [
    'package/dist/src/index.js',
    'package/dist/src/index.d.ts',
    'package/dist/src/client/index.d.ts',
    'package/dist/src/testcontainers.d.ts',
    'package/dist/src/bin.js',
    'package/dist/compiled/schemas.cjs',
    'package/personas/shop-with-history.yaml',
    'package/scenarios/payment-paid.yaml',
  ])
    t.match(listing, file, `has ${file}`);
  t.notMatch(listing, /package\/(test|bench|src\/.*\.ts$)|\.test\./m, 'no tests, no bench, no TypeScript sources');

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
      devDependencies: { vitest: '3.2.7' },
    }),
  );
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: project,
    encoding: 'utf8',
    timeout: 480_000,
  });
  t.equal(install.status, 0, `npm install in the consumer project\n${install.stderr}`);
  t.ok(
    existsSync(join(project, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node')),
    'the native dependency was built on install',
  );

  writeFileSync(join(project, 'sim.node.test.mjs'), NODE_TEST);
  const nodeTest = spawnSync(process.execPath, ['--test', 'sim.node.test.mjs'], { cwd: project, encoding: 'utf8', timeout: 120_000 });
  t.equal(nodeTest.status, 0, `node --test\n${nodeTest.stdout}\n${nodeTest.stderr}`);
  t.match(nodeTest.stdout, /# pass 1/);

  writeFileSync(join(project, 'sim.vitest.test.mjs'), VITEST);
  const vitest = spawnSync(join(project, 'node_modules/.bin/vitest'), ['run', 'sim.vitest.test.mjs'], {
    cwd: project,
    encoding: 'utf8',
    timeout: 120_000,
  });
  t.equal(vitest.status, 0, `vitest run\n${vitest.stdout}\n${vitest.stderr}`);
  t.match(vitest.stdout, /1 passed/);

  const bin = spawnSync(join(project, 'node_modules/.bin/obsim'), ['persona', 'list'], { cwd: project, encoding: 'utf8', timeout: 60_000 });
  t.equal(bin.status, 0, bin.stderr);
  t.match(bin.stdout, /shop-with-history/, 'the obsim bin, with the shipped personas');

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
