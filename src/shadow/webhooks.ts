/**
 * The webhook half of the drift report (docs/drift.md, "Webhooks"): the deliveries the upstream
 * made to the shadow's receiver and the ones obsim made for the same flow, per registration,
 * paired and compared.
 *
 * Pairing, in one pass over each side (linear in the deliveries): an obsim delivery is paired with
 * the upstream delivery of the same event for the same resource (paymentId, merchantId, … through
 * the id map); what is left is paired by resource alone (an event renamed). Each pair teaches the
 * id map its two event ids (X-Webhook-Id). Then, for each registration:
 * - obsim sent, the upstream did not (once the wait has passed): `event_missing`;
 * - the upstream sent, obsim did not (a second copy, an event obsim does not know): `event_extra`;
 * - the pairs' upstream deliveries in another order than obsim's: `event_order`;
 * - an upstream delivery later than obsim's by more than the late limit: `event_late`;
 * - the envelopes differ (ids mapped, instants by shape): `event_payload` at pointers into the envelope;
 * - a signature that does not verify with the secret its registration answered: `event_signature`.
 */
import { compareJson, type CompareContext, type Drift, type Verdict } from '../domain/drift.js';
import { sign } from '../webhooks/sign.js';

export interface CapturedDelivery {
  side: 'upstream' | 'obsim';
  /** The shadow's registration (the unguessable token of its receiver path). */
  hook: string;
  /** Arrival, wall clock ms. */
  at: number;
  body: string;
  headers: Record<string, string>;
  /** The exchange that caused it, where the trace tells. */
  exchange: number | null;
  /** The trace id of its traceparent: obsim's names the replay that caused it, another obsim upstream's the request. */
  trace?: string;
}

export interface Registration {
  hook: string;
  /** The partner's own URL, where upstream deliveries are forwarded. */
  partnerUrl: string;
  upstreamSecret?: string;
  obsimSecret?: string;
}

export interface WebhookEntry {
  event: string;
  /** The index of the exchange that caused it (null: not known). */
  exchange: number | null;
  hook: string;
  verdict: Verdict;
  reason?: string;
  drifts: Drift[];
  upstream?: { body: string; at: number };
  obsim?: { body: string; at: number };
}

export interface Parsed {
  d: CapturedDelivery;
  event: string;
  resource: string | undefined;
  envelope: unknown;
}

const RESOURCE_KEYS = ['paymentId', 'merchantId', 'requestId', 'consentId', 'webhookId'];

function parse(d: CapturedDelivery): Parsed {
  let envelope: unknown;
  try {
    envelope = JSON.parse(d.body);
  } catch {
    envelope = undefined;
  }
  const e = envelope as { event?: unknown; data?: Record<string, unknown> } | undefined;
  const data = e?.data ?? {};
  const key = RESOURCE_KEYS.find((k) => data[k] !== undefined);
  return {
    d,
    event: typeof e?.event === 'string' ? e.event : (d.headers['x-webhook-event'] ?? 'unknown'),
    resource: key ? `${key}:${String(data[key])}` : undefined,
    envelope,
  };
}

export interface PairingOptions {
  /** Wall-clock ms: a delivery younger than the wait is not judged yet. */
  now: number;
  waitMs: number;
  lateMs: number;
  ctx: CompareContext;
}

/** The upstream's resource id of a delivery, in obsim's terms. */
function inObsimTerms(p: Parsed, ctx: CompareContext): string | undefined {
  if (!p.resource) return undefined;
  const at = p.resource.indexOf(':');
  const key = p.resource.slice(0, at);
  const value = p.resource.slice(at + 1);
  return `${key}:${ctx.mapped(key, value) ?? value}`;
}

/**
 * The pairs of one registration's deliveries, and what is left of each side: keyed lookups, so
 * linear in their number.
 */
export function pairDeliveries(
  ups: readonly Parsed[],
  obs: readonly Parsed[],
  ctx: CompareContext,
): { pairs: [Parsed, Parsed][]; upstreamLeft: Parsed[]; obsimLeft: Parsed[] } {
  const pairs: [Parsed, Parsed][] = [];
  let upLeft = [...ups];
  let obLeft = [...obs];
  for (const key of [
    (p: Parsed, r: string | undefined) => (r === undefined ? undefined : `${p.event} ${r}`),
    (_p: Parsed, r: string | undefined) => r,
  ]) {
    const waiting = new Map<string, Parsed[]>();
    for (const o of obLeft) {
      const k = key(o, o.resource);
      if (k === undefined) continue;
      const list = waiting.get(k);
      if (list) list.push(o);
      else waiting.set(k, [o]);
    }
    const taken = new Set<Parsed>();
    const rest: Parsed[] = [];
    for (const u of upLeft) {
      const k = key(u, inObsimTerms(u, ctx));
      const o = k === undefined ? undefined : waiting.get(k)?.shift();
      if (o) {
        pairs.push([u, o]);
        taken.add(o);
      } else rest.push(u);
    }
    upLeft = rest;
    obLeft = obLeft.filter((o) => !taken.has(o));
  }
  return { pairs, upstreamLeft: upLeft, obsimLeft: obLeft };
}

