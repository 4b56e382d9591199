/**
 * Traces that continue into the webhooks a request causes (docs/operations.md, "Traces"), exported
 * with the OpenTelemetry SDK to an OTLP/HTTP receiver in this test (the collector's place): the
 * request's server span, a span per transition, a client span per delivery attempt, all in the
 * trace the request carried; the delivery sends its own span as `traceparent`, so a receiver
 * continues it. However the webhook leaves: at once, after a clock advance, when a running clock's
 * timer fires, redelivered from the API or the console, duplicated or held by chaos.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { scaled } from '../helpers/speed.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  service: string;
  /** 2: error. */
  status: number;
}

const SERVER = 2;
const INTERNAL = 1;
const CLIENT = 3;
const TRACE_A = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACE_B = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = '00f067aa0ba902b7';
const traceparent = (trace: string) => `00-${trace}-${CALLER_SPAN}-01`;

// The collector's place: OTLP/HTTP JSON on /v1/traces, every span kept.
const spans: OtlpSpan[] = [];
const collector = createServer((req: IncomingMessage, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.url === '/v1/traces' && req.headers['content-type']?.startsWith('application/json')) {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const rs of body.resourceSpans ?? []) {
        const service = rs.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')?.value?.stringValue;
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? []) {
            const attributes = Object.fromEntries(
              (s.attributes ?? []).map((a: { key: string; value: Record<string, unknown> }) => [a.key, Object.values(a.value)[0]]),
            );
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              traceState: s.traceState || undefined,
              name: s.name,
              kind: s.kind,
              attributes,
              service,
              status: s.status?.code ?? 0,
            });
          }
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
t.teardown(() => collector.close());
process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
process.env.OTEL_BSP_SCHEDULE_DELAY = '20';
process.env.OTEL_SERVICE_NAME = 'obsim-under-test';

// loaded after the environment names the collector: the app reads it when built
const { VirtualClock } = await import('../../src/clock.js');
const { build, PARTNER, T0 } = await import('../helpers/app.js');
const { call, testMerchant } = await import('../helpers/partner.js');
const { deliveries, hook, pay } = await import('../helpers/deliveries.js');
const { startReceiver } = await import('../helpers/receiver.js');
const { act, signIn } = await import('../helpers/console.js');

