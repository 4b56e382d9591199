/**
 * `npm run bench:instructions` — instructions per request, counted by Valgrind's callgrind: a
 * figure that does not move with what else the machine runs (a throughput figure on a shared
 * 2-core machine moves by a quarter between passes; this one by a few per cent, with windows
 * of 10,000 requests).
 *
 *   npm run bench:instructions                                    obsim (dist/) and the limit proxy
 *   npm run bench:instructions -- --servers dist/src/bin.js,tmp/before/src/bin.js --cases payments
 *                                                                 two builds (a before/after)
 *   options: --servers a,b,…  each `proxy` (bench/baselines/sqlite.mjs), `bare` (bench/baselines/bare.mjs)
 *                             or the bin.js of an obsim build, with serve flags after it
 *                             ("dist/src/bin.js --journal off") and environment variables before it
 *                             ("NODE_OPTIONS=--max-semi-space-size=8 dist/src/bin.js"); default dist/src/bin.js,proxy
 *            --cases a,b,…    onboarding, payments, tx20, paymentstatus, … (bench/lib/cases.ts) and
 *                             lifecycle (a payment created, settled 5 s later and delivered to a
 *                             receiver: everything the server ran until the last delivery, per payment)
 *            --connections N  requests in flight (default 1; 50 shows what the group commit shares)
 *            --requests N     measured requests per case (default 10000), after --warmup N (default 20000: V8 is still compiling the hot path after 5,000):
 *                             a mark-compact is tens of millions of instructions, so a window of a
 *                             few thousand requests reads 5-10 % apart depending on whether one fell in it
 *            --serve-args "…" more `obsim serve` flags for every obsim
 *            --keep DIR       keep the callgrind dumps (for callgrind_annotate) in a folder named after DIR
 *
 * Every server runs under `valgrind --tool=callgrind` with instrumentation off until its
 * warm-up is done (a Node under callgrind starts in about a minute): the JIT has compiled the
 * hot path by then. For each case: warm-up, counters zeroed, the measured requests, a dump; the
 * figure is the dump's total (every thread of the process: the main thread, the WAL checkpointer,
 * libuv's pool) divided by the requests. Instructions are not time (a syscall's work in the
 * kernel is not counted, nor a cache miss), so a ratio of instructions says where the work is,
 * not what a user measures: `npm run bench` and the outside harness do that.
 * POST payments runs on an obsim whose payments settle an hour later, so that it counts creation
 * only (the lifecycle case counts the rest).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CASES, type Kind } from './lib/cases.js';
import type { LoadJob } from './lib/load.js';
import { registerWebhook, setupObsim, type ObsimFixture } from './lib/obsim.js';
import { freePort, pinned, SERVER_CORE, sleep, startServer, type Server } from './lib/proc.js';
import { round } from './lib/stats.js';
import { ROOT } from './lib/passes.js';
import { SETTLE_LATER } from './lib/run-setup.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const specs = option('servers', 'dist/src/bin.js,proxy').split(',');
const cases = option('cases', 'onboarding,payments,tx20').split(',');
const connections = Number(option('connections', '1'));
const requests = Number(option('requests', '10000'));
const warmup = Number(option('warmup', '20000'));
const serveArgs = option('serve-args', '').split(' ').filter(Boolean);
/** Keep the callgrind dumps (callgrind_annotate reads them) in this folder. */
const keep = option('keep', '');
const log = (line: string): void => void process.stdout.write(`${line}\n`);

type Request = Omit<LoadJob, 'url' | 'connections' | 'durationS'>;

/** `count` requests, `connections` at a time, on keep-alive connections; throws on a non-2xx answer. */
async function send(url: string, req: Request, count: number, inFlight = connections): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: inFlight });
  const target = new URL(url);
  let sent = 0;
  let n = 0;
  const one = (): Promise<void> =>
    new Promise((done, fail) => {
      const body = req.unique && req.body ? req.body.replaceAll('{{n}}', `${process.pid}-${++n}`) : req.body;
      const r = httpRequest(
        { host: target.hostname, port: target.port, path: req.path, method: req.method, headers: req.headers, agent },
        (res) => {
          res.resume();
          res.once('end', () => (res.statusCode! < 300 ? done() : fail(new Error(`${req.method} ${req.path} -> ${res.statusCode}`))));
        },
      );
      r.once('error', fail);
      r.end(body);
    });
  const loop = async (): Promise<void> => {
    while (sent < count) {
      sent++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, loop));
  agent.destroy();
}

interface Target {
  spec: string;
  kind: Kind;
  server: Server;
  fx?: ObsimFixture;
  dumps: string;
}

/** Instructions counted since the last zero or dump, dumped now (every thread's, from the dump's totals line). */
function dump(t: Target, label: string): number {
  const before = new Set(readdirSync(t.dumps));
  execFileSync('callgrind_control', ['--dump', label, String(t.server.pid)], { stdio: 'ignore' });
  for (let i = 0; i < 600; i++) {
    const fresh = readdirSync(t.dumps).filter((f) => !before.has(f) && /\.\d+$/.test(f));
    for (const f of fresh) {
      const text = readFileSync(join(t.dumps, f), 'utf8');
      const m = /^totals:\s+(\d+)/m.exec(text);
      if (m) return Number(m[1]);
    }
    spawnSync('sleep', ['0.1']);
  }
  throw new Error(`no callgrind dump from ${t.spec}`);
}
const control = (t: Target, ...args: string[]): void =>
  void execFileSync('callgrind_control', [...args, String(t.server.pid)], { stdio: 'ignore' });

