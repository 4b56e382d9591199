/**
 * docs/testing.md: every command it gives exists and runs, every test file it names exists, and
 * `npm run check:changed` picks the tests of a change as the page says.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { docsPage } from '../helpers/docs.js';
import { ROOT, TEST_NODE_ARGS } from '../helpers/processes.js';

const page = readFileSync(join(ROOT, 'docs/testing.md'), 'utf8');
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

t.test('every npm script the page names exists, and every test file it names is there', async (t) => {
  const named = [...new Set([...page.matchAll(/npm run (?:--[a-z]+ )*([a-z:-]+)/g)].map((m) => m[1]))];
  t.ok(named.length >= 6, `${named.length} scripts named`);
  for (const name of named) t.ok(name in scripts, `npm run ${name}`);
  const files = [...new Set([...page.matchAll(/(test\/[\w/.-]+\.test\.ts)/g)].map((m) => m[1]))];
  for (const file of files) t.ok(existsSync(join(ROOT, file)), file);
  const slowest = page.split('### The ten slowest files')[1] ?? '';
  const rows = [...slowest.matchAll(/^\| `(test\/[\w/.-]+\.test\.ts)` \| ([\d.]+) s \|/gm)];
  t.equal(rows.length, 10, 'the ten slowest files, each with its time');
  for (const [, file] of rows) t.ok(existsSync(join(ROOT, file)), `${file} exists`);
});

const REQUIRE_HOOKED = typeof (await import('node:module')).registerHooks === 'function';

t.test(
  'the test processes run TypeScript as tsc resolves it: `./x.js` in a .ts file names `./x.ts`, a JavaScript file is still found',
  async (t) => {
    t.match(page, /`--experimental-transform-types`/, 'the page names the flag');
    const dir = mkdtempSync(join(tmpdir(), 'obsim-ts-hook-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
    // TypeScript's NodeNext rule (its handbook, "Modules: Reference"): .js names .ts, .mjs .mts, .cjs .cts
    writeFileSync(join(dir, 'typed.ts'), "export const typed: string = 'typed.ts';\n");
    writeFileSync(join(dir, 'plain.js'), "export const plain = 'plain.js';\n");
    writeFileSync(join(dir, 'module.mts'), "export const mts: string = 'module.mts';\n");
    writeFileSync(join(dir, 'common.cts'), "module.exports = { cts: 'common.cts' as string };\n");
    writeFileSync(join(dir, 'legacy.cjs'), "module.exports = { cjs: 'legacy.cjs' };\n");
    // a parameter property: TypeScript syntax beyond type stripping, which obsim's classes use
    writeFileSync(join(dir, 'point.ts'), 'export class Point {\n  constructor(readonly x: number) {}\n}\n');
    writeFileSync(
      join(dir, 'main.ts'),
      [
        "import { createRequire } from 'node:module';",
        "import { typed } from './typed.js';",
        "import { plain } from './plain.js';",
        "import { mts } from './module.mjs';",
        "import { Point } from './point.js';",
        'const require = createRequire(import.meta.url);',
        // require() passes through Node's synchronous hooks only (Node 22.15 and later, 24); Node 22.14 maps imports
        REQUIRE_HOOKED ? "const { cts } = require('./common.cjs') as { cts: string };" : "const cts = 'common.cts';",
        "const { cjs } = require('./legacy.cjs') as { cjs: string };",
        // imported again with a query, as a test does to load a file it rewrote: still TypeScript's rule
        "const again = (await import(`${import.meta.url.replace(/main\\.ts$/, 'again.ts')}?twice`)) as { typedAgain: string };",
        'console.log(JSON.stringify([typed, plain, mts, new Point(3).x, cts, cjs, again.typedAgain]));',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'again.ts'), "export { typed as typedAgain } from './typed.js';\n");
    // from the checkout, as tap starts test files (the hook's path in node-arg is relative to it)
    const run = spawnSync(process.execPath, [...TEST_NODE_ARGS, join(dir, 'main.ts')], { cwd: ROOT, encoding: 'utf8' });
    t.equal(run.status, 0, run.stderr);
    t.same(JSON.parse(run.stdout), ['typed.ts', 'plain.js', 'module.mts', 3, 'common.cts', 'legacy.cjs', 'typed.ts']);
    t.equal(run.stderr, '', 'no experimental-feature warning on every test file');
  },
);

t.test('check:changed picks the tests of a change: a test file, a docs page, a source file', async (t) => {
  // the four changes in one process: the import graph is read once (dependency-cruiser, ~5 s of CPU)
  const changes = [['test/domain/iban.test.ts'], ['docs/chaos.md'], ['src/cli/faults.ts'], ['package.json']];
  const r = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { testsOf } from './scripts/check-changed.mjs'; console.log(JSON.stringify(${JSON.stringify(changes)}.map((c) => testsOf(c))));`,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  t.equal(r.status, 0, r.stderr);
  const picked = JSON.parse(r.stdout) as { everything: boolean; tests: string[] }[];
  const run = (files: string[]) => picked[changes.findIndex((c) => c.join() === files.join())];
  t.same(run(['test/domain/iban.test.ts']), { everything: false, tests: ['test/domain/iban.test.ts'] }, 'a test file: itself');
  // which holds without the import graph only while no file imports a test file
  const importsATest = spawnSync('git', ['grep', '-lE', String.raw`from '[^']*\.test(\.[cm]?[jt]s)?'`, '--', '*.ts', '*.mjs', '*.js'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  t.equal(importsATest.stdout, '', 'no file imports a test file');
  const docs = run(['docs/chaos.md']);
  t.ok(
    docs.tests.includes('test/docs/chaos.test.ts') && docs.tests.every((f) => f.startsWith('test/docs/')),
    'a docs page: the docs tests',
  );
  const source = run(['src/cli/faults.ts']);
  t.ok(source.tests.includes('test/cli/faults.test.ts'), 'a command: the test that runs it as a process');
  t.ok(source.tests.includes('test/docs/scenarios.test.ts'), 'and the tests that import it');
  t.notOk(source.tests.includes('test/domain/iban.test.ts'), 'not a test that reaches none of it');
  t.equal(run(['package.json']).everything, true, 'package.json: everything');
});

t.test('test:changed runs the tests of a change without the checks; wrong usage exits 2 in one line', async (t) => {
  const run = (args: string[]) => {
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { plan } from './scripts/check-changed.mjs'; console.log(JSON.stringify(plan(${JSON.stringify(args)})));`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    t.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { base: string; list: boolean; checks: boolean };
  };
  const [, changedScript] = /^node (scripts\/check-changed\.mjs)( .*)?$/.exec(scripts['test:changed']) ?? [];
  t.equal(changedScript, 'scripts/check-changed.mjs', 'npm run test:changed is the check:changed script');
  const args = scripts['test:changed'].split(' ').slice(2);
  t.same(run(args), { base: 'HEAD', list: false, checks: false }, 'with its arguments: since HEAD, the tests alone');
  t.same(run([]), { base: 'HEAD', list: false, checks: true }, 'npm run check:changed: the checks, then the tests');
  t.same(run([...args, '--base', 'main']).base, 'main', 'since another revision');
  const wrong = spawnSync(process.execPath, ['scripts/check-changed.mjs', ...args, '--bogus'], { cwd: ROOT, encoding: 'utf8' });
  t.equal(wrong.status, 2, 'an unknown option exits 2');
  t.equal(wrong.stderr.trim().split('\n').length, 1, `in one line: ${wrong.stderr.trim()}`);
});

t.test('the test scripts run tap with its process tracker recording nothing when no coverage is collected', async (t) => {
  const untracked = pathToFileURL(join(ROOT, 'test/helpers/untracked.mjs')).href;
  const tracker = pathToFileURL(join(ROOT, 'node_modules/@tapjs/processinfo/dist/esm/import.mjs')).href;
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  for (const k of Object.keys(env)) if (k.startsWith('_TAPJS_PROCESSINFO_')) delete env[k];

  // what tap gives its test processes through scripts/tap.mjs: that file first, then tap's tracker
  const options = spawnSync(process.execPath, ['scripts/tap.mjs', 'node-options'], { cwd: ROOT, env, encoding: 'utf8' });
  t.equal(options.status, 0, options.stderr);
  const imports = [...options.stdout.matchAll(/--import=([^"\s]+)/g)].map((m) => m[1]);
  t.ok(imports.indexOf(untracked) >= 0 && imports.indexOf(untracked) < imports.indexOf(tracker), `${untracked} before ${tracker}`);
  for (const script of ['test:compat', 'test:drift', 'test:long'])
    t.match(scripts[script], /node scripts\/tap\.mjs --disable-coverage/, `npm run ${script} runs tap through scripts/tap.mjs`);
  t.equal(scripts.test, 'node scripts/test.mjs', 'npm test is scripts/test.mjs');
  const commands = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "import { COMMANDS } from './scripts/test.mjs'; console.log(JSON.stringify(COMMANDS))"],
    { cwd: ROOT, encoding: 'utf8' },
  );
  t.equal(commands.status, 0, commands.stderr);
  const npmTest = JSON.parse(commands.stdout) as Record<string, string[]>;
  t.same(npmTest.suite, ['scripts/tap.mjs', '--disable-coverage'], 'npm test runs tap through scripts/tap.mjs too');
  t.same(
    npmTest.checks,
    ['scripts/checks.mjs', '--low-priority', 'typecheck', 'eslint', 'prettier', 'knip', 'depcruise'],
    'and the checks of npm run check beside it, at a lower priority',
  );
  t.notMatch(scripts.coverage, /scripts\/tap\.mjs/, 'npm run coverage runs tap itself');

  // the tracker itself (the oracle): how many modules it recorded in a process that loads Fastify
  // The node of each count starts from a shell that first unsets every tracker setting: when this
  // file runs under a plain `npx tap`, the tracker loaded here puts its own settings into the
  // environment of every process this one spawns, whatever env is given.
  const clean =
    'for v in $(compgen -e | grep -E "^(_TAPJS_PROCESSINFO_|NODE_OPTIONS$)"); do unset "$v"; done; export _TAPJS_PROCESSINFO_COVERAGE_="$1"; shift; exec "$@"';
  const recorded = (preload: string[], coverage: string) => {
    const r = spawnSync(
      'bash',
      [
        '-c',
        clean,
        'clean',
        coverage,
        process.execPath,
        ...preload,
        `--import=${tracker}`,
        '--input-type=module',
        '-e',
        "await import('fastify'); console.log(globalThis[Symbol.for('@tapjs/processinfo.ProcessInfoNodeData')]?.files.length ?? 0)",
      ],
      { cwd: ROOT, env, encoding: 'utf8' },
    );
    t.equal(r.status, 0, r.stderr);
    return Number(r.stdout.trim());
  };
  const without = recorded([], '0');
  t.ok(without > 50, `without the file, the tracker records every module (${without})`);
  t.ok(recorded([`--import=${untracked}`], '0') <= 1, 'with it loaded first and coverage off: nothing but the main module');
  t.equal(recorded([`--import=${untracked}`], '1'), without, 'with coverage on, the file changes nothing');
});

t.test("npm test runs the checks beside the suite; the suite's failure, else the checks', is its exit status", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-npm-test-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const started = join(dir, 'checks-started');
  // stand-ins for the three commands (each a list of arguments to Node, as scripts/test.mjs runs them)
  const node = (code: string) => ['--input-type=module', '-e', code];
  const checks = (exit: number) =>
    node(
      `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(started)}, ''); ` +
        `console.log('== eslint: ${exit === 0 ? 'ok' : `FAILED (exit ${exit})`} in 1.0 s'); console.log('checks output'); process.exit(${exit});`,
    );
  // the suite waits for the checks to have started: they run at the same time, not one after the other
  const suite = (exit: number) =>
    node(
      `import { existsSync } from 'node:fs'; while (!existsSync(${JSON.stringify(started)})) await new Promise((r) => setTimeout(r, 20)); ` +
        `console.log('suite ran with', JSON.stringify(process.argv.slice(1))); process.exit(${exit});`,
    );
  const run = (commands: Record<string, string[]>, tapArgs: string[] = []) => {
    rmSync(started, { force: true });
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { testAndCheck } from './scripts/test.mjs'; process.exitCode = await testAndCheck(${JSON.stringify(commands)}, ${JSON.stringify(tapArgs)});`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const ok = node('process.exit(0)');

  const green = run({ checks: checks(0), build: ok, suite: suite(0) }, ['test/a.test.ts']);
  t.equal(green.status, 0, green.stderr);
  t.match(green.stdout, 'suite ran with ["test/a.test.ts"]', "the suite gets npm test's arguments");
  t.ok(green.stdout.indexOf('suite ran') < green.stdout.indexOf('checks output'), "the checks' output follows the suite's");
  t.notMatch(green.stdout, '== checks:', 'no failure line when the checks pass');

  const checksRed = run({ checks: checks(1), build: ok, suite: suite(0) });
  t.equal(checksRed.status, 1, "the suite passed, a check failed: the check's exit status");
  t.match(checksRed.stdout, /^== checks: eslint \(their output follows the suite's\)$/m, 'the failed check named in one line');

  const bothRed = run({ checks: checks(1), build: ok, suite: suite(3) });
  t.equal(bothRed.status, 3, "both failed: the suite's exit status");
  t.match(bothRed.stdout, 'checks output', "and the checks' output is still printed");

  const buildRed = run({ checks: checks(0), build: node('process.exit(4)'), suite: suite(0) });
  t.equal(buildRed.status, 4, 'tap build failed: its exit status');
  t.notMatch(buildRed.stdout, 'suite ran', 'and the suite does not run');

  const real = spawnSync(process.execPath, ['scripts/checks.mjs', '--low-priority', 'no-such-check'], { cwd: ROOT, encoding: 'utf8' });
  t.equal(real.status, 2, "scripts/checks.mjs --low-priority takes the checks' names as before; an unknown one exits 2");
  t.equal(real.stderr.trim().split('\n').length, 1, `in one line: ${real.stderr.trim()}`);
});

t.test('the tests of a change: the example of npm run test:changed, run in a clone of this checkout', async (t) => {
  const { block, printed } = docsPage('docs/testing.md');
  const script = block('test-changed', 'sh');
  const expected = printed('test-changed');
  if (!expected) return t.fail('docs/testing.md: no "prints" block after the test-changed example');
  // a clone of what is committed, with this checkout's installed packages: the example changes a file
  const dir = mkdtempSync(join(tmpdir(), 'obsim-test-changed-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const clone = join(dir, 'obsim');
  const git = spawnSync('git', ['clone', '-q', '--shared', ROOT, clone], { encoding: 'utf8' });
  t.equal(git.status, 0, git.stderr);
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
  // the link is not a change (.gitignore's `node_modules/` names directories only)
  appendFileSync(join(clone, '.git/info/exclude'), 'node_modules\n');
  // none of this test process's tap or preload settings: the example's tap is a run of its own
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(NODE_OPTIONS|TAP|_TAPJS)/.test(k) && !k.startsWith('OBSIM_')) env[k] = v;
  const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { cwd: clone, env, encoding: 'utf8' });
  t.equal(run.status, 0, `the example exits 0\n${run.stderr}`);
  t.ok(run.stdout.startsWith(expected), `it prints what the page says first:\n${run.stdout.slice(0, 400)}`);
  const report = run.stdout.slice(expected.length);
  t.match(report, /^ok 1 - test\/domain\/iban\.test\.ts\b/m, 'then tap runs the changed file');
  t.notMatch(report, /^ok 2 - /m, 'and no other');
  t.match(report, /^# \{ total: \d+, pass: \d+ \}$/m, 'and every assertion of it passes');
});

t.test("npm run test:times: the files run as npm test runs them, then each one's wall and CPU time", async (t) => {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(NODE_OPTIONS|TAP|_TAPJS)/.test(k) && !k.startsWith('OBSIM_')) env[k] = v;
  t.match(scripts['test:times'], /node scripts\/test-times\.mjs$/, 'npm run test:times is scripts/test-times.mjs');
  const r = spawnSync(process.execPath, ['scripts/test-times.mjs', 'test/domain/iban.test.ts', '--top', '3'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /^ok 1 - test\/domain\/iban\.test\.ts\b/m, 'tap ran the file');
  t.match(r.stdout, /^1 test files: \d+ s of file wall time, \d+ s of CPU time$/m, 'the totals');
  const row = /^\| `test\/domain\/iban\.test\.ts` \| ([\d.]+) s \| ([\d.]+) s \|$/m.exec(r.stdout);
  t.ok(row, 'the file in the table, in the form docs/testing.md keeps');
  // the test process loads tap at least: neither figure can be zero
  t.ok(Number(row?.[1]) > 0 && Number(row?.[2]) > 0, `its wall time ${row?.[1]} s and CPU time ${row?.[2]} s`);
  const record = /\(the record: (.+)\)/.exec(r.stdout)?.[1];
  t.ok(record && existsSync(record), 'the record kept');
  if (record) {
    const again = spawnSync(process.execPath, ['scripts/test-times.mjs', '--report', record, '--top', '1'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    });
    t.equal(again.status, 0, again.stderr);
    t.match(again.stdout, row![0], '--report prints the table again from the record');
    rmSync(join(record, '..'), { recursive: true, force: true });
  }
  const wrong = spawnSync(process.execPath, ['scripts/test-times.mjs', '--top', '0'], { cwd: ROOT, env, encoding: 'utf8' });
  t.equal(wrong.status, 2, '--top 0 exits 2');
  t.equal(wrong.stderr.trim().split('\n').length, 1, `in one line: ${wrong.stderr.trim()}`);
});