/** The spans matching `where`, once at least `n` have arrived (the batch is exported every 20 ms). */
async function spansWhere(where: (s: OtlpSpan) => boolean, n = 1): Promise<OtlpSpan[]> {
  const deadline = Date.now() + scaled(10_000);
  for (;;) {
    const found = spans.filter(where);
    if (found.length >= n || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const parts = (header: unknown) => {
  const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(header));
  return m ? { traceId: m[1], spanId: m[2] } : undefined;
};

t.test('a webhook sent at once: request, transition and delivery spans in the trace the caller sent', async (t) => {
  const app = await build(t);
  const rx = await startReceiver(t);
  await hook(app, rx.url, ['payment.completed']);
  const m = await testMerchant(app);
  const p = await pay(app, m.clientId);
  const done = await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`, undefined, {
    ...PARTNER,
    traceparent: traceparent(TRACE_A),
    tracestate: 'rojo=00f067aa0ba902b7',
  });
  const answer = parts(done.headers.traceparent)!;
  t.equal(answer.traceId, TRACE_A);
  t.equal(done.headers.tracestate, 'rojo=00f067aa0ba902b7', 'the tracestate comes back');
  const [received] = await rx.waitFor(1);
  const sent = parts(received.headers.traceparent);
  t.equal(sent?.traceId, TRACE_A, "the delivery carries the request's trace");
  t.equal(received.headers.tracestate, 'rojo=00f067aa0ba902b7', 'and its tracestate');

  const [server] = await spansWhere((s) => s.kind === SERVER && s.traceId === TRACE_A);
  t.match(server, {
    spanId: answer.spanId,
    parentSpanId: CALLER_SPAN,
    traceState: 'rojo=00f067aa0ba902b7',
    name: 'POST /_sandbox/payments/:paymentId/:action',
    service: 'obsim-under-test',
    attributes: { 'http.request.method': 'POST', 'http.response.status_code': 200, 'obsim.operation': 'controlPayment' },
  });
  const [transition] = await spansWhere((s) => s.kind === INTERNAL && s.traceId === TRACE_A);
  t.match(transition, {
    name: 'transition payment pending -> paid',
    parentSpanId: answer.spanId,
    attributes: {
      'obsim.transition.from': 'pending',
      'obsim.transition.to': 'paid',
      'obsim.cause.kind': 'control',
      'obsim.cause.name': 'complete',
    },
  });
  const [delivery] = await spansWhere((s) => s.kind === CLIENT && s.traceId === TRACE_A);
  t.match(delivery, {
    name: 'webhook payment.completed',
    spanId: sent?.spanId,
    parentSpanId: answer.spanId,
    traceState: 'rojo=00f067aa0ba902b7',
    attributes: {
      'obsim.webhook.event': 'payment.completed',
      'obsim.delivery.outcome': 'delivered',
      'http.response.status_code': 200,
      'url.full': rx.url,
    },
  });
  const [logged] = (await deliveries(app)).items;
  t.equal(logged.traceparent, received.headers.traceparent, 'the delivery log shows the traceparent it sent');
});

t.test('a request without traceparent starts a trace of its own, a root span', async (t) => {
  const app = await build(t);
  const r = await call(app, 'GET', '/v1/partner/merchants');
  const own = parts(r.headers.traceparent)!;
  t.ok(own, 'the answer names the trace');
  const [server] = await spansWhere((s) => s.kind === SERVER && s.traceId === own.traceId);
  t.equal(server.spanId, own.spanId);
  t.equal(server.parentSpanId, undefined, 'a root span');
  const bad = await call(app, 'GET', '/v1/partner/merchants', undefined, {
    ...PARTNER,
    traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
  });
  t.not(parts(bad.headers.traceparent)?.traceId, '0'.repeat(32), 'an invalid traceparent is ignored: a new trace');
});

t.test('after a clock advance and from a running clock: the webhook continues the trace of the change that set its timer', async (t) => {
  const app = await build(t);
  const rx = await startReceiver(t);
  await hook(app, rx.url, ['payment.completed']);
  const m = await testMerchant(app);
  const created = await call(
    app,
    'POST',
    '/v1/partner/payments',
    { merchantClientId: m.clientId, amount: 7, referenceNumber: 'adv' },
    {
      ...PARTNER,
      traceparent: traceparent(TRACE_B),
    },
  );
  const createdSpan = parts(created.headers.traceparent)!.spanId;
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '10s' });
  const [received] = await rx.waitFor(1);
  t.equal(parts(received.headers.traceparent)?.traceId, TRACE_B, "the creation's trace, not the advance's");
  const [timer] = await spansWhere((s) => s.kind === INTERNAL && s.traceId === TRACE_B && s.attributes['obsim.cause.kind'] === 'timer');
  t.match(timer, {
    name: 'transition payment pending -> paid',
    parentSpanId: createdSpan,
    attributes: { 'obsim.sandbox_clock': '2026-01-15T09:00:05.000Z' },
  });
  const [delivery] = await spansWhere((s) => s.kind === CLIENT && s.traceId === TRACE_B);
  t.equal(delivery.spanId, parts(received.headers.traceparent)?.spanId);

  const running = await build(t, { clock: VirtualClock.create({ start: T0, frozen: false }), config: { settleDelayMs: 100 } });
  const rx2 = await startReceiver(t);
  await hook(running, rx2.url, ['payment.completed']);
  const m2 = await testMerchant(running);
  const trace = 'c0ffee00c0ffee00c0ffee00c0ffee00';
  await call(
    running,
    'POST',
    '/v1/partner/payments',
    { merchantClientId: m2.clientId, amount: 8, referenceNumber: 'run' },
    {
      ...PARTNER,
      traceparent: traceparent(trace),
    },
  );
  const [got] = await rx2.waitFor(1);
  t.equal(parts(got.headers.traceparent)?.traceId, trace, 'the settlement a running clock fired: in the creation trace');
});

t.test('redelivered from the API and the console, duplicated and held by chaos: every attempt in the event trace', async (t) => {
  const app = await build(t);
  const rx = await startReceiver(t);
  await hook(app, rx.url, ['payment.completed']);
  const m = await testMerchant(app);
  const p = await pay(app, m.clientId);
  await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`, undefined, { ...PARTNER, traceparent: traceparent(TRACE_A) });
  await rx.waitFor(1);
  await app.webhooks.drain();
  const [original] = (await deliveries(app)).items;

  const again = await call(app, 'POST', `/_sandbox/deliveries/${original.id}/redeliver`, undefined, {
    ...PARTNER,
    traceparent: traceparent(TRACE_B),
  });
  t.equal(again.status, 200);
  const session = await signIn(app);
  const viaConsole = await act(app, session, `/console/deliveries/${original.id}/redeliver`);
  t.equal(viaConsole.status, 303);
  const got = await rx.waitFor(3);
  const attempts = got.map((r) => parts(r.headers.traceparent)!);
  t.same(
    attempts.map((a) => a.traceId),
    [TRACE_A, TRACE_A, TRACE_A],
    "a redelivery sends the same event: it stays in the event's trace, whoever asked for it",
  );
  t.equal(new Set(attempts.map((a) => a.spanId)).size, 3, 'each attempt its own span');
  const redeliveries = await spansWhere(
    (s) => s.kind === CLIENT && s.traceId === TRACE_A && s.attributes['obsim.delivery.redelivery_of'] !== undefined,
    2,
  );
  t.equal(redeliveries.length, 2);
  t.ok(redeliveries.every((s) => String(s.attributes['obsim.delivery.redelivery_of']) === String(original.id)));

  // chaos: a duplicate and a held delivery, each attempt a span of the event's trace
  await call(app, 'PUT', '/_sandbox/faults', { seed: 1, rules: [{ kind: 'webhook_duplicate', rate: 1, copies: 1 }] });
  const dup = await pay(app, m.clientId);
  await call(app, 'POST', `/_sandbox/payments/${dup.paymentId}/complete`, undefined, { ...PARTNER, traceparent: traceparent(TRACE_B) });
  const withCopy = await rx.waitFor(5);
  t.same(
    withCopy.slice(3).map((r) => parts(r.headers.traceparent)?.traceId),
    [TRACE_B, TRACE_B],
    'the delivery and its chaos copy',
  );
  await call(app, 'PUT', '/_sandbox/faults', { seed: 1, rules: [{ kind: 'webhook_delay', rate: 1, delay: { virtualSeconds: 60 } }] });
  const held = await pay(app, m.clientId);
  const trace = 'feedfacefeedfacefeedfacefeedface';
  await call(app, 'POST', `/_sandbox/payments/${held.paymentId}/complete`, undefined, { ...PARTNER, traceparent: traceparent(trace) });
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '60s' });
  const last = await rx.waitFor(6);
  t.equal(parts(last[5].headers.traceparent)?.traceId, trace, 'held by chaos on the sandbox clock, sent in its trace');
  const [heldSpan] = await spansWhere((s) => s.kind === CLIENT && s.traceId === trace);
  t.equal(heldSpan.attributes['obsim.chaos.fault'], 'webhook_delay');
});

