/**
 * Seeded draws are kept with the state they belong to (src/engine/banks.ts, src/engine/chaos.ts):
 * the same seed and the same sequence of requests give the same outcomes, whether or not some
 * COMMITs failed on the way (the failed requests are answered with an error and sent again, as a
 * client would) and whether or not the process restarted in between. A property over seeds and
 * over where the commits fail and the restart falls, each run compared with a run that had neither.
 *
 * Also: a profile put in force is in the book only once its transaction has committed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import t from 'tap';
import { bankProfileToApply } from '../../src/domain/bank-profiles.js';
import { openDatabase, type Db } from '../../src/store/db.js';
import { build, PARTNER } from '../helpers/app.js';
import { postForm } from '../helpers/hosted.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(240_000));

/** A process of obsim on a file database whose COMMITs fail when `failing()` says so. */
async function obsimOn(t: Tap, path: string, failing: () => boolean): Promise<{ app: FastifyInstance; db: Db }> {
  const db = openDatabase(path);
  const exec = db.exec.bind(db);
  (db as unknown as { exec: (sql: string) => unknown }).exec = (sql: string) => {
    if (sql === 'COMMIT' && failing()) throw new Error('injected: the COMMIT failed');
    return exec(sql);
  };
  const app = await build(t, { db });
  return { app, db };
}
type Tap = { teardown(fn: () => unknown): void; comment(...args: unknown[]): void };

/** Send until it is answered with something other than the 500 a failed COMMIT gives (a client retrying). */
async function untilStored(send: () => Promise<{ statusCode: number; body: string }>): Promise<{ statusCode: number; body: string }> {
  for (let tries = 0; tries < 50; tries++) {
    const res = await send();
    if (res.statusCode !== 500) return res;
  }
  throw new Error('never stored');
}

interface Run {
  /** Commits (counted over the run) that fail. */
  fails: ReadonlySet<number>;
  /** After this many approvals the process restarts (never: -1). */
  restartAfter: number;
}

/** Approve `n` payments at a degraded bank and answer `n` partner calls under a fault profile: what each drew. */
async function outcomes(t: Tap, seed: number, n: number, run: Run): Promise<{ bank: string[]; faults: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-draws-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'obsim.sqlite');
  let commit = 0;
  let failed = 0;
  let failing = false; // not while setting up
  const fails = () => {
    if (!failing) return false;
    const fail = run.fails.has(commit++);
    if (fail) failed++;
    return fail;
  };
  let { app } = await obsimOn(t, path, fails);
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    untilStored(() => app.inject({ method, url, headers: PARTNER, ...(payload === undefined ? {} : { payload: payload as object }) }));
  const merchant = JSON.parse((await call('POST', '/v1/partner/merchants/test', { companyName: 'Draws ApS' })).body) as {
    merchantId: number;
    clientId: string;
  };
  await call('PUT', '/_sandbox/banks/fjord-sparekasse', { profile: 'degraded', failureRate: 0.5, seed });
  await call('PUT', '/_sandbox/faults', {
    seed,
    rules: [{ kind: 'error', status: 503, rate: 0.5, operation: 'getMerchantOnboardingStatus' }],
  });
  failing = true;
  const bank: string[] = [];
  const faults: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i === run.restartAfter) {
      failing = false;
      await app.close();
      ({ app } = await obsimOn(t, path, fails));
      failing = true;
    }
    const created = await call('POST', '/v1/partner/payments', {
      merchantClientId: merchant.clientId,
      amount: 10,
      referenceNumber: `d-${i}`,
    });
    const payment = JSON.parse(created.body) as { paymentId: number; paymentUrl: string };
    const page = new URL(payment.paymentUrl).pathname;
    await untilStored(() => app.inject({ method: 'GET', url: page }));
    const approved = await untilStored(() => postForm(app, page, { decision: 'approve', bankId: 'fjord-sparekasse' }));
    if (approved.statusCode !== 303) throw new Error(`approval answered ${approved.statusCode}`);
    bank.push(String(app.db.prepare('SELECT bank_rule FROM payments WHERE id = ?').pluck().get(payment.paymentId)));
    // a partner call the fault profile draws for: injected (503) or answered (200)
    const read = await call('GET', `/v1/partner/merchants/${merchant.merchantId}/onboarding-status`);
    faults.push(String(read.statusCode));
  }
  await app.close();
  t.comment(`seed ${seed}: ${failed} COMMITs failed on the way${run.restartAfter >= 0 ? `, restarted after ${run.restartAfter}` : ''}`);
  return { bank, faults };
}

t.test('the same seed and requests give the same draws across failed commits and a restart', async (t) => {
  const N = 8;
  let compared = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 2 ** 32 - 1 }),
      fc.uniqueArray(fc.integer({ min: 0, max: 6 * N }), { minLength: 1, maxLength: 6 }),
      fc.integer({ min: -1, max: N - 1 }),
      async (seed, fails, restartAfter) => {
        const plain = await outcomes(t, seed, N, { fails: new Set(), restartAfter: -1 });
        const troubled = await outcomes(t, seed, N, { fails: new Set(fails), restartAfter });
        compared++;
        return JSON.stringify(troubled) === JSON.stringify(plain);
      },
    ),
    { seed: 20261129, numRuns: Number(process.env.OBSIM_DRAW_RUNS ?? 6) },
  );
  t.pass(`${compared} runs with failed commits and restarts drew what runs without them drew`);
});

t.test('a profile is in force only once its transaction has committed', async (t) => {
  const app = await build(t);
  app.engine.banks.set('default', { 'nordlys-bank': bankProfileToApply({ profile: 'down', seed: 1 }, 0) }, 'now');
  t.equal(app.engine.banks.of('default', 'nordlys-bank'), undefined, 'not before the COMMIT');
  await app.store.committed();
  t.ok(app.engine.banks.of('default', 'nordlys-bank'), 'after it');
  app.engine.banks.clear('default', 'nordlys-bank');
  t.ok(app.engine.banks.of('default', 'nordlys-bank'), 'a clear too: still in force before its COMMIT');
  await app.store.committed();
  t.equal(app.engine.banks.of('default', 'nordlys-bank'), undefined);
});
