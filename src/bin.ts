#!/usr/bin/env node
import module from 'node:module';

// Node >= 22.1 keeps V8's compiled code of dist/ and its dependencies on disk (in
// $NODE_COMPILE_CACHE, else the system's temporary directory) so that the next start skips
// compiling them (docs/performance.md, "Start-up"); Node 20 has no such cache and skips this.
// cli.js is imported afterwards: a static import would load the whole program before the cache.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { main } = await import('./cli.js');
await main(process.argv);
