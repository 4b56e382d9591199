/**
 * The shadow as a transparent proxy (docs/drift.md, "A transparent proxy"), for requests and
 * answers a partner's HTTP client really sends: each one made once straight to the upstream and
 * once through the shadow, and the two compared byte for byte (status line, every header line but
 * the hop-by-hop ones and Date, the body). Also: a delivery to a receiver path the shadow did not
 * hand out is refused and counted; what the shadow keeps stays within its byte budget.
 */
import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { request } from 'undici';
import { startShadow } from '../../src/shadow/shadow.js';
import { startForeignProvider } from '../helpers/foreign/provider.js';
import { startReceiver } from '../helpers/receiver.js';

interface Raw {
  status: number;
  /** Header lines as they came, lower-cased names, without the hop's own. */
  lines: string[];
  body: Buffer;
}

const HOP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** One request over a fresh connection; the answer as it came over the wire. */
function send(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer; expectContinue?: boolean } = {},
): Promise<Raw & { continued: boolean; chunked: boolean }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, base);
    let continued = false;
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: options.method ?? 'GET',
        headers: options.headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const lines: string[] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i].toLowerCase();
            if (!HOP.has(name)) lines.push(`${name}: ${res.rawHeaders[i + 1]}`);
          }
          resolve({
            status: res.statusCode!,
            lines,
            body: Buffer.concat(chunks),
            continued,
            chunked: res.headers['transfer-encoding'] === 'chunked',
          });
        });
      },
    );
    req.on('error', reject);
    if (options.expectContinue) {
      req.on('continue', () => {
        continued = true;
        req.end(options.body);
      });
    } else req.end(options.body);
  });
}

type Answer = (req: IncomingMessage, body: Buffer, res: ServerResponse) => void;

/** An upstream each test programs; it keeps what it was sent. */
async function upstreamOf(t: { teardown(fn: () => unknown): void }, answer: Answer) {
  const seen: { method: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      // the shadow asks for the clock before the partner's first request: not the partner's
      if (req.url === '/_sandbox/clock') return void res.writeHead(404).end();
      seen.push({ method: req.method!, headers: req.headers, body });
      answer(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function shadowOf(
  t: { teardown(fn: () => unknown): void },
  upstream: string,
  extra: Parameters<typeof startShadow>[0] = { upstream },
) {
  const shadow = await startShadow({ ...extra, upstream });
  t.teardown(() => shadow.close());
  return shadow;
}

const PARTNER = { 'x-partner-client-id': 'partner-1', 'x-partner-client-secret': 'secret-1' };

t.test('two Set-Cookie headers reach the partner as two lines, as the upstream sent them', async (t) => {
  const double = await startForeignProvider();
  t.teardown(() => double.close());
  const shadow = await shadowOf(t, double.url);
  const headers = { 'x-partner-client-id': double.partner.clientId, 'x-partner-client-secret': double.partner.clientSecret };
  const direct = await send(double.url, '/_sandbox/clock', { headers });
  const via = await send(shadow.url, '/_sandbox/clock', { headers });
  t.equal(direct.lines.filter((l) => l.startsWith('set-cookie:')).length, 2, 'the double sends two');
  const cookies = (r: Raw) => r.lines.filter((l) => l.startsWith('set-cookie:')).map((l) => l.replace(/=[0-9a-f]{16};/, '=…;'));
  t.same(cookies(via), cookies(direct), 'two lines through the shadow, each as sent');
  t.equal(via.status, direct.status);
});

t.test('Expect: 100-continue with a 2 KB body (what curl sends): continued here, the body reaches the upstream', async (t) => {
  const upstream = await upstreamOf(t, (_req, body, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ got: body.length })),
  );
  const shadow = await shadowOf(t, upstream.url);
  const body = Buffer.from(JSON.stringify({ merchantClientId: 'm', amount: 1, referenceNumber: 'x'.repeat(2000) }));
  const headers = { ...PARTNER, 'content-type': 'application/json', 'content-length': String(body.length), expect: '100-continue' };
  const direct = await send(upstream.url, '/v1/partner/payments', { method: 'POST', headers, body, expectContinue: true });
  const via = await send(shadow.url, '/v1/partner/payments', { method: 'POST', headers, body, expectContinue: true });
  t.equal(via.continued, true, 'the shadow answered 100 Continue');
  t.same(
    { status: via.status, lines: via.lines, body: via.body.toString() },
    { status: direct.status, lines: direct.lines, body: direct.body.toString() },
  );
  t.equal(upstream.seen[1].body.equals(body), true, 'the upstream got the body, byte for byte');
});

t.test('HEAD: the Content-Length the upstream gives, and no body', async (t) => {
  const upstream = await upstreamOf(t, (req, _body, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '12345', etag: '"v1"' });
    res.end(req.method === 'HEAD' ? undefined : 'x'.repeat(12345));
  });
  const shadow = await shadowOf(t, upstream.url);
  const direct = await send(upstream.url, '/v1/partner/merchants', { method: 'HEAD', headers: PARTNER });
  const via = await send(shadow.url, '/v1/partner/merchants', { method: 'HEAD', headers: PARTNER });
  t.ok(via.lines.includes('content-length: 12345'));
  t.same(via, direct);
});

