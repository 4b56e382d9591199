/**
 * Spans with the OpenTelemetry JS SDK, exported over OTLP/HTTP: loaded only when
 * OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set (./index.ts). The
 * SDK reads the other standard variables itself: OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES,
 * OTEL_TRACES_SAMPLER(_ARG) (default: parent-based, always on), OTEL_BSP_* for the batch, and
 * OTEL_EXPORTER_OTLP_(TRACES_)HEADERS / _TIMEOUT for the exporter (JSON over HTTP).
 *
 * The spans:
 * - `GET /v1/partner/payments/{paymentId}/status` (server): one per request, the child of the
 *   caller's `traceparent` when it sent one;
 * - `transition payment pending -> paid` (internal): one per state change, the child of the
 *   request that made it, or, for a timer, of the change that scheduled it;
 * - `webhook payment.completed` (client): one per delivery attempt, the child of the change that
 *   emitted the event; its context is the `traceparent` the attempt sends.
 */
import { context, createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { redactUrl } from '../domain/redaction.js';
import type { TraceContext } from '../domain/trace-context.js';
import { packageVersion } from '../package-root.js';
import type { Telemetry } from './types.js';

/** How long shutdown waits for the last spans to reach the collector. */
const SHUTDOWN_FLUSH_MS = 2000;

const contextOf = (span: Span): TraceContext => {
  const c = span.spanContext();
  const state = c.traceState?.serialize();
  return { traceId: c.traceId, spanId: c.spanId, flags: c.traceFlags, ...(state ? { state } : {}) };
};

/** The context a span is started in: its parent's, or a new trace's root. */
function parentContext(parent: TraceContext | undefined): Context {
  if (!parent) return ROOT_CONTEXT;
  return trace.setSpanContext(context.active(), {
    traceId: parent.traceId,
    spanId: parent.spanId,
    traceFlags: parent.flags,
    isRemote: true,
    ...(parent.state ? { traceState: createTraceState(parent.state) } : {}),
  });
}

export function otelTelemetry(env: NodeJS.ProcessEnv): Telemetry {
  const version = packageVersion();
  const resource = defaultResource()
    .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: env.OTEL_SERVICE_NAME?.trim() || 'obsim', [ATTR_SERVICE_VERSION]: version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  const tracer = provider.getTracer('obsim', version);

  return {
    exporting: true,
    startRequest(parent, method) {
      const span = tracer.startSpan(
        method,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } },
        parentContext(parent),
      );
      return {
        context: contextOf(span),
        end({ statusCode, operation, route }) {
          if (route) span.updateName(`${method} ${route}`);
          span.setAttributes({
            'http.response.status_code': statusCode,
            ...(route ? { 'http.route': route } : {}),
            'obsim.operation': operation,
          });
          if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    transition(t) {
      const span = tracer.startSpan(
        `transition ${t.resource} ${t.from ?? 'created'} -> ${t.to}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: {
            'obsim.resource': t.resource,
            'obsim.resource.id': t.resourceId,
            'obsim.transition.from': t.from ?? 'created',
            'obsim.transition.to': t.to,
            ...(t.reason ? { 'obsim.transition.reason': t.reason } : {}),
            'obsim.cause.kind': t.causeKind,
            'obsim.cause.name': t.causeName,
            'obsim.sandbox_clock': t.at,
          },
        },
        parentContext(t.parent),
      );
      span.end();
    },
    startDelivery(parent, attributes) {
      const span = tracer.startSpan(
        `webhook ${attributes.event}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'http.request.method': 'POST',
            'url.full': redactUrl(attributes.url),
            'obsim.webhook.event': attributes.event,
            'obsim.delivery.id': attributes.deliveryId,
            ...(attributes.redeliveryOf !== null ? { 'obsim.delivery.redelivery_of': attributes.redeliveryOf } : {}),
          },
        },
        parentContext(parent),
      );
      return {
        context: contextOf(span),
        end({ outcome, statusCode, fault, error }) {
          span.setAttributes({
            'obsim.delivery.outcome': outcome,
            ...(statusCode !== null ? { 'http.response.status_code': statusCode } : {}),
            ...(fault ? { 'obsim.chaos.fault': fault } : {}),
          });
          if (outcome !== 'delivered') span.setStatus({ code: SpanStatusCode.ERROR, ...(error ? { message: error } : {}) });
          span.end();
        },
      };
    },
    // the spans still buffered go out at shutdown, but an unreachable collector (the exporter
    // retries with backoff for up to OTEL_EXPORTER_OTLP_TIMEOUT, 10 s) must not hold the process
    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`spans not exported within ${SHUTDOWN_FLUSH_MS} ms of shutdown`)), SHUTDOWN_FLUSH_MS);
        timer.unref();
      });
      try {
        await Promise.race([provider.shutdown(), gaveUp]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
