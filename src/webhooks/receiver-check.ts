/**
 * The conformance battery of `obsim check-receiver`: deliveries in the exact production format
 * (post.ts sends them, sign.ts signs them, the payloads follow schemas/webhooks.ts) sent to a
 * partner's webhook endpoint, each with the answer a well-behaved receiver gives:
 *
 * - a valid delivery of each contract event: 2xx within the contract's 10 s (a warning past half);
 * - a tampered body, a wrong-secret, a missing and a truncated signature: refused with a 4xx;
 * - the same X-Webhook-Id twice, payment.failed after payment.completed for one payment, and an
 *   event name the contract does not list: 2xx every time (de-duplicate and tolerate, never fail).
 *
 * Every check uses fresh ids, so a receiver that de-duplicates before verifying the signature
 * cannot pass a signature check by accident. Checks run one after another, in this order.
 */
import { randomInt } from 'node:crypto';
import type { MerchantEventDataT, PaymentEventDataT } from '../../schemas/webhooks.js';
import { newEventId, newMerchantClientId } from '../domain/ids.js';
import { EVENT_NAMES, type EventName } from '../domain/machine.js';
import { webhookStatusName } from '../domain/merchant.js';
import { bankPaymentStatus, PAYMENT_CURRENCY } from '../domain/payment.js';
import { DELIVERY_TIMEOUT_MS, deliveryAgent, postWebhook, type PostResult, type WebhookRequest } from './post.js';
import { sign } from './sign.js';

/** An event name the contract does not list: receivers must acknowledge events added later. */
export const UNKNOWN_EVENT = 'merchant.updated';

export type CheckStatus = 'pass' | 'warn' | 'fail';

export interface SentDelivery {
  event: string;
  /** X-Webhook-Id sent. */
  eventId: string;
  statusCode: number | null;
  outcome: PostResult['outcome'];
  error: string | null;
  durationMs: number;
}

export interface CheckResult {
  id: string;
  title: string;
  /** What a well-behaved receiver answers. */
  expected: string;
  status: CheckStatus;
  /** Why it passed, warned or failed, and what to change. */
  reason: string;
  deliveries: SentDelivery[];
  durationMs: number;
}

export interface ReceiverReport {
  url: string;
  timeoutMs: number;
  startedAt: string;
  checks: CheckResult[];
  passed: number;
  warned: number;
  failed: number;
  /** What a pattern of failures most likely means (a wrong secret, nothing listening). */
  hints: string[];
}

export interface ReceiverCheckOptions {
  url: string;
  secret: string;
  /** The receiver's time limit; the contract's 10 s unless shortened (tests). */
  timeoutMs?: number;
  /** Called as each check finishes (the command line prints the table as it goes). */
  onResult?: (result: CheckResult) => void;
}

interface Envelope {
  event: string;
  timestamp: string;
  data: object;
}

/** A delivery as the check sends it; `sign` says how its X-Webhook-Signature is made. */
interface Planned {
  envelope: Envelope;
  eventId?: string;
  signature?: 'valid' | 'tampered-body' | 'wrong-secret' | 'missing' | 'truncated';
}

interface Check {
  id: string;
  title: string;
  /** What is sent, for the documentation table. */
  sends: string;
  expect: 'accept' | 'refuse';
  /** What the partner should change when the receiver answers otherwise. */
  advice: string;
  plan(): Planned[];
}

/** Payloads of a payment and a merchant the receiver has never seen (fresh ids every run). */
function samples(nowIso: string) {
  const merchantId = randomInt(900_000, 1_000_000);
  const merchantClientId = newMerchantClientId();
  const companyName = 'Receiver Check ApS';
  const payment = (status: 'paid' | 'failed', paymentId: number): PaymentEventDataT => ({
    paymentId,
    referenceNumber: `check-receiver-${paymentId}`,
    status,
    amount: 120.5,
    currency: PAYMENT_CURRENCY,
    merchantClientId,
    merchantName: companyName,
    bankPaymentStatus: bankPaymentStatus(status, status === 'failed' ? 'bank_rejected' : null),
    timestamp: nowIso,
    ...(status === 'failed' ? { failureReason: 'bank_rejected' as const } : {}),
  });
  const merchant = (status: string, previousStatus: string): MerchantEventDataT => ({
    merchantId,
    clientId: merchantClientId,
    companyName,
    status,
    previousStatus,
    timestamp: nowIso,
  });
  const paymentId = () => randomInt(90_000_000, 100_000_000);
  const data: Record<EventName, () => object> = {
    'payment.completed': () => payment('paid', paymentId()),
    'payment.failed': () => payment('failed', paymentId()),
    'merchant.activated': () => merchant(webhookStatusName('activated'), 'awaiting_approval'),
    'merchant.deactivated': () => merchant(webhookStatusName('inactive'), webhookStatusName('activated')),
    'merchant.onboarding.completed': () => merchant('awaiting_approval', 'pending_onboarding'),
  };
  const envelope = (event: string, body: object): Envelope => ({ event, timestamp: nowIso, data: body });
  return { data, envelope, payment, paymentId };
}

