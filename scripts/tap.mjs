// `node scripts/tap.mjs ARGS…`: tap with ARGS, as the project's test scripts run it (npm test,
// test:compat, test:drift, test:long, test:changed, test:times). Two differences from `tap ARGS…`:
// - test/helpers/untracked.mjs is loaded first into every test process, so that tap's process
//   tracker records nothing when no coverage is collected (what it cost: that file);
// - every test process keeps V8's compiled code on disk and reuses it (Node's compile cache, in
//   $NODE_COMPILE_CACHE when it is set, else where `obsim` keeps its own: the system's temporary
//   directory), so that the 236 test processes do not each compile tap, Fastify and the rest
//   again: 7 % less CPU for a file that builds the app (farm-bench, 8 pairs of 8 such files).
// Plain Node: it runs before anything is built.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TAP = fileURLToPath(new URL('../node_modules/tap/dist/esm/run.mjs', import.meta.url));
// a file URL holds no spaces, so it needs no quoting inside NODE_OPTIONS
const PRELOAD = `--import=${new URL('../test/helpers/untracked.mjs', import.meta.url).href}`;

const env = {
  ...process.env,
  NODE_OPTIONS: [PRELOAD, process.env.NODE_OPTIONS].filter(Boolean).join(' '),
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE || join(tmpdir(), 'node-compile-cache'),
};
const tap = spawn(process.execPath, [TAP, ...process.argv.slice(2)], { env, stdio: 'inherit' });
// ^C and a CI's stop reach tap (and through it the test processes) as they would without this file
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => tap.kill(signal));
tap.on('exit', (code, signal) => {
  if (!signal) process.exit(code ?? 1);
  // ended by a signal: this process ends by the same one, as a shell reports it
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
});
