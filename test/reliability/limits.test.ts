/**
 * The server limits chosen in src/app.ts (README "Reliability and security" / Limits), checked on
 * a listening server: body over 1 MiB -> 413, headers over 16 KiB -> 431, a request that is not
 * received completely within 30 s -> 408 (long mode only: it takes 30-60 s), all in ErrorBody,
 * and the server keeps answering.
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { build, PARTNER, schemaErrors } from '../helpers/app.js';
import { scaled } from '../helpers/speed.js';

const LONG = process.env.OBSIM_LONG === '1';
t.setTimeout(scaled(LONG ? 300_000 : 60_000));

function raw(port: number, request: string, opts: { keepOpen?: boolean } = {}): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4), ms: Date.now() - started });
    });
    socket.on('connect', () => (opts.keepOpen ? socket.write(request, 'latin1') : socket.end(request, 'latin1')));
    setTimeout(() => reject(new Error('no answer')), LONG ? 120_000 : 30_000).unref();
  });
}

t.test('bodyLimit 1 MiB and requestTimeout 30 s are set deliberately', async (t) => {
  const app = await build(t);
  t.equal(app.initialConfig.bodyLimit, 1_048_576);
  t.equal((app.initialConfig as { requestTimeout?: number }).requestTimeout, 30_000);
  t.equal(app.server.requestTimeout, 30_000, 'the Node server enforces it');
});

t.test('over the limits on a real socket: ErrorBody, and the server keeps answering', async (t) => {
  const app = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const creds = `X-Partner-Client-Id: ${PARTNER['x-partner-client-id']}\r\nX-Partner-Client-Secret: ${PARTNER['x-partner-client-secret']}\r\n`;

  const big = JSON.stringify({ companyName: 'x'.repeat(1_100_000), contactEmail: 'a@b.test' });
  const tooBig = await raw(
    port,
    `POST /v1/partner/merchants HTTP/1.1\r\nHost: x\r\n${creds}Content-Type: application/json\r\nContent-Length: ${big.length}\r\nConnection: close\r\n\r\n${big}`,
  );
  t.equal(tooBig.status, 413, 'body over 1 MiB: 413');
  t.match(JSON.parse(tooBig.body), { code: 'payload_too_large' });
  t.same(schemaErrors('ErrorBody', JSON.parse(tooBig.body)), []);

  const lying = await raw(
    port,
    `POST /v1/partner/merchants HTTP/1.1\r\nHost: x\r\n${creds}Content-Type: application/json\r\nContent-Length: 5000000\r\nConnection: close\r\n\r\n{}`,
  );
  t.equal(lying.status, 413, 'a Content-Length over 1 MiB is refused before the body arrives');

  const headers = await raw(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(17_000)}\r\nConnection: close\r\n\r\n`);
  t.equal(headers.status, 431, 'headers over 16 KiB: 431');
  t.match(JSON.parse(headers.body), { code: 'headers_too_large' });

  const count = app.db.prepare('SELECT count(*) FROM merchants').pluck().get();
  t.equal((await raw(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status, 200, 'still answering');
  t.equal(app.db.prepare('SELECT count(*) FROM merchants').pluck().get(), count, 'nothing was created');
});

t.test(
  'a request never finished is answered 408 after the 30 s request timeout (long mode)',
  { skip: !LONG && 'long mode only (OBSIM_LONG=1)' },
  async (t) => {
    const app = await build(t);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    // headers complete, body promised but never sent (slowloris)
    // (Node checks request timeouts every 30 s, so the answer comes 30-60 s after the start)
    const creds = `X-Partner-Client-Id: ${PARTNER['x-partner-client-id']}\r\nX-Partner-Client-Secret: ${PARTNER['x-partner-client-secret']}\r\n`;
    const slow = await raw(
      port,
      `POST /v1/partner/merchants HTTP/1.1\r\nHost: x\r\n${creds}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"compa`,
      { keepOpen: true },
    );
    t.ok(slow.ms >= 29_000 && slow.ms < 70_000, `closed after ${slow.ms} ms`);
    t.comment(
      `limits: a request never finished was closed after ${slow.ms} ms (${slow.status || 'no answer'}) ${JSON.stringify(slow.body.slice(0, 400))}`,
    );
    t.equal(slow.status, 408);
    t.match(JSON.parse(slow.body), { code: 'request_timeout' });
    t.same(schemaErrors('ErrorBody', JSON.parse(slow.body)), []);
    t.equal((await raw(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status, 200, 'still answering');
  },
);