/** The deliveries of each side per registration, parsed once. */
export function byRegistration(deliveries: readonly CapturedDelivery[]): Map<string, { ups: Parsed[]; obs: Parsed[] }> {
  const out = new Map<string, { ups: Parsed[]; obs: Parsed[] }>();
  for (const d of deliveries) {
    let side = out.get(d.hook);
    if (!side) out.set(d.hook, (side = { ups: [], obs: [] }));
    (d.side === 'upstream' ? side.ups : side.obs).push(parse(d));
  }
  return out;
}

/** The webhook entries of the report, and how many deliveries still wait for their pair. */
export function compareWebhooks(
  deliveries: readonly CapturedDelivery[],
  registrations: ReadonlyMap<string, Registration>,
  { now, waitMs, lateMs, ctx }: PairingOptions,
): { entries: WebhookEntry[]; waiting: number } {
  const entries: WebhookEntry[] = [];
  let waiting = 0;
  const sides = byRegistration(deliveries);
  for (const [hook, reg] of registrations) {
    const { ups, obs } = sides.get(hook) ?? { ups: [], obs: [] };
    const { pairs, upstreamLeft, obsimLeft } = pairDeliveries(ups, obs, ctx);
    pairs.sort((a, b) => a[1].d.at - b[1].d.at);
    // the upstream's order of the paired deliveries against obsim's
    let lastUpAt = -Infinity;
    for (const [u, o] of pairs) {
      const drifts: Drift[] = [];
      if (u.envelope === undefined) {
        entries.push({
          ...entryBase(o, hook),
          verdict: 'uncomparable',
          reason: "the upstream's delivery is not JSON",
          drifts,
          ...bodies(u, o),
        });
        continue;
      }
      for (const d of compareJson(u.envelope, o.envelope, ctx)) drifts.push({ ...d, kind: 'event_payload', ...detail(d) });
      if (u.d.at < lastUpAt)
        drifts.push({ kind: 'event_order', pointer: '', upstream: 'earlier than the delivery before it', obsim: 'in order' });
      lastUpAt = Math.max(lastUpAt, u.d.at);
      if (u.d.at - o.d.at > lateMs)
        drifts.push({ kind: 'event_late', pointer: '', upstream: `${u.d.at - o.d.at} ms after obsim's`, obsim: 0 });
      const sig = u.d.headers['x-webhook-signature'];
      if (reg.upstreamSecret !== undefined && sig !== sign(reg.upstreamSecret, u.d.body)) {
        drifts.push({ kind: 'event_signature', pointer: 'x-webhook-signature', upstream: sig ?? null, obsim: 'verifies' });
      }
      entries.push({ ...entryBase(o, hook), verdict: drifts.length ? 'drift' : 'match', drifts, ...bodies(u, o) });
    }
    for (const o of obsimLeft) {
      if (now - o.d.at < waitMs) {
        waiting++;
        continue;
      }
      entries.push({
        ...entryBase(o, hook),
        verdict: 'drift',
        drifts: [{ kind: 'event_missing', pointer: '', obsim: o.event }],
        obsim: { body: o.d.body, at: o.d.at },
      });
    }
    for (const u of upstreamLeft) {
      if (now - u.d.at < waitMs) {
        waiting++;
        continue;
      }
      entries.push({
        event: u.event,
        exchange: u.d.exchange,
        hook,
        verdict: 'drift',
        drifts: [{ kind: 'event_extra', pointer: '', upstream: u.event }],
        upstream: { body: u.d.body, at: u.d.at },
      });
    }
  }
  entries.sort((a, b) => (a.obsim?.at ?? a.upstream?.at ?? 0) - (b.obsim?.at ?? b.upstream?.at ?? 0));
  return { entries, waiting };
}

const entryBase = (o: Parsed, hook: string) => ({ event: o.event, exchange: o.d.exchange, hook });
const bodies = (u: Parsed, o: Parsed) => ({ upstream: { body: u.d.body, at: u.d.at }, obsim: { body: o.d.body, at: o.d.at } });
/** A payload drift keeps what kind of difference it is in its detail. */
const detail = (d: Drift) => ({ detail: d.kind });
