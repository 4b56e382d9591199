/**
 * Shadow mode (docs/drift.md): a proxy in front of the real provider that replays every request
 * into an obsim of its own and reports where the two differ, webhooks included.
 *
 * - The partner's request goes to the upstream unchanged (only a webhook registration's `url` is
 *   replaced by the shadow's receiver) and the upstream's answer is what the partner gets, byte for
 *   byte but for hop-by-hop headers; an upstream that cannot be reached is a 502 `upstream_unavailable`.
 * - Off the response path, in arrival order, the same request is translated through the id map
 *   and replayed into an in-process obsim (an in-memory database, one sandbox, its credentials in
 *   place of the partner's); the two answers are compared (src/domain/drift.ts) and the ids they
 *   create learned (./id-map.ts).
 * - The upstream's clock: when the upstream has obsim's clock controls (another obsim, or a
 *   sandbox that offers them), the shadow's sandbox starts at the upstream's instant, frozen or
 *   running as it is, and follows every clock call the partner makes; otherwise it runs in real
 *   time, as a provider's does.
 * - Webhooks (with a public URL the upstream can reach): the upstream's deliveries come to
 *   `/_shadow/hooks/{n}`, are forwarded to the partner's own URL unchanged and recorded; obsim's
 *   come to `/_shadow/obsim-hooks/{n}` and are only recorded. ./webhooks.ts pairs them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../app.js';
import { compareAnswers, type CompareContext } from '../domain/drift.js';
import { ApiError, errorBody } from '../domain/errors.js';
import { childContext, formatTraceparent } from '../domain/trace-context.js';
import { packageVersion } from '../package-root.js';
import { upstreamClock } from './clock.js';
import { decodedText, jsonOf, passOn, send } from './http.js';
import { IdMap } from './id-map.js';
import { operationIndex } from './operations.js';
import {
  countVerdicts,
  exchangesHar,
  reportHtml,
  reportJson,
  reportJunit,
  type Answer,
  type DriftReport,
  type ExchangeEntry,
} from './report.js';
import { compareWebhooks, type CapturedDelivery, type Registration } from './webhooks.js';

export interface ShadowOptions {
  /** The provider's sandbox (or anything answering like it). */
  upstream: string;
  host?: string;
  /** 0: any free port. */
  port?: number;
  /** Where the upstream reaches the shadow's webhook receiver; without it webhooks are not compared. */
  publicUrl?: string;
  /** A delivery without its pair is judged once it is this old (real ms; default 10,000). */
  webhookWaitMs?: number;
  /** An upstream delivery later than obsim's by more than this is `event_late` (real ms; default 2,000). */
  lateAfterMs?: number;
  /**
   * Exchanges waiting for their replay, at most (default 10,000): beyond it an exchange is still
   * passed to the upstream and answered, not replayed, and counted in the report (summary.notReplayed).
   */
  maxBacklog?: number;
  /** Upstream timeout (ms; default 30,000). */
  timeoutMs?: number;
}

export type ReportFormat = 'json' | 'junit' | 'html';

