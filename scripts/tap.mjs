// `node scripts/tap.mjs ARGS…`: tap with ARGS, as the project's test scripts run it (npm test,
// test:compat, test:drift, test:long, test:changed, test:times). The one difference from `tap
// ARGS…`: test/helpers/untracked.mjs is loaded first into every test process, so that tap's process
// tracker records nothing when no coverage is collected (what it cost: that file). Plain Node: it
// runs before anything is built.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TAP = fileURLToPath(new URL('../node_modules/tap/dist/esm/run.mjs', import.meta.url));
// a file URL holds no spaces, so it needs no quoting inside NODE_OPTIONS
const PRELOAD = `--import=${new URL('../test/helpers/untracked.mjs', import.meta.url).href}`;

const env = { ...process.env, NODE_OPTIONS: [PRELOAD, process.env.NODE_OPTIONS].filter(Boolean).join(' ') };
const tap = spawn(process.execPath, [TAP, ...process.argv.slice(2)], { env, stdio: 'inherit' });
// ^C and a CI's stop reach tap (and through it the test processes) as they would without this file
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => tap.kill(signal));
tap.on('exit', (code, signal) => {
  if (!signal) process.exit(code ?? 1);
  // ended by a signal: this process ends by the same one, as a shell reports it
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
});
