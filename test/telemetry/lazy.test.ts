/**
 * Spans cost nothing unless asked for (docs/operations.md, "Traces"): `obsim serve` without
 * OTEL_EXPORTER_OTLP_ENDPOINT never loads a module of OpenTelemetry, yet every answer carries a
 * traceparent; with it, the SDK is loaded. Every module the process resolves is recorded by a
 * loader hook (test/helpers/record-imports.mjs).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t, { type Test } from 'tap';
import { startCmd } from '../helpers/process.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(90_000));

const hook = pathToFileURL(join(import.meta.dirname, '..', 'helpers', 'record-imports.mjs')).href;

async function servedImports(t: Test, env: Record<string, string>): Promise<{ modules: string[]; traceparent: string | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-imports-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'imports.txt');
  const server = await startCmd(['node', 'dist/src/bin.js', 'serve'], {
    HOST: '127.0.0.1',
    PORT: '0',
    OBSIM_DB: ':memory:',
    NO_COLOR: '1',
    NODE_OPTIONS: `--import=${hook}`,
    OBSIM_TEST_IMPORTS_FILE: file,
    ...env,
  });
  const res = await fetch(`${server.url}/v1/partner/merchants`, {
    headers: { 'x-partner-client-id': 'sandbox-partner', 'x-partner-client-secret': 'sandbox-secret' },
  });
  await res.text();
  server.child.kill('SIGTERM');
  await server.exited;
  return { modules: readFileSync(file, 'utf8').split('\n').filter(Boolean), traceparent: res.headers.get('traceparent') };
}

t.test('without an OTLP endpoint nothing of OpenTelemetry is loaded; the trace context is still there', async (t) => {
  const off = await servedImports(t, {});
  t.ok(
    off.modules.some((m) => m.includes('fastify')),
    `the hook saw the process load (${off.modules.length} modules)`,
  );
  t.same(
    off.modules.filter((m) => m.includes('@opentelemetry')),
    [],
    'no @opentelemetry module',
  );
  t.match(off.traceparent, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/, 'the answer carries a traceparent all the same');

  const on = await servedImports(t, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_BSP_SCHEDULE_DELAY: '60000' });
  t.ok(
    on.modules.some((m) => m.includes('@opentelemetry/sdk-trace-base')),
    'with OTEL_EXPORTER_OTLP_ENDPOINT the SDK is loaded (the hook can tell)',
  );
});
