/**
 * Hostile webhook receivers: one that hangs, trickles a byte a second, answers 500 / 301 / 410,
 * resets the connection, or streams a 50 MB body. Figures:
 *   - each delivery recorded with its own outcome within the time limit (+ slack);
 *   - exactly one attempt each (no automatic retries, even after time passes);
 *   - while 50 deliveries hang, the API's p99 latency stays near its unloaded value (within 20%
 *     in `npm run test:long`, a looser bound in npm test), and a delivery to a healthy receiver
 *     is not delayed by the hanging ones.
 * npm test uses a short delivery time limit (the worker's injectable timeout); the default is
 * checked to be 10 s.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { DELIVERY_TIMEOUT_MS } from '../../src/webhooks/post.js';
import { build, json, PARTNER } from '../helpers/app.js';
import { scaled } from '../helpers/speed.js';

const LONG = process.env.OBSIM_LONG === '1';
const LIMIT_MS = 1_500;
t.setTimeout(scaled(LONG ? 900_000 : 180_000));

interface Hostile {
  url: (path: string) => string;
  hits: Map<string, number>;
  receivedAt: Map<string, number>;
  /** Answer every request still hanging (200) so its delivery completes. */
  release(): void;
}

async function hostile(t: { teardown(fn: () => unknown): void }): Promise<Hostile> {
  const hits = new Map<string, number>();
  const receivedAt = new Map<string, number>();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const hanging = new Set<ServerResponse>();
  const big = Buffer.alloc(1024 * 1024, 'b');
  const server = createServer((req, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    receivedAt.set(path, performance.now());
    req.resume();
    switch (path) {
      case '/hang':
        hanging.add(res);
        return; // never answers (until released)
      case '/trickle': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const timer = setInterval(() => res.write('x'), 1000);
        timers.add(timer);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case '/500':
        res.writeHead(500).end('boom');
        return;
      case '/301':
        res.writeHead(301, { location: 'http://127.0.0.1:1/elsewhere' }).end();
        return;
      case '/410':
        res.writeHead(410).end('gone');
        return;
      case '/reset':
        req.socket.resetAndDestroy();
        return;
      case '/big': {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(50 * big.length) });
        let sent = 0;
        const pump = () => {
          while (sent < 50) {
            sent++;
            if (!res.write(big)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => (sent = 50));
        pump();
        return;
      }
      default:
        res.end('ok');
    }
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(
    () =>
      new Promise<void>((r) => {
        for (const timer of timers) clearInterval(timer);
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  );
  const port = (server.address() as AddressInfo).port;
  const release = () => {
    for (const res of hanging) res.end('late');
    hanging.clear();
  };
  return { url: (p) => `http://127.0.0.1:${port}${p}`, hits, receivedAt, release };
}

async function webhook(app: FastifyInstance, url: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/partner/webhooks',
    headers: PARTNER,
    payload: { url, events: ['merchant.activated'] },
  });
  if (res.statusCode !== 200) throw new Error(`webhook: ${res.statusCode} ${res.body}`);
  return json(res).id as string;
}

async function fire(app: FastifyInstance, id: string) {
  const res = await app.inject({ method: 'POST', url: `/v1/partner/webhooks/${id}/test`, headers: PARTNER });
  if (res.statusCode >= 300) throw new Error(`test delivery: ${res.statusCode} ${res.body}`);
}

interface Row {
  url: string;
  state: string;
  outcome: string | null;
  status_code: number | null;
  duration_ms: number | null;
}

t.test('the default delivery time limit is 10 s', async (t) => {
  t.equal(DELIVERY_TIMEOUT_MS, 10_000);
});

t.test('each hostile receiver: its own outcome, within the limit, one attempt', async (t) => {
  const rx = await hostile(t);
  const app = await build(t, { webhookTimeoutMs: LIMIT_MS });
  const expected: Record<string, { outcome: string; status: number | null }> = {
    '/hang': { outcome: 'timeout', status: null },
    '/trickle': { outcome: 'timeout', status: null },
    '/500': { outcome: 'non_2xx', status: 500 },
    '/301': { outcome: 'redirect', status: 301 },
    '/410': { outcome: 'non_2xx', status: 410 },
    '/reset': { outcome: 'connection_reset', status: null },
    '/big': { outcome: 'delivered', status: 200 },
    '/ok': { outcome: 'delivered', status: 200 },
  };
  const ids: Record<string, string> = {};
  for (const path of Object.keys(expected)) ids[path] = await webhook(app, rx.url(path));
  const started = performance.now();
  for (const path of Object.keys(expected)) await fire(app, ids[path]);
  await app.webhooks.drain();
  const elapsed = performance.now() - started;

  const rows = app.db.prepare('SELECT url, state, outcome, status_code, duration_ms FROM deliveries ORDER BY id').all() as Row[];
  t.equal(rows.length, Object.keys(expected).length, 'one delivery row per receiver');
  let right = 0;
  for (const [path, want] of Object.entries(expected)) {
    const row = rows.find((r) => r.url === rx.url(path));
    const ok =
      row?.outcome === want.outcome && row.status_code === want.status && row.duration_ms !== null && row.duration_ms <= LIMIT_MS + 1_000;
    if (ok) right++;
    t.ok(
      ok,
      `${path}: ${row?.outcome} ${row?.status_code ?? ''} in ${row?.duration_ms} ms (want ${want.outcome} ${want.status ?? ''} within ${LIMIT_MS} ms + 1 s)`,
    );
  }
  t.ok(
    elapsed < LIMIT_MS + 3_000,
    `all recorded ${Math.round(elapsed)} ms after the first was due (limit ${LIMIT_MS} ms): they ran concurrently`,
  );

  // no automatic retries, not even after a day passes on the virtual clock
  app.clock.advance(86_400_000);
  await app.webhooks.drain();
  await new Promise((r) => setTimeout(r, 300));
  const attempts = Object.keys(expected).map((p) => rx.hits.get(p) ?? 0);
  t.same(
    attempts,
    Object.keys(expected).map(() => 1),
    'exactly one attempt per receiver',
  );
  t.comment(
    `hostile receivers: ${right}/${Object.keys(expected).length} recorded with their own outcome within ${LIMIT_MS} ms + 1 s; attempts per receiver ${JSON.stringify(Object.fromEntries(Object.keys(expected).map((p) => [p, rx.hits.get(p) ?? 0])))}`,
  );
});

function median(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function p99(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)];
}

async function measure(url: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/v1/partner/merchants?limit=5`, { headers: PARTNER });
    await res.arrayBuffer();
    out.push(performance.now() - t0);
  }
  return out;
}

t.test('50 hanging deliveries: API latency unchanged, a healthy receiver not delayed', async (t) => {
  const rx = await hostile(t);
  const app = await build(t, { webhookTimeoutMs: 60_000 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const hang = await webhook(app, rx.url('/hang'));
  const ok = await webhook(app, rx.url('/ok'));
  const n = LONG ? 2000 : 300;

  await measure(url, 50); // warm up
  const unloadedSamples = await measure(url, n);
  const unloaded = p99(unloadedSamples);
  for (let i = 0; i < 50; i++) await fire(app, hang);
  await new Promise((r) => setTimeout(r, 200));
  const hanging = app.db.prepare("SELECT count(*) FROM deliveries WHERE state = 'delivering'").pluck().get() as number;
  t.equal(hanging, 50, '50 deliveries hanging');

  const sent = performance.now();
  await fire(app, ok);
  for (let i = 0; i < 100 && !rx.receivedAt.has('/ok'); i++) await new Promise((r) => setTimeout(r, 10));
  const okDelay = (rx.receivedAt.get('/ok') ?? Infinity) - sent;
  t.ok(okDelay < 500, `the healthy receiver got its delivery ${Math.round(okDelay)} ms after the event (50 hanging)`);

  const loadedSamples = await measure(url, n);
  const loaded = p99(loadedSamples);
  t.equal(
    app.db.prepare("SELECT count(*) FROM deliveries WHERE state = 'delivering'").pluck().get(),
    50,
    'still 50 hanging while measuring',
  );
  // baseline drift on a shared machine: measure unloaded again once the hanging ones are released
  rx.release();
  await app.webhooks.drain();
  const afterSamples = await measure(url, n);
  const baseline = (unloaded + p99(afterSamples)) / 2;
  const ratio = loaded / baseline;
  const medLoaded = median(loadedSamples);
  const medBase = (median(unloadedSamples) + median(afterSamples)) / 2;
  t.comment(
    `hostile receivers: API p99 unloaded ${baseline.toFixed(2)} ms (before ${unloaded.toFixed(2)}, after ${p99(afterSamples).toFixed(2)}), ` +
      `with 50 hanging deliveries ${loaded.toFixed(2)} ms (x${ratio.toFixed(2)}; median ${medBase.toFixed(2)} -> ${medLoaded.toFixed(2)} ms; ${n} requests each); healthy delivery after ${Math.round(okDelay)} ms`,
  );
  if (LONG) {
    t.ok(loaded <= baseline * 1.2 + 1, `p99 ${loaded.toFixed(2)} ms within 20% (+1 ms) of ${baseline.toFixed(2)} ms`);
  } else {
    // npm test: a loose bound (a shared CI machine makes p99 of a few hundred requests noisy)
    t.ok(medLoaded <= medBase * 2 + 5, `median ${medLoaded.toFixed(2)} ms within 2x + 5 ms of ${medBase.toFixed(2)} ms`);
    t.ok(
      loaded <= Math.max(baseline * 3, baseline + 50),
      `p99 ${loaded.toFixed(2)} ms within max(3x, +50 ms) of ${baseline.toFixed(2)} ms`,
    );
  }
  t.equal(rx.hits.get('/hang'), 50, 'each hanging delivery attempted once');
});

t.test(
  'with the default limit, a hanging receiver is recorded as a timeout after ~10 s (long mode)',
  { skip: !LONG && 'long mode only (OBSIM_LONG=1)' },
  async (t) => {
    const rx = await hostile(t);
    const app = await build(t);
    await fire(app, await webhook(app, rx.url('/hang')));
    const started = performance.now();
    await app.webhooks.drain();
    const elapsed = performance.now() - started;
    const row = app.db.prepare('SELECT outcome, duration_ms FROM deliveries').get() as Row;
    t.equal(row.outcome, 'timeout');
    t.ok(row.duration_ms! >= 10_000 && row.duration_ms! < 11_000, `recorded after ${row.duration_ms} ms`);
    t.comment(
      `hostile receivers: default limit, hanging receiver recorded as timeout after ${row.duration_ms} ms (${Math.round(elapsed)} ms wall)`,
    );
  },
);
