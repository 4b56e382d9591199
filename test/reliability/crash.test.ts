/**
 * Crash safety: the real server (tsx src/bin.ts serve) on a temporary database file, a stream of
 * payment creations, test-merchant creations and payment completions/failures (control API),
 * SIGKILL at a seeded random moment, restart. Checks after every round:
 *   - every request that got a 2xx is in the database exactly once (a completed or failed payment
 *     in that state);
 *   - PRAGMA integrity_check is ok (checked on the killed file before the restart);
 *   - every event tied to an acknowledged change (merchant.activated of each test merchant,
 *     payment.completed / payment.failed of each acknowledged completion or failure) exists once
 *     and is delivered to the loopback receiver after the restart;
 *   - a duplicate is only an attempt the kill interrupted: its first copy reached the receiver
 *     from the server that was then killed, the second from the very next one, with the same
 *     X-Webhook-Id, body and signature; never more than two copies.
 * 3 rounds in npm test; OBSIM_CRASH_ROUNDS=20 in `npm run test:long`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { PARTNER } from '../helpers/app.js';
import { kill, seededRandom, startKillable } from '../helpers/crash.js';
import { scaled } from '../helpers/speed.js';

const ROUNDS = Number(process.env.OBSIM_CRASH_ROUNDS ?? 3);
const SEED = Number(process.env.OBSIM_CRASH_SEED ?? 8);
t.setTimeout(scaled(Math.max(180_000, ROUNDS * 30_000)));

interface Received {
  id: string;
  body: string;
  signature: string;
  /** Which server process was running when it arrived (0 = the first; +1 at each restart). */
  generation: number;
}

/** Bumped just before each restart: deliveries are stamped with the process that sent them. */
let generation = 0;

async function receiver(t: { teardown(fn: () => unknown): void }) {
  const got: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({
        id: String(req.headers['x-webhook-id']),
        body: Buffer.concat(chunks).toString(),
        signature: String(req.headers['x-webhook-signature']),
        generation,
      });
      res.end('ok');
    });
  });
  // open connections: after a kill, what the dead server wrote before dying may still sit in this
  // process's socket buffers; it is read (and stamped) before its connection closes
  const open = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    open.add(s);
    s.on('close', () => open.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got, openConnections: () => open.size };
}

const startServer = (db: string) => startKillable(db, ['--settle-delay', '24h', '--approval-delay', '24h']);

