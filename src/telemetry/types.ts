/**
 * What the request path, the engine and the webhook worker ask of spans (src/telemetry): the
 * interface both implementations share, ids only (./index.ts) and OpenTelemetry's (./otel.ts).
 */
import type { TraceContext } from '../domain/trace-context.js';
import type { TransitionResource } from '../domain/transitions.js';

export interface RequestSpan {
  context: TraceContext;
  end(attributes: { statusCode: number; operation: string; route: string | undefined }): void;
}

export interface DeliverySpan {
  /** What the delivery sends as its traceparent: this attempt's span. */
  context: TraceContext;
  /** `outcome` as the delivery log names it (delivered, non_2xx, timeout, …); `fault` the chaos fault's kind. */
  end(attributes: { outcome: string; statusCode: number | null; fault: string | null; error: string | null }): void;
}

export interface TransitionSpanInput {
  resource: TransitionResource;
  resourceId: string;
  from: string | null;
  to: string;
  reason?: string | null;
  causeKind: string;
  causeName: string;
  /** The span the transition belongs to (the request's, or the change that scheduled a timer). */
  parent: TraceContext | undefined;
  /** The sandbox's clock instant of the change (attribute; the span itself is in real time). */
  at: string;
}

export interface Telemetry {
  /** Spans are exported (OpenTelemetry is loaded). */
  readonly exporting: boolean;
  startRequest(parent: TraceContext | undefined, method: string): RequestSpan;
  transition(input: TransitionSpanInput): void;
  startDelivery(
    parent: TraceContext | undefined,
    attributes: { event: string; url: string; deliveryId: number; redeliveryOf: number | null },
  ): DeliverySpan;
  /** Export what is buffered and stop. */
  shutdown(): Promise<void>;
}