async function start(spec: string, settleLater: boolean, tmp: string): Promise<Target> {
  const port = await freePort();
  const dumps = mkdtempSync(join(tmp, 'cg-'));
  const words = spec.trim().split(/\s+/);
  // environment variables before the path, as bench:ab takes them: "NODE_OPTIONS=--max-semi-space-size=8 dist/src/bin.js"
  const env: Record<string, string> = {};
  while (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? '')) {
    const [name, ...value] = words.shift()!.split('=');
    env[name] = value.join('=');
  }
  const [path, ...flags] = words;
  const kind: Kind = path === 'proxy' ? 'sqlite' : path === 'bare' ? 'bare' : 'obsim';
  const program =
    kind === 'obsim'
      ? [
          resolve(ROOT, path),
          'serve',
          '--port',
          String(port),
          '--db',
          join(dumps, 'obsim.sqlite'),
          ...serveArgs,
          ...flags,
          ...(settleLater ? SETTLE_LATER : []),
        ]
      : [join(ROOT, 'bench', 'baselines', `${kind}.mjs`)];
  const valgrind = ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(dumps, 'cg.%p')}`];
  const { server } = await startServer({
    name: spec,
    argv: pinned(SERVER_CORE, [...valgrind, process.execPath, ...program]),
    env: {
      OBSIM_LOG_LEVEL: 'warn',
      PORT: String(port),
      BASELINE_DB: join(dumps, 'baseline.sqlite'),
      BASELINE_TRANSACTIONS: '100000',
      ...env,
    },
    port,
    cwd: ROOT,
    timeoutMs: 600_000,
  });
  const t: Target = { spec, kind, server, dumps };
  if (kind === 'obsim') t.fx = await setupObsim(server.url);
  return t;
}

/** A webhook receiver counting deliveries. */
async function receiver(): Promise<{ url: string; count: () => number; close: () => void }> {
  let count = 0;
  const srv = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((done) => srv.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}/hook`, count: () => count, close: () => srv.close() };
}

async function measureCase(t: Target, id: string): Promise<number | null> {
  if (id === 'lifecycle') {
    if (t.kind !== 'obsim') return null;
    const hook = await receiver();
    try {
      await registerWebhook(t.server.url, hook.url);
      const req = CASES.find((c) => c.id === 'payments')!.request('obsim', t.fx!)!;
      await send(t.server.url, req, warmup);
      while (hook.count() < warmup) await sleep(500);
      await sleep(2000);
      control(t, '--zero');
      const before = hook.count();
      await send(t.server.url, req, requests);
      while (hook.count() < before + requests) await sleep(500);
      await sleep(2000); // the outcomes' batch write
      return dump(t, id) / requests;
    } finally {
      hook.close();
    }
  }
  const def = CASES.find((c) => c.id === id);
  if (!def) throw new Error(`unknown case ${id}`);
  const req = def.request(t.kind, t.fx ?? ({} as ObsimFixture));
  if (!req) return null;
  await send(t.server.url, req, warmup);
  await sleep(300); // the journal's held entries are written
  control(t, '--zero');
  await send(t.server.url, req, requests);
  await sleep(300);
  return dump(t, id) / requests;
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(keep ? resolve(keep) + '-' : join(tmpdir(), 'obsim-instructions-'));
  const rows: Record<string, Record<string, number | null>> = {};
  try {
    for (const spec of specs) {
      rows[spec] = {};
      // creation on a server whose payments settle an hour later; the lifecycle on one at defaults
      for (const group of [cases.filter((c) => c !== 'lifecycle'), cases.filter((c) => c === 'lifecycle')]) {
        if (group.length === 0) continue;
        log(`${spec}: starting under callgrind (${group.join(', ')})`);
        const t = await start(spec, group[0] !== 'lifecycle', tmp);
        try {
          control(t, '--instr', 'on');
          for (const id of group) {
            rows[spec][id] = await measureCase(t, id);
            log(`  ${id}: ${rows[spec][id] === null ? '-' : Math.round(rows[spec][id]).toLocaleString('en-US')} instructions a request`);
          }
        } finally {
          await t.server.stop();
        }
      }
    }
  } finally {
    if (keep) log(`callgrind dumps kept in ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
  log('');
  log(`instructions per request (callgrind), ${connections} connection(s), ${requests} requests after ${warmup}:`);
  log(
    `| case | ${specs.join(' | ')} | ${specs
      .slice(1)
      .map((s) => `${s} ÷ ${specs[0]}`)
      .join(' | ')} |`,
  );
  log(
    `|---|${specs.map(() => '---:').join('|')}|${specs
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
  );
  for (const id of cases) {
    const v = specs.map((s) => rows[s][id] ?? null);
    const fmt = (x: number | null) => (x === null ? '-' : Math.round(x).toLocaleString('en-US'));
    const ratios = v.slice(1).map((x) => (x === null || v[0] === null ? '-' : String(round(x / v[0], 3))));
    log(`| ${id} | ${v.map(fmt).join(' | ')} | ${ratios.join(' | ')} |`);
  }
}

await main();
