#!/usr/bin/env node
import module from 'node:module';
import { unsupportedNode } from './node-version.js';

// Before anything else is loaded: on an unsupported Node the SQLite driver's binary would crash
// the process, so the partner gets one line naming the supported lines instead.
const unsupported = unsupportedNode();
if (unsupported) {
  process.stderr.write(`${unsupported}\n`);
  process.exit(1);
}
// Node keeps V8's compiled code of dist/ and its dependencies on disk (in $NODE_COMPILE_CACHE,
// else the system's temporary directory) so that the next start skips compiling them
// (docs/performance.md, "Start-up"). cli.js is imported afterwards: a static import would load the
// whole program before the cache is on.
module.enableCompileCache();
// `obsim serve` (how a container and `npm start` run obsim) loads the server and nothing of the
// other commands: every other command line builds the whole program
if (process.argv[2] === 'serve') await (await import('./cli/serve.js')).serveMain(process.argv);
else await (await import('./cli.js')).main(process.argv);
