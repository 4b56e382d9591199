/**
 * Shadow mode (docs/drift.md): a proxy in front of the real provider that replays every request
 * into an obsim of its own and reports where the two differ, webhooks included.
 *
 * Two listeners, two threads:
 * - the public listener is the partner's base URL and the provider's webhook receiver: each
 *   request goes to the upstream and the upstream's answer back, streamed and unchanged but for
 *   hop-by-hop headers (./proxy.ts); a webhook registration's url is replaced by a receiver path
 *   of the shadow's, unguessable and one per registration, whose deliveries are forwarded to the
 *   partner's own URL (a delivery to any other path is refused and counted);
 * - the report listener (loopback unless told otherwise) serves the report and the exchanges;
 *   nothing the provider can reach shows what was captured;
 * - the replay thread (./worker.ts, ./replayer.ts) replays, compares and keeps, off the proxy's
 *   event loop.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorObject } from 'ajv';
import Fastify from 'fastify';
import type { FastifyError } from 'fastify';
import { Agent, request as undiciRequest } from 'undici';
import { ApiError, errorBody } from '../domain/errors.js';
import { validationToApiError } from '../compilers/validation.js';
import { Capture, forward, passOn } from './proxy.js';
import { ownWorker } from '../worker-thread.js';
import type { ReportFormat, ReplayerOptions, SeenExchange, UpstreamClockRead } from './shadow-messages.js';
import type { DriftReport, ExchangeEntry, HarSide } from './report.js';
import type { ShadowReply, ShadowRequest } from './shadow-messages.js';

export type { ReportFormat } from './shadow-messages.js';

export interface ShadowOptions {
  /** The provider's sandbox (or anything answering like it). */
  upstream: string;
  /** The public listener (the partner's base URL, the provider's webhook receiver). */
  host?: string;
  /** 0: any free port. */
  port?: number;
  /** Where the upstream reaches the public listener; without it webhooks are not compared. */
  publicUrl?: string;
  /** The report listener: loopback by default (`--report-host`), any free port by default. */
  reportHost?: string;
  reportPort?: number;
  /** A delivery without its pair is judged once it is this old (real ms; default 10,000). */
  webhookWaitMs?: number;
  /** An upstream delivery later than obsim's by more than this is `event_late` (real ms; default 2,000). */
  lateAfterMs?: number;
  /** Upstream timeout (ms; default 30,000). */
  timeoutMs?: number;
  /** Bytes of everything the shadow keeps (default 64 MiB): exchanges, deliveries, the backlog, the id map. */
  maxBytes?: number;
  /** The largest body the shadow captures for the replay (default 1 MiB; a larger one streams on, not replayed). */
  captureBytes?: number;
  /**
   * Run the replay at the lowest scheduling priority (Linux; `obsim shadow` does): on a machine of
   * few cores the partner's answers never wait for a replay, and under a load test the replay falls
   * behind (past the backlog's bound, exchanges are passed on without one and counted). Off by
   * default for a shadow in a test suite's own process, where the replay should keep up.
   */
  lowPriority?: boolean;
  /**
   * A folder of contract versions (docs/contract-versions.md) and the one the shadow's obsim is
   * pinned to: its answers, and the document the comparison reads, are that version's.
   */
  contracts?: string;
  contractVersion?: string;
}

export interface Shadow {
  /** Where the partner points its base URL. */
  readonly url: string;
  /** The report (`GET …/_shadow/report`), on the report listener. */
  readonly reportUrl: string;
  report(): Promise<DriftReport>;
  /** The report rendered (what GET /_shadow/report?format= answers). */
  render(format: ReportFormat): Promise<string>;
  /** The exchanges kept, secrets redacted (GET /_shadow/exchanges). */
  exchanges(): Promise<{ items: ExchangeEntry[] }>;
  /** The exchanges as HAR 1.2 (GET /_shadow/exchanges?format=har): the upstream's answers, or obsim's replays (`side=obsim`). */
  har(side?: HarSide): Promise<object>;
  /** Resolves once every exchange so far is answered, replayed and compared. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const WEBHOOK_PATH = '/v1/partner/webhooks';
const HOOKS = '/_shadow/hooks/';
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/** The replay thread (./worker.ts). */
const replayThread = (workerData: ReplayerOptions) => ownWorker(import.meta.url, 'worker', workerData);

const listen = (server: Server, host: string, port: number) =>
  new Promise<string>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const a = server.address() as AddressInfo;
      resolve(`http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`);
    });
  });

function answerError(res: ServerResponse, err: ApiError, requestId = 'shadow'): void {
  res.writeHead(err.status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(errorBody(err, requestId)));
}

