/**
 * `npm run bench:sustained` — does obsim's cost grow with what it has stored? POST payments at
 * 50 connections on one obsim at its defaults (file database, journal, metrics, a webhook
 * receiver registered: every payment settles 5 s later and is delivered) for ten minutes, in
 * passes of a minute; then the same server, full of what ten minutes stored, against a fresh
 * one, alternating pass by pass (the machine's drift is in both).
 *
 *   npm run bench:sustained                  ten minutes, then 3 alternating passes of 30 s each
 *   options: --minutes N (default 10), --passes N (3), --seconds S (30), --no-build
 *
 * Per pass: payments created a second, p50/p99, the server's CPU per payment (user + system,
 * every thread, from /proc: the payment's share of its settlement and delivery included, since
 * they run in the same passes), RSS, and what the database holds. The figure that matters is the
 * CPU per payment, first minute against tenth and old server against fresh: a rate a second moves
 * with what else the machine runs; CPU per payment much less.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CASES } from './lib/cases.js';
import { LoadGenerator, type LoadJob } from './lib/load.js';
import { registerWebhook, setupObsim, type ObsimFixture } from './lib/obsim.js';
import { buildDist, log } from './lib/passes.js';
import { cpuSeconds, LOAD_CORE, pinSelf, rssMb, serveDist, type Server } from './lib/proc.js';
import { median, round } from './lib/stats.js';
import { Receiver } from './lib/webhooks.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const MINUTES = option('minutes', 10);
const PASSES = option('passes', 3);
const SECONDS = option('seconds', 30);

interface Pass {
  label: string;
  rps: number;
  p50: number | null;
  p99: number | null;
  cpuUsPerPayment: number | null;
  rssMb: number | null;
  dbMb: number;
}

interface Target {
  server: Server;
  fx: ObsimFixture;
  db: string;
  job: Omit<LoadJob, 'url' | 'connections' | 'durationS'>;
}

const sizeMb = (file: string): number => {
  let bytes = 0;
  for (const f of [file, `${file}-wal`]) {
    try {
      bytes += statSync(f).size;
    } catch {
      /* no WAL yet */
    }
  }
  return bytes / 1024 / 1024;
};

async function start(dir: string, name: string, receiver: Receiver): Promise<Target> {
  const db = join(dir, `${name}.sqlite`);
  const server = await serveDist(name, db);
  const fx = await setupObsim(server.url);
  receiver.secret = (await registerWebhook(server.url, await receiverUrl(receiver))).secret;
  return { server, fx, db, job: CASES.find((c) => c.id === 'payments')!.request('obsim', fx)! };
}

let listening: string | undefined;
const receiverUrl = async (r: Receiver): Promise<string> => (listening ??= await r.listen());

async function pass(load: LoadGenerator, t: Target, label: string, seconds: number): Promise<Pass> {
  const cpu0 = cpuSeconds(t.server.pid);
  const s = await load.run({ ...t.job, url: t.server.url, connections: 50, durationS: seconds });
  const cpu1 = cpuSeconds(t.server.pid);
  const p: Pass = {
    label,
    rps: round(s.rps, 0)!,
    p50: round(s.p50, 2),
    p99: round(s.p99, 2),
    cpuUsPerPayment: cpu0 !== null && cpu1 !== null && s.total > 0 ? round(((cpu1 - cpu0) * 1e6) / s.total, 0) : null,
    rssMb: round(rssMb(t.server.pid), 0),
    dbMb: round(sizeMb(t.db), 0)!,
  };
  log(
    `  ${label.padEnd(22)} ${String(p.rps).padStart(6)} payments/s  p50 ${p.p50} ms  p99 ${p.p99} ms  CPU ${p.cpuUsPerPayment} µs a payment  RSS ${p.rssMb} MB  database ${p.dbMb} MB${s.non2xx ? `  non-2xx ${s.non2xx}` : ''}`,
  );
  return p;
}

async function main(): Promise<void> {
  buildDist(!argv.includes('--no-build'));
  pinSelf(LOAD_CORE);
  const dir = mkdtempSync(join(tmpdir(), 'obsim-sustained-'));
  const receiver = new Receiver();
  const load = new LoadGenerator();
  const running: Server[] = [];
  try {
    const old = await start(dir, 'sustained', receiver);
    running.push(old.server);
    log(`POST payments at 50 connections for ${MINUTES} minutes (defaults; settled and delivered to a receiver), a pass a minute`);
    const minutes: Pass[] = [];
    for (let m = 1; m <= MINUTES; m++) minutes.push(await pass(load, old, `minute ${m}`, 60));
    const fresh = await start(dir, 'fresh', receiver);
    running.push(fresh.server);
    log(`the same server against a fresh one, ${PASSES} alternating passes of ${SECONDS} s`);
    const after: Pass[] = [];
    const control: Pass[] = [];
    for (let i = 0; i < PASSES; i++) {
      for (const which of i % 2 === 0 ? ['old', 'fresh'] : ['fresh', 'old']) {
        if (which === 'old') after.push(await pass(load, old, `after ${MINUTES} min`, SECONDS));
        else control.push(await pass(load, fresh, 'fresh server', SECONDS));
      }
    }
    const first = minutes[0];
    const last = minutes[minutes.length - 1];
    const ratio = (a: number | null | undefined, b: number | null | undefined) => (a && b ? round(a / b, 2) : null);
    log('');
    log(`| | payments/s | CPU µs a payment | p99 ms | RSS MB | database MB |`);
    log(`|---|---:|---:|---:|---:|---:|`);
    for (const p of [first, last]) log(`| ${p.label} | ${p.rps} | ${p.cpuUsPerPayment} | ${p.p99} | ${p.rssMb} | ${p.dbMb} |`);
    const med = (ps: Pass[], f: (p: Pass) => number | null) => round(median(ps.map(f)), 2);
    for (const [label, ps] of [
      [`after ${MINUTES} min (median of ${PASSES})`, after],
      [`fresh server (median of ${PASSES})`, control],
    ] as const) {
      log(
        `| ${label} | ${med(ps, (p) => p.rps)} | ${med(ps, (p) => p.cpuUsPerPayment)} | ${med(ps, (p) => p.p99)} | ${med(ps, (p) => p.rssMb)} | ${med(ps, (p) => p.dbMb)} |`,
      );
    }
    log('');
    log(
      `tenth minute ÷ first: ${ratio(last.rps, first.rps)}× payments/s, ${ratio(last.cpuUsPerPayment, first.cpuUsPerPayment)}× CPU a payment; ` +
        `after ${MINUTES} min ÷ fresh, alternating: ${ratio(
          med(after, (p) => p.rps),
          med(control, (p) => p.rps),
        )}× payments/s, ` +
        `${ratio(
          med(after, (p) => p.cpuUsPerPayment),
          med(control, (p) => p.cpuUsPerPayment),
        )}× CPU a payment; ` +
        `${receiver.receipts.length} deliveries received`,
    );
  } finally {
    load.close();
    for (const s of running) await s.stop().catch(() => undefined);
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
