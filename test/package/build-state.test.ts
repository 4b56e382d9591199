/**
 * Two places decide whether dist/ is a build of the sources as they are: `npm start`'s
 * scripts/build-if-stale.mjs (plain Node, before anything is built) and src/build-state.ts (the
 * tests' `obsim` processes, obsim's worker threads started from the sources). They read the same
 * inputs, or one would rebuild where the other runs the stale build.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { BUILD_INPUTS } from '../../src/build-state.js';
import { ROOT } from '../helpers/processes.js';

t.test("build-state.ts reads the inputs npm start's rebuild reads", async (t) => {
  const script = readFileSync(join(ROOT, 'scripts/build-if-stale.mjs'), 'utf8');
  const sources = /const SOURCES = (\[[^\]]*\]);/.exec(script)?.[1];
  t.ok(sources, 'build-if-stale.mjs names its SOURCES');
  t.same(JSON.parse(sources!.replaceAll("'", '"')), BUILD_INPUTS);
  // every input the build is made of: the compiler's settings and the package's (its "type") too
  t.ok(BUILD_INPUTS.includes('tsconfig.build.json') && BUILD_INPUTS.includes('package.json'));
});