function battery(nowIso: string): Check[] {
  const { data, envelope, payment, paymentId } = samples(nowIso);
  const valid = (event: EventName): Planned => ({ envelope: envelope(event, data[event]()) });
  const refused = (signature: Planned['signature'], title: string, sends: string): Check => ({
    id: `signature.${signature}`,
    title,
    sends,
    expect: 'refuse',
    advice:
      'verify X-Webhook-Signature (HMAC-SHA256 of the raw body bytes with your webhook secret, constant-time compare) before acting, and answer 401',
    plan: () => [{ ...valid('payment.completed'), signature }],
  });
  return [
    ...EVENT_NAMES.map((event): Check => ({
      id: `event.${event}`,
      title: `valid ${event}`,
      sends: `a valid, signed \`${event}\``,
      expect: 'accept',
      advice: 'acknowledge every correctly signed delivery with a 2xx',
      plan: () => [valid(event)],
    })),
    refused(
      'tampered-body',
      'tampered body, original signature',
      'a body changed after signing (the amount raised), with the original signature',
    ),
    refused('wrong-secret', 'signed with another secret', 'a well-formed signature made with another secret'),
    refused('missing', 'no X-Webhook-Signature', 'no `X-Webhook-Signature` header'),
    refused('truncated', 'truncated signature (first 32 hex digits)', 'the first 32 of the 64 hex digits of the signature'),
    {
      id: 'duplicate',
      title: 'same X-Webhook-Id delivered twice',
      sends: 'the same delivery twice: the same `X-Webhook-Id`, the same bytes',
      expect: 'accept',
      advice: 'a redelivery carries the same X-Webhook-Id: acknowledge it with a 2xx and skip the work (de-duplicate), never fail it',
      plan: () => {
        const twice = { ...valid('payment.completed'), eventId: newEventId() };
        return [twice, twice];
      },
    },
    {
      id: 'out-of-order',
      title: 'payment.failed after payment.completed (same payment)',
      sends: '`payment.failed` after `payment.completed` for the same payment',
      expect: 'accept',
      advice: 'events can arrive late or out of order: acknowledge them, and do not let a stale event undo a final state',
      plan: () => {
        const id = paymentId();
        return [
          { envelope: envelope('payment.completed', payment('paid', id)) },
          { envelope: envelope('payment.failed', payment('failed', id)) },
        ];
      },
    },
    {
      id: 'unknown-event',
      title: `an event the contract does not list (${UNKNOWN_EVENT})`,
      sends: `a signed \`${UNKNOWN_EVENT}\`, an event name the contract does not list`,
      expect: 'accept',
      advice: 'new event names can be added at any time: acknowledge events you do not handle with a 2xx and ignore them',
      plan: () => [{ envelope: envelope(UNKNOWN_EVENT, data['merchant.activated']()) }],
    },
  ];
}

/** The battery as documentation: each check's id, what it sends and what a good receiver answers. */
export function receiverChecks(timeoutMs = DELIVERY_TIMEOUT_MS): { id: string; sends: string; expected: string; advice: string }[] {
  return battery(new Date(0).toISOString()).map((c) => ({ id: c.id, sends: c.sends, expected: expected(c, timeoutMs), advice: c.advice }));
}

const expected = (check: Check, timeoutMs: number): string => (check.expect === 'accept' ? `2xx within ${timeoutMs} ms` : '4xx');

/** The bytes, X-Webhook-Id and signature of a planned delivery. */
function wire(url: string, secret: string, planned: Planned): WebhookRequest {
  const body = JSON.stringify(planned.envelope);
  const eventId = planned.eventId ?? newEventId();
  const signature = (() => {
    switch (planned.signature ?? 'valid') {
      case 'valid':
        return sign(secret, body);
      case 'tampered-body':
        return sign(secret, body); // signed, then the body is changed below
      case 'wrong-secret':
        return sign(`${secret}-not-yours`, body);
      case 'missing':
        return undefined;
      case 'truncated':
        return sign(secret, body).slice(0, 32);
    }
  })();
  // the amount a forger would raise; the JSON stays valid, only the signature no longer matches
  const sent = planned.signature === 'tampered-body' ? body.replace('"amount":120.5', '"amount":99999') : body;
  return { url, body: sent, eventId, signature };
}

