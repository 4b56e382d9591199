// The static checks, run side by side: `npm run lint` (ESLint, Prettier, knip, dependency-cruiser)
// and `npm run check` (the same and the type check). Each is one process on one core, and ESLint
// alone takes as long as the rest together, so they run at once; each one's output is printed
// whole when it ends, and the exit status is the first failure's. Plain Node: it runs before
// anything is built.
//
//   node scripts/checks.mjs [--low-priority] [typecheck] [eslint] [prettier] [knip] [depcruise]
//   (no names: all but typecheck; --low-priority: at nice 10, beside the suite, as npm test runs them)
//
// ESLint, Prettier and tsc keep caches under node_modules/.cache, so a second run on a warm
// checkout looks again only at what changed (docs/testing.md says what the ESLint cache can miss).
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => `node_modules/.bin/${name}`;
const CACHE = 'node_modules/.cache';

/** Each check: the command and its arguments, from the checkout's root. */
export const CHECKS = {
  typecheck: [
    'node',
    [bin('tsc'), '--noEmit', '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', `${CACHE}/tsc/tsconfig.tsbuildinfo`],
  ],
  // ESLint's type-aware pass holds the whole program (about 1 GB): a heap of its own, whatever
  // share of the machine's memory Node would give it by default
  eslint: [
    'node',
    [
      '--max-old-space-size=3072',
      'node_modules/eslint/bin/eslint.js',
      '--cache',
      '--cache-strategy',
      'content',
      '--cache-location',
      `${CACHE}/eslint/`,
      '.',
    ],
  ],
  prettier: ['node', [bin('prettier'), '--check', '--cache', '--cache-location', `${CACHE}/prettier/.cache`, '.']],
  knip: ['node', [bin('knip')]],
  depcruise: ['node', [bin('depcruise'), '--config', '.dependency-cruiser.cjs', 'src', 'schemas', 'fixtures', 'test', 'bench', 'scripts']],
};

function run(name) {
  const [command, args] = CHECKS[name];
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (err) => resolve({ name, code: 1, output: String(err), ms: Date.now() - started }));
    child.on('close', (code) => resolve({ name, code: code ?? 1, output, ms: Date.now() - started }));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  // the checks inherit the priority: lowered before any of them starts
  if (args.includes('--low-priority')) setPriority(10);
  const asked = args.filter((a) => a !== '--low-priority');
  const unknown = asked.filter((name) => !(name in CHECKS));
  if (unknown.length > 0) {
    console.error(`unknown check: ${unknown.join(', ')} (known: ${Object.keys(CHECKS).join(', ')})`);
    process.exit(2);
  }
  const names = asked.length > 0 ? asked : Object.keys(CHECKS).filter((name) => name !== 'typecheck');
  let failed = 0;
  for (const result of await Promise.all(names.map(run))) {
    const verdict = result.code === 0 ? 'ok' : `FAILED (exit ${result.code})`;
    console.log(`== ${result.name}: ${verdict} in ${(result.ms / 1000).toFixed(1)} s`);
    if (result.output.trim()) console.log(result.output.trimEnd());
    if (result.code !== 0 && failed === 0) failed = result.code;
  }
  process.exitCode = failed;
}
