// `npm test [-- TAP-ARGS…]`: the checks (scripts/checks.mjs: type check, ESLint, Prettier, knip,
// dependency-cruiser) and the whole suite, at the same time. The suite does not wait for the
// checks: on a fresh clone they take a few minutes of CPU (ESLint's type-aware pass alone most of
// one core's share), and the suite has no use for their result. They run at a lower scheduling
// priority (nice 10), so that they take the CPU the test files leave (a file waiting on a process,
// a socket, a webhook timeout) instead of slowing files that wait on real time. A check that fails
// says so in one line as soon as it ends; the checks' output follows the suite's, and the exit
// status is the suite's failure, else the checks'. `npm run check` runs the checks alone. Plain
// Node: it runs before anything is built.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TAP = fileURLToPath(new URL('../node_modules/tap/dist/esm/run.mjs', import.meta.url));

/** What `npm test` runs: each a list of arguments to this Node. */
export const COMMANDS = {
  checks: ['scripts/checks.mjs', '--low-priority', 'typecheck', 'eslint', 'prettier', 'knip', 'depcruise'],
  build: [TAP, 'build'],
  suite: ['scripts/tap.mjs', '--disable-coverage'],
};

const running = new Set();

/** Run Node with `args` from the checkout's root; resolves to its exit status (and its output when captured). */
function run(args, { capture = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      stdio: ['ignore', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'],
    });
    running.add(child);
    let output = '';
    if (capture) for (const stream of [child.stdout, child.stderr]) stream.on('data', (d) => (output += d));
    child.on('error', (err) => resolve({ code: 1, output: `${output}${String(err)}\n` }));
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

/**
 * The checks beside the build and then the suite (with `tapArgs`); resolves to the exit status:
 * the build's or the suite's failure, else the checks'.
 */
export async function testAndCheck(commands = COMMANDS, tapArgs = []) {
  const checks = run(commands.checks, { capture: true }).then((result) => {
    const failed = [...result.output.matchAll(/^== (\w+): FAILED/gm)].map((m) => m[1]);
    if (result.code !== 0) console.log(`== checks: ${failed.join(', ') || 'FAILED'} (their output follows the suite's)`);
    return result;
  });
  let suite = await run(commands.build);
  if (suite.code === 0) suite = await run([...commands.suite, ...tapArgs]);
  const { code, output } = await checks;
  console.log(`\n== the checks (npm run check), run beside the suite:\n${output.trimEnd()}`);
  return suite.code !== 0 ? suite.code : code;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // ^C and a CI's stop reach the checks and tap (and through it the test processes)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(signal, () => {
      for (const child of running) child.kill(signal);
      process.exitCode = 1;
    });
  process.exitCode = await testAndCheck(COMMANDS, process.argv.slice(2));
}
