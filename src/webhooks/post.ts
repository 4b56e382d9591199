/**
 * One webhook delivery on the wire, exactly as production sends it: the POST, its headers, the one
 * time limit on the whole exchange and the outcome names of the delivery log. The delivery worker
 * sends every outbox row through it and `obsim check-receiver` its battery, so what the checker
 * tests is what obsim sends.
 */
import { performance } from 'node:perf_hooks';
import type { Agent } from 'undici';
import { lazyRequire } from '../lazy.js';

/** Contract: the receiver answers within 10 seconds. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Bytes of a response body read (and discarded) before the connection is dropped. */
export const RESPONSE_DUMP_LIMIT = 64 * 1024;
export const USER_AGENT = 'obsim-webhooks/1';

/** undici is loaded with the first delivery (start-up time). */
const undici = lazyRequire<typeof import('undici')>('undici');

export type DeliveryOutcome = 'delivered' | 'timeout' | 'connection_refused' | 'connection_reset' | 'non_2xx' | 'redirect' | 'error';

export interface PostResult {
  /** `aborted`: the caller's own signal ended it (obsim stopping), not the receiver. */
  outcome: DeliveryOutcome | 'aborted';
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface WebhookRequest {
  url: string;
  /** The exact bytes that were signed. */
  body: string;
  /** X-Webhook-Id: the event id, the same on every redelivery. */
  eventId: string;
  /** X-Webhook-Signature; omitted when undefined (the checker's "missing signature" case). */
  signature: string | undefined;
  /** W3C traceparent: the attempt's span, so the receiver can continue the trace (docs/operations.md). */
  traceparent?: string;
  /** W3C tracestate: the one the causing request carried, passed on unchanged. */
  tracestate?: string;
}

/** A plain Agent: no redirect interceptor, so a 3xx comes back as it is (redirects are not followed). */
export function deliveryAgent(): Agent {
  return new (undici().Agent)({ keepAliveTimeout: 1_000, keepAliveMaxTimeout: 5_000 });
}

export async function postWebhook(
  request: WebhookRequest,
  options: { dispatcher: Agent; timeoutMs?: number; signal?: AbortSignal },
): Promise<PostResult> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const began = performance.now();
  const result = await exchange(request, timeoutMs, options);
  return { ...result, durationMs: Math.round(performance.now() - began) };
}

/** The headers of a delivery, as sent (the console shows them from here). */
export function webhookHeaders(
  eventId: string,
  signature: string | undefined | null,
  traceparent?: string | null,
  tracestate?: string | null,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    ...(signature === undefined || signature === null ? {} : { 'x-webhook-signature': signature }),
    'x-webhook-id': eventId,
    'user-agent': USER_AGENT,
    ...(traceparent ? { traceparent } : {}),
    ...(traceparent && tracestate ? { tracestate } : {}),
  };
}

async function exchange(
  request: WebhookRequest,
  timeoutMs: number,
  options: { dispatcher: Agent; signal?: AbortSignal },
): Promise<Omit<PostResult, 'durationMs'>> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const timedOut = { outcome: 'timeout', statusCode: null, error: `no complete answer within ${timeoutMs} ms` } as const;
  try {
    const res = await undici().request(request.url, {
      method: 'POST',
      dispatcher: options.dispatcher,
      signal,
      headers: webhookHeaders(request.eventId, request.signature, request.traceparent, request.tracestate),
      body: request.body,
    });
    // always consume (up to a cap) or cancel the body; the same signal bounds the whole exchange
    await res.body.dump({ limit: RESPONSE_DUMP_LIMIT, signal }).catch(() => undefined);
    if (timeout.aborted) return timedOut;
    const status = res.statusCode;
    if (status >= 200 && status < 300) return { outcome: 'delivered', statusCode: status, error: null };
    if (status >= 300 && status < 400) {
      const location = res.headers.location;
      return { outcome: 'redirect', statusCode: status, error: `redirect to ${String(location ?? '(no Location)')} not followed` };
    }
    return { outcome: 'non_2xx', statusCode: status, error: `receiver answered ${status}` };
  } catch (err) {
    if (timeout.aborted) return timedOut;
    if (options.signal?.aborted) return { outcome: 'aborted', statusCode: null, error: 'obsim stopped' };
    return classify(err);
  }
}

function classify(err: unknown): { outcome: DeliveryOutcome; statusCode: null; error: string } {
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e?.code ?? e?.cause?.code;
  const message = `${code ? `${code}: ` : ''}${e?.message ?? String(err)}`;
  if (code === 'ECONNREFUSED') return { outcome: 'connection_refused', statusCode: null, error: message };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return { outcome: 'connection_reset', statusCode: null, error: message };
  return { outcome: 'error', statusCode: null, error: message };
}
