/**
 * A local webhook receiver: an HTTP server that records every POST it gets (path, headers,
 * exact body bytes). Used by `obsim scenario run --receiver` (the runner registers its URL) and
 * by `obsim listen`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  /** Sequence number within this receiver, from 1. */
  seq: number;
  method: string;
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: string;
  receivedAt: string;
}

export interface Receiver {
  /** Base URL, e.g. http://127.0.0.1:43210 */
  url: string;
  deliveries: ReceivedDelivery[];
  close(): Promise<void>;
}

export interface ReceiverOptions {
  host?: string;
  port?: number;
  /** Called for each delivery; its answer (status, body) is sent back. Default: 200 `{"received":true}`. */
  onDelivery?: (d: ReceivedDelivery) => Promise<{ status: number; body?: string }> | { status: number; body?: string } | void;
  maxBodyBytes?: number;
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const deliveries: ReceivedDelivery[] = [];
  const max = options.maxBodyBytes ?? 1_048_576;
  let seq = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= max) chunks.push(c);
    });
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const d: ReceivedDelivery = {
        seq: ++seq,
        method: req.method ?? 'POST',
        path: req.url ?? '/',
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: new Date().toISOString(),
      };
      deliveries.push(d);
      Promise.resolve(options.onDelivery?.(d))
        .then((answer) => {
          res.writeHead(answer?.status ?? 200, { 'content-type': 'application/json' });
          res.end(answer?.body ?? '{"received":true}');
        })
        .catch(() => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end('{"received":false}');
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${addr.port}`,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
