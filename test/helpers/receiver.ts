/**
 * A real loopback webhook receiver for tests (not a test file: tap runs *.test.ts only).
 * Records the RAW body bytes and headers of every request; the answer is programmable.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  raw: Buffer;
  json: any;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, received: Received) => void;

export interface Receiver {
  url: string;
  server: Server;
  received: Received[];
  /** Resolves when `n` requests have arrived. */
  waitFor(n: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(t: { teardown(fn: () => unknown): void }, handler?: Handler): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: { n: number; resolve: (r: Received[]) => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch {
        parsed = undefined;
      }
      const r: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, json: parsed };
      received.push(r);
      for (const w of waiters.filter((w) => received.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(received.slice());
      }
      if (handler) handler(req, res, r);
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  t.teardown(close);
  return {
    url: `http://127.0.0.1:${port}/hook`,
    server,
    received,
    waitFor: (n) => (received.length >= n ? Promise.resolve(received.slice()) : new Promise((resolve) => waiters.push({ n, resolve }))),
    close,
  };
}

/** The signature a receiver computes: lowercase hex HMAC-SHA256 of the raw body. */
export function expectedSignature(secret: string, raw: Buffer | string): string {
  return createHmac('sha256', secret).update(raw).digest('hex');
}
