// `npm run test:times [-- FILE…]`: the suite (or the files named) as `npm test` runs it, with what
// each test file cost: its wall time and its CPU time, its own and its child processes' (obsim
// processes, npm, Chromium), then the slowest files as the table docs/testing.md keeps.
//
// Wall time on a shared or busy machine says more about the machine than about the file; CPU time
// (user + system) is steadier, and on 2 cores the suite's CPU time over 2 is the least wall time
// it can take. Each test process records itself when it exits: this file is also the hook that
// does it, loaded into the test processes (tap's node-arg, beside the package.json ones) and not
// into the processes they start.
//
//   npm run test:times                     # the whole suite; the 15 slowest
//   npm run test:times -- test/drift/*.test.ts --top 5
//   node scripts/test-times.mjs --report FILE   # the table again from a run's record
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RECORD = 'OBSIM_TEST_TIMES';

/** CPU seconds of this process and of its children that ended (Linux: /proc/self/stat), else this process's own. */
function cpuSeconds() {
  try {
    // the fields after the command name (which may hold spaces): utime stime cutime cstime are 14-17
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    const ticks = fields.slice(11, 15).map(Number);
    return { own: (ticks[0] + ticks[1]) / 100, children: (ticks[2] + ticks[3]) / 100 };
  } catch {
    const { user, system } = process.cpuUsage();
    return { own: (user + system) / 1e6, children: 0 };
  }
}

const file = process.argv[1] ?? '';
if (process.env[RECORD] && file.startsWith(join(ROOT, 'test/')) && /\.test\.[cm]?[jt]s$/.test(file)) {
  // a test process: one line when it exits
  process.on('exit', () => {
    const cpu = cpuSeconds();
    const line = {
      file: relative(ROOT, file),
      end: Date.now(),
      wall: process.uptime(),
      cpu: cpu.own + cpu.children,
      children: cpu.children,
    };
    appendFileSync(process.env[RECORD], `${JSON.stringify(line)}\n`);
  });
}

function report(path, top) {
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const sum = (key) => rows.reduce((s, r) => s + r[key], 0);
  console.log(`\n${rows.length} test files: ${sum('wall').toFixed(0)} s of file wall time, ${sum('cpu').toFixed(0)} s of CPU time`);
  console.log('\n| file | time | CPU |\n|---|---|---|');
  for (const r of rows.sort((a, b) => b.wall - a.wall).slice(0, top))
    console.log(`| \`${r.file}\` | ${r.wall.toFixed(1)} s | ${r.cpu.toFixed(1)} s |`);
  // the tail: the files that ended last, and how long the run went on with fewer than all of them
  const ends = rows.filter((r) => r.end).sort((a, b) => a.end - b.end);
  if (ends.length > 1) {
    const first = Math.min(...ends.map((r) => r.end - r.wall * 1000));
    const last = ends.at(-1).end;
    console.log(`\nthe last to end (s after the first file started: started → ended):`);
    for (const r of ends.slice(-5))
      console.log(`  ${r.file}: ${((r.end - r.wall * 1000 - first) / 1000).toFixed(0)} → ${((r.end - first) / 1000).toFixed(0)}`);
    console.log(`files ran for ${((last - first) / 1000).toFixed(0)} s`);
  }
  console.log(`\n(the record: ${path})`);
}

if (fileURLToPath(import.meta.url) === file) {
  const { values, positionals } = parseArgs({
    options: { top: { type: 'string', default: '15' }, report: { type: 'string' } },
    allowPositionals: true,
  });
  const top = Number(values.top);
  if (!Number.isInteger(top) || top < 1) {
    console.error(`test-times: --top takes a whole number, not ${values.top}`);
    process.exit(2);
  }
  if (values.report) {
    if (!existsSync(values.report)) {
      console.error(`test-times: no record at ${values.report}`);
      process.exit(2);
    }
    report(values.report, top);
    process.exit(0);
  }
  const record = join(mkdtempSync(join(tmpdir(), 'obsim-test-times-')), 'times.jsonl');
  // tap's node-arg from the command line replaces the configured ones: both are given
  const configured = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).tap?.['node-arg'] ?? [];
  const nodeArgs = [...configured, `--import=${import.meta.url}`].map((a) => `--node-arg=${a}`);
  const tap = spawnSync(process.execPath, [join(ROOT, 'scripts/tap.mjs'), '--disable-coverage', ...nodeArgs, ...positionals], {
    cwd: ROOT,
    env: { ...process.env, [RECORD]: record },
    stdio: 'inherit',
  });
  if (existsSync(record)) report(record, top);
  process.exit(tap.status ?? 1);
}
