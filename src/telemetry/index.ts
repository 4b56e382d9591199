/**
 * Spans (docs/operations.md, "Traces"): one per request, one per transition it causes, one per
 * webhook delivery attempt, all in the trace the request carried or started. The trace context
 * itself (ids, the `traceparent` header) is always there (src/plugins/tracing.ts); spans are made
 * and exported only when OpenTelemetry's standard OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, by the OpenTelemetry JS SDK loaded then
 * (./otel.ts). Without it nothing of OpenTelemetry is loaded and these calls only make ids.
 */
import { childContext } from '../domain/trace-context.js';
import type { Telemetry } from './types.js';

export type { DeliverySpan, RequestSpan, Telemetry } from './types.js';

/** No spans: only the ids a trace needs. */
export const idsOnly: Telemetry = {
  exporting: false,
  startRequest: (parent) => ({ context: childContext(parent), end: () => undefined }),
  transition: () => undefined,
  startDelivery: (parent) => ({ context: childContext(parent), end: () => undefined }),
  shutdown: async () => undefined,
};

/** Whether the environment asks for spans to be exported (the OpenTelemetry specification's variables). */
export function exportRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  if ((env.OTEL_TRACES_EXPORTER ?? '').trim().toLowerCase() === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** Spans for this process: exported when the environment asks for it, ids only otherwise. */
export async function createTelemetry(env: NodeJS.ProcessEnv = process.env): Promise<Telemetry> {
  if (!exportRequested(env)) return idsOnly;
  const { otelTelemetry } = await import('./otel.js');
  return otelTelemetry(env);
}
