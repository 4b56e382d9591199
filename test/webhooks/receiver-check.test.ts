/**
 * The check-receiver battery against loopback receivers: what it sends (production headers, bodies
 * valid against openapi.json's webhooks schemas, each forged signature forged the way its check
 * says, the duplicate byte-identical), and how it judges a correct receiver and deliberately broken
 * ones: one that never checks signatures, one that 500s on duplicates, one that answers 500 to a
 * bad signature, one that refuses unknown or out-of-order events, one slower than the limit, one
 * slow but within it, a wrong secret, and nothing listening.
 */
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import t from 'tap';
import { EVENT_NAMES } from '../../src/domain/machine.js';
import { USER_AGENT } from '../../src/webhooks/post.js';
import { checkReceiver, UNKNOWN_EVENT, type ReceiverReport } from '../../src/webhooks/receiver-check.js';
import { verify } from '../../src/webhooks/sign.js';
import { expectedSignature, startReceiver, type Received } from '../helpers/receiver.js';

const SECRET = 'whsec_receiver_check_test';
const ALL_CHECKS = [
  ...EVENT_NAMES.map((e) => `event.${e}`),
  'signature.tampered-body',
  'signature.wrong-secret',
  'signature.missing',
  'signature.truncated',
  'duplicate',
  'out-of-order',
  'unknown-event',
];

const openapi = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: 'openapi.json', components: openapi.components });
const validatorFor = (event: string) =>
  ajv.getSchema(`openapi.json${openapi.webhooks[event].post.requestBody.content['application/json'].schema.$ref}`)!;

/** A well-behaved receiver, written in the test: verify, de-duplicate, acknowledge everything else. */
function goodReceiver(secret = SECRET) {
  const seen = new Set<string>();
  return (_req: IncomingMessage, res: ServerResponse, r: Received) => {
    if (!verify(secret, r.raw, r.headers['x-webhook-signature'] as string | undefined)) return void res.writeHead(401).end();
    seen.add(String(r.headers['x-webhook-id']));
    res.writeHead(200).end('ok');
  };
}

const byId = (report: ReceiverReport) => Object.fromEntries(report.checks.map((c) => [c.id, c]));
const failedIds = (report: ReceiverReport) =>
  report.checks
    .filter((c) => c.status === 'fail')
    .map((c) => c.id)
    .sort();

