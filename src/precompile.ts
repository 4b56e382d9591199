/**
 * `npm run build` step: compile every request validator and response serializer the app uses
 * into dist/compiled/schemas.cjs (see src/compilers/precompiled.ts), so `obsim serve` starts
 * without compiling schemas.
 *
 * The app is built (never listened) once per configuration that changes compiled code: lenient
 * and --strict request validation (unknown body properties dropped or rejected), in the sandbox
 * and in production. Anything not recorded here is simply compiled at start, as before.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildApp } from './app.js';
import { DEFAULT_PRECOMPILED_FILE, recordedCounts, recordedModule, startRecording, stopRecording } from './compilers/precompiled.js';

export async function precompile(
  out: string = DEFAULT_PRECOMPILED_FILE,
): Promise<{ file: string; validators: number; serializers: number; bytes: number }> {
  startRecording();
  let source: string;
  let counts: ReturnType<typeof recordedCounts>;
  try {
    for (const environment of ['sandbox', 'production'] as const) {
      for (const strict of [false, true]) {
        const app = await buildApp({ logger: false, config: { db: ':memory:', environment, strict } });
        await app.ready();
        await app.close();
      }
    }
    source = recordedModule();
    counts = recordedCounts();
  } finally {
    stopRecording();
  }
  mkdirSync(dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, source);
  renameSync(tmp, out);
  return { file: out, ...counts, bytes: Buffer.byteLength(source) };
}

// `node dist/src/precompile.js [out]`
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  precompile(process.argv[2]).then(
    (r) =>
      console.log(
        `precompiled ${r.validators} validators and ${r.serializers} serializers -> ${r.file} (${Math.round(r.bytes / 1024)} KB)`,
      ),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
