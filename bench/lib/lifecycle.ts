/**
 * Lifecycle throughput at default settings: payments created at 50 connections for a while,
 * each settling 5 s later (the default settle delay) and delivered to a receiver registered for
 * payment.completed. Samples once a second, from a read-only connection to the server's
 * database (not through the API under test): payments created, settled, deliveries received,
 * and the backlog (timers due but not fired + deliveries pending or in flight).
 *
 * Rates: created/s over the load; settled/s and delivered/s over the same length of window
 * shifted by the settle delay (a payment created at t settles at t + 5 s), so the three compare
 * like for like. Bounded: the largest backlog of the second half of the load is no larger than
 * 1.5× the largest of the first half (it does not grow with the length of the load), and
 * everything is settled and delivered within a few seconds after the load stops.
 */
import Database from 'better-sqlite3';
import { call } from './http.js';
import type { LoadGenerator } from './load.js';
import { createMerchant, PARTNER_HEADERS } from './obsim.js';
import { sleep, type Server } from './proc.js';
import { round } from './stats.js';
import type { Receiver } from './webhooks.js';

export interface LifecycleSample {
  t: number;
  created: number;
  settled: number;
  delivered: number;
  dueTimers: number;
  pendingDeliveries: number;
}

export interface LifecycleResult {
  durationS: number;
  settleDelayS: number;
  created: number;
  createdPerS: number | null;
  settledPerS: number | null;
  deliveredPerS: number | null;
  /** Over the shifted windows: settled/s and delivered/s relative to created/s. */
  settledRatio: number | null;
  deliveredRatio: number | null;
  maxBacklog: number;
  /** The largest backlog in the first and in the second half of the load (after the settle delay). */
  maxBacklogFirstHalf: number;
  maxBacklogSecondHalf: number;
  backlogAtEnd: number;
  /** Seconds after the load until every payment was settled and delivered (null: not within the wait). */
  drainS: number | null;
  signedOk: number;
  rps: number;
  p50: number | null;
  p99: number | null;
  samples: LifecycleSample[];
}

const maxOf = (values: number[]) => (values.length ? Math.max(...values) : 0);

export async function lifecycleCase(o: {
  server: Pick<Server, 'url'>;
  dbPath: string;
  load: LoadGenerator;
  receiver: Receiver;
  receiverUrl: string;
  durationS: number;
  settleDelayS?: number;
}): Promise<LifecycleResult> {
  const settleDelayS = o.settleDelayS ?? 5;
  const base = o.server.url;
  const merchant = await createMerchant(base);
  const hook = await call(base, 'POST', '/v1/partner/webhooks', { url: o.receiverUrl, events: ['payment.completed'] }, PARTNER_HEADERS);
  if (hook.status !== 200) throw new Error(`webhook registration: ${hook.status}`);
  o.receiver.secret = hook.body.secret as string;
  const receivedBefore = o.receiver.receipts.length;

  const db = new Database(o.dbPath, { readonly: true, fileMustExist: true });
  const createdQ = db.prepare('SELECT count(*) FROM payments WHERE merchant_id = ?').pluck();
  const settledQ = db.prepare("SELECT count(*) FROM payments WHERE merchant_id = ? AND status = 'paid'").pluck();
  const dueQ = db.prepare("SELECT count(*) FROM timers WHERE sandbox_id = 'default' AND due_at <= ?").pluck();
  const pendingQ = db.prepare("SELECT count(*) FROM deliveries WHERE state IN ('pending', 'delivering')").pluck();
  const clockNow = async () => Date.parse((await call(base, 'GET', '/_sandbox/clock', undefined, PARTNER_HEADERS)).body.now as string);

  const samples: LifecycleSample[] = [];
  const t0 = performance.now();
  const sample = async () => {
    const now = await clockNow();
    samples.push({
      t: round((performance.now() - t0) / 1000, 2)!,
      created: createdQ.get(merchant.merchantId) as number,
      settled: settledQ.get(merchant.merchantId) as number,
      delivered: o.receiver.receipts.length - receivedBefore,
      dueTimers: dueQ.get(now) as number,
      pendingDeliveries: pendingQ.get() as number,
    });
  };
  let loading = true;
  const sampler = (async () => {
    while (loading) {
      await sample();
      await sleep(1000);
    }
  })();
  const summary = await o.load.run({
    url: base,
    method: 'POST',
    path: '/v1/partner/payments',
    headers: { ...PARTNER_HEADERS, 'content-type': 'application/json' },
    body: `{"merchantClientId":"${merchant.clientId}","amount":12.5,"referenceNumber":"life-{{n}}"}`,
    unique: true,
    connections: 50,
    durationS: o.durationS,
  });
  loading = false;
  await sampler;
  const loadEnd = (performance.now() - t0) / 1000;
  await sample();
  const atEnd = samples[samples.length - 1];
  // drain: until everything created is settled and delivered (or the wait runs out)
  let drainS: number | null = null;
  const waitUntil = performance.now() + (settleDelayS + 20) * 1000;
  while (performance.now() < waitUntil) {
    await sleep(250);
    await sample();
    const s = samples[samples.length - 1];
    if (s.settled === s.created && s.delivered >= s.created) {
      drainS = round((performance.now() - t0) / 1000 - loadEnd, 1);
      break;
    }
  }
  db.close();

  // like-for-like windows: created over [0, L - d], settled and delivered over [d, L]
  const at = (t: number) => samples.reduce((best, s) => (Math.abs(s.t - t) < Math.abs(best.t - t) ? s : best), samples[0]);
  const windowS = loadEnd - settleDelayS;
  let createdPerS: number | null = null;
  let settledPerS: number | null = null;
  let deliveredPerS: number | null = null;
  if (windowS > 1) {
    const startC = at(0);
    const endC = at(windowS);
    const startS = at(settleDelayS);
    const endS = at(loadEnd);
    const span = (a: LifecycleSample, b: LifecycleSample) => Math.max(0.001, b.t - a.t);
    createdPerS = (endC.created - startC.created) / span(startC, endC);
    settledPerS = (endS.settled - startS.settled) / span(startS, endS);
    deliveredPerS = (endS.delivered - startS.delivered) / span(startS, endS);
  }
  const backlog = (s: LifecycleSample) => s.dueTimers + s.pendingDeliveries;
  let signedOk = 0;
  for (const r of o.receiver.receipts.slice(receivedBefore)) if (o.receiver.details(r).signatureOk) signedOk++;
  return {
    durationS: o.durationS,
    settleDelayS,
    created: atEnd.created,
    createdPerS: round(createdPerS, 0),
    settledPerS: round(settledPerS, 0),
    deliveredPerS: round(deliveredPerS, 0),
    settledRatio: createdPerS && settledPerS !== null ? round(settledPerS / createdPerS, 2) : null,
    deliveredRatio: createdPerS && deliveredPerS !== null ? round(deliveredPerS / createdPerS, 2) : null,
    maxBacklog: Math.max(...samples.filter((s) => s.t <= loadEnd + 0.5).map(backlog)),
    maxBacklogFirstHalf: maxOf(samples.filter((s) => s.t >= settleDelayS && s.t < (settleDelayS + loadEnd) / 2).map(backlog)),
    maxBacklogSecondHalf: maxOf(samples.filter((s) => s.t >= (settleDelayS + loadEnd) / 2 && s.t <= loadEnd + 0.5).map(backlog)),
    backlogAtEnd: backlog(atEnd),
    drainS,
    signedOk,
    rps: round(summary.rps, 0)!,
    p50: summary.p50,
    p99: summary.p99,
    samples,
  };
}
