/**
 * The measuring half of bench/journal-cost.ts, run by it as a plain `node` child (no TypeScript
 * loader: the build runs as `obsim serve` runs it). The answered requests of two cases (a payment
 * created; an onboarding-status read) recorded into a journal on a file database at default
 * settings (WAL, bounds 10,000 entries / 50 MB, so the trim runs), written in chunks as the timed
 * write does under load. CPU time (user + system, GC included) per entry of each round.
 *
 * Argument: JSON { dist, bodyAsObject, entries, rounds, chunk }. Prints JSON [{ label, roundsUs }].
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const { dist, bodyAsObject, entries, rounds, chunk } = JSON.parse(process.argv[2]);
/** The answers' instant on the sandbox clock (one for all: the journal formats it per entry). */
const AT_MS = Date.parse('2026-11-26T05:00:00.000Z');

const headers = {
  host: '127.0.0.1:3000',
  connection: 'keep-alive',
  'content-type': 'application/json',
  'x-partner-client-id': 'sandbox-partner',
  'x-partner-client-secret': 'sandbox-secret',
  'user-agent': 'autocannon',
};
const paymentBody = (n) => `{"merchantClientId":"mc_4b1f0c2d9e8a7b6c","amount":10,"referenceNumber":"bench-${n}"}`;
const paymentAnswer = (n) =>
  JSON.stringify({
    paymentId: 5_000_000 + n,
    status: 'pending',
    paymentUrl: `http://127.0.0.1:3000/pay/pay_${5_000_000 + n}_b3c1e4f2a9d8c7b6a5e4f3d2c1b0a9f8`,
    expiresAt: '2026-11-26T05:15:00.000Z',
    referenceNumber: `bench-${n}`,
    amount: 10,
    currency: 'DKK',
    createdAt: '2026-11-26T05:00:00.000Z',
  });
const onboardingAnswer = JSON.stringify({
  merchantId: 100001,
  onboardingStatus: 'completed',
  subTppId: 'sub_9f8e7d6c5b4a',
  subTppDetails: { status: 'active', isActivated: true },
});

const cases = [
  {
    label: 'POST payments',
    request: (n, journal) => ({
      method: 'POST',
      path: '/v1/partner/payments',
      query: {},
      params: {},
      headers: { ...headers, 'content-length': String(paymentBody(n).length) },
      body: bodyAsObject ? journal.requestBody(JSON.parse(paymentBody(n))) : journal.requestBody(paymentBody(n), true),
      status: 201,
      payload: paymentAnswer(n),
      payloadIsJson: true,
    }),
  },
  {
    label: 'GET onboarding-status',
    request: (_n, journal) => ({
      method: 'GET',
      path: '/v1/partner/merchants/100001/onboarding-status',
      query: {},
      params: { merchantId: 100001 },
      headers,
      body: journal.requestBody(undefined),
      status: 200,
      payload: onboardingAnswer,
      payloadIsJson: true,
    }),
  },
];

const load = (file) => import(pathToFileURL(join(dist, 'src', file)).href);
const { openDatabase, migrate } = await load('store/db.js');
const { createStore } = await load('store/index.js');
const { createJournal } = await load('journal/index.js');

const out = [];
for (const c of cases) {
  const roundsUs = [];
  for (let r = 0; r < rounds; r++) {
    const dir = mkdtempSync(join(tmpdir(), 'obsim-journal-cost-'));
    const db = openDatabase(join(dir, 'obsim.sqlite'));
    migrate(db);
    const journal = createJournal(createStore(db), { maxEntries: 10_000, maxBytes: 50 * 1024 * 1024, bodyLimit: 4096 });
    // the answers exist before the journal sees them: built outside the measured time
    const requests = Array.from({ length: entries }, (_, n) => c.request(n, journal));
    const start = process.cpuUsage();
    for (let n = 0; n < entries; n++) {
      journal.record({
        partnerId: 'sandbox-partner',
        atMs: AT_MS,
        durationMs: 1.234,
        requestId: `req-${n}`,
        ...requests[n],
      });
      if ((n + 1) % chunk === 0) journal.flush();
    }
    journal.flush();
    const used = process.cpuUsage(start);
    roundsUs.push((used.user + used.system) / entries);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  out.push({ label: c.label, roundsUs });
}
process.stdout.write(JSON.stringify(out));
