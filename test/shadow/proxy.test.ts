/**
 * The shadow as the partner sees it (docs/drift.md, "Shadow mode"): the upstream's answer byte for
 * byte but for hop-by-hop headers; the partner's request reaching the upstream unchanged but for a
 * webhook registration's `url`; a request obsim refuses still reaching the upstream; 502
 * `upstream_unavailable` in the documented error shape; an upstream answering HTML or nothing is
 * uncomparable, never a crash; the upstream's deliveries forwarded to the partner's URL unchanged.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { request } from 'undici';
import { startObsim } from '../../src/index.js';
import { startShadow } from '../../src/shadow/shadow.js';
import { sign } from '../../src/webhooks/sign.js';
import { schemaErrors } from '../helpers/app.js';
import { freePorts } from '../helpers/cluster.js';
import { closedPort } from '../helpers/deliveries.js';
import { startReceiver } from '../helpers/receiver.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** An upstream that answers what each test says and keeps what it was sent. */
async function recordingUpstream(
  t: { teardown(fn: () => unknown): void },
  answer: (seen: Seen) => { status: number; headers: Record<string, string>; body: string },
) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      // the shadow asks for the clock before the partner's first request: not the partner's
      if (s.url !== '/_sandbox/clock') seen.push(s);
      const a = answer(s);
      res.writeHead(a.status, a.headers).end(a.headers['content-encoding'] ? Buffer.from(a.body, 'latin1') : a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const PARTNER = { 'x-partner-client-id': 'partner-live-1', 'x-partner-client-secret': 'not-obsims-secret' };

t.test("the upstream's answer, byte for byte; the partner's request, unchanged", async (t) => {
  const odd = '{ "paymentId" : 7,\n  "status":"pending" ,"extra": "kept as sent" }';
  const upstream = await recordingUpstream(t, () => ({
    status: 201,
    headers: { 'content-type': 'application/json', 'x-provider-trace': 'abc', connection: 'keep-alive', 'keep-alive': 'timeout=5' },
    body: odd,
  }));
  const shadow = await startShadow({ upstream: upstream.url });
  t.teardown(() => shadow.close());
  const body = '{"merchantClientId":"m-1","amount":12.5,  "referenceNumber":"r-1"}';
  const res = await request(`${shadow.url}/v1/partner/payments?x=1&y=two`, {
    method: 'POST',
    headers: { ...PARTNER, 'content-type': 'application/json', 'x-request-id': 'partner-req-1', 'x-custom': 'yes' },
    body,
  });
  t.equal(res.statusCode, 201);
  t.equal(await res.body.text(), odd, 'the bytes as the upstream sent them');
  t.equal(res.headers['x-provider-trace'], 'abc');
  t.equal(res.headers['keep-alive'] === 'timeout=5', false, 'hop-by-hop headers are the proxy’s own');
  const [sent] = upstream.seen;
  t.match(sent, { method: 'POST', url: '/v1/partner/payments?x=1&y=two', body });
  t.match(sent.headers, { ...PARTNER, 'x-request-id': 'partner-req-1', 'x-custom': 'yes', 'content-type': 'application/json' });
});

t.test('a compressed answer reaches the partner compressed and is compared by what it says', async (t) => {
  const json = JSON.stringify([{ merchantId: 1, companyName: 'Gzip ApS', status: 'activated' }]);
  const upstream = await recordingUpstream(t, (seen): { status: number; headers: Record<string, string>; body: string } =>
    seen.url === '/_sandbox/clock'
      ? { status: 404, headers: {}, body: '' }
      : {
          status: 200,
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          body: gzipSync(json).toString('latin1'),
        },
  );
  const shadow = await startShadow({ upstream: upstream.url });
  t.teardown(() => shadow.close());
  const res = await request(`${shadow.url}/v1/partner/merchants`, { headers: { ...PARTNER, 'accept-encoding': 'gzip' } });
  t.equal(res.headers['content-encoding'], 'gzip');
  t.equal(gunzipSync(Buffer.from(await res.body.arrayBuffer())).toString(), json, 'the bytes as sent');
  await shadow.settled();
  const [exchange] = (await shadow.report()).exchanges;
  t.not(exchange.verdict, 'uncomparable', `compared after decoding (${exchange.reason ?? exchange.verdict})`);
});

t.test("a webhook registration: only its url is replaced, by the shadow's receiver (with --public-url)", async (t) => {
  const upstream = await recordingUpstream(t, () => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"id":"wh_1","url":"x","events":["payment.completed"],"secret":"whsec_1"}',
  }));
  const withPublic = await startShadow({ upstream: upstream.url, publicUrl: 'https://shadow.example/' });
  const without = await startShadow({ upstream: upstream.url });
  t.teardown(async () => {
    await withPublic.close();
    await without.close();
  });
  const registration = { url: 'https://partner.example/hooks', events: ['payment.completed'], description: 'kept' };
  for (const s of [withPublic, without]) {
    await request(`${s.url}/v1/partner/webhooks`, {
      method: 'POST',
      headers: { ...PARTNER, 'content-type': 'application/json' },
      body: JSON.stringify(registration),
    }).then((r) => r.body.dump());
  }
  // (each shadow also asks the upstream once whether it has obsim's clock: GET /_sandbox/clock)
  const registrations = upstream.seen.filter((s) => s.method === 'POST');
  t.match(JSON.parse(registrations[0].body), { ...registration, url: /^https:\/\/shadow\.example\/_shadow\/hooks\/[\w-]{24}$/ });
  t.equal(registrations[1].body, JSON.stringify(registration), 'without a public URL nothing is changed');
  t.match((await without.report()).webhooks, { compared: false, reason: /--public-url/ });
});

