// A minimal webhook receiver for the provider's deliveries, with no dependencies: copy it, keep
// the four rules, replace handle() with your own work. `obsim check-receiver` passes every check
// against it (test/cli/check-receiver.test.ts runs it).
//
//   WEBHOOK_SECRET=whsec_… PORT=3000 node examples/webhook-receiver.mjs
//   obsim check-receiver http://127.0.0.1:3000/webhooks --secret whsec_…
//
// 1. Verify X-Webhook-Signature over the raw body bytes, before parsing, in constant time; refuse with 401.
// 2. De-duplicate on X-Webhook-Id: a redelivery is acknowledged (200) and not processed again.
// 3. Answer 200 at once and do the work afterwards: the provider waits 10 seconds at most.
// 4. Tolerate what you do not expect: unknown event names and late events are acknowledged and ignored.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const secret = process.env.WEBHOOK_SECRET; // the whsec_… returned by POST /v1/partner/webhooks
if (!secret) throw new Error('set WEBHOOK_SECRET to your webhook secret');
const MAX_BODY_BYTES = 1024 * 1024;
const REMEMBERED_IDS = 10_000;

const seen = new Map(); // X-Webhook-Id -> true, oldest first (a bounded memory of deliveries)
const payments = new Map(); // paymentId -> final status; a settled payment never changes again

function signatureValid(raw, header) {
  const expected = createHmac('sha256', secret).update(raw).digest();
  const given = Buffer.from(typeof header === 'string' && /^[0-9a-f]{64}$/i.test(header) ? header : '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function firstTime(webhookId) {
  if (seen.has(webhookId)) return false;
  seen.set(webhookId, true);
  if (seen.size > REMEMBERED_IDS) seen.delete(seen.keys().next().value);
  return true;
}

function handle({ event, data }) {
  switch (event) {
    case 'payment.completed':
    case 'payment.failed': {
      const known = payments.get(data.paymentId);
      if (known) {
        console.log(`payment ${data.paymentId}: ${event} ignored, already ${known}`);
        return;
      }
      payments.set(data.paymentId, data.status);
      console.log(`payment ${data.paymentId} (${data.referenceNumber}): ${data.status}`);
      return;
    }
    case 'merchant.activated':
    case 'merchant.deactivated':
    case 'merchant.onboarding.completed':
      console.log(`merchant ${data.merchantId}: ${event} (${data.previousStatus} -> ${data.status})`);
      return;
    default:
      console.log(`${event}: not handled, ignored`);
  }
}

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on('end', () => {
    if (size > MAX_BODY_BYTES) {
      res.writeHead(413).end();
      return;
    }
    const raw = Buffer.concat(chunks); // the exact bytes that were signed
    if (!signatureValid(raw, req.headers['x-webhook-signature'])) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid signature"}');
      return;
    }
    let delivery;
    try {
      delivery = JSON.parse(raw.toString('utf8'));
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"body is not JSON"}');
      return;
    }
    const webhookId = String(req.headers['x-webhook-id'] ?? '');
    const fresh = webhookId === '' || firstTime(webhookId);
    res.writeHead(200, { 'content-type': 'application/json' }).end(`{"received":true${fresh ? '' : ',"duplicate":true'}}`);
    if (fresh) setImmediate(() => handle(delivery));
  });
});

server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1', () => {
  console.log(`webhook receiver listening on http://${process.env.HOST ?? '127.0.0.1'}:${server.address().port}/webhooks`);
});
