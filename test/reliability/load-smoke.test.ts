/**
 * A short, bounded version of `npm run load` inside npm test: the real server (tsx src/bin.ts
 * serve) on a temporary database file, autocannon on loopback with the same mixed traffic
 * (health, lists, payment and merchant creations, status reads, token issuance, delivery log)
 * for OBSIM_LOAD_SMOKE_SECONDS (default 4 s) over 4 connections. Figure: 0 errors, 0 timeouts,
 * 0 5xx, every answer 2xx. (Memory flatness needs the 60 s run: `npm run load`.)
 */
import t from 'tap';
import { runLoad } from '../helpers/load.js';
import { scaled } from '../helpers/speed.js';

const SECONDS = Number(process.env.OBSIM_LOAD_SMOKE_SECONDS ?? 4);
t.setTimeout(scaled(Math.max(120_000, SECONDS * 5_000)));

t.test(`mixed traffic for ${SECONDS} s: no error, no 5xx, only 2xx`, async (t) => {
  const r = await runLoad({ seconds: SECONDS, connections: 4, checkMemory: false });
  for (const line of r.lines.slice(0, 3)) t.comment(`smoke ${line}`);
  t.ok(r.requests > SECONDS * 50, `${r.requests} requests answered (${r.perSecond}/s)`);
  t.equal(r.errors, 0, 'no connection errors');
  t.equal(r.timeouts, 0, 'no timeouts');
  t.equal(r.fiveXx, 0, 'no 5xx');
  t.same(
    Object.keys(r.statuses).filter((s) => Number(s) < 200 || Number(s) >= 300),
    [],
    `only 2xx (${JSON.stringify(r.statuses)})`,
  );
  t.same(r.failures, [], 'the load run reports no failure');
});