const answer = (d: SentDelivery): string => (d.statusCode !== null ? `${d.statusCode}` : d.outcome);

function judge(check: Check, sent: SentDelivery[], timeoutMs: number): Pick<CheckResult, 'status' | 'reason'> {
  const answers = sent.map(answer).join(', ');
  const timing = sent.map((d) => `${d.durationMs} ms`).join(', ');
  const unreachable = sent.find((d) => d.statusCode === null);
  if (unreachable) {
    const why =
      unreachable.outcome === 'timeout'
        ? `no complete answer within ${timeoutMs} ms (the provider's limit): answer 2xx first, process afterwards`
        : (unreachable.error ?? unreachable.outcome);
    return { status: 'fail', reason: why };
  }
  if (check.expect === 'refuse') {
    const code = sent[0].statusCode!;
    if (code >= 400 && code < 500) return { status: 'pass', reason: `refused with ${code} in ${timing}` };
    if (code < 300) return { status: 'fail', reason: `accepted with ${code}: a forged delivery would be processed; ${check.advice}` };
    return { status: 'fail', reason: `answered ${code} (expected a 4xx): ${check.advice}` };
  }
  const refusedOne = sent.find((d) => d.outcome !== 'delivered');
  if (refusedOne) {
    const which = sent.length > 1 ? ` (delivery ${sent.indexOf(refusedOne) + 1} of ${sent.length})` : '';
    const redirect = refusedOne.outcome === 'redirect' ? ` (${refusedOne.error})` : '';
    return { status: 'fail', reason: `answered ${answers}${which}${redirect}: ${check.advice}` };
  }
  const slowest = Math.max(...sent.map((d) => d.durationMs));
  if (slowest > timeoutMs / 2) {
    return {
      status: 'warn',
      reason: `${answers} in ${timing}: over half of the ${timeoutMs} ms limit; answer 2xx first and process asynchronously`,
    };
  }
  return { status: 'pass', reason: `${answers} in ${timing} (limit ${timeoutMs} ms)` };
}

export async function checkReceiver(options: ReceiverCheckOptions): Promise<ReceiverReport> {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const startedAt = new Date().toISOString();
  const dispatcher = deliveryAgent();
  const checks: CheckResult[] = [];
  try {
    for (const check of battery(startedAt)) {
      const sent: SentDelivery[] = [];
      for (const planned of check.plan()) {
        const request = wire(options.url, options.secret, planned);
        const result = await postWebhook(request, { dispatcher, timeoutMs });
        sent.push({ event: planned.envelope.event, eventId: request.eventId, ...result });
        if (result.statusCode === null) break; // unreachable or timed out: the rest would say nothing new
      }
      const verdict = judge(check, sent, timeoutMs);
      const result: CheckResult = {
        id: check.id,
        title: check.title,
        expected: expected(check, timeoutMs),
        ...verdict,
        deliveries: sent,
        durationMs: sent.reduce((n, d) => n + d.durationMs, 0),
      };
      checks.push(result);
      options.onResult?.(result);
    }
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
  const count = (status: CheckStatus) => checks.filter((c) => c.status === status).length;
  return {
    url: options.url,
    timeoutMs,
    startedAt,
    checks,
    passed: count('pass'),
    warned: count('warn'),
    failed: count('fail'),
    hints: hints(checks),
  };
}

/** What a pattern of failures most likely means, said once instead of in every line. */
function hints(checks: readonly CheckResult[]): string[] {
  const said: string[] = [];
  const first = checks[0]?.deliveries[0];
  if (first && (first.outcome === 'connection_refused' || first.outcome === 'error') && checks.every((c) => c.status === 'fail')) {
    said.push(`nothing answered at this URL (${first.error ?? first.outcome}): is the receiver running, on this host and port?`);
  }
  const validOnes = checks.filter((c) => c.id.startsWith('event.'));
  const unauthorized = (c: CheckResult) => c.deliveries.some((d) => d.statusCode === 401 || d.statusCode === 403);
  if (validOnes.length > 0 && validOnes.every(unauthorized)) {
    said.push('every correctly signed delivery was refused: is --secret the secret your receiver verifies with?');
  }
  return said;
}
