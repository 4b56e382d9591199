/**
 * Trace context on every request (docs/operations.md, "Traces"): a W3C `traceparent` the request
 * carries is continued (with its `tracestate`, passed on unchanged), a request without one starts a trace of its own; either way the request
 * gets a span of its own (`request.trace`), its answer carries it as `traceparent`, and every
 * change it makes records it (src/domain/transitions.ts), so the webhooks the change causes,
 * however much later, continue the same trace.
 *
 * Spans are exported only when OTEL_EXPORTER_OTLP_ENDPOINT is set (src/telemetry/otel.ts, loaded
 * then and only then); without it this costs a header read, two ids and a header written.
 *
 * `causeOf(request, kind, name)` is what a route gives the engine with a change: the request's id
 * and span, and what it was. The web console's actions and a caller that names its own purpose
 * with `X-Obsim-Cause` (the scenario runner's steps, personas) are told apart from a plain call.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { childContext, formatTraceparent, parseTraceContext, type TraceContext } from '../domain/trace-context.js';
import { CAUSE_KINDS, type Cause, type CauseKind } from '../domain/transitions.js';
import { createTelemetry, type RequestSpan, type Telemetry } from '../telemetry/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Spans (exported when OTEL_EXPORTER_OTLP_ENDPOINT is set; ids only otherwise). */
    telemetry: Telemetry;
  }
  interface FastifyRequest {
    /** This request's span: its trace id and span id (the parent of what it causes). */
    trace: TraceContext;
    /** The request's exported span (only while spans are exported). */
    span: RequestSpan | undefined;
  }
}

/** `X-Obsim-Cause: <kind>: <name>`, e.g. `scenario_step: payment-paid #4 control`. */
export const CAUSE_HEADER = 'x-obsim-cause';
const NAMED_CAUSE = /^([a-z_]+):\s*(.{1,200})$/;
const NAMEABLE: ReadonlySet<CauseKind> = new Set(['scenario_step', 'persona', 'console']);

/** The cause of a change `request` makes: `kind` and `name` as the route sees them, unless the caller named its own. */
export function causeOf(request: FastifyRequest, kind: CauseKind, name: string): Cause {
  const base = { requestId: request.id, trace: request.trace };
  const named = request.headers[CAUSE_HEADER];
  const m = typeof named === 'string' ? NAMED_CAUSE.exec(named) : null;
  if (m && NAMEABLE.has(m[1] as CauseKind) && (CAUSE_KINDS as readonly string[]).includes(m[1])) {
    return { kind: m[1] as CauseKind, name: m[2], ...base };
  }
  // the console calls the control API with this header on its actions (src/routes/console/api.ts)
  if (request.headers['x-obsim-console'] === 'action') return { kind: 'console', name, ...base };
  return { kind, name, ...base };
}

/** The request's route and its operationId (routeOptions is a getter that builds its object at each read: read it once). */
function routeOf(request: FastifyRequest): { operation: string; route: string | undefined } {
  const { schema, url } = request.routeOptions;
  return { operation: schema?.operationId ?? url ?? 'unknown', route: url };
}

/** The request's operationId (its route's), the name of a change made by a provider API call. */
export const operationOf = (request: FastifyRequest): string => routeOf(request).operation;

export const tracingPlugin = fp(
  async (app: FastifyInstance, opts: { telemetry?: Telemetry }) => {
    const telemetry = opts.telemetry ?? (await createTelemetry());
    app.decorate('telemetry', telemetry);
    app.decorateRequest('trace', undefined as unknown as TraceContext);
    app.decorateRequest('span', undefined);
    app.addHook('onClose', async () => {
      // spans are a diagnostic: a collector that cannot take the last of them does not fail the close
      await telemetry.shutdown().catch((err: unknown) => app.log.warn({ err }, 'the last spans were not exported'));
    });
    if (telemetry.exporting) {
      app.addHook('onRequest', (request, _reply, done) => {
        request.span = telemetry.startRequest(parseTraceContext(request.headers.traceparent, request.headers.tracestate), request.method);
        request.trace = request.span.context;
        done();
      });
      app.addHook('onResponse', (request, reply, done) => {
        request.span?.end({ statusCode: reply.statusCode, ...routeOf(request) });
        done();
      });
    } else {
      app.addHook('onRequest', (request, _reply, done) => {
        request.trace = childContext(parseTraceContext(request.headers.traceparent, request.headers.tracestate));
        done();
      });
    }
    app.addHook('onSend', (request, reply, payload, done) => {
      // a request refused before its onRequest hook ran (a malformed URL) still gets a trace
      request.trace ??= childContext(undefined);
      void reply.header('traceparent', formatTraceparent(request.trace));
      if (request.trace.state) void reply.header('tracestate', request.trace.state);
      done(null, payload);
    });
  },
  { name: 'obsim-tracing' },
);
