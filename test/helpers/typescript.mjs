// Loaded into every test process (tap's node-arg in package.json) with Node's own TypeScript
// support (--experimental-transform-types: type stripping, plus the parameter properties obsim's
// classes use). Node leaves out one rule of TypeScript's NodeNext resolution that every import in
// obsim relies on: `./x.js` written in a `.ts` file names `./x.ts`. This hook adds that rule and
// nothing else (./typescript-resolve.mjs). Not tsx: its hooks lex every JavaScript module a
// process loads (tap's and Fastify's several hundred) to tell ESM from CommonJS, and a test file
// that builds the app cost 3.1 s of CPU through them against 2.2 s this way (docs/testing.md).
// Plain JavaScript: it runs before any TypeScript can.
import module from 'node:module';
import { notFound, twinOf } from './typescript-resolve.mjs';

// a default import: a named import of what Node 22.14 lacks would fail before this line runs
if (module.registerHooks) {
  // in the thread itself (Node 22.15 and later, 24): no round trip to a hooks thread per import
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      const twin = twinOf(specifier, context.parentURL);
      if (twin) {
        try {
          return nextResolve(twin, context);
        } catch (error) {
          if (!notFound(error)) throw error;
        }
      }
      return nextResolve(specifier, context);
    },
  });
} else {
  // Node 22.14, the oldest obsim runs on: the same rule on the hooks thread, for imports (there
  // require() does not pass through these hooks)
  module.register('./typescript-resolve.mjs', import.meta.url);
}
