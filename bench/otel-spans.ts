/**
 * `npm run bench:otel-spans` — what the OpenTelemetry JS SDK itself costs per span, outside obsim:
 * the floor under obsim's own cost of exporting spans (docs/performance.md, "Metrics, traces and
 * transitions"). One span like obsim's request span (a name, four attributes) started and ended
 * N times in batches of 500 through the BatchSpanProcessor obsim uses, exported:
 *
 *   - nowhere (an exporter that drops the batch): making and batching the span;
 *   - serialized only (OTLP JSON, and protobuf for comparison): + the encoding;
 *   - to an OTLP/HTTP receiver in a child process on the other core (JSON, as obsim sends).
 *
 * Pinned to core 0 like `npm run bench` (the receiver to core 1); prints the median over
 * --rounds (default 5) of this process's CPU per span. options: --spans N (default 100000)
 */
import { fork, spawnSync } from 'node:child_process';
import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { pinSelf, LOAD_CORE, PINNED, SERVER_CORE } from './lib/proc.js';
import { median, round } from './lib/stats.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
};

// the receiver: a child process answering every export 200, on the load core
if (process.env.OTEL_SPANS_RECEIVER) {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  server.listen(0, '127.0.0.1', () => process.send?.((server.address() as { port: number }).port));
  process.on('disconnect', () => process.exit(0));
} else {
  const SPANS = Number(option('spans', '100000'));
  const ROUNDS = Number(option('rounds', '5'));
  pinSelf(SERVER_CORE);

  const receiver = fork(new URL(import.meta.url).pathname, [], {
    env: { ...process.env, OTEL_SPANS_RECEIVER: '1' },
    execArgv: process.execArgv,
  });
  const port = await new Promise<number>((resolve) => receiver.once('message', (m) => resolve(Number(m))));
  if (PINNED && receiver.pid) spawnSync('taskset', ['-a', '-p', '-c', String(LOAD_CORE), String(receiver.pid)], { stdio: 'ignore' });

  const serializing = (serialize: (spans: ReadableSpan[]) => Uint8Array | undefined): SpanExporter => ({
    export(spans, done) {
      serialize(spans);
      done({ code: 0 }); // ExportResultCode.SUCCESS
    },
    shutdown: async () => undefined,
  });
  const exporters: Record<string, () => SpanExporter> = {
    'made and batched, not exported': () => serializing(() => undefined),
    'serialized, OTLP JSON': () => serializing((s) => JsonTraceSerializer.serializeRequest(s)),
    'serialized, OTLP protobuf': () => serializing((s) => ProtobufTraceSerializer.serializeRequest(s)),
    'exported, OTLP/HTTP JSON to a receiver': () => new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` }),
  };

  async function round1(makeExporter: () => SpanExporter): Promise<number> {
    const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(makeExporter())] });
    const tracer = provider.getTracer('obsim', 'bench');
    const began = process.cpuUsage();
    for (let i = 0; i < SPANS; i += 500) {
      for (let j = 0; j < 500; j++) {
        const span = tracer.startSpan('GET', { kind: SpanKind.SERVER, attributes: { 'http.request.method': 'GET' } }, ROOT_CONTEXT);
        span.updateName('GET /v1/partner/payments/:paymentId/status');
        span.setAttributes({
          'http.response.status_code': 200,
          'http.route': '/v1/partner/payments/:paymentId/status',
          'obsim.operation': 'getPaymentStatus',
        });
        span.end();
      }
      await provider.forceFlush();
    }
    const used = process.cpuUsage(began);
    await provider.shutdown();
    return (used.user + used.system) / SPANS;
  }

  console.log(`${SPANS} spans a round, ${ROUNDS} rounds, Node ${process.version}; CPU of this process per span (median):`);
  for (const [label, make] of Object.entries(exporters)) {
    const perSpan: number[] = [];
    for (let r = 0; r < ROUNDS; r++) perSpan.push(await round1(make));
    console.log(`  ${label}: ${round(median(perSpan), 2)} µs`);
  }
  receiver.disconnect();
}
