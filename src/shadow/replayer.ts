/**
 * The shadow's other half (docs/drift.md), off the proxy's event loop (./worker.ts runs it on a
 * thread of its own): every exchange the proxy saw is replayed, in the order the partner sent
 * them, into an obsim of its own (an in-memory database, one sandbox), the two answers compared
 * (src/domain/drift.ts) and the ids they hand out learned (./id-map.ts, where ./contract.ts says
 * the contract places them).
 *
 * - The clock: the shadow's sandbox is frozen and stands, when an exchange is replayed, at the
 *   instant the upstream's clock read when that exchange arrived: the upstream's own instant when
 *   it has obsim's clock controls (frozen when it is, behind real time when it is), the arrival
 *   instant otherwise. A replay backlog never changes which timers have fired; while nothing waits,
 *   the clock follows real time so that timers fire when the upstream's do.
 * - What is kept is bounded in bytes (`maxBytes`): exchanges and deliveries (secrets redacted,
 *   ./capture.ts), the backlog, the id map, trace links; past a bound the oldest go, and the
 *   report says how much was not kept.
 * - Webhooks: the upstream's deliveries come from the proxy's receiver; obsim's to a receiver here.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { compareAnswers, type CompareContext } from '../domain/drift.js';
import { childContext, formatTraceparent } from '../domain/trace-context.js';
import { optionalInAnswer, answersBankData, anyIdKindOf, contract, learnFromAnswers, translateRequest, type Contract } from './contract.js';
import { IdMap } from './id-map.js';
import { startShadowObsim } from './obsim.js';
import { flat, Kept, one, text } from './kept.js';
import type { HeaderMap } from './proxy.js';
import type { Answer } from './report.js';
import type { ReplayerOptions, SeenDelivery, SeenExchange, UpstreamClockRead } from './shadow-messages.js';

/** How often the shadow uses its sandbox while nothing is replayed (its time to live is 30 days). */
const KEEP_ALIVE_MS = 3_600_000;
const TRACEPARENT = /^00-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** JSON of a body when it is JSON. */
function jsonOf(body: string, contentType: string | undefined): unknown {
  if (body === '' || (contentType !== undefined && !/json/i.test(contentType))) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** An answer's text for comparing it: decoded when it came compressed, never past `max` bytes. */
function decoded(bytes: Uint8Array, encoding: string | undefined, max: number): string {
  const enc = encoding?.trim().toLowerCase();
  const options = { maxOutputLength: Math.max(1, max) };
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (enc === 'gzip' || enc === 'x-gzip') return gunzipSync(buffer, options).toString('utf8');
    if (enc === 'br') return brotliDecompressSync(buffer, options).toString('utf8');
    if (enc === 'deflate') return inflateSync(buffer, options).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new Error(`the answer decompresses to more than ${max} bytes (the budget)`, { cause: err });
    // not what it says it is: compared as it came (uncomparable: not JSON)
  }
  return buffer.toString('utf8');
}

export class Replayer {
  private obsim!: FastifyInstance;
  private sandboxHeaders!: Record<string, string>;
  private receiver!: Server;
  private receiverUrl = '';
  private contract: Contract = contract();
  private readonly ids: IdMap;
  private readonly ctx: CompareContext;

  // the queue, in the order the partner sent
  private readonly waiting = new Map<number, SeenExchange | null>();
  private next = 1;
  private processed = 0;
  private backlogBytes = 0;
  private running = false;
  private readonly settledWaiters: { upTo: number; resolve(): void }[] = [];
  /** While exchanges wait for their replay: the arrival of the one being replayed. */
  private replayingSince: number | undefined;

  /** What is kept, and the report made of it. */
  readonly kept: Kept;

  // the clock: what the upstream's read at a wall-clock instant
  /** When the shadow's sandbox was last used by a keep-alive (wall clock). */
  private lastUse = Date.now();
  /** The upstream's clock was read: the sandbox starts at its instant before the next replay. */
  private startDue = false;
  private upstreamClock: { frozenAt?: number; offsetMs: number } = { offsetMs: 0 };
  private clockNowMs = 0;
  /** The earliest arrival of a request still with the upstream (the clock does not pass it while idle). */
  private inFlightFloor: number | undefined;