t.test('a failed attempt: its span has an error status and the answer it got', async (t) => {
  const app = await build(t);
  const rx = await startReceiver(t, (_req, res) => res.writeHead(503).end());
  await hook(app, rx.url, ['payment.completed']);
  const m = await testMerchant(app);
  const p = await pay(app, m.clientId);
  await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`, undefined, {
    ...PARTNER,
    traceparent: traceparent('1234567890abcdef1234567890abcdef'),
  });
  await app.webhooks.drain();
  const [span] = await spansWhere((s) => s.kind === CLIENT && s.traceId === '1234567890abcdef1234567890abcdef');
  t.match(span.attributes, { 'obsim.delivery.outcome': 'non_2xx', 'http.response.status_code': 503 }, "the delivery log's outcome");
  t.equal(span.status, 2, 'an error span');
  const [server] = await spansWhere((s) => s.kind === SERVER && s.traceId === '1234567890abcdef1234567890abcdef');
  t.equal(server.status, 0, 'the request itself succeeded');
});

t.test("a delivery span never carries a secret of the receiver's URL: its query values that name one are redacted", async (t) => {
  const TRACE_URL = 'c0ffee0000000000000000000000beef';
  const app = await build(t);
  const rx = await startReceiver(t);
  await hook(app, `${rx.url}?token=abc123&apiKey=k-9&tenant=shop-1`, ['payment.completed']);
  const m = await testMerchant(app);
  const p = await pay(app, m.clientId);
  await call(app, 'POST', `/_sandbox/payments/${p.paymentId}/complete`, undefined, { ...PARTNER, traceparent: traceparent(TRACE_URL) });
  await rx.waitFor(1);
  const [delivery] = await spansWhere((s) => s.kind === CLIENT && s.traceId === TRACE_URL);
  t.equal(delivery?.attributes['url.full'], `${rx.url}?token=REDACTED&apiKey=REDACTED&tenant=shop-1`);
  t.notMatch(JSON.stringify(spans), /abc123|k-9/, 'in no span at all');
});
