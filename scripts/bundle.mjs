// The last step of `npm run build`: dist/bundle/src/cli.mjs, the whole `obsim` command in one
// module (esbuild). Loading ~400 modules was most of obsim's start-up; one file loads in about a
// third of the time (docs/performance.md). dist/src/bin.js starts from it when it is there and
// not older than itself, else from dist/src's modules, so the bundle is never required.
//
// It sits two folders under dist/ like dist/src/* does, so what the modules find relative to
// themselves (../../compiled/schemas.cjs, the scenarios/ and personas/ folders up the tree,
// packages through createRequire) resolves the same. Left outside: the native driver, the
// optional Testcontainers peer, and the two swagger plugins, which read files next to their own
// code at run time.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = 'dist/bundle/src/cli.mjs';

try {
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/cli.ts'],
    outfile: OUT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['better-sqlite3', 'testcontainers', '@fastify/swagger', '@fastify/swagger-ui'],
    // CommonJS dependencies call require(): give the ES module one; and a mark tests can read
    banner: {
      js: [
        "import { createRequire as __obsimCreateRequire } from 'node:module';",
        'const require = __obsimCreateRequire(import.meta.url);',
        "globalThis[Symbol.for('obsim.bundle')] = true;",
      ].join(' '),
    },
    logLevel: 'warning',
  });
  console.log(`bundled src/cli.ts -> ${OUT}`);
} catch (err) {
  // the modules under dist/src work without it: say so, do not fail the build
  console.warn(`obsim: no bundle (${err instanceof Error ? err.message.split('\n')[0] : err}); obsim starts from dist/src's modules`);
}