export async function startShadow(options: ShadowOptions): Promise<Shadow> {
  const upstream = options.upstream.replace(/\/+$/, '');
  const publicUrl = options.publicUrl?.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const captureLimit = options.captureBytes ?? 1024 * 1024;
  const dispatcher = new Agent({ keepAliveTimeout: 10_000, connections: 256 });

  // --- the replay thread
  const worker = replayThread({
    upstream,
    webhooks: publicUrl !== undefined,
    waitMs: options.webhookWaitMs ?? 10_000,
    lateMs: options.lateAfterMs ?? 2_000,
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    timeoutMs,
    lowPriority: options.lowPriority ?? false,
    ...(options.contracts !== undefined ? { contracts: options.contracts } : {}),
    ...(options.contractVersion !== undefined ? { contractVersion: options.contractVersion } : {}),
  });
  const answers = new Map<number, (value: unknown) => void>();
  let nextAsk = 0;
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (m: ShadowReply) => {
      if (m.type === 'ready') resolve();
      else if (m.type === 'failed') reject(new Error(m.error));
      else {
        answers.get(m.id)?.(m.value);
        answers.delete(m.id);
      }
    });
    worker.once('error', reject);
  });
  // what the proxy tells the replay thread goes over in one message per turn of the event loop:
  // one structured clone of many exchanges costs far less than one of each
  let outbox: ShadowRequest[] = [];
  const flush = () => {
    const batch = outbox;
    outbox = [];
    worker.postMessage(batch);
  };
  const tell = (m: ShadowRequest) => {
    if (outbox.push(m) === 1) setImmediate(flush);
  };
  const ask = <T>(m: (id: number) => ShadowRequest): Promise<T> =>
    new Promise((resolve) => {
      const id = ++nextAsk;
      answers.set(id, resolve as (v: unknown) => void);
      tell(m(id));
    });
  await ready;

  // --- the public listener: the partner's requests, and the upstream's deliveries
  /** The shadow's receiver paths (one per registration) → the partner's own URL. */
  const registrations = new Map<string, string>();
  /** Requests with the upstream now, by index: their arrival instants. */
  const inFlight = new Map<number, number>();
  const pending = new Set<Promise<void>>();
  let sequence = 0;

  // the upstream's clock, read once with the partner's first credentials before that request goes
  // on (a replay running behind would read it after the partner had moved it)
  let clockRead: Promise<void> | undefined;
  let clockKnown = false;
  async function readUpstreamClock(headers: IncomingMessage['headers']): Promise<void> {
    const auth: Record<string, string> = {};
    for (const k of ['x-partner-client-id', 'x-partner-client-secret']) if (typeof headers[k] === 'string') auth[k] = headers[k];
    let read: UpstreamClockRead | null = null;
    try {
      const atWallMs = Date.now();
      const res = await undiciRequest(`${upstream}/_sandbox/clock`, {
        headers: auth,
        dispatcher,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const clock = (await res.body.json().catch(() => undefined)) as { now?: unknown; frozen?: unknown } | undefined;
      if (res.statusCode === 200 && typeof clock?.now === 'string' && typeof clock.frozen === 'boolean')
        read = { now: clock.now, frozen: clock.frozen, atWallMs };
    } catch {
      // no clock controls upstream (or none reachable): each exchange stands at its arrival instant
    }
    tell({ type: 'clock', read });
    clockKnown = true;
  }

  async function proxy(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!clockKnown) {
      if (clockRead === undefined && (req.headers['x-partner-client-id'] !== undefined || req.headers.authorization !== undefined))
        clockRead = readUpstreamClock(req.headers);
      if (clockRead) await clockRead;
    }
    const index = ++sequence;
    const arrivedAt = Date.now();
    inFlight.set(index, arrivedAt);
    const path = (req.url ?? '/').split('?')[0];
    let registration: SeenExchange['registration'];
    const rewrite =
      req.method === 'POST' && path === WEBHOOK_PATH && publicUrl !== undefined
        ? (body: Buffer): Buffer => {
            try {
              const json = JSON.parse(body.toString('utf8')) as { url?: unknown };
              if (typeof json?.url !== 'string') return body;
              const hook = randomBytes(18).toString('base64url');
              registrations.set(hook, json.url);
              registration = { hook, partnerUrl: json.url };
              return Buffer.from(JSON.stringify({ ...json, url: `${publicUrl}${HOOKS}${hook}` }));
            } catch {
              return body;
            }
          }
        : undefined;
    const sent = new Capture(captureLimit);
    try {
      const answer = await forward(req, res, sent, { upstream, dispatcher, timeoutMs, captureLimit, rewrite });
      const exchange: SeenExchange = {
        index,
        arrivedAt,
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: passOn(req.headers),
        body: sent.bytes(),
        bodyComplete: sent.complete,
        ...(registration ? { registration } : {}),
        upstream: {
          status: answer.status,
          headers: answer.headers,
          body: answer.body.bytes(),
          bodyComplete: answer.body.complete,
          ms: answer.ms,
        },
      };
      tell({ type: 'exchange', exchange });
    } catch {
      tell({ type: 'skip', index });
    } finally {
      inFlight.delete(index);
    }
  }

  /** A delivery from the upstream: forwarded to the partner's URL of its registration, and recorded. */
  async function delivery(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const hook = (req.url ?? '').slice(HOOKS.length).split('?')[0];
    const partnerUrl = registrations.get(hook);
    if (req.method !== 'POST' || partnerUrl === undefined) {
      tell({ type: 'refused' });
      req.resume(); // whatever a stranger sends is read past, never kept
      return answerError(
        res,
        new ApiError('route_not_found', { message: 'No webhook registration of this shadow has this receiver path' }),
      );
    }
    const at = Date.now();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const headers = passOn(req.headers);
    tell({ type: 'delivery', delivery: { hook, at, headers, body } });
    try {
      const forwarded = await undiciRequest(partnerUrl, {
        method: 'POST',
        headers,
        body,
        dispatcher,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      res.writeHead(forwarded.statusCode, passOn(forwarded.headers));
      res.end(Buffer.from(await forwarded.body.arrayBuffer()));
    } catch {
      // the partner's receiver is down: the upstream sees what it would have seen
      res.writeHead(502).end();
    }
  }

  const publicServer = createServer((req, res) => {
    const work = (req.url ?? '').startsWith(HOOKS) ? delivery(req, res) : proxy(req, res);
    const done: Promise<void> = work.catch(() => void res.destroy()).finally(() => pending.delete(done));
    pending.add(done);
  });
  publicServer.keepAliveTimeout = 10_000;
  const url = await listen(publicServer, options.host ?? '127.0.0.1', options.port ?? 0);

  // while nothing waits, the replay thread's clock follows the upstream's (never past a request still with it)
  const ticker = setInterval(() => {
    let floor: number | undefined;
    for (const at of inFlight.values()) floor = floor === undefined ? at : Math.min(floor, at);
    tell({ type: 'tick', now: Date.now(), inFlightFloor: floor });
  }, 100);
  ticker.unref();

  // --- the report listener
  const TYPES: Record<ReportFormat, string> = {
    json: 'application/json; charset=utf-8',
    junit: 'application/xml; charset=utf-8',
    html: 'text/html; charset=utf-8',
  };
  async function settled(): Promise<void> {
    while (pending.size > 0) await Promise.all([...pending]);
    await ask((id) => ({ type: 'settled', id, upTo: sequence }));
  }
  // a Fastify app of its own: the two reads route and validate like obsim's (the one error shape)
  let reportServer!: Server;
  const reportApp = Fastify({
    logger: false,
    serverFactory: (handler) => (reportServer = createServer(handler)),
  });
  reportApp.setErrorHandler((err: FastifyError, _request, reply) => {
    const apiErr = err.validation
      ? validationToApiError(err.validation as ErrorObject[], err.validationContext ?? 'querystring')
      : new ApiError('internal_error');
    return reply.code(apiErr.status).type('application/json; charset=utf-8').send(errorBody(apiErr, 'shadow'));
  });
  reportApp.setNotFoundHandler((request, reply) => {
    const known = ['/_shadow/report', '/_shadow/exchanges'].includes(request.url.split('?')[0]);
    const apiErr = known
      ? new ApiError('method_not_allowed')
      : new ApiError('route_not_found', { message: 'The report listener serves /_shadow/report and /_shadow/exchanges' });
    return reply.code(apiErr.status).type('application/json; charset=utf-8').send(errorBody(apiErr, 'shadow'));
  });
  reportApp.get<{ Querystring: { format: ReportFormat } }>(
    '/_shadow/report',
    { schema: { querystring: { type: 'object', properties: { format: { type: 'string', enum: Object.keys(TYPES), default: 'json' } } } } },
    async (request, reply) => {
      const { format } = request.query;
      await settled();
      const text = await ask<string>((id) => ({ type: 'render', id, format }));
      return reply.type(TYPES[format]).send(text);
    },
  );
  reportApp.get<{ Querystring: { format: 'json' | 'har'; side: HarSide } }>(
    '/_shadow/exchanges',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            format: { type: 'string', enum: ['json', 'har'], default: 'json' },
            side: { type: 'string', enum: ['upstream', 'obsim'], default: 'upstream' },
          },
        },
      },
    },
    async (request, reply) => {
      const { format, side } = request.query;
      await settled();
      const value = await ask((id) => (format === 'har' ? { type: 'har', id, side } : { type: 'exchanges', id }));
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(value));
    },
  );
  await reportApp.ready();
  const reportBase = await listen(reportServer, options.reportHost ?? '127.0.0.1', options.reportPort ?? 0);

  let closed: Promise<void> | undefined;
  return {
    url,
    reportUrl: `${reportBase}/_shadow/report`,
    report: async () => {
      await settled();
      return ask<DriftReport>((id) => ({ type: 'report', id }));
    },
    render: async (format) => {
      await settled();
      return ask<string>((id) => ({ type: 'render', id, format }));
    },
    exchanges: async () => {
      await settled();
      return ask((id) => ({ type: 'exchanges', id }));
    },
    har: async (side = 'upstream') => {
      await settled();
      return ask<object>((id) => ({ type: 'har', id, side }));
    },
    settled,
    close() {
      // once: a second call waits for the first
      closed ??= (async () => {
        clearInterval(ticker);
        const closing = [publicServer, reportServer].map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
        publicServer.closeAllConnections();
        reportServer.closeAllConnections();
        await Promise.all(closing);
        await ask((id) => ({ type: 'close', id }));
        await worker.terminate();
        await dispatcher.close();
      })();
      return closed;
    },
  };
}
