/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` header every request
 * may carry and every answer and webhook delivery of obsim carries, whether or not spans are
 * exported (docs/operations.md). A request without one starts a trace of its own, so a partner can
 * always find a request's trace, and a receiver can always continue a delivery's.
 *
 *   traceparent: 00-<32 hex trace id>-<16 hex parent span id>-<2 hex flags>
 *   tracestate:  vendor=value,other@tenant=value   (optional; carried along unchanged)
 *
 * When OpenTelemetry is on (OTEL_EXPORTER_OTLP_ENDPOINT), its SDK makes the spans and their ids;
 * this module is what obsim needs without it: reading and writing the header, and new ids.
 */
import { randomBytes } from 'node:crypto';

export interface TraceContext {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** 16 lowercase hex digits, not all zero: the span this context names (the parent of what follows). */
  spanId: string;
  /** Trace flags: bit 0 is "sampled". */
  flags: number;
  /**
   * The caller's `tracestate` (its vendors' entries), valid and normalised: obsim adds no entry
   * of its own and passes it on with the trace, to the answer and to every delivery it causes.
   */
  state?: string;
}

/** A trace context as the store keeps it with an event or a timer: the two headers' values. */
export interface TraceHeaders {
  traceparent: string;
  tracestate: string | null;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/**
 * The context a `traceparent` header names, or undefined when it is absent or not valid (the
 * specification's rule: a header that cannot be parsed is ignored and a new trace starts).
 */
export function parseTraceparent(header: string | string[] | undefined): TraceContext | undefined {
  if (typeof header !== 'string' || header.length > 512) return undefined;
  const m = TRACEPARENT.exec(header.trim());
  if (!m) return undefined;
  const [, version, traceId, spanId, flags, rest] = m;
  // version ff is forbidden; version 00 has exactly four fields; later versions may append more
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId, spanId, flags: parseInt(flags, 16) };
}

// the specification's list-member grammar (https://www.w3.org/TR/trace-context/#tracestate-header)
const TRACESTATE_MEMBER =
  /^(?:[a-z][_0-9a-z\-*/]{0,255}|[a-z0-9][_0-9a-z\-*/]{0,240}@[a-z][_0-9a-z\-*/]{0,13})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
const TRACESTATE_MAX_MEMBERS = 32;
/** Longer than a propagator must pass on (512 characters); kept whole or not at all. */
const TRACESTATE_MAX_LENGTH = 512;

/**
 * The `tracestate` header's value, normalised (`a=1,b=2`), or undefined when it is absent or not
 * valid: the specification's rule is to discard an invalid tracestate and keep the traceparent.
 * Several headers are one list, in order.
 */
export function parseTracestate(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const joined = Array.isArray(header) ? header.join(',') : header;
  if (joined.length > TRACESTATE_MAX_LENGTH * 2) return undefined;
  const members = joined
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  if (members.length === 0 || members.length > TRACESTATE_MAX_MEMBERS) return undefined;
  const keys = new Set<string>();
  for (const member of members) {
    if (!TRACESTATE_MEMBER.test(member)) return undefined;
    const key = member.slice(0, member.indexOf('='));
    if (keys.has(key)) return undefined;
    keys.add(key);
  }
  const state = members.join(',');
  return state.length > TRACESTATE_MAX_LENGTH ? undefined : state;
}

/** The context a request's (or a stored) `traceparent` and `tracestate` name; no traceparent, no context. */
export function parseTraceContext(
  traceparent: string | string[] | null | undefined,
  tracestate: string | string[] | null | undefined,
): TraceContext | undefined {
  const context = parseTraceparent(traceparent ?? undefined);
  if (!context) return undefined;
  const state = parseTracestate(tracestate ?? undefined);
  return state ? { ...context, state } : context;
}

/** The headers (or stored values) naming `context`. */
export function traceHeaders(context: TraceContext): TraceHeaders {
  return { traceparent: formatTraceparent(context), tracestate: context.state ?? null };
}

/** The `traceparent` header naming `context` (version 00). */
export function formatTraceparent(context: TraceContext): string {
  return `00-${context.traceId}-${context.spanId}-${(context.flags & 0xff).toString(16).padStart(2, '0')}`;
}

// random hex cut from a pool made 4 KiB at a time: one randomBytes call per id was a visible cost
// on the request path (as for request ids, src/plugins/request-id.ts)
let pool = '';
let offset = 0;
function randomHex(digits: number): string {
  if (offset + digits > pool.length) {
    pool = randomBytes(4096).toString('hex');
    offset = 0;
  }
  offset += digits;
  const hex = pool.slice(offset - digits, offset);
  // an all-zero id is invalid; 16 random hex digits are zero once in 2^64 draws
  return /^0+$/.test(hex) ? randomHex(digits) : hex;
}

export const newTraceId = (): string => randomHex(32);
export const newSpanId = (): string => randomHex(16);

/** A new span in `parent`'s trace, with its tracestate (or the first span of a new, sampled trace). */
export function childContext(parent: TraceContext | undefined): TraceContext {
  if (!parent) return { traceId: newTraceId(), spanId: newSpanId(), flags: 1 };
  const child: TraceContext = { traceId: parent.traceId, spanId: newSpanId(), flags: parent.flags };
  if (parent.state) child.state = parent.state;
  return child;
}
