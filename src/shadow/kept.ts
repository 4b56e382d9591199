/**
 * What a shadow keeps (docs/drift.md, "Budgets" and "What is redacted"): the exchanges and
 * deliveries, secrets redacted when kept (./capture.ts), the links from trace ids to exchanges,
 * and the counts, each bounded by its share of the byte budget (the oldest go first, and the report
 * says how many); and the report made of them.
 */
import { BASE_VERSION } from '../domain/contract-switches.js';
import type { CompareContext } from '../domain/drift.js';
import { packageVersion } from '../package-root.js';
import { redactBody, redactHeaders, redactPath } from './capture.js';
import type { IdMap } from './id-map.js';
import type { HeaderMap } from './proxy.js';
import {
  countVerdicts,
  exchangesHar,
  reportHtml,
  reportJson,
  reportJunit,
  type DriftReport,
  type ExchangeEntry,
  type HarSide,
} from './report.js';
import { byRegistration, compareWebhooks, pairDeliveries, type CapturedDelivery, type Registration } from './webhooks.js';
import type { ReportFormat, ReplayerOptions, SeenExchange } from './shadow-messages.js';

const TRACEPARENT = /^00-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
export const text = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
export const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(', ') : v);
export const flat = (h: HeaderMap): Record<string, string> => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, one(v)!]));

export class Kept {
  private readonly exchanges: ExchangeEntry[] = [];
  private readonly deliveries: CapturedDelivery[] = [];
  readonly registrations = new Map<string, Registration>();
  private readonly exchangeOfTrace = new Map<string, number>();
  private exchangeBytes = 0;
  private deliveryBytes = 0;
  private readonly totals = countVerdicts([]);
  readonly notKept = { exchanges: 0, deliveries: 0, notReplayed: 0, traceLinks: 0 };
  controls = 0;
  preExisting = 0;
  refusedDeliveries = 0;
  private readonly startedAt = new Date().toISOString();

  /**
   * @param replayedUpTo the wall-clock instant the replay has caught up to: a delivery is judged
   *   unpaired only once the replay is past its arrival by the wait (a replay running behind, on a
   *   busy machine, never makes obsim's deliveries look missing)
   */
  constructor(
    private readonly options: ReplayerOptions,
    private readonly ids: IdMap,
    private readonly ctx: CompareContext,
    private readonly replayedUpTo: () => number = Date.now,
  ) {}

  /** Count an exchange's verdict and keep it (within the budget, the oldest going first), secrets redacted. */
  keep(
    x: SeenExchange,
    upstreamText: string | null,
    outcome: Omit<ExchangeEntry, 'index' | 'at' | 'method' | 'path' | 'upstreamStatus' | 'upstreamMs' | 'request' | 'upstream'>,
  ): void {
    this.totals[outcome.verdict]++;
    const requestType = one(x.headers['content-type']);
    const upstreamHeaders = flat(x.upstream.headers);
    const entry: ExchangeEntry = {
      index: x.index,
      at: new Date(x.arrivedAt).toISOString(),
      method: x.method,
      path: redactPath(x.url),
      upstreamStatus: x.upstream.status,
      upstreamMs: x.upstream.ms,
      request: { headers: flat(redactHeaders(x.headers)), body: redactBody(text(x.body), requestType) },
      upstream: {
        status: x.upstream.status,
        headers: flat(redactHeaders(x.upstream.headers)),
        text: redactBody(upstreamText ?? text(x.upstream.body), upstreamHeaders['content-type']),
      },
      ...outcome,
      ...(outcome.replayedPath !== undefined ? { replayedPath: redactPath(outcome.replayedPath) } : {}),
      obsim: outcome.obsim && {
        ...outcome.obsim,
        headers: flat(redactHeaders(outcome.obsim.headers)),
        text: redactBody(outcome.obsim.text, outcome.obsim.headers['content-type']),
      },
    };
    this.exchangeBytes += entrySize(entry);
    this.exchanges.push(entry);
    while (this.exchangeBytes > this.options.maxBytes / 2 && this.exchanges.length > 1) {
      this.exchangeBytes -= entrySize(this.exchanges.shift()!);
      this.notKept.exchanges++;
    }
  }