t.test('a correct receiver passes every check; what is sent is what production sends', async (t) => {
  const rx = await startReceiver(t, goodReceiver());
  const seenLive: string[] = [];
  const report = await checkReceiver({ url: rx.url, secret: SECRET, onResult: (r) => seenLive.push(r.id) });
  t.same(
    report.checks.map((c) => c.id),
    ALL_CHECKS,
    'the battery, in order',
  );
  t.same(seenLive, ALL_CHECKS, 'onResult is called as each check finishes');
  t.same([report.passed, report.warned, report.failed], [ALL_CHECKS.length, 0, 0], JSON.stringify(report.checks, null, 1));
  t.same(report.hints, []);
  t.equal(report.timeoutMs, 10_000, "the contract's limit by default");
  for (const c of report.checks) t.match(c.reason, /\d+ ms/, `${c.id}: reports its time`);

  // 5 valid + 4 forged + 2 duplicate + 2 out of order + 1 unknown
  t.equal(rx.received.length, 14);
  for (const r of rx.received) {
    t.equal(r.method, 'POST');
    t.equal(r.headers['content-type'], 'application/json');
    t.equal(r.headers['user-agent'], USER_AGENT);
    t.match(r.headers['x-webhook-id'], /^evt_[0-9a-f]{24}$/);
  }
  const [valid, forged, duplicate, outOfOrder, unknown] = [
    rx.received.slice(0, 5),
    rx.received.slice(5, 9),
    rx.received.slice(9, 11),
    rx.received.slice(11, 13),
    rx.received[13],
  ];
  t.same(
    valid.map((r) => r.json.event),
    EVENT_NAMES,
  );
  for (const r of [...valid, ...duplicate, ...outOfOrder]) {
    t.ok(verify(SECRET, r.raw, r.headers['x-webhook-signature'] as string), `${r.json.event}: signed with the secret`);
    const validate = validatorFor(r.json.event);
    t.ok(validate(r.json), `${r.json.event}: body valid against openapi.json webhooks (${ajv.errorsText(validate.errors)})`);
  }

  const [tampered, wrongSecret, missing, truncated] = forged;
  const untampered = tampered.raw.toString('utf8').replace('"amount":99999', '"amount":120.5');
  t.not(untampered, tampered.raw.toString('utf8'), 'the tampered body differs from what was signed');
  t.equal(tampered.headers['x-webhook-signature'], expectedSignature(SECRET, untampered), 'tampered: the signature of the original body');
  t.match(wrongSecret.headers['x-webhook-signature'], /^[0-9a-f]{64}$/);
  t.notOk(verify(SECRET, wrongSecret.raw, wrongSecret.headers['x-webhook-signature'] as string), 'wrong secret: well-formed, not ours');
  t.equal(missing.headers['x-webhook-signature'], undefined, 'missing: no header at all');
  t.equal(
    truncated.headers['x-webhook-signature'],
    expectedSignature(SECRET, truncated.raw).slice(0, 32),
    'truncated: first 32 hex digits',
  );
  const forgedIds = new Set(forged.map((r) => r.headers['x-webhook-id']));
  t.equal(forgedIds.size, 4, 'every forged delivery has its own X-Webhook-Id');
  for (const r of valid) t.notOk(forgedIds.has(r.headers['x-webhook-id']), 'and none of the valid ones');

  t.equal(duplicate[0].headers['x-webhook-id'], duplicate[1].headers['x-webhook-id'], 'duplicate: the same X-Webhook-Id');
  t.same(duplicate[0].raw, duplicate[1].raw, 'duplicate: the same bytes');
  t.same(
    outOfOrder.map((r) => r.json.event),
    ['payment.completed', 'payment.failed'],
  );
  t.equal(outOfOrder[0].json.data.paymentId, outOfOrder[1].json.data.paymentId, 'out of order: one payment');
  t.not(outOfOrder[0].headers['x-webhook-id'], outOfOrder[1].headers['x-webhook-id'], 'out of order: two events');
  t.equal(unknown.json.event, UNKNOWN_EVENT);
  t.notOk((EVENT_NAMES as readonly string[]).includes(UNKNOWN_EVENT), 'the unknown event is not a contract event');
  t.ok(verify(SECRET, unknown.raw, unknown.headers['x-webhook-signature'] as string), 'the unknown event is correctly signed');
});

t.test('a receiver that never checks signatures fails the four signature checks', async (t) => {
  const rx = await startReceiver(t); // answers 200 to everything
  const report = await checkReceiver({ url: rx.url, secret: SECRET });
  t.same(failedIds(report), ['signature.missing', 'signature.tampered-body', 'signature.truncated', 'signature.wrong-secret']);
  for (const id of failedIds(report)) {
    t.match(byId(report)[id].reason, /^accepted with 200: a forged delivery would be processed; verify X-Webhook-Signature/);
    t.equal(byId(report)[id].expected, '4xx');
  }
});

t.test('a receiver that 500s on a duplicate fails the duplicate check only, naming the second delivery', async (t) => {
  const good = goodReceiver();
  const ids = new Set<string>();
  const rx = await startReceiver(t, (req, res, r) => {
    const id = String(r.headers['x-webhook-id']);
    if (ids.has(id)) return void res.writeHead(500).end('duplicate key');
    ids.add(id);
    good(req, res, r);
  });
  const report = await checkReceiver({ url: rx.url, secret: SECRET });
  t.same(failedIds(report), ['duplicate']);
  t.match(byId(report).duplicate.reason, /^answered 200, 500 \(delivery 2 of 2\): a redelivery carries the same X-Webhook-Id/);
  t.same(
    byId(report).duplicate.deliveries.map((d) => d.statusCode),
    [200, 500],
  );
});

t.test('refusing a forged delivery with a 5xx is not a refusal', async (t) => {
  const rx = await startReceiver(t, (_req, res, r) => {
    const ok = verify(SECRET, r.raw, r.headers['x-webhook-signature'] as string | undefined);
    res.writeHead(ok ? 200 : 500).end();
  });
  const report = await checkReceiver({ url: rx.url, secret: SECRET });
  t.same(failedIds(report), ['signature.missing', 'signature.tampered-body', 'signature.truncated', 'signature.wrong-secret']);
  t.match(byId(report)['signature.missing'].reason, /^answered 500 \(expected a 4xx\)/);
});