t.test('a request obsim refuses still reaches the upstream; the partner gets the upstream’s answer', async (t) => {
  const upstream = await recordingUpstream(t, () => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"paymentId":1,"status":"pending"}',
  }));
  const shadow = await startShadow({ upstream: upstream.url });
  t.teardown(() => shadow.close());
  const res = await request(`${shadow.url}/v1/partner/payments`, {
    method: 'POST',
    headers: { ...PARTNER, 'content-type': 'application/json' },
    body: '{"amount":"not a number"}',
  });
  t.equal(res.statusCode, 200);
  t.same(await res.body.json(), { paymentId: 1, status: 'pending' });
  t.equal(upstream.seen.length, 1);
  await shadow.settled();
  const [exchange] = (await shadow.report()).exchanges;
  t.match(exchange, {
    operationId: 'createPayment',
    upstreamStatus: 200,
    obsimStatus: 400,
    verdict: 'uncomparable',
    reason: /obsim refused \(400 validation_failed\)/,
  });
});

t.test('an unreachable upstream: 502 upstream_unavailable in the documented error shape', async (t) => {
  const shadow = await startShadow({ upstream: `http://127.0.0.1:${await closedPort()}` });
  t.teardown(() => shadow.close());
  const res = await request(`${shadow.url}/v1/partner/merchants`, { headers: PARTNER });
  t.equal(res.statusCode, 502);
  const body = await res.body.json();
  t.same(schemaErrors('ErrorBody', body), []);
  t.match(body, { status: 502, code: 'upstream_unavailable', message: /could not be reached \(ECONNREFUSED\)/ });
  await shadow.settled();
  t.same((await shadow.report()).exchanges, [], 'nothing was replayed');
});

t.test('an upstream answering HTML, nothing, or broken JSON: uncomparable with the reason', async (t) => {
  const bodies: { headers: Record<string, string>; body: string }[] = [
    { headers: { 'content-type': 'text/html' }, body: '<html>maintenance</html>' },
    { headers: {}, body: '' },
    { headers: { 'content-type': 'application/json' }, body: '{"broken": ' },
  ];
  let i = 0;
  const upstream = await recordingUpstream(t, (seen) =>
    seen.url === '/_sandbox/clock' ? { status: 404, headers: {}, body: '' } : { status: 200, ...bodies[i++ % bodies.length] },
  );
  const shadow = await startShadow({ upstream: upstream.url });
  t.teardown(() => shadow.close());
  for (let n = 0; n < 3; n++) await request(`${shadow.url}/v1/partner/merchants`, { headers: PARTNER }).then((r) => r.body.dump());
  await shadow.settled();
  const reasons = (await shadow.report()).exchanges.map((e) => [e.verdict, e.reason]);
  t.same(
    reasons.map((r) => r[0]),
    ['uncomparable', 'uncomparable', 'uncomparable'],
  );
  t.match(
    reasons.map((r) => r[1]),
    [/not JSON/, /empty body/, /not JSON/],
  );
  const report = await request(shadow.reportUrl);
  t.equal(report.statusCode, 200, 'the report still answers');
});

t.test("the upstream's deliveries reach the partner's URL unchanged, signature and all", async (t) => {
  const upstream = await startObsim();
  t.teardown(() => upstream.close());
  const [port] = [await freePorts(1)];
  const shadow = await startShadow({ upstream: upstream.baseUrl, port, publicUrl: `http://127.0.0.1:${port}`, webhookWaitMs: 300 });
  t.teardown(() => shadow.close());
  const rx = await startReceiver(t);
  const headers = {
    'x-partner-client-id': upstream.credentials.clientId,
    'x-partner-client-secret': upstream.credentials.clientSecret,
    'content-type': 'application/json',
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await request(`${shadow.url}${path}`, {
      method: method as 'GET',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await r.body.json()) as Record<string, any>;
  };
  const hook = await call('POST', '/v1/partner/webhooks', { url: rx.url, events: ['payment.completed'] });
  const merchant = await call('POST', '/v1/partner/merchants/test', { companyName: 'Forwarded ApS' });
  const payment = await call('POST', '/v1/partner/payments', { merchantClientId: merchant.clientId, amount: 9, referenceNumber: 'fw-1' });
  await call('POST', `/_sandbox/payments/${payment.paymentId}/complete`);
  const [got] = await rx.waitFor(1);
  t.equal(got.headers['x-webhook-signature'], sign(hook.secret, got.raw), "signed with the secret the upstream's registration answered");
  t.equal(JSON.parse(got.raw.toString()).data.paymentId, payment.paymentId, "the upstream's own ids");
  await shadow.settled();
  await new Promise((r) => setTimeout(r, 400));
  const report = await shadow.report();
  t.match(report.webhookEntries, [{ event: 'payment.completed', verdict: 'match', exchange: Number }]);
  t.equal(report.summary.controls, 1, 'the control call was replayed, not compared');
});
