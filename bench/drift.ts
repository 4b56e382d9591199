/**
 * `npm run bench:drift` — the shadow's two limits (docs/drift.md, "Limits"), measured:
 *
 * 1. Caught: the 50 seeded drifts of the catalogue (test/drift/catalogue.ts), each applied by the
 *    mutating proxy to one answer or delivery of a shipped scenario run through a shadow: how many
 *    are reported with the right kind and pointer (limit: at least 48).
 * 2. Cheap: GET payment status at 50 connections against an obsim (the upstream) directly and
 *    through `obsim shadow` in front of it, alternating passes: the p99 the shadow adds to the
 *    partner's round trip (limit: at most 10 ms), at a fixed 500 requests a second (a partner's
 *    test suite, not a load test: --rate N) and at full speed (where the shadow's own throughput
 *    is the limit and queueing is what p99 measures). Upstream and shadow are separate processes of
 *    dist/ pinned to core 0 (the replay and comparison run in the shadow, off the response
 *    path, but on the same core), autocannon on core 1.
 *
 *   options: --passes N (default 3)  --seconds S (default 5)  --rate N (default 500)  --no-caught  --no-latency
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCatalogueEntry } from '../test/helpers/drift.js';
import { CATALOGUE } from '../test/drift/catalogue.js';
import { LoadGenerator } from './lib/load.js';
import { PARTNER_HEADERS, setupObsim } from './lib/obsim.js';
import { freePort, pinSelf, LOAD_CORE, startServer, type Server } from './lib/proc.js';
import { median, round } from './lib/stats.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
};
const PASSES = Number(option('passes', '3'));
const SECONDS = Number(option('seconds', '5'));
const RATE = Number(option('rate', '500'));

if (!argv.includes('--no-caught')) {
  let caught = 0;
  const missed: string[] = [];
  for (const entry of CATALOGUE) {
    const { applied, found } = await runCatalogueEntry(entry);
    if (applied && found) caught++;
    else missed.push(entry.id);
  }
  console.log(
    `caught: ${caught} of ${CATALOGUE.length} seeded drifts reported with their kind and pointer (limit >= 48)${missed.length ? `; missed: ${missed.join(', ')}` : ''}`,
  );
}

if (!argv.includes('--no-latency')) {
  pinSelf(LOAD_CORE);
  const dir = mkdtempSync(join(tmpdir(), 'obsim-bench-drift-'));
  const servers: Server[] = [];
  try {
    const upPort = await freePort();
    const upstream = (
      await startServer({
        name: 'obsim-upstream',
        argv: [process.execPath, 'dist/src/bin.js', 'serve', '--port', String(upPort), '--db', join(dir, 'upstream.sqlite')],
        env: { OBSIM_LOG_LEVEL: 'warn' },
        port: upPort,
      })
    ).server;
    servers.push(upstream);
    const shadowPort = await freePort();
    const shadow = (
      await startServer({
        name: 'obsim-shadow',
        argv: [process.execPath, 'dist/src/bin.js', 'shadow', '--upstream', upstream.url, '--port', String(shadowPort)],
        // ready when its /healthz (the upstream's, passed through) answers
        port: shadowPort,
      })
    ).server;
    servers.push(shadow);
    // made through the shadow, so its obsim knows the payment the reads ask for
    const fx = await setupObsim(shadow.url);
    const load = new LoadGenerator();
    for (const rate of [RATE, undefined]) {
      const p99: Record<'direct' | 'shadow', number[]> = { direct: [], shadow: [] };
      const rps: Record<'direct' | 'shadow', number[]> = { direct: [], shadow: [] };
      for (let pass = 0; pass < PASSES; pass++) {
        for (const [name, server] of (pass % 2
          ? [
              ['shadow', shadow],
              ['direct', upstream],
            ]
          : [
              ['direct', upstream],
              ['shadow', shadow],
            ]) as ['direct' | 'shadow', Server][]) {
          const r = await load.run({
            url: server.url,
            method: 'GET',
            path: `/v1/partner/payments/${fx.paymentId}/status`,
            headers: PARTNER_HEADERS,
            connections: 50,
            durationS: SECONDS,
            ...(rate ? { overallRate: rate } : {}),
          });
          if (r.p99 !== null) p99[name].push(r.p99);
          rps[name].push(r.rps);
        }
      }
      const d = median(p99.direct)!;
      const s = median(p99.shadow)!;
      console.log(
        `GET payment status, c50 ${rate ? `at ${rate} req/s` : 'at full speed'}, ${PASSES} alternating passes of ${SECONDS} s: direct p99 ${round(d, 2)} ms (${round(median(rps.direct), 0)} req/s), through the shadow p99 ${round(s, 2)} ms (${round(median(rps.shadow), 0)} req/s): +${round(s - d, 2)} ms (limit <= 10 ms)`,
      );
    }
    load.close();
  } finally {
    for (const s of servers) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