async function post(url: string, body: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(url, { method: 'POST', headers: { ...PARTNER, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

t.test(`SIGKILL during a stream of creations, ${ROUNDS} rounds`, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-crash-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'obsim.sqlite');
  const rx = await receiver(t);
  const random = seededRandom(SEED);

  let server = await startServer(file);
  t.teardown(() => kill(server.child));
  const hook = await post(`${server.url}/v1/partner/webhooks`, {
    url: rx.url,
    events: ['merchant.activated', 'payment.completed', 'payment.failed'],
  });
  t.equal(hook.status, 200, 'webhook registered');
  const first = await post(`${server.url}/v1/partner/merchants/test`, { companyName: 'Crash Base ApS' });
  t.equal(first.status, 200);
  const merchantClientId = first.json.clientId as string;

  const ackedPayments: { id: number; ref: string }[] = [];
  const ackedMerchants: { id: number; name: string }[] = [{ id: first.json.merchantId, name: 'Crash Base ApS' }];
  /** Acknowledged payments no completion or failure was tried on yet (each is acted on at most once). */
  const untouched: number[] = [];
  const ackedActions: { paymentId: number; status: 'paid' | 'failed'; event: 'payment.completed' | 'payment.failed' }[] = [];
  let lost = 0;
  let attemptedDuringCrash = 0;

  for (let round = 1; round <= ROUNDS; round++) {
    const killAfter = 150 + Math.floor(random() * 900);
    let stop = false;
    let n = 0;
    const worker = async (w: number) => {
      while (!stop) {
        const i = n++;
        try {
          const target = i % 3 === 2 ? untouched.shift() : undefined;
          if (target !== undefined) {
            // complete or fail an acknowledged payment through the control API (payment.* events)
            const complete = i % 2 === 0;
            const res = await post(
              `${server.url}/_sandbox/payments/${target}/${complete ? 'complete' : 'fail'}`,
              complete ? {} : { reason: 'bank_rejected' },
            );
            if (res.status >= 200 && res.status < 300) {
              ackedActions.push({
                paymentId: target,
                status: complete ? 'paid' : 'failed',
                event: complete ? 'payment.completed' : 'payment.failed',
              });
            }
          } else if (i % 3 !== 1) {
            const ref = `r${round}-w${w}-${i}`;
            const res = await post(`${server.url}/v1/partner/payments`, { merchantClientId, amount: 10 + (i % 90), referenceNumber: ref });
            if (res.status >= 200 && res.status < 300) {
              ackedPayments.push({ id: res.json.paymentId, ref });
              untouched.push(res.json.paymentId);
            }
          } else {
            const name = `Crash r${round} w${w} ${i}`;
            const res = await post(`${server.url}/v1/partner/merchants/test`, { companyName: name });
            if (res.status >= 200 && res.status < 300) ackedMerchants.push({ id: res.json.merchantId, name });
          }
        } catch {
          attemptedDuringCrash++; // the kill cut this request: no answer, no promise made
          return;
        }
      }
    };
    const workers = [0, 1, 2, 3].map(worker);
    await new Promise((r) => setTimeout(r, killAfter));
    await kill(server.child);
    stop = true;
    await Promise.all(workers);

    // the killed file: integrity, and every acknowledged write present exactly once
    const db = new Database(file);
    t.equal(db.pragma('integrity_check', { simple: true }), 'ok', `round ${round}: integrity_check ok (killed after ${killAfter} ms)`);
    t.equal(db.pragma('journal_mode', { simple: true }), 'wal', 'journal_mode is WAL');
    const payCount = db.prepare('SELECT count(*) FROM payments WHERE reference_number = ?').pluck();
    const merCount = db.prepare('SELECT count(*) FROM merchants WHERE id = ? AND company_name = ?').pluck();
    const payStatus = db.prepare('SELECT status FROM payments WHERE id = ?').pluck();
    const missing = [
      ...ackedPayments.filter((p) => payCount.get(p.ref) !== 1).map((p) => `payment ${p.ref}`),
      ...ackedMerchants.filter((m) => merCount.get(m.id, m.name) !== 1).map((m) => `merchant ${m.id}`),
      ...ackedActions.filter((a) => payStatus.get(a.paymentId) !== a.status).map((a) => `payment ${a.paymentId} ${a.status}`),
    ];
    lost += missing.length;
    t.same(
      missing,
      [],
      `round ${round}: ${ackedPayments.length} payments, ${ackedMerchants.length} merchants and ${ackedActions.length} completions/failures acknowledged so far, each stored exactly once`,
    );
    db.close();

    // everything the killed server sent is stamped with its generation: wait (a few turns for
    // connections still in the accept queue, then) until its connections are all closed
    await new Promise((r) => setTimeout(r, 100));
    t.ok(
      await until(() => rx.openConnections() === 0, 10_000),
      `round ${round}: the killed server's connections to the receiver are closed`,
    );
    generation++;
    server = await startServer(file);

    // every event tied to an acknowledged change exists once and reaches the receiver
    const check = new Database(file, { readonly: true });
    const merchantEvent = check
      .prepare("SELECT id FROM events WHERE name = 'merchant.activated' AND json_extract(body, '$.data.merchantId') = ?")
      .pluck();
    const paymentEvent = check.prepare("SELECT id FROM events WHERE name = ? AND json_extract(body, '$.data.paymentId') = ?").pluck();
    const events = [
      ...ackedMerchants.map((m) => ({ what: `merchant.activated ${m.id}`, ids: merchantEvent.all(m.id) as string[] })),
      ...ackedActions.map((a) => ({ what: `${a.event} ${a.paymentId}`, ids: paymentEvent.all(a.event, a.paymentId) as string[] })),
    ];
    t.same(
      events.filter((e) => e.ids.length !== 1).map((e) => `${e.what}: ${e.ids.length}`),
      [],
      `round ${round}: one event per acknowledged merchant, completion and failure`,
    );
    const want = new Set(events.flatMap((e) => e.ids));
    const delivered = await until(() => [...want].every((id) => rx.got.some((g) => g.id === id)), 20_000);
    t.ok(delivered, `round ${round}: all ${want.size} events delivered after restart (${ackedActions.length} of them payment.*)`);
    const open = check.prepare("SELECT count(*) FROM deliveries WHERE state IN ('pending', 'delivering')").pluck();
    await until(() => open.get() === 0, 10_000);
    check.close();
  }

  // duplicates: only re-sends of an interrupted attempt, byte-identical, same X-Webhook-Id
  const byId = new Map<string, Received[]>();
  for (const g of rx.got) byId.set(g.id, [...(byId.get(g.id) ?? []), g]);
  const dupes = [...byId.values()].filter((c) => c.length > 1);
  t.same(
    dupes.filter((c) => c.length > 2).map((c) => c[0].id),
    [],
    'no event delivered more than twice',
  );
  t.same(
    dupes
      .filter((c) => c.length === 2 && c[1].generation !== c[0].generation + 1)
      .map((c) => `${c[0].id}: generations ${c.map((x) => x.generation).join(', ')}`),
    [],
    'every duplicate is an interrupted attempt: first copy from the server that was then killed, second from the next start',
  );
  t.same(
    dupes.filter((c) => c.some((x) => x.body !== c[0].body || x.signature !== c[0].signature)).map((c) => c[0].id),
    [],
    're-sent copies are byte-identical with the same signature',
  );
  t.comment(
    `crash: ${ROUNDS} SIGKILL rounds (seed ${SEED}); acknowledged ${ackedPayments.length} payments + ${ackedMerchants.length} merchants + ${ackedActions.length} completions/failures, lost ${lost}; ` +
      `requests cut by the kill ${attemptedDuringCrash}; events delivered ${byId.size} (payment.* ${[...byId.values()].filter((c) => /^payment\./.test(JSON.parse(c[0].body).event)).length}), ` +
      `re-sent after restart ${dupes.length} (each first sent by the killed server)`,
  );
  await kill(server.child);
});