  constructor(private readonly options: ReplayerOptions) {
    this.ids = new IdMap(options.maxBytes / 16);
    this.ctx = {
      mapped: (key, value) => {
        const kind = anyIdKindOf(key);
        return kind ? this.ids.mapped(kind, value) : undefined;
      },
      knownObsim: (key, value) => {
        const kind = anyIdKindOf(key);
        return kind ? this.ids.knowsObsim(kind, value) : false;
      },
      enumKeys: new Set(this.contract.enums.keys()),
      enumValues: this.contract.enums,
    };
    this.kept = new Kept(options, this.ids, this.ctx, () => this.replayedUpTo());
  }

  async start(): Promise<void> {
    const started = await startShadowObsim(this.options);
    this.obsim = started.app;
    this.sandboxHeaders = started.sandboxHeaders;
    this.clockNowMs = started.clockNowMs;
    // pinned to a version: the comparison reads its document (its enums)
    if (started.document) {
      this.contract = contract(started.document as never);
      Object.assign(this.ctx, { enumKeys: new Set(this.contract.enums.keys()), enumValues: this.contract.enums });
    }
    this.receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.kept.delivery('obsim', (req.url ?? '/').split('/').pop() ?? '', flat(req.headers as HeaderMap), Buffer.concat(chunks));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => this.receiver.listen(0, '127.0.0.1', resolve));
    this.receiverUrl = `http://127.0.0.1:${(this.receiver.address() as AddressInfo).port}/obsim-hooks`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.receiver.close(() => resolve()));
    await this.obsim.close();
  }

  /** An exchange the proxy saw; replayed in order once those before it are. */
  accept(exchange: SeenExchange): void {
    const bytes = exchange.body.byteLength + exchange.upstream.body.byteLength;
    if (this.backlogBytes + bytes > this.options.maxBytes / 4) {
      // the partner sends faster than obsim replays: passed on, not replayed, and said in the report
      this.kept.notKept.notReplayed++;
      this.waiting.set(exchange.index, null);
    } else {
      this.backlogBytes += bytes;
      this.waiting.set(exchange.index, exchange);
    }
    void this.drain();
  }

  /** A request the upstream never answered: nothing to replay, the order goes on. */
  skip(index: number): void {
    this.waiting.set(index, null);
    void this.drain();
  }

  /** A delivery the upstream made to the proxy's receiver. */
  upstreamDelivery(d: SeenDelivery): void {
    this.kept.delivery('upstream', d.hook, flat(d.headers), Buffer.from(d.body), d.at);
  }

  /** While nothing waits, the clock follows the upstream's (never past a request still with the upstream). */
  async tick(nowMs: number, inFlightFloor: number | undefined): Promise<void> {
    this.inFlightFloor = inFlightFloor;
    if (nowMs - this.lastUse >= KEEP_ALIVE_MS) {
      // a use of the sandbox: it expires only after its time to live without one
      this.lastUse = nowMs;
      await this.obsim.inject({ method: 'GET', url: '/_sandbox/clock', headers: this.sandboxHeaders });
    }
    if (this.running || this.waiting.size > 0) return;
    // one thing moves obsim at a time: a replay that arrives meanwhile waits for this move
    this.running = true;
    try {
      await this.moveClockTo(this.upstreamInstant(Math.min(nowMs, inFlightFloor ?? nowMs)));
    } finally {
      this.running = false;
    }
    if (this.waiting.size > 0) void this.drain();
    else this.resolveSettled();
  }

  /** The wall-clock instant the replay has caught up to: the arrival of the oldest exchange not yet replayed, or now. */
  private replayedUpTo(): number {
    let oldest = this.replayingSince ?? Date.now();
    for (const x of this.waiting.values()) if (x && x.arrivedAt < oldest) oldest = x.arrivedAt;
    return oldest;
  }

  /** Resolves once every exchange up to `index` is replayed and compared. */
  settled(index: number): Promise<void> {
    if (this.next > index && !this.running) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push({ upTo: index, resolve }));
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.waiting.has(this.next)) {
        const exchange = this.waiting.get(this.next)!;
        this.waiting.delete(this.next);
        this.next++;
        if (exchange) {
          this.replayingSince = exchange.arrivedAt;
          this.backlogBytes -= exchange.body.byteLength + exchange.upstream.body.byteLength;
          try {
            await this.replay(exchange);
          } catch (err) {
            this.kept.keep(exchange, null, {
              operationId: null,
              obsimStatus: null,
              verdict: 'uncomparable',
              reason: `the replay into obsim failed: ${(err as Error).message}`,
              drifts: [],
              obsim: null,
            });
          }
          this.processed++;
        }
      }
    } finally {
      this.running = false;
      this.replayingSince = undefined;
    }
    this.resolveSettled();
  }

  private resolveSettled(): void {
    for (let i = this.settledWaiters.length - 1; i >= 0; i--) {
      if (this.settledWaiters[i].upTo < this.next) {
        this.settledWaiters[i].resolve();
        this.settledWaiters.splice(i, 1);
      }
    }
  }

  /** The upstream's clock at wall-clock `ms`. */
  private upstreamInstant(ms: number): number {
    return this.upstreamClock.frozenAt ?? ms + this.upstreamClock.offsetMs;
  }

  private async moveClockTo(instantMs: number): Promise<void> {
    const ahead = Math.round(instantMs - this.clockNowMs);
    if (ahead <= 0) return;
    await this.obsim.inject({ method: 'POST', url: '/_sandbox/clock/advance', headers: this.sandboxHeaders, payload: { ms: ahead } });
    this.clockNowMs += ahead;
    await this.obsim.webhooks.drain();
  }

  /**
   * What the upstream's clock read before the partner's first request went to it (the proxy asks,
   * ./shadow.ts): its instant, frozen or running; null when it has no clock controls (each exchange
   * then stands at its arrival instant). The shadow's sandbox starts there before anything replays.
   */
  clockRead(read: UpstreamClockRead | null): void {
    if (read) this.followUpstreamClock(read.now, read.frozen, read.atWallMs);
    this.startDue = true;
  }

  private followUpstreamClock(now: string, frozen: boolean, atWallMs: number): void {
    const instant = Date.parse(now);
    this.upstreamClock = frozen ? { frozenAt: instant, offsetMs: 0 } : { offsetMs: instant - atWallMs };
  }

  private async replay(x: SeenExchange): Promise<void> {
    const path = x.url.split('?')[0];
    const op = this.contract.match(x.method, path);
    const contentType = one(x.upstream.headers['content-type']);
    const upstreamText = decoded(x.upstream.body, one(x.upstream.headers['content-encoding']), Math.max(1, this.options.maxBytes / 16));
    const upstreamJson = jsonOf(upstreamText, contentType);
    const upTrace = TRACEPARENT.exec(one(x.upstream.headers.traceparent) ?? '')?.[1];
    if (upTrace) this.kept.link(upTrace, x.index);
    if (x.registration)
      this.kept.registrations.set(x.registration.hook, { hook: x.registration.hook, partnerUrl: x.registration.partnerUrl });
    if (this.startDue) {
      this.startDue = false;
      if (this.processed === 0) await this.reset();
    }
    if (op?.kind === 'control' && path.startsWith('/_sandbox/clock')) {
      // the upstream's clock moved: the shadow's follows it (never replayed: that would move it twice)
      this.kept.controls++;
      const moved = upstreamJson as { now?: unknown; frozen?: unknown } | undefined;
      if (x.upstream.status < 300 && typeof moved?.now === 'string') {
        this.followUpstreamClock(
          moved.now,
          typeof moved.frozen === 'boolean' ? moved.frozen : this.upstreamClock.frozenAt !== undefined,
          x.arrivedAt + x.upstream.ms,
        );
        await this.moveClockTo(this.upstreamInstant(x.arrivedAt + x.upstream.ms));
      }
      return;
    }
    // a hosted page read changes nothing; its form does (replayed, not compared)
    if (!op && (x.method === 'GET' || x.method === 'HEAD')) return;
    if (!x.bodyComplete) {
      this.kept.keep(x, upstreamText, {
        operationId: op?.operationId ?? null,
        obsimStatus: null,
        verdict: 'uncomparable',
        reason: 'the request body is larger than the shadow captures: passed on, not replayed',
        drifts: [],
        obsim: null,
      });
      return;
    }
    await this.moveClockTo(this.upstreamInstant(x.arrivedAt));
    this.kept.pairWebhooks();

    // the request in obsim's terms
    const requestText = text(x.body);
    const requestType = one(x.headers['content-type']);
    const requestJson = requestText === '' ? undefined : jsonOf(requestText, requestType);
    let url = x.url;
    let payload: string | Buffer | undefined = x.body.byteLength ? Buffer.from(x.body) : undefined;
    let unknown: string[] = [];
    if (op) {
      const t = translateRequest(op, x.url, requestJson, this.ids);
      url = t.path;
      unknown = t.unknown;
      if (requestJson !== undefined) {
        const body = x.registration ? { ...(t.body as object), url: `${this.receiverUrl}/${x.registration.hook}` } : t.body;
        payload = JSON.stringify(body);
      }
    } else {
      const hosted = this.ids.hostedPath(x.url);
      if (hosted) {
        url = hosted.path;
        if (hosted.mapped === undefined) unknown.push(`${hosted.kind} ${hosted.token}`);
      }
    }
    const headers: Record<string, string> = { ...flat(x.headers), ...this.sandboxHeaders };
    delete headers['x-obsim-admin-key'];
    delete headers['content-length'];
    delete headers['accept-encoding'];
    delete headers.cookie;
    const bearer = /^Bearer (.+)$/i.exec(headers.authorization ?? '')?.[1];
    if (bearer) headers.authorization = `Bearer ${this.ids.mapped('aisToken', bearer) ?? bearer}`;
    // each replay a trace of its own: obsim's deliveries carry it, naming the exchange that caused them
    const trace = childContext(undefined);
    headers.traceparent = formatTraceparent(trace);
    delete headers.tracestate;
    this.kept.link(trace.traceId, x.index);

    const res = await this.obsim.inject({ method: x.method as 'GET', url, headers, payload });
    await this.obsim.webhooks.drain();
    const obsimAnswer: Answer = { status: res.statusCode, headers: flat(res.headers as HeaderMap), text: res.body };
    const obsimJson = jsonOf(res.body, obsimAnswer.headers['content-type']);
    const conflicts =
      op && x.upstream.status < 300 && res.statusCode < 300
        ? learnFromAnswers(op, x.upstream.status, upstreamJson, obsimJson, this.ids).conflicts
        : [];
    if (x.registration && res.statusCode < 300 && x.upstream.status < 300) {
      const reg = this.kept.registrations.get(x.registration.hook);
      const secretOf = (j: unknown) =>
        typeof (j as { secret?: unknown })?.secret === 'string' ? (j as { secret: string }).secret : undefined;
      if (reg) Object.assign(reg, { upstreamSecret: secretOf(upstreamJson), obsimSecret: secretOf(obsimJson) });
    }
    if (!op || op.kind === 'control') {
      this.kept.controls++;
      return;
    }
    const comparison = compareAnswers(
      {
        upstream: { status: x.upstream.status, headers: flat(x.upstream.headers), text: upstreamText, json: upstreamJson },
        obsim: { ...obsimAnswer, json: obsimJson },
      },
      {
        ...this.ctx,
        ...(answersBankData(op) ? { bankData: true } : {}),
        optional: (pointer: string) => optionalInAnswer(op, x.upstream.status, pointer),
      },
    );
    this.kept.preExisting += comparison.preExisting;
    if (conflicts.length) {
      comparison.verdict = 'uncomparable';
      comparison.reason = `the id map has a conflict: ${conflicts.join('; ')}`;
    } else if (comparison.verdict === 'uncomparable' && unknown.length && res.statusCode >= 400) {
      comparison.reason = `${comparison.reason}: the id map does not know ${unknown.join(', ')}`;
    }
    this.kept.keep(x, upstreamText, {
      operationId: op.operationId,
      obsimStatus: res.statusCode,
      verdict: comparison.verdict,
      ...(comparison.reason ? { reason: comparison.reason } : {}),
      drifts: comparison.drifts,
      obsim: obsimAnswer,
      replayedPath: url,
    });
  }

  /** Start the shadow's sandbox at the upstream's instant (a fresh clock, before anything was replayed). */
  private async reset(): Promise<void> {
    const target = this.upstreamInstant(Date.now());
    if (target < this.clockNowMs) {
      // behind the sandbox's start: a new sandbox at that instant
      const created = await this.obsim.inject({
        method: 'POST',
        url: '/_sandbox/sandboxes',
        payload: { name: 'shadow', ttl: '30d', clock: { start: new Date(target).toISOString(), frozen: true } },
      });
      const { clientId, clientSecret } = created.json<{ credentials: { clientId: string; clientSecret: string } }>().credentials;
      this.sandboxHeaders = { 'x-partner-client-id': clientId, 'x-partner-client-secret': clientSecret };
      this.clockNowMs = target;
    }
  }
}