export interface Shadow {
  /** Where the partner points its base URL. */
  readonly url: string;
  report(): DriftReport;
  /** The report rendered (what GET /_shadow/report?format= answers). */
  render(format: ReportFormat): string;
  /** The exchanges as HAR 1.2 (what GET /_shadow/exchanges?format=har answers). */
  har(): object;
  /** Resolves once every exchange so far is replayed and compared. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const WEBHOOK_PATH = '/v1/partner/webhooks';
/** Exchanges and deliveries kept with their bodies for the report (the newest); the summary counts every one. */
const KEPT = 10_000;
const TRACEPARENT = /^00-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

interface Pending {
  index: number;
  at: string;
  method: string;
  /** As the partner sent it (path and query). */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  /** What was sent upstream (a registration's url replaced). */
  sentBody: Buffer;
  upstream: Answer;
  upstreamMs: number;
  hook?: number;
}

export async function startShadow(options: ShadowOptions): Promise<Shadow> {
  const upstreamBase = options.upstream.replace(/\/+$/, '');
  const publicUrl = options.publicUrl?.replace(/\/+$/, '');
  const waitMs = options.webhookWaitMs ?? 10_000;
  const lateMs = options.lateAfterMs ?? 2_000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const startedAt = new Date().toISOString();
  const operations = operationIndex();
  const ids = new IdMap();
  const ctx: CompareContext = { mapped: ids.mapped, enumKeys: operations.enumKeys };

  // obsim, in this process: replays are injected, its deliveries come to this shadow over HTTP
  const obsim = await buildApp({ config: { db: ':memory:', logLevel: 'silent', metrics: false }, logger: false });
  await obsim.ready();
  const created = await obsim.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: { name: 'shadow', clock: { frozen: false } } });
  if (created.statusCode !== 201 && created.statusCode !== 200)
    throw new Error(`obsim could not make the shadow's sandbox: ${created.body}`);
  const sandbox = created.json<{ credentials: { clientId: string; clientSecret: string } }>().credentials;
  const sandboxHeaders = { 'x-partner-client-id': sandbox.clientId, 'x-partner-client-secret': sandbox.clientSecret };
  const clock = upstreamClock(obsim, sandboxHeaders, (headers) => call(`${upstreamBase}/_sandbox/clock`, 'GET', headers, undefined));

  /** The newest KEPT exchanges with both answers; the counts cover every one. */
  const exchanges: ExchangeEntry[] = [];
  const totals = countVerdicts([]);
  const deliveries: CapturedDelivery[] = [];
  const registrations = new Map<number, Registration>();
  /** Trace ids of replays (and of the upstream's answers, when it sends traceparent) → exchange index. */
  const exchangeOfTrace = new Map<string, number>();
  let controls = 0;
  /** The partner's requests, numbered as they arrive. */
  let sequence = 0;
  let hooks = 0;
  let clockProbed = false;
  let queue: Promise<void> = Promise.resolve();
  /** Exchanges waiting for their replay, and the ones not replayed because too many were waiting. */
  let backlog = 0;
  let skipped = 0;
  const maxBacklog = options.maxBacklog ?? 10_000;

  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  const call = (url: string, method: string, headers: Record<string, string>, body: Buffer | undefined) =>
    send(url, method, headers, body, timeoutMs);

  // --- the partner's side: everything goes upstream, the upstream's answer comes back
  async function proxy(request: FastifyRequest, reply: FastifyReply) {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const headers = passOn(request.headers);
    let sentBody = body;
    let hook: number | undefined;
    const path = request.url.split('?')[0];
    if (request.method === 'POST' && path === WEBHOOK_PATH) {
      const json = jsonOf(body.toString('utf8'), headers['content-type']) as { url?: unknown } | undefined;
      if (json && typeof json.url === 'string') {
        hook = ++hooks;
        registrations.set(hook, { hook, partnerUrl: json.url });
        if (publicUrl) sentBody = Buffer.from(JSON.stringify({ ...json, url: `${publicUrl}/_shadow/hooks/${hook}` }));
      }
    }
    let answer;
    try {
      answer = await call(`${upstreamBase}${request.url}`, request.method, headers, sentBody);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const failure = new ApiError('upstream_unavailable', {
        message: `The upstream ${upstreamBase} could not be reached (${e.code ?? e.message}); nothing was sent to obsim either`,
      });
      return reply.code(failure.status).header('content-type', 'application/json; charset=utf-8').send(errorBody(failure, request.id));
    }
    const pending: Pending = {
      index: ++sequence,
      at: new Date().toISOString(),
      method: request.method,
      url: request.url,
      headers,
      body,
      sentBody,
      upstream: { status: answer.status, headers: answer.headers, text: decodedText(answer.bytes, answer.headers['content-encoding']) },
      upstreamMs: answer.ms,
      hook,
    };
    if (backlog >= maxBacklog) {
      skipped++;
    } else {
      backlog++;
      // a replay that throws is a fault of the shadow's, not a difference: on record, never silent
      queue = queue
        .then(() => replay(pending))
        .catch((err: unknown) => replayFailed(pending, err))
        .finally(() => backlog--);
    }
    void reply.code(answer.status).headers(answer.headers).send(answer.bytes);
  }

  // --- off the response path: replay into obsim, compare, learn
  async function replay(p: Pending): Promise<void> {
    const path = p.url.split('?')[0];
    const op = operations.match(p.method, path);
    const upstreamJson = jsonOf(p.upstream.text, p.upstream.headers['content-type']);
    const upTrace = TRACEPARENT.exec(p.upstream.headers.traceparent ?? '')?.[1];
    if (upTrace) exchangeOfTrace.set(upTrace, p.index);
    if (!clockProbed && (p.headers['x-partner-client-id'] || p.headers.authorization)) {
      clockProbed = true;
      await clock.follow(p.headers);
    }
    if (op?.kind === 'control' && path.startsWith('/_sandbox/clock')) {
      // the upstream's clock moved: the shadow's follows it to the same instant (never replayed: that would move it twice)
      controls++;
      const moved = upstreamJson as { now?: unknown; frozen?: unknown } | undefined;
      if (p.upstream.status < 300 && typeof moved?.now === 'string')
        await clock.moveTo(moved.now, typeof moved.frozen === 'boolean' ? moved.frozen : undefined);
      return;
    }
    // a hosted page's form (onboarding, payment, consent) changes state too: replayed, not compared; reading one changes nothing
    if (!op && (p.method === 'GET' || p.method === 'HEAD')) return;
    const { path: translated, unknown } = ids.translatePath(p.url);
    const headers: Record<string, string> = { ...p.headers, ...sandboxHeaders };
    delete headers['x-obsim-admin-key'];
    const bearer = /^Bearer (.+)$/i.exec(headers.authorization ?? '')?.[1];
    if (bearer) headers.authorization = `Bearer ${ids.mapped(bearer) ?? bearer}`;
    // each replay a trace of its own: obsim's deliveries carry it, naming the exchange that caused them
    const trace = childContext(undefined);
    headers.traceparent = formatTraceparent(trace);
    delete headers.tracestate;
    exchangeOfTrace.set(trace.traceId, p.index);
    let payload: string | Buffer = p.body;
    const bodyJson = p.body.length ? jsonOf(p.body.toString('utf8'), headers['content-type']) : undefined;
    if (bodyJson !== undefined) {
      let translatedBody = ids.translateBody(bodyJson);
      if (p.hook !== undefined && typeof (translatedBody as { url?: unknown }).url === 'string') {
        translatedBody = { ...(translatedBody as object), url: `${selfUrl}/_shadow/obsim-hooks/${p.hook}` };
      }
      payload = JSON.stringify(translatedBody);
    }
    const res = await obsim.inject({ method: p.method as 'GET', url: translated, headers, payload: p.body.length ? payload : undefined });
    const obsimAnswer: Answer = { status: res.statusCode, headers: passOn(res.headers as Record<string, string>), text: res.body };
    const obsimJson = jsonOf(res.body, obsimAnswer.headers['content-type']);
    if (!op || op.kind === 'control') {
      controls++;
      return;
    }
    if (p.upstream.status < 300 && res.statusCode < 300) {
      ids.learn(upstreamJson, obsimJson);
      if (p.hook !== undefined) {
        const reg = registrations.get(p.hook);
        const secretOf = (j: unknown) =>
          typeof (j as { secret?: unknown })?.secret === 'string' ? (j as { secret: string }).secret : undefined;
        if (reg) Object.assign(reg, { upstreamSecret: secretOf(upstreamJson), obsimSecret: secretOf(obsimJson) });
      }
    }
    const comparison = compareAnswers({ upstream: { ...p.upstream, json: upstreamJson }, obsim: { ...obsimAnswer, json: obsimJson } }, ctx);
    if (comparison.verdict === 'uncomparable' && unknown.length && res.statusCode >= 400) {
      comparison.reason = `${comparison.reason}: the id map does not know ${unknown.join(', ')}`;
    }
    keep(p, {
      operationId: op.operationId,
      obsimStatus: res.statusCode,
      verdict: comparison.verdict,
      ...(comparison.reason ? { reason: comparison.reason } : {}),
      drifts: comparison.drifts,
      obsim: obsimAnswer,
    });
  }

  function replayFailed(p: Pending, err: unknown): void {
    keep(p, {
      operationId: operations.match(p.method, p.url.split('?')[0])?.operationId ?? null,
      obsimStatus: null,
      verdict: 'uncomparable',
      reason: `the replay into obsim failed: ${(err as Error).message}`,
      drifts: [],
      obsim: null,
    });
  }

  /** Count an exchange's verdict and keep it (the newest KEPT), with what the partner's request and the upstream's answer were. */
  function keep(
    p: Pending,
    outcome: Omit<ExchangeEntry, 'index' | 'at' | 'method' | 'path' | 'upstreamStatus' | 'upstreamMs' | 'request' | 'upstream'>,
  ): void {
    totals[outcome.verdict]++;
    if (exchanges.length >= KEPT) exchanges.shift();
    exchanges.push({
      index: p.index,
      at: p.at,
      method: p.method,
      path: p.url,
      upstreamStatus: p.upstream.status,
      upstreamMs: p.upstreamMs,
      request: { headers: p.headers, body: p.body.toString('utf8') },
      upstream: p.upstream,
      ...outcome,
    });
  }

  // --- webhooks: the upstream's, forwarded to the partner and recorded; obsim's, recorded
  app.post<{ Params: { n: string } }>('/_shadow/hooks/:n', async (request, reply) => {
    const reg = registrations.get(Number(request.params.n));
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const headers = passOn(request.headers);
    if (!reg) return reply.code(404).send();
    // an upstream that sends traceparent (another obsim) names the request that caused it
    const trace = TRACEPARENT.exec(headers.traceparent ?? '')?.[1];
    if (deliveries.length >= KEPT) deliveries.shift();
    deliveries.push({ side: 'upstream', hook: reg.hook, at: Date.now(), body: body.toString('utf8'), headers, exchange: null, trace });
    try {
      const forwarded = await call(reg.partnerUrl, 'POST', headers, body);
      return reply.code(forwarded.status).headers(forwarded.headers).send(forwarded.bytes);
    } catch {
      // the partner's receiver is down: the upstream sees what it would have seen
      return reply.code(502).send();
    }
  });
  app.post<{ Params: { n: string } }>('/_shadow/obsim-hooks/:n', async (request, reply) => {
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const headers = passOn(request.headers);
    const trace = TRACEPARENT.exec(headers.traceparent ?? '')?.[1];
    if (deliveries.length >= KEPT) deliveries.shift();
    deliveries.push({
      side: 'obsim',
      hook: Number(request.params.n),
      at: Date.now(),
      body: body.toString('utf8'),
      headers,
      exchange: null,
      trace,
    });
    return reply.code(200).send();
  });

  function report(): DriftReport {
    const traced = deliveries.map((d) => ({ ...d, exchange: d.trace ? (exchangeOfTrace.get(d.trace) ?? null) : null }));
    const { entries, waiting } = compareWebhooks(traced, registrations, { now: Date.now(), waitMs, lateMs, ctx });
    const list = [...exchanges].sort((a, b) => a.index - b.index);
    return {
      upstream: upstreamBase,
      startedAt,
      generatedAt: new Date().toISOString(),
      webhooks: publicUrl
        ? { compared: true }
        : { compared: false, reason: 'no --public-url: the upstream cannot reach the shadow, so its deliveries are not seen' },
      summary: {
        exchanges: { ...totals },
        webhooks: { ...countVerdicts(publicUrl ? entries : []), waiting: publicUrl ? waiting : 0 },
        controls,
        notReplayed: skipped,
      },
      exchanges: list.map(({ request: _r, upstream: _u, obsim: _o, upstreamMs: _m, ...e }) => e),
      webhookEntries: publicUrl ? entries : [],
    };
  }

  function render(format: ReportFormat): string {
    const r = report();
    if (format === 'junit') return reportJunit(r);
    if (format === 'html') return reportHtml(r, { exchanges });
    return `${JSON.stringify(reportJson(r), null, 2)}\n`;
  }
  const sortedExchanges = () => [...exchanges].sort((a, b) => a.index - b.index);
  const har = () => exchangesHar(upstreamBase, sortedExchanges(), packageVersion());

  const TYPES: Record<ReportFormat, string> = {
    json: 'application/json; charset=utf-8',
    junit: 'application/xml; charset=utf-8',
    html: 'text/html; charset=utf-8',
  };
  app.get<{ Querystring: { format?: string } }>('/_shadow/report', async (request, reply) => {
    await queue;
    const format = request.query.format ?? 'json';
    if (!(format in TYPES)) return badFormat(reply, request.id, format, Object.keys(TYPES));
    return reply.type(TYPES[format as ReportFormat]).send(render(format as ReportFormat));
  });
  app.get<{ Querystring: { format?: string } }>('/_shadow/exchanges', async (request, reply) => {
    await queue;
    const format = request.query.format ?? 'json';
    if (format === 'har') return reply.type('application/json; charset=utf-8').send(har());
    if (format !== 'json') return badFormat(reply, request.id, format, ['json', 'har']);
    return { items: sortedExchanges() };
  });
  app.all('/*', proxy);
  app.all('/', proxy);

  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const selfUrl = `http://${host}:${address.port}`;

  return {
    url: selfUrl,
    report,
    render,
    har,
    async settled() {
      for (;;) {
        const current = queue;
        await current;
        if (current === queue) return;
      }
    },
    async close() {
      await app.close();
      await obsim.close();
    },
  };
}

function badFormat(reply: FastifyReply, requestId: string, format: string, allowed: string[]) {
  const err = new ApiError('validation_failed', {
    field: '/format',
    message: `format must be one of ${allowed.join(', ')} (got ${format})`,
  });
  return reply.code(400).send(errorBody(err, requestId));
}