t.test('a receiver that refuses unknown events or a late event fails those checks', async (t) => {
  const good = goodReceiver();
  const finalStatus = new Map<number, string>();
  const rx = await startReceiver(t, (req, res, r) => {
    if (!(EVENT_NAMES as readonly string[]).includes(r.json?.event)) return void res.writeHead(400).end('unknown event');
    const paymentId = r.json?.data?.paymentId as number | undefined;
    if (paymentId !== undefined && finalStatus.has(paymentId)) return void res.writeHead(409).end('already final');
    if (paymentId !== undefined && verify(SECRET, r.raw, r.headers['x-webhook-signature'] as string))
      finalStatus.set(paymentId, r.json.event);
    good(req, res, r);
  });
  const report = await checkReceiver({ url: rx.url, secret: SECRET });
  t.same(failedIds(report), ['duplicate', 'out-of-order', 'unknown-event'], 'it also failed the duplicate (409 on the same payment)');
  t.match(byId(report)['unknown-event'].reason, /^answered 400: new event names can be added/);
  t.match(byId(report)['out-of-order'].reason, /^answered 200, 409 \(delivery 2 of 2\): events can arrive late or out of order/);
});

t.test('slow receivers: past the limit fails with the time, over half of it warns (and does not fail)', async (t) => {
  const slowBy = (ms: number) => {
    const good = goodReceiver();
    return (req: IncomingMessage, res: ServerResponse, r: Received) => void setTimeout(() => good(req, res, r), ms);
  };
  const tooSlow = await startReceiver(t, slowBy(400));
  const late = await checkReceiver({ url: tooSlow.url, secret: SECRET, timeoutMs: 150 });
  t.same(failedIds(late), [...ALL_CHECKS].sort(), 'nothing answered in time');
  t.match(byId(late)['event.payment.completed'].reason, /^no complete answer within 150 ms \(the provider's limit\): answer 2xx first/);
  t.equal(byId(late)['event.payment.completed'].deliveries[0].outcome, 'timeout');
  t.ok(byId(late)['event.payment.completed'].durationMs >= 150, 'the time is reported');
  t.equal(byId(late).duplicate.deliveries.length, 1, 'a check stops at its first unanswered delivery');

  // only the first delivery is slow (700 ms of a 1,200 ms limit): wide margins both ways on a busy machine
  const good = goodReceiver();
  let first = true;
  const slowish = await startReceiver(t, (req, res, r) => {
    const delay = first ? 700 : 0;
    first = false;
    setTimeout(() => good(req, res, r), delay);
  });
  const warned = await checkReceiver({ url: slowish.url, secret: SECRET, timeoutMs: 1_200 });
  t.equal(warned.failed, 0, JSON.stringify(warned.checks.filter((c) => c.status === 'fail')));
  t.equal(byId(warned)['event.payment.completed'].status, 'warn');
  t.match(byId(warned)['event.payment.completed'].reason, /^200 in \d+ ms: over half of the 1200 ms limit; answer 2xx first/);
  t.equal(warned.warned, 1, 'the fast ones pass');
});

t.test('a wrong secret and an address where nothing listens are named in a hint', async (t) => {
  const rx = await startReceiver(t, goodReceiver('whsec_the_real_one'));
  const wrong = await checkReceiver({ url: rx.url, secret: SECRET });
  t.same(failedIds(wrong), ['duplicate', ...EVENT_NAMES.map((e) => `event.${e}`), 'out-of-order', 'unknown-event'].sort());
  t.same(wrong.hints, ['every correctly signed delivery was refused: is --secret the secret your receiver verifies with?']);

  const gone = await startReceiver(t);
  const url = gone.url;
  await gone.close();
  const nobody = await checkReceiver({ url, secret: SECRET });
  t.equal(nobody.failed, ALL_CHECKS.length);
  t.equal(nobody.checks[0].deliveries[0].outcome, 'connection_refused');
  t.match(nobody.hints[0], /^nothing answered at this URL \(ECONNREFUSED/);
});
