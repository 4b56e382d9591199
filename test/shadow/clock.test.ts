/**
 * The shadow's clock (docs/drift.md, "The clock"): each exchange is stamped when it arrives, and
 * the shadow's sandbox stands at the upstream's instant for that arrival when it is replayed.
 * - An upstream with obsim's clock controls, frozen behind real time: obsim's answers carry the
 *   upstream's very instants, and a clock advance through the shadow settles both.
 * - An upstream without them (the foreign double with its clock routes off): each replayed payment
 *   is made at its exchange's arrival instant, however late its replay runs.
 */
import t from 'tap';
import { request } from 'undici';
import { startObsim } from '../../src/index.js';
import { startShadow } from '../../src/shadow/shadow.js';
import { startForeignProvider } from '../helpers/foreign/provider.js';

type Json = Record<string, any>;
interface Kept {
  index: number;
  at: string;
  path: string;
  upstream: { text: string };
  obsim: { text: string } | null;
}

const call = async (base: string, headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<Json> => {
  const res = await request(`${base}${path}`, {
    method: method as 'GET',
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.body.json()) as Json;
};

t.test('an upstream frozen behind real time: obsim replays at its instants, and moves with it', async (t) => {
  const upstream = await startObsim();
  t.teardown(() => upstream.close());
  const start = '2025-03-14T09:26:53.000Z';
  const sandbox = await call(upstream.baseUrl, {}, 'POST', '/_sandbox/sandboxes', { name: 'behind', clock: { start, frozen: true } });
  const partner = { 'x-partner-client-id': sandbox.credentials.clientId, 'x-partner-client-secret': sandbox.credentials.clientSecret };
  const shadow = await startShadow({ upstream: upstream.baseUrl });
  t.teardown(() => shadow.close());
  const merchant = await call(shadow.url, partner, 'POST', '/v1/partner/merchants/test', { companyName: 'Behind ApS' });
  const payment = await call(shadow.url, partner, 'POST', '/v1/partner/payments', {
    merchantClientId: merchant.clientId,
    amount: 25,
    referenceNumber: 'behind-1',
  });
  t.equal(payment.createdAt, start, "the upstream's frozen instant");
  await call(shadow.url, partner, 'POST', '/_sandbox/clock/advance', { ms: 5_000 });
  const settled = await call(shadow.url, partner, 'GET', `/v1/partner/payments/${payment.paymentId}/status`);
  t.equal(settled.status, 'paid', 'settled upstream after 5 s of its clock');
  await shadow.settled();
  const { items } = (await shadow.exchanges()) as { items: Kept[] };
  const created = items.find((e) => e.path === '/v1/partner/payments')!;
  t.equal((JSON.parse(created.obsim!.text) as Json).createdAt, start, "obsim's payment made at the upstream's instant, not today");
  const read = items.find((e) => e.path.endsWith('/status'))!;
  const obsimRead = JSON.parse(read.obsim!.text) as Json;
  t.match(obsimRead, { status: 'paid', updatedAt: settled.updatedAt }, 'settled in obsim at the same instant');
  t.same((await shadow.report()).summary.exchanges, { match: 3, drift: 0, uncomparable: 0 });
});

t.test('an upstream without clock controls: each exchange replayed at its arrival instant', async (t) => {
  const double = await startForeignProvider({ clockControls: false });
  t.teardown(() => double.close());
  const partner = { 'x-partner-client-id': double.partner.clientId, 'x-partner-client-secret': double.partner.clientSecret };
  t.equal((await request(`${double.url}/_sandbox/clock`, { headers: partner })).statusCode, 404, 'the double has no clock controls here');
  const shadow = await startShadow({ upstream: double.url });
  t.teardown(() => shadow.close());
  const merchant = await call(shadow.url, partner, 'POST', '/v1/partner/merchants/test', { companyName: 'Arrival ApS' });
  // forty at once: the replay runs behind the arrivals
  await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      call(shadow.url, partner, 'POST', '/v1/partner/payments', {
        merchantClientId: merchant.clientId,
        amount: 5 + i,
        referenceNumber: `arrival-${i}`,
      }),
    ),
  );
  await shadow.settled();
  const { items } = (await shadow.exchanges()) as { items: Kept[] };
  const creates = items.filter((e) => e.path === '/v1/partner/payments');
  t.equal(creates.length, 40);
  t.same(
    creates.filter((e) => (JSON.parse(e.obsim!.text) as Json).createdAt !== e.at).map((e) => e.index),
    [],
    'every payment obsim made is stamped with its exchange’s arrival',
  );
});
