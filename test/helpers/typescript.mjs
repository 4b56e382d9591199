// Loaded into every test process (tap's node-arg in package.json) with Node's own TypeScript
// support (--experimental-transform-types: type stripping, plus the parameter properties obsim's
// classes use). Node leaves out one rule of TypeScript's NodeNext resolution that every import in
// obsim relies on: `./x.js` written in a `.ts` file names `./x.ts`. This hook adds that rule and
// nothing else. Not tsx: its hooks lex every JavaScript module a process loads (tap's and
// Fastify's several hundred) to tell ESM from CommonJS, and a test file that builds the app cost
// 3.1 s of CPU through them against 2.2 s this way (docs/testing.md).
// Plain JavaScript: it runs before any TypeScript can.
import { registerHooks } from 'node:module';

// what TypeScript maps: `.js` to `.ts`, `.mjs` to `.mts`, `.cjs` to `.cts`
const TYPESCRIPT_TWIN = { '.js': '.ts', '.mjs': '.mts', '.cjs': '.cts' };
// a TypeScript module's URL, a query or fragment after it allowed (a test imports a file again as `…ts?run`)
const IN_TYPESCRIPT = /\.[cm]?ts(?:[?#]|$)/;

registerHooks({
  resolve(specifier, context, nextResolve) {
    const extension = /\.[cm]?js$/.exec(specifier)?.[0];
    if (extension && specifier.startsWith('.') && IN_TYPESCRIPT.test(context.parentURL ?? '')) {
      try {
        return nextResolve(specifier.slice(0, -extension.length) + TYPESCRIPT_TWIN[extension], context);
      } catch (error) {
        // not there: the specifier names a JavaScript file after all (ESM's code, then require's)
        if (error?.code !== 'ERR_MODULE_NOT_FOUND' && error?.code !== 'MODULE_NOT_FOUND') throw error;
      }
    }
    return nextResolve(specifier, context);
  },
});
