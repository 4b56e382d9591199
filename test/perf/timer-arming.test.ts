/**
 * The engine keeps its real-time timer across commits instead of re-arming it on every request
 * (src/engine/index.ts arm()). It must still fire on time: after a clock advance brings a due
 * instant closer, and when a new timer falls due before the armed one.
 */
import t from 'tap';
import { VirtualClock } from '../../src/clock.js';
import { build, PARTNER, json } from '../helpers/app.js';

async function paymentStatus(app: Awaited<ReturnType<typeof build>>, id: number): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/v1/partner/payments/${id}/status`, headers: PARTNER });
  return json(res).status;
}

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

t.test('a running clock settles on time after an advance and with an earlier new timer', async (t) => {
  const app = await build(t, { clock: VirtualClock.create({}), config: { settleDelayMs: 60_000, paymentExpiryMs: 3_600_000 } });
  const m = json(
    await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 'Timer ApS' } }),
  );
  const create = async (ref: string) =>
    json(
      await app.inject({
        method: 'POST',
        url: '/v1/partner/payments',
        headers: PARTNER,
        payload: { merchantClientId: m.clientId, amount: 10, referenceNumber: ref },
      }),
    ).paymentId as number;

  const first = await create('a');
  t.equal(await paymentStatus(app, first), 'pending');
  // 60 s settle delay; move the clock 59.8 s on: the armed timer must now fire ~0.2 s from now
  app.clock.advance(59_800);
  t.ok(await waitFor(async () => (await paymentStatus(app, first)) === 'paid', 3000), 'settled shortly after the advance');

  // a timer armed far out (60 s), then one that falls due sooner must still fire on time
  const late = await create('late');
  app.clock.advance(30_000); // late is due in 30 s now
  const soon = await create('soon'); // due in 60 s
  app.clock.advance(29_850); // late due in 0.15 s, soon in 30.15 s
  t.ok(await waitFor(async () => (await paymentStatus(app, late)) === 'paid', 3000), 'the earlier timer fired');
  t.equal(await paymentStatus(app, soon), 'pending', 'the later one did not');
});

t.test('a timer inserted due before the armed one fires on time (no clock advance)', async (t) => {
  const app = await build(t, {
    clock: VirtualClock.create({}),
    config: { settleDelayMs: 60_000, approvalDelayMs: 300, paymentExpiryMs: 3_600_000 },
  });
  const m = json(
    await app.inject({ method: 'POST', url: '/v1/partner/merchants/test', headers: PARTNER, payload: { companyName: 'Timer ApS' } }),
  );
  // arms the real-time timer 60 s out
  await app.inject({
    method: 'POST',
    url: '/v1/partner/payments',
    headers: PARTNER,
    payload: { merchantClientId: m.clientId, amount: 10, referenceNumber: 'x' },
  });
  const std = json(
    await app.inject({
      method: 'POST',
      url: '/v1/partner/merchants',
      headers: PARTNER,
      payload: { companyName: 'Std ApS', contactEmail: 'ops@std.test' },
    }),
  );
  const submitted = await app.inject({ method: 'POST', url: `/_sandbox/merchants/${std.merchantId}/submit-onboarding`, headers: PARTNER });
  t.equal(json(submitted).status, 'awaiting_approval', 'approval timer scheduled 0.3 s out');
  const status = async () =>
    json(await app.inject({ method: 'GET', url: `/v1/partner/merchants/${std.merchantId}/onboarding-status`, headers: PARTNER }))
      .onboardingStatus;
  t.ok(await waitFor(async () => (await status()) === 'activated', 3000), 'approved on time although a later timer was armed');
});
