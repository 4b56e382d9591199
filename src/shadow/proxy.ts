/**
 * The shadow's partner side (docs/drift.md, "A transparent proxy"): the partner's request goes to
 * the upstream, and the upstream's answer to the partner, as each was sent. Bodies are streamed
 * both ways (no limit below the upstream's own); repeated headers stay repeated (each Set-Cookie
 * its own line); a compressed answer passes as it came; HEAD keeps its Content-Length; a client's
 * `Expect: 100-continue` is answered here (Node's server does), not passed to the upstream. Only
 * the hop-by-hop headers are the proxy's own.
 *
 * Beside the stream, a copy of each side's body is captured up to a limit, for the replay and the
 * comparison, which happen elsewhere (./worker.ts); nothing here parses or compares.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { request as undiciRequest, type Dispatcher } from 'undici';
import { ApiError, errorBody } from '../domain/errors.js';

/** Hop-by-hop headers (RFC 9110 7.6.1) and what each hop sets itself: never passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'host',
  'expect',
]);

export type HeaderMap = Record<string, string | string[]>;

/** A header list without the hop-by-hop ones, names in lower case, repeated ones as arrays. */
export function passOn(headers: Record<string, string | string[] | undefined>, keepLength = true): HeaderMap {
  const out: HeaderMap = {};
  for (const [k, v] of Object.entries(headers)) {
    const name = k.toLowerCase();
    if (v === undefined || HOP_BY_HOP.has(name) || (!keepLength && name === 'content-length')) continue;
    out[name] = v;
  }
  return out;
}

/** A capped copy of a stream's bytes: the whole, or its start and how much there was. */
export class Capture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;
  constructor(private readonly limit: number) {}
  add(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.kept >= this.limit) return;
    const part = this.kept + chunk.length > this.limit ? chunk.subarray(0, this.limit - this.kept) : chunk;
    this.chunks.push(part);
    this.kept += part.length;
  }
  get complete(): boolean {
    return this.total <= this.limit;
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }
}

export interface Proxied {
  status: number;
  headers: HeaderMap;
  /** The answer's bytes as sent (compressed if it was), capped. */
  body: Capture;
  ms: number;
}

export interface ForwardOptions {
  upstream: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
  captureLimit: number;
  /** A request body the proxy changes (a webhook registration's url), given whole. */
  rewrite?: (body: Buffer) => Buffer;
}

/**
 * Forward one request and stream the answer back. Resolves once the partner has the answer, with
 * what it was; rejects (having answered 502 upstream_unavailable) when the upstream cannot be
 * reached.
 */
export async function forward(req: IncomingMessage, res: ServerResponse, sent: Capture, options: ForwardOptions): Promise<Proxied> {
  const started = performance.now();
  const method = req.method ?? 'GET';
  const headers = passOn(req.headers);
  let body: PassThrough | Buffer | undefined;
  if (options.rewrite) {
    // a registration is small: read whole, changed, sent with its new length
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const original = Buffer.concat(chunks);
    body = options.rewrite(original);
    sent.add(original);
    headers['content-length'] = String(body.length);
  } else if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
    body = new PassThrough();
    req.on('data', (c: Buffer) => sent.add(c));
    req.pipe(body);
  }
  let answer: Dispatcher.ResponseData;
  try {
    answer = await undiciRequest(`${options.upstream}${req.url ?? '/'}`, {
      method: method,
      headers,
      body,
      dispatcher: options.dispatcher,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const failure = new ApiError('upstream_unavailable', {
      message: `The upstream ${options.upstream} could not be reached (${e.code ?? e.message}); nothing was sent to obsim either`,
    });
    if (!res.headersSent) res.writeHead(failure.status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(errorBody(failure, String(req.headers['x-request-id'] ?? 'shadow'))));
    throw err;
  }
  const answerHeaders = passOn(answer.headers);
  res.writeHead(answer.statusCode, answerHeaders);
  const received = new Capture(options.captureLimit);
  await new Promise<void>((resolve, reject) => {
    const stream = answer.body;
    // the first chunk is held until the answer ends or the next turn of the event loop, whichever
    // is first: a small answer (most are) then goes out with its headers in one write, and a
    // stream (server-sent events) is not held back
    let held: Buffer | undefined;
    const release = () => {
      if (held === undefined) return;
      const first = held;
      held = undefined;
      send(first);
    };
    const send = (chunk: Buffer) => {
      // the partner reads slower than the upstream sends: wait for it
      if (!res.write(chunk)) {
        stream.pause();
        res.once('drain', () => stream.resume());
      }
    };
    stream.on('data', (chunk: Buffer) => {
      received.add(chunk);
      if (received.total === chunk.length) {
        held = chunk;
        setImmediate(release);
        return;
      }
      release();
      send(chunk);
    });
    stream.once('end', () => {
      const last = held;
      held = undefined;
      res.end(last);
      resolve();
    });
    // the partner went away before the answer was whole: so does the upstream's
    res.once('close', () => {
      if (stream.readableEnded) return;
      stream.destroy();
      reject(new Error('the partner closed the connection before the answer was sent'));
    });
    stream.once('error', (err) => {
      // the upstream broke off: so does the partner's answer
      res.destroy(err);
      reject(err);
    });
  });
  return { status: answer.statusCode, headers: answerHeaders, body: received, ms: Math.round(performance.now() - started) };
}
