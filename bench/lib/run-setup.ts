/**
 * `npm run bench`'s set-up (bench/run.ts): its options from the command line, the temporary
 * folder, starting obsim and the Fastify baselines, and building obsim first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startServer } from './proc.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RESULTS = join(ROOT, 'bench', 'results');

// ---------------------------------------------------------------------------------- options
export const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
export const value = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
export const quick = flag('quick');
export const opts = {
  quick,
  soak: flag('soak'),
  anchors: !flag('no-anchors'),
  lifecycle: !flag('no-lifecycle'),
  background: !flag('no-background'),
  growth: !flag('no-growth'),
  sandboxes: !flag('no-sandboxes'),
  // the outside harness's settings (../shared/bench/anchors.sh): c1 runs of 5 s, c50 runs of 6 s,
  // 3 s of warm-up, every measured run once the servers are quiet, one body for every payment
  c1DurationS: Number(value('c1-duration') ?? (quick ? 1 : 5)),
  lifecycleS: Number(value('lifecycle-seconds') ?? (quick ? 10 : 30)),
  backlog: quick ? 10_000 : 50_000,
  growthLarge: quick ? 200_000 : 1_000_000,
  profile: flag('profile'),
  build: !flag('no-build'),
  webhooks: !flag('no-webhooks'),
  startup: !flag('no-startup'),
  passes: Number(value('passes') ?? (quick ? 1 : 3)),
  durationS: Number(value('duration') ?? (quick ? 1 : 6)),
  warmupS: Number(value('warmup') ?? (quick ? 0.5 : 3)),
  /**
   * The limit proxy's work: `schemas` (default: obsim's route schemas, credentials compared) or
   * `plain` (no schemas, no credentials: the proxy this bench had before issue 74, kept to show
   * what the difference moved; docs/performance.md, "One truth").
   */
  proxy: value('proxy') === 'plain' ? ('plain' as const) : ('schemas' as const),
  /** Wait before each measured run until no server has background work (bench/lib/quiet.ts). */
  quiet: !flag('no-quiet'),
  /** A distinct referenceNumber for every payment (the outside harness sends one body throughout). */
  uniqueReferences: flag('unique-references'),
  connections: 50,
  startupRuns: quick ? 2 : 5,
  only: value('only')?.split(',') ?? null,
  webhookEvents: quick ? 200 : 1000,
  soakSeconds: Number(value('soak-seconds') ?? 60),
};

export const log = (line: string) => process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------------------------- servers
export const tmp = mkdtempSync(join(tmpdir(), 'obsim-bench-'));
// OBSIM_BENCH_SERVE_ARGS: more `obsim serve` flags for every obsim of the run (e.g. `--persona tmp/all-banks.yaml`)
const OBSIM_MAIN = [
  process.env.OBSIM_BENCH_BIN ?? 'dist/src/bin.js',
  'serve',
  ...(process.env.OBSIM_BENCH_SERVE_ARGS ?? '').split(' ').filter(Boolean),
];
/** The diagnostic variant: no payment settles or expires during the run. */
export const SETTLE_LATER = ['--settle-delay', '1h', '--payment-expiry', '2h'];

function obsimArgv(port: number, db: string, extra: string[] = [], nodeFlags: string[] = []): string[] {
  return [process.execPath, ...nodeFlags, join(ROOT, OBSIM_MAIN[0]), ...OBSIM_MAIN.slice(1), '--port', String(port), '--db', db, ...extra];
}

export async function startObsim(name: string, db: string, extra: string[] = [], nodeFlags: string[] = []) {
  const port = await freePort();
  return startServer({ name, argv: obsimArgv(port, db, extra, nodeFlags), port, cwd: ROOT });
}

export async function startBaseline(kind: 'bare' | 'sqlite', db?: string) {
  const port = await freePort();
  return startServer({
    name: kind,
    argv: [process.execPath, join(ROOT, 'bench', 'baselines', `${kind}.mjs`)],
    env: {
      PORT: String(port),
      BASELINE_DB: db ?? join(tmp, `${kind}-${port}.sqlite`),
      BASELINE_TRANSACTIONS: '100000',
      BASELINE_PLAIN: opts.proxy === 'plain' ? '1' : '',
    },
    port,
    cwd: ROOT,
  });
}

// ---------------------------------------------------------------------------------- phases
export function build(): void {
  if (!opts.build) return;
  log('building obsim (npm run build) ...');
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) {
    log(`  build reported errors (continuing with what was emitted):\n${(r.stdout + r.stderr).split('\n').slice(0, 10).join('\n')}`);
  }
  if (!existsSync(join(ROOT, 'dist', 'src', 'bin.js'))) throw new Error('dist/src/bin.js missing after build');
}
