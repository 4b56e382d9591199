/**
 * Request validators and response serializers compiled at build time.
 *
 * Compiling ~30 Ajv validators and ~30 fast-json-stringify serializers was about a third of
 * `obsim serve`'s start-up. `npm run build` therefore runs src/precompile.ts, which builds the app
 * in every configuration that changes compiled code while RECORDING each validator and serializer
 * as standalone source (Ajv `standaloneCode`, fast-json-stringify `mode: 'standalone'`), and writes
 * them to dist/compiled/schemas.cjs. At start, the compilers (src/compilers/validation.ts,
 * src/compilers/serializers.ts) take a compiled function from that file when its key matches and
 * compile as before otherwise.
 *
 * A key is a hash of everything the compiled code depends on: the kind, the compiler options, the
 * schema and (serializers) the external schemas it reaches. A changed schema or option therefore
 * never picks up stale code: it misses and is compiled at start.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export type PrecompiledKind = 'validators' | 'serializers';

/** Where `npm run build` writes the compiled code: dist/compiled/schemas.cjs next to dist/src. */
export const DEFAULT_PRECOMPILED_FILE = fileURLToPath(new URL('../../compiled/schemas.cjs', import.meta.url));
/**
 * Run from the sources (tsx: the tests, `npm run dev`), the checkout's last build is read instead:
 * its keys hash everything a function depends on, so a schema changed since that build misses and
 * is compiled as before, and the rest start without compiling.
 */
const BUILT_FILE_FROM_SOURCES = fileURLToPath(new URL('../../dist/compiled/schemas.cjs', import.meta.url));

export function precompiledKey(kind: PrecompiledKind, ...parts: unknown[]): string {
  return createHash('sha256').update(kind).update(JSON.stringify(parts)).digest('base64url').slice(0, 32);
}

type Factory = (module: { exports: unknown }, exports: unknown, require: NodeJS.Require) => void;
interface PrecompiledFile {
  validators: Record<string, Factory>;
  serializers: Record<string, Factory>;
}

const ownRequire = createRequire(import.meta.url);
// fast-json-stringify as Fastify itself resolves it (the exact version its serializers use)
const fastifyRequire = createRequire(ownRequire.resolve('fastify'));

let file: string | undefined = existsSync(DEFAULT_PRECOMPILED_FILE) ? DEFAULT_PRECOMPILED_FILE : BUILT_FILE_FROM_SOURCES;
let loaded: PrecompiledFile | null | undefined;
const stats = { hits: 0, misses: 0 };
let generation = 0;

/** Changes whenever the compiled code's source changes (usePrecompiledFile): caches of compiled functions start again. */
export function compiledGeneration(): number {
  return generation;
}

/**
 * Functions compiled in this process, by key: a second app built in the same process (a test
 * suite's `startObsim()` per file, `obsim cluster`'s tests, the scenario runner's in-process
 * server) takes them instead of compiling the same schemas again. A compiled validator or
 * serializer is a pure function of what its key hashes, so sharing it is sharing a constant.
 */
const compiledHere: Record<PrecompiledKind, Map<string, unknown>> = { validators: new Map(), serializers: new Map() };

/** Use another file (tests), or none (`undefined`); what this process compiled so far is forgotten. */
export function usePrecompiledFile(path: string | undefined): void {
  file = path;
  loaded = undefined;
  generation++;
  compiledHere.validators.clear();
  compiledHere.serializers.clear();
}

/** Hits and misses since start (tests: a built server finds every key). */
export function precompiledStats(): { hits: number; misses: number } {
  return { ...stats };
}

/**
 * The function for `key`: from the build's file, else compiled earlier in this process, else
 * compiled now by `compile` (and kept for the next app). While recording, always compiled (the
 * recorder needs the compiler's own output).
 */
export function compiledOnce<T>(kind: PrecompiledKind, key: string, compile: () => T): T {
  if (recorder) return compile();
  const ready = (compiledHere[kind].get(key) as T | undefined) ?? takePrecompiled<T>(kind, key);
  if (ready !== undefined) {
    compiledHere[kind].set(key, ready);
    return ready;
  }
  const fresh = compile();
  compiledHere[kind].set(key, fresh);
  return fresh;
}

/** The compiled function for `key`, or undefined (no file, or not in it). */
function takePrecompiled<T>(kind: PrecompiledKind, key: string): T | undefined {
  if (loaded === undefined) loaded = file && existsSync(file) ? (ownRequire(file) as PrecompiledFile) : null;
  const factory = loaded?.[kind][key];
  if (!factory) {
    if (loaded) stats.misses++;
    return undefined;
  }
  stats.hits++;
  const module = { exports: {} as unknown };
  factory(module, module.exports, kind === 'serializers' ? fastifyRequire : ownRequire);
  return module.exports as T;
}

// ---------------------------------------------------------------- recording (build time only)

let recorder: Record<PrecompiledKind, Map<string, string>> | undefined;

/** Start recording standalone sources (src/precompile.ts); the compilers then emit source too. */
export function startRecording(): void {
  recorder = { validators: new Map(), serializers: new Map() };
}

/** Stop recording (the compilers of apps built afterwards use the file again). */
export function stopRecording(): void {
  recorder = undefined;
}

export function isRecording(): boolean {
  return recorder !== undefined;
}

export function record(kind: PrecompiledKind, key: string, source: string): void {
  recorder?.[kind].set(key, source);
}

/** The recorded sources as one CommonJS module of factories. */
export function recordedModule(): string {
  if (!recorder) throw new Error('not recording');
  const section = (kind: PrecompiledKind) =>
    [...recorder![kind]]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, source]) => `  ${JSON.stringify(key)}: function (module, exports, require) {\n${source}\n  },`)
      .join('\n');
  return [
    '// Generated by `npm run build` (src/precompile.ts): standalone request validators and response',
    '// serializers, keyed by src/compilers/precompiled.ts precompiledKey(). Do not edit.',
    "'use strict';",
    // generated code is not ours to cover: the routes' tests exercise these schemas; without the
    // markers its 7,000 lines would count in `npm test`'s coverage whenever a test loads dist/
    '/* c8 ignore start */',
    `exports.validators = {\n${section('validators')}\n};`,
    `exports.serializers = {\n${section('serializers')}\n};`,
    '/* c8 ignore stop */',
    '',
  ].join('\n');
}

export function recordedCounts(): Record<PrecompiledKind, number> {
  return { validators: recorder?.validators.size ?? 0, serializers: recorder?.serializers.size ?? 0 };
}