  delivery(side: 'upstream' | 'obsim', hook: string, headers: Record<string, string>, body: Buffer, at = Date.now()): void {
    const trace = TRACEPARENT.exec(headers.traceparent ?? '')?.[1];
    const d: CapturedDelivery = {
      side,
      hook,
      at,
      body: body.toString('utf8'),
      headers: flat(redactHeaders(headers)),
      exchange: null,
      trace,
    };
    // the signature is checked against the body as sent: kept as it is (a signature is no secret)
    if (headers['x-webhook-signature']) d.headers['x-webhook-signature'] = headers['x-webhook-signature'];
    this.deliveryBytes += d.body.length + 256;
    this.deliveries.push(d);
    while (this.deliveryBytes > this.options.maxBytes / 8 && this.deliveries.length > 1) {
      this.deliveryBytes -= this.deliveries.shift()!.body.length + 256;
      this.notKept.deliveries++;
    }
  }

  /** A trace id (of a replay, or of the upstream's answer) names the exchange: bounded, the oldest go. */
  link(trace: string, index: number): void {
    this.exchangeOfTrace.set(trace, index);
    if (this.exchangeOfTrace.size * 96 > this.options.maxBytes / 16) {
      this.exchangeOfTrace.delete(this.exchangeOfTrace.keys().next().value!);
      this.notKept.traceLinks++;
    }
  }

  /** Pair the deliveries seen so far: each pair teaches the map its two event ids (a redelivery names one). */
  pairWebhooks(): void {
    for (const { ups, obs } of byRegistration(this.deliveries).values()) {
      for (const [u, o] of pairDeliveries(ups, obs, this.ctx).pairs) {
        const ue = u.d.headers['x-webhook-id'];
        const oe = o.d.headers['x-webhook-id'];
        if (ue && oe) this.ids.learn('event', ue, oe);
      }
    }
  }

  report(): DriftReport {
    const traced = this.deliveries.map((d) => ({ ...d, exchange: d.trace ? (this.exchangeOfTrace.get(d.trace) ?? null) : null }));
    const { entries, waiting } = compareWebhooks(traced, this.registrations, {
      now: this.replayedUpTo(),
      waitMs: this.options.waitMs,
      lateMs: this.options.lateMs,
      ctx: this.ctx,
    });
    const compared = this.options.webhooks;
    return {
      upstream: this.options.upstream,
      contractVersion: this.options.contractVersion ?? BASE_VERSION,
      startedAt: this.startedAt,
      generatedAt: new Date().toISOString(),
      webhooks: compared
        ? { compared: true }
        : { compared: false, reason: 'no --public-url: the upstream cannot reach the shadow, so its deliveries are not seen' },
      summary: {
        exchanges: { ...this.totals },
        webhooks: { ...countVerdicts(compared ? entries : []), waiting: compared ? waiting : 0 },
        controls: this.controls,
        notReplayed: this.notKept.notReplayed,
        preExisting: this.preExisting,
        refusedDeliveries: this.refusedDeliveries,
        budget: {
          maxBytes: this.options.maxBytes,
          keptBytes: this.exchangeBytes + this.deliveryBytes,
          idMapBytes: this.ids.bytes,
          notKept: {
            exchanges: this.notKept.exchanges,
            deliveries: this.notKept.deliveries,
            idPairs: this.ids.refused,
            traceLinks: this.notKept.traceLinks,
          },
        },
      },
      exchanges: [...this.exchanges]
        .sort((a, b) => a.index - b.index)
        .map(({ request: _r, upstream: _u, obsim: _o, upstreamMs: _m, ...e }) => e),
      webhookEntries: compared ? entries : [],
    };
  }

  render(format: ReportFormat): string {
    const r = this.report();
    if (format === 'junit') return reportJunit(r);
    if (format === 'html') return reportHtml(r, { exchanges: this.exchanges });
    return `${JSON.stringify(reportJson(r), null, 2)}\n`;
  }

  exchangesJson(): { items: ExchangeEntry[] } {
    return { items: [...this.exchanges].sort((a, b) => a.index - b.index) };
  }

  har(side: HarSide): object {
    return exchangesHar(
      this.options.upstream,
      [...this.exchanges].sort((a, b) => a.index - b.index),
      packageVersion(),
      side,
    );
  }
}

function entrySize(e: ExchangeEntry): number {
  return 512 + e.request.body.length + e.upstream.text.length + (e.obsim?.text.length ?? 0) + e.path.length;
}
