// The resolve rule test/helpers/typescript.mjs adds to Node's TypeScript support, and the hook
// that applies it through Node's asynchronous customization API (module.register: Node 22.14,
// which has no synchronous hooks). Plain JavaScript: it runs before any TypeScript can.

// what TypeScript maps: `.js` to `.ts`, `.mjs` to `.mts`, `.cjs` to `.cts`
const TYPESCRIPT_TWIN = { '.js': '.ts', '.mjs': '.mts', '.cjs': '.cts' };
// a TypeScript module's URL, a query or fragment after it allowed (a test imports a file again as `…ts?run`)
const IN_TYPESCRIPT = /\.[cm]?ts(?:[?#]|$)/;

/** The TypeScript file a relative specifier in a TypeScript module names (undefined: none). */
export function twinOf(specifier, parentURL) {
  const extension = /\.[cm]?js$/.exec(specifier)?.[0];
  if (!extension || !specifier.startsWith('.') || !IN_TYPESCRIPT.test(parentURL ?? '')) return undefined;
  return specifier.slice(0, -extension.length) + TYPESCRIPT_TWIN[extension];
}

/** Not there: the specifier names a JavaScript file after all (ESM's code, then require's). */
export const notFound = (error) => error?.code === 'ERR_MODULE_NOT_FOUND' || error?.code === 'MODULE_NOT_FOUND';

/** The rule as an asynchronous resolve hook (module.register runs it on a thread of its own). */
export async function resolve(specifier, context, nextResolve) {
  const twin = twinOf(specifier, context.parentURL);
  if (twin) {
    try {
      return await nextResolve(twin, context);
    } catch (error) {
      if (!notFound(error)) throw error;
    }
  }
  return nextResolve(specifier, context);
}
