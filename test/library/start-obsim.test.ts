/**
 * The library: startObsim() in this process answers healthy over HTTP, its typed client and
 * helpers drive whole flows (sandbox per test, merchant, payment settled, delivery awaited on the
 * log, journal verified), and close() leaves nothing running: no handle, no timer, no socket.
 */
import { createServer } from 'node:http';
import t from 'tap';
import { startObsim } from '../../src/index.js';
import { verify } from '../../src/webhooks/sign.js';
import { startReceiver } from '../helpers/receiver.js';

/**
 * Active handles and requests by kind (process.getActiveResourcesInfo), e.g. { TCPServerWrap: 1 },
 * once no file-system request is in flight: those end by themselves (the test runner and the
 * module loader read and write files while another test file loads the machine), so they are
 * waited out (up to 2 s) rather than counted.
 */
async function resources(): Promise<Record<string, number>> {
  const inFlight = () => process.getActiveResourcesInfo().some((r) => r.startsWith('FSReq') || r === 'FileHandleCloseReq');
  for (let waited = 0; inFlight() && waited < 2000; waited += 10) await new Promise((r) => setTimeout(r, 10));
  const out: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) out[r] = (out[r] ?? 0) + 1;
  return out;
}

t.test('start, use, close: healthy at once, nothing left behind', async (t) => {
  // warm the module graph and the first-use loads (Ajv, undici) so the comparison sees only this run
  const warm = await startObsim();
  await warm.client.createTestMerchant();
  await warm.close();
  const rx = await startReceiver(t); // the test's own webhook receiver, open before and after
  await new Promise((r) => setTimeout(r, 50));
  const before = await resources();

  const sim = await startObsim({ clock: { start: '2026-03-01T10:00:00Z', frozen: true } });
  t.match(sim.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.same(sim.credentials, { clientId: 'sandbox-partner', clientSecret: 'sandbox-secret' });
  const health = await fetch(`${sim.baseUrl}/healthz`);
  t.equal(health.status, 200, 'healthy when startObsim resolves');
  const clock = await sim.client.api.GET('/_sandbox/clock');
  t.match(clock.data, { now: '2026-03-01T10:00:00.000Z', frozen: true }, 'the clock option');

  const box = await sim.sandbox({ clock: { frozen: true } });
  const hook = await box.client.api.POST('/v1/partner/webhooks', { body: { url: rx.url, events: ['payment.completed'] } });
  const paid = await box.client.payAndSettle({ amount: 12.5, referenceNumber: 'order-17' });
  t.match(paid, { status: 'paid', amount: 12.5, referenceNumber: 'order-17' });
  const delivery = await box.client.waitForDelivery({ event: 'payment.completed', match: { referenceNumber: 'order-17' } });
  t.match(delivery, { state: 'delivered', statusCode: 200 });
  const received = rx.received.find((r) => r.headers['x-webhook-id'] === delivery.eventId);
  t.ok(
    received && verify(hook.data!.secret, received.raw, received.headers['x-webhook-signature'] as string),
    'signed with the webhook secret',
  );
  await box.client.expectRequests({ method: 'POST', path: '/v1/partner/payments', body: { referenceNumber: 'order-17' } }, { count: 1 });
  await t.rejects(
    box.client.expectRequests({ method: 'POST', path: '/v1/partner/payments', body: { referenceNumber: 'order-18' } }, { count: 1 }),
    /found 0\n {2}near miss #\d+ POST \/v1\/partner\/payments -> 200\n {4}body\.referenceNumber: expected "order-18", was "order-17"/,
  );
  const advanced = await box.client.advanceClock('1h');
  t.type(advanced.fired, 'number');
  t.equal(
    (await sim.client.api.GET('/_sandbox/clock')).data?.now,
    '2026-03-01T10:00:00.000Z',
    'the sandbox clock moved, the default one did not',
  );
  await t.rejects(box.client.waitForDelivery({ event: 'payment.failed', timeoutMs: 100 }), /no finished payment.failed delivery in 100 ms/);

  const left = await sim.sandbox();
  await sim[Symbol.asyncDispose]();
  await sim.close(); // twice is fine
  await new Promise((r) => setTimeout(r, 50));
  t.same(await resources(), before, 'no handle, timer or socket left after close()');
  await t.rejects(fetch(`${sim.baseUrl}/healthz`), 'nothing listens any more');
  t.ok(left.sandboxId, 'sandboxes still open are deleted by close()');
});

t.test('a port that is taken is a clear error, and leaves nothing open', async (t) => {
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  t.teardown(() => blocker.close());
  const port = (blocker.address() as { port: number }).port;
  await t.rejects(startObsim({ port }), /EADDRINUSE/);
});

t.test('settings pass through: a persona for the default partner, a delay', async (t) => {
  const sim = await startObsim({ persona: 'shop-with-history', config: { settleDelayMs: 1000 } });
  t.teardown(() => sim.close());
  const merchants = await sim.client.api.GET('/v1/partner/merchants', { params: { query: { page: 1, limit: 50 } } });
  t.ok((merchants.data?.items.length ?? 0) > 1, 'the persona built its merchants');
});

t.test('faults: the default sandbox and a created one, each its own profile', async (t) => {
  const sim = await startObsim({ clock: { start: '2026-03-01T09:00:00Z', frozen: true } });
  t.teardown(() => sim.close());
  const set = await sim.faults.set({ profile: 'provider-outage', seed: 7 });
  t.match(set, { active: true, seed: 7, profile: 'provider-outage' });
  const refused = await sim.client.api.GET('/v1/partner/merchants', { params: { query: { page: 1, limit: 5 } } });
  t.equal(refused.response.status, 503, 'the default sandbox is in its outage');
  const box = await sim.sandbox();
  const fine = await box.client.api.GET('/v1/partner/merchants', { params: { query: { page: 1, limit: 5 } } });
  t.equal(fine.response.status, 200, 'a created sandbox is not');
  const mine = await box.client.faults.set({ seed: 3, rules: [{ kind: 'error', rate: 1, status: 429 }] });
  t.equal(mine.sandboxId, box.sandboxId);
  t.match((await sim.faults.show()).injected, [1, 0]);
  t.equal((await sim.faults.clear()).active, false);
  await t.rejects(sim.faults.set({ rules: [{ kind: 'error', rate: 2, status: 503 }] }), /400 .*\/rules\/0\/rate/);
});