t.test('a chunked answer streams through in its chunks, the same bytes', async (t) => {
  const upstream = await upstreamOf(t, (_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const parts = ['{"items":[', '{"merchantId":1}', ',{"merchantId":2}', '],"total":2}'];
    const next = () => (parts.length ? res.write(parts.shift(), () => setImmediate(next)) : res.end());
    next();
  });
  const shadow = await shadowOf(t, upstream.url);
  const direct = await send(upstream.url, '/v1/partner/merchants', { headers: PARTNER });
  const via = await send(shadow.url, '/v1/partner/merchants', { headers: PARTNER });
  t.equal(direct.chunked, true);
  t.equal(via.chunked, true, 'chunked to the partner too (no length invented)');
  t.same({ ...via, continued: false }, { ...direct, continued: false });
});

t.test('bodies larger than the shadow captures (3 MiB each way): streamed whole, not replayed, said so', async (t) => {
  const big = randomBytes(3 * 1024 * 1024);
  const upstream = await upstreamOf(t, (_req, body, res) =>
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.concat([body, body.subarray(0, 17)])),
  );
  const shadow = await shadowOf(t, upstream.url);
  const headers = { ...PARTNER, 'content-type': 'application/octet-stream', 'content-length': String(big.length) };
  const direct = await send(upstream.url, '/v1/partner/payments', { method: 'POST', headers, body: big });
  const via = await send(shadow.url, '/v1/partner/payments', { method: 'POST', headers, body: big });
  t.equal(upstream.seen[1].body.equals(big), true, 'the upstream got all 3 MiB through the shadow');
  t.equal(via.body.length, big.length + 17);
  t.equal(via.body.equals(direct.body), true, 'the partner got every byte back');
  t.same(via.lines, direct.lines);
  await shadow.settled();
  const [exchange] = (await shadow.report()).exchanges;
  t.match(exchange, { verdict: 'uncomparable', reason: /larger than the shadow captures/ });
});

t.test('a delivery to a receiver path the shadow did not hand out: refused, counted, not forwarded', async (t) => {
  const upstream = await upstreamOf(t, (_req, _body, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"hook-1","url":"x","events":["payment.completed"],"secret":"s"}'),
  );
  const rx = await startReceiver(t);
  const shadow = await shadowOf(t, upstream.url, { upstream: upstream.url, publicUrl: 'http://127.0.0.1:1' });
  await request(`${shadow.url}/v1/partner/webhooks`, {
    method: 'POST',
    headers: { ...PARTNER, 'content-type': 'application/json' },
    body: JSON.stringify({ url: rx.url, events: ['payment.completed'] }),
  }).then((r) => r.body.dump());
  const registered = JSON.parse(upstream.seen.at(-1)!.body.toString()) as { url: string };
  t.match(registered.url, /^http:\/\/127\.0\.0\.1:1\/_shadow\/hooks\/[\w-]{24}$/, 'the upstream was given an unguessable path');
  for (const guess of ['/_shadow/hooks/1', '/_shadow/hooks/', `${new URL(registered.url).pathname}x`]) {
    const res = await request(`${shadow.url}${guess}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"event":"payment.completed"}',
    });
    t.equal(res.statusCode, 404, `${guess}: refused`);
    t.match(await res.body.json(), { status: 404, code: 'route_not_found' });
  }
  const report = await shadow.report();
  t.equal(report.summary.refusedDeliveries, 3, 'each counted in the report');
  t.equal(rx.received.length, 0, "nothing reached the partner's receiver");
});

t.test('what the shadow keeps stays within its budget; the report says how much was not kept', async (t) => {
  const upstream = await upstreamOf(t, (_req, body, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: body.toString() })),
  );
  const maxBytes = 256 * 1024;
  const shadow = await shadowOf(t, upstream.url, { upstream: upstream.url, maxBytes });
  const payload = JSON.stringify({ note: 'x'.repeat(4000) });
  const post = async () => {
    const res = await request(`${shadow.url}/v1/partner/payments`, {
      method: 'POST',
      headers: { ...PARTNER, 'content-type': 'application/json' },
      body: payload,
    });
    await res.body.dump();
    return res.statusCode;
  };
  // one after another, each replayed before the next: every one replayed, the oldest kept ones dropped
  for (let i = 0; i < 100; i++) {
    t.equal(await post(), 200);
    await shadow.settled();
  }
  let { budget, notReplayed } = (await shadow.report()).summary;
  t.equal(budget.maxBytes, maxBytes);
  t.equal(notReplayed, 0);
  t.ok(budget.keptBytes + budget.idMapBytes <= maxBytes, `kept ${budget.keptBytes} + ${budget.idMapBytes} bytes <= ${maxBytes}`);
  t.ok(budget.notKept.exchanges > 0, `${budget.notKept.exchanges} exchanges not kept, said in the report`);
  let { items } = (await shadow.exchanges()) as { items: unknown[] };
  t.equal(items.length, 100 - budget.notKept.exchanges, 'the newest kept');
  // a hundred at once: faster than the replay, past the backlog's bound (a quarter of the budget)
  t.same(new Set(await Promise.all(Array.from({ length: 100 }, post))), new Set([200]), 'every partner answered');
  ({ budget, notReplayed } = (await shadow.report()).summary);
  ({ items } = await shadow.exchanges());
  t.ok(budget.keptBytes + budget.idMapBytes <= maxBytes, `still within the budget (${budget.keptBytes} bytes)`);
  t.equal(
    items.length,
    200 - budget.notKept.exchanges - notReplayed,
    'every exchange kept, dropped as the oldest, or counted as not replayed',
  );
});
