/**
 * How the runner talks to a simulator: over HTTP to a base URL (any running obsim: a local
 * process, a container) or in-process through Fastify's app.inject (tests, and the
 * POST /_sandbox/scenarios/run endpoint). Same runner, one small interface.
 */
import type { FastifyInstance } from 'fastify';
import { lazyRequire } from '../lazy.js';

/** undici is loaded when a scenario first talks HTTP (start-up time of `obsim serve`). */
const undici = lazyRequire<typeof import('undici')>('undici');

export interface TransportRequest {
  method: string;
  /** Path plus query string, starting with `/`. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface TransportResponse {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
}

export interface Transport {
  /** Shown in the run header, e.g. `http://127.0.0.1:4010` or `in-process`. */
  readonly description: string;
  request(req: TransportRequest): Promise<TransportResponse>;
}

function parseJson(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  if (contentType !== undefined && !/json/i.test(contentType)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function flatHeaders(h: Record<string, string | string[] | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

export function httpTransport(baseUrl: string, options: { timeoutMs?: number } = {}): Transport {
  const base = baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  return {
    description: base,
    async request(req) {
      let res;
      try {
        res = await undici().request(`${base}${req.path}`, {
          method: req.method as 'GET',
          headers: req.headers,
          body: req.body,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        throw new Error(`cannot reach ${base} (${e.code ?? e.message}); is the simulator running? (--base-url)`, { cause: err });
      }
      const text = await res.body.text();
      const headers = flatHeaders(res.headers);
      return { status: res.statusCode, headers, text, json: parseJson(text, headers['content-type']) };
    },
  };
}

export function injectTransport(app: FastifyInstance): Transport {
  return {
    description: 'in-process',
    async request(req) {
      const res = await app.inject({ method: req.method as 'GET', url: req.path, headers: req.headers, payload: req.body });
      const headers = flatHeaders(res.headers);
      return { status: res.statusCode, headers, text: res.body, json: parseJson(res.body, headers['content-type']) };
    },
  };
}
