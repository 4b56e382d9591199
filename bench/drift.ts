/**
 * `npm run bench:drift` — the shadow's limits (docs/drift.md, "Limits, measured"):
 *
 * 1. Caught: the 50 seeded drifts of the catalogue (test/drift/catalogue.ts), each applied by the
 *    mutating proxy to one answer or delivery of a shipped scenario run through a shadow, in front
 *    of the foreign provider double (a provider that is not obsim) and in front of an obsim: how
 *    many are reported with the right kind and pointer (limit: at least 48 of 50 each).
 * 2. Cheap: GET payment status at full speed, at 10 and at 50 connections, against an obsim (the
 *    upstream, on core 0) directly, through `obsim shadow`, and through a plain Node proxy (the
 *    peer: what any proxy costs here), alternating passes. The shadow and the peer run on core 1
 *    beside the load generator (the partner's side; the provider is elsewhere). Limits: at c10 the
 *    shadow adds at most 5 ms to the p99; at c50 its throughput is at least 0.5x of direct.
 *
 *   options: --passes N (default 3)  --seconds S (default 5)  --no-caught  --no-latency
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCatalogueEntry } from '../test/helpers/drift.js';
import { CATALOGUE } from '../test/drift/catalogue.js';
import { LoadGenerator } from './lib/load.js';
import { PARTNER_HEADERS, setupObsim } from './lib/obsim.js';
import { freePort, pinSelf, LOAD_CORE, SERVER_CORE, startServer, type Server } from './lib/proc.js';
import { median, round } from './lib/stats.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
};
const PASSES = Number(option('passes', '3'));
const SECONDS = Number(option('seconds', '5'));

if (!argv.includes('--no-caught')) {
  for (const upstream of ['foreign', 'obsim'] as const) {
    let caught = 0;
    const missed: string[] = [];
    for (const entry of CATALOGUE) {
      const { applied, found } = await runCatalogueEntry(entry, upstream);
      if (applied && found) caught++;
      else missed.push(entry.id);
    }
    console.log(
      `caught in front of ${upstream === 'foreign' ? 'the foreign provider double' : 'an obsim'}: ${caught} of ${CATALOGUE.length} seeded drifts reported with their kind and pointer (limit >= 48)${missed.length ? `; missed: ${missed.join(', ')}` : ''}`,
    );
  }
}

if (!argv.includes('--no-latency')) {
  pinSelf(LOAD_CORE);
  const dir = mkdtempSync(join(tmpdir(), 'obsim-bench-drift-'));
  const servers: Server[] = [];
  try {
    // the provider on one core; the partner's side (its test suite, the shadow) on the other
    const upPort = await freePort();
    const upstream = (
      await startServer({
        name: 'obsim-upstream',
        argv: [process.execPath, 'dist/src/bin.js', 'serve', '--port', String(upPort), '--db', join(dir, 'upstream.sqlite')],
        env: { OBSIM_LOG_LEVEL: 'warn' },
        port: upPort,
        core: SERVER_CORE,
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
        core: LOAD_CORE,
      })
    ).server;
    servers.push(shadow);
    const plainPort = await freePort();
    const plain = (
      await startServer({
        name: 'plain-proxy',
        argv: [process.execPath, 'bench/lib/plain-proxy.mjs', String(plainPort), upstream.url],
        port: plainPort,
        core: LOAD_CORE,
      })
    ).server;
    servers.push(plain);
    // made through the shadow, so its obsim knows the payment the reads ask for
    const fx = await setupObsim(shadow.url);
    const load = new LoadGenerator();
    const targets = { direct: upstream, shadow, plain } as const;
    type Target = keyof typeof targets;
    for (const connections of [10, 50]) {
      const p99: Record<Target, number[]> = { direct: [], shadow: [], plain: [] };
      const rps: Record<Target, number[]> = { direct: [], shadow: [], plain: [] };
      for (let pass = 0; pass < PASSES; pass++) {
        const order: Target[] = pass % 2 ? ['plain', 'shadow', 'direct'] : ['direct', 'shadow', 'plain'];
        for (const name of order) {
          const r = await load.run({
            url: targets[name].url,
            method: 'GET',
            path: `/v1/partner/payments/${fx.paymentId}/status`,
            headers: PARTNER_HEADERS,
            connections,
            durationS: SECONDS,
          });
          if (r.p99 !== null) p99[name].push(r.p99);
          rps[name].push(r.rps);
        }
      }
      const [d, s, p] = (['direct', 'shadow', 'plain'] as const).map((n) => ({ p99: median(p99[n])!, rps: median(rps[n])! }));
      const limit =
        connections === 10
          ? `+${round(s.p99 - d.p99, 2)} ms p99 (limit <= 5 ms)`
          : `${round(s.rps / d.rps, 2)}x the throughput (limit >= 0.5x)`;
      console.log(
        `GET payment status, c${connections} at full speed, ${PASSES} alternating passes of ${SECONDS} s: direct ${round(d.rps, 0)} req/s p99 ${round(d.p99, 2)} ms; through the shadow ${round(s.rps, 0)} req/s p99 ${round(s.p99, 2)} ms: ${limit}; a plain Node proxy (the peer) ${round(p.rps, 0)} req/s p99 ${round(p.p99, 2)} ms (${round(p.rps / d.rps, 2)}x, +${round(p.p99 - d.p99, 2)} ms)`,
      );
    }
    load.close();
  } finally {
    for (const s of servers) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
