// `npm run check:changed [-- --base REV] [-- --list]`: between full runs, the checks and the tests
// of what a change touched. `npm run test:changed [-- --base REV]` (`--tests`): the tests alone.
//
// - The change: the files that differ from REV (default HEAD: what is not committed yet), untracked
//   ones included.
// - The checks: the type check, ESLint, Prettier, knip and dependency-cruiser (scripts/checks.mjs);
//   their caches make them look again only at what changed.
// - The tests: every test file that imports a changed file, directly or through anything it imports
//   (the import graph dependency-cruiser reads, type-only imports included), every changed test
//   file, the tests that run obsim as a process (test/helpers/processes.ts) when the product changed,
//   and the tests that read a changed file without importing it: the docs' pages and the
//   README (test/docs/), the shipped scenarios, personas and requirements, the OpenAPI documents
//   (test/contract/), the Dockerfile and deploy/ (test/container/, test/cluster/).
// A change to package.json, the lockfile or the tap or TypeScript configuration runs everything.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TEST = /^test\/.*\.test\.ts$/;

/** Test folders that read files (not imports) of the kind `pattern` matches. */
const READERS = [
  [/^(README\.md|docs\/)/, ['test/docs/']],
  [/^(scenarios|personas|readiness)\//, ['test/scenarios/', 'test/personas/', 'test/readiness/', 'test/docs/']],
  [/^openapi(-controls)?\.json$/, ['test/contract/']],
  [/^(Dockerfile|\.dockerignore)$/, ['test/container/', 'test/environments/']],
  [/^deploy\//, ['test/cluster/']],
  [/^\.ci\//, ['test/environments/']],
  [/^\.dependency-cruiser\.cjs$/, ['test/architecture/']],
];
/** The test helpers that start `obsim` as a child process. */
const SPAWNERS = ['test/helpers/processes.ts', 'test/helpers/process.ts'];
const EVERYTHING = /^(package\.json|package-lock\.json|tsconfig(\.build)?\.json|\.taprc)$/;

const git = (...args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout.split('\n').filter(Boolean);

function allTests(dir = 'test') {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    return e.isDirectory() ? allTests(path) : TEST.test(path) ? [path] : [];
  });
}

let dependentsOf;
/** Each module's importers, from the import graph dependency-cruiser reads (read once per process). */
function dependents() {
  if (dependentsOf) return dependentsOf;
  const cruise = spawnSync(
    process.execPath,
    [
      'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs',
      '--config',
      '.dependency-cruiser.cjs',
      '--output-type',
      'json',
      'src',
      'schemas',
      'fixtures',
      'test',
      'scripts',
    ],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  if (cruise.status !== 0) throw new Error(`dependency-cruiser failed:\n${cruise.stderr}`);
  dependentsOf = new Map();
  for (const module of JSON.parse(cruise.stdout).modules) {
    for (const dep of module.dependencies) {
      if (!dependentsOf.has(dep.resolved)) dependentsOf.set(dep.resolved, []);
      dependentsOf.get(dep.resolved).push(module.source);
    }
  }
  return dependentsOf;
}

/** Test files that reach one of `changed` through their imports. */
function importers(changed) {
  const graph = dependents();
  const seen = new Set(changed);
  const pending = [...changed];
  while (pending.length > 0) {
    for (const next of graph.get(pending.pop()) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      pending.push(next);
    }
  }
  return [...seen].filter((file) => TEST.test(file));
}

/** The test files of a change to `changed`; `everything` when the change reaches all of them. */
export function testsOf(changed, tests = allTests()) {
  if (changed.some((f) => EVERYTHING.test(f))) return { everything: true, tests };
  const chosen = new Set(changed.filter((f) => TEST.test(f) && existsSync(join(ROOT, f))));
  for (const [pattern, folders] of READERS) {
    if (changed.some((f) => pattern.test(f))) for (const t of tests) if (folders.some((d) => t.startsWith(d))) chosen.add(t);
  }
  // a test file is run, not imported (no file imports a *.test.ts): changed tests alone need no import graph
  const code = changed.filter((f) => /\.(ts|mjs|cjs|js)$/.test(f) && !TEST.test(f) && existsSync(join(ROOT, f)));
  // tests that run obsim as a process reach the product through it, not through their imports
  if (code.some((f) => /^(src|schemas|fixtures)\//.test(f))) code.push(...SPAWNERS);
  if (code.length > 0) for (const t of importers(code)) chosen.add(t);
  return { everything: false, tests: [...chosen].sort() };
}

/**
 * What a run does, from its arguments: the revision it compares with, whether it only lists the
 * tests, and whether the checks run before them (not for `npm run test:changed`, `--tests`).
 */
export function plan(args) {
  const { values } = parseArgs({
    args,
    options: { base: { type: 'string', default: 'HEAD' }, list: { type: 'boolean' }, tests: { type: 'boolean' } },
  });
  return { base: values.base, list: Boolean(values.list), checks: !values.tests };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let values;
  try {
    values = plan(process.argv.slice(2));
  } catch (err) {
    console.error(`check-changed: ${err.message} (usage: [--base REV] [--list] [--tests])`);
    process.exit(2);
  }
  const changed = [...new Set([...git('diff', '--name-only', values.base), ...git('ls-files', '--others', '--exclude-standard')])];
  if (changed.length === 0) {
    console.log(`nothing differs from ${values.base}`);
    process.exit(0);
  }
  const { everything, tests } = testsOf(changed);
  console.log(`${changed.length} changed file(s) since ${values.base}: ${everything ? 'every test' : `${tests.length} test file(s)`}`);
  if (values.list) {
    for (const t of tests) console.log(`  ${t}`);
    process.exit(0);
  }
  if (values.checks) {
    const checks = spawnSync(process.execPath, ['scripts/checks.mjs', 'typecheck', 'eslint', 'prettier', 'knip', 'depcruise'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (checks.status !== 0) process.exit(checks.status ?? 1);
  }
  if (tests.length === 0) process.exit(0);
  const tap = spawnSync(process.execPath, ['scripts/tap.mjs', '--disable-coverage', ...(everything ? [] : tests)], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  process.exit(tap.status ?? 1);
}
