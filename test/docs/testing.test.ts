/**
 * docs/testing.md: every command it gives exists and runs, every test file it names exists, and
 * `npm run check:changed` picks the tests of a change as the page says.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ROOT } from '../helpers/processes.js';

const page = readFileSync(join(ROOT, 'docs/testing.md'), 'utf8');
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

t.test('every npm script the page names exists, and every test file it names is there', async (t) => {
  const named = [...new Set([...page.matchAll(/npm run ([a-z:-]+)/g)].map((m) => m[1]))];
  t.ok(named.length >= 6, `${named.length} scripts named`);
  for (const name of named) t.ok(name in scripts, `npm run ${name}`);
  const files = [...new Set([...page.matchAll(/(test\/[\w/.-]+\.test\.ts)/g)].map((m) => m[1]))];
  for (const file of files) t.ok(existsSync(join(ROOT, file)), file);
  const slowest = page.split('### The ten slowest files')[1] ?? '';
  const rows = [...slowest.matchAll(/^\| `(test\/[\w/.-]+\.test\.ts)` \| ([\d.]+) s \|/gm)];
  t.equal(rows.length, 10, 'the ten slowest files, each with its time');
  for (const [, file] of rows) t.ok(existsSync(join(ROOT, file)), `${file} exists`);
});

t.test('check:changed picks the tests of a change: a test file, a docs page, a source file', async (t) => {
  const run = (files: string[]) => {
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { testsOf } from './scripts/check-changed.mjs'; console.log(JSON.stringify(testsOf(${JSON.stringify(files)})));`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    t.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as { everything: boolean; tests: string[] };
  };
  t.same(run(['test/domain/iban.test.ts']), { everything: false, tests: ['test/domain/iban.test.ts'] }, 'a test file: itself');
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
