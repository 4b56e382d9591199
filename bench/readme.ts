/**
 * Write docs/performance.md (the "## Performance" section) from bench/results/latest.json (tables, machine,
 * command) plus bench/results/notes.md (the hand-written reading of the results).
 *
 *   npx tsx bench/readme.ts
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Results } from './lib/report.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const results = JSON.parse(readFileSync(join(ROOT, 'bench', 'results', 'latest.json'), 'utf8')) as Results;
const latestMd = readFileSync(join(ROOT, 'bench', 'results', 'latest.md'), 'utf8');
const notesFile = join(ROOT, 'bench', 'results', 'notes.md');
const notes = existsSync(notesFile) ? readFileSync(notesFile, 'utf8').trim() : '';

/** The Markdown block of latest.md that starts with `heading` (until the next `## `). */
function block(heading: string): string {
  const start = latestMd.indexOf(heading);
  if (start < 0) return '';
  const rest = latestMd.slice(latestMd.indexOf('\n', start));
  const end = rest.indexOf('\n## ');
  return (end < 0 ? rest : rest.slice(0, end)).trim();
}
const firstTable = latestMd.slice(latestMd.indexOf('| server |'), latestMd.indexOf('\n## Every case')).trim();

/** Another bench's own results file, as measured, under a heading (empty when it has not run). */
function own(file: string, heading: string, command: string): string {
  const path = join(ROOT, 'bench', 'results', file);
  return existsSync(path)
    ? `\n### ${heading}\n\n\`${command}\`: ${readFileSync(path, 'utf8').split('\n').slice(2).join('\n').trim()}\n`
    : '';
}
const journal = own('journal.md', 'Request journal', 'npm run bench:journal');
const library = own('library.md', 'obsim as a library', 'npm run bench:library');
const cluster = own('cluster.md', 'A cluster behind HAProxy', 'npm run bench:cluster');
const profile = own('profile.md', "Where a request's time goes", 'npm run bench:profile');
const readiness = own('readiness.md', 'The readiness report', 'npm run bench:readiness');
const chaos = own('chaos.md', 'Seeded chaos', 'npm run bench:chaos');
const recording = own('recording.md', 'Record to scenario and the HTML report', 'npm run bench:recording');
const runtimes = own('runtimes.md', 'obsim serve on each Node line', 'npm run bench:runtimes');
const profileBefore = existsSync(join(ROOT, 'bench', 'results', 'profile-before.md'))
  ? `The same profiles of the build before the hot-path changes: [bench/results/profile-before.md](../bench/results/profile-before.md).\n`
  : '';

const m = results.machine;
// the sandboxes bench (npm run bench:sandboxes) keeps its own results file: its table, as measured
const sandboxesFile = join(ROOT, 'bench', 'results', 'sandboxes.md');
const sandboxes = existsSync(sandboxesFile)
  ? `\n### Sandboxes\n\n\`npm run bench:sandboxes\` (bench/sandboxes.ts): ${readFileSync(sandboxesFile, 'utf8').split('\n').slice(2).join('\n').trim()}\n`
  : '';

const section = `## Performance

obsim answers like a schema-only mock would, while doing the real work (partner auth, validation,
a SQLite transaction with the outbox, serialization from the response schemas) **at the settings
users get**: every payment created is settled 5 s later and delivered to the webhooks subscribed
to it. \`npm run bench\` measures that against two Fastify baselines on the same routes and
payloads (a bare Fastify server answering fixed JSON, and Fastify plus one better-sqlite3
statement per request: a primary-key read, one INSERT, one indexed range read) and against
Stoplight Prism and Mockoon CLI serving obsim's own OpenAPI document, all in the same run. Every
target below is a ratio measured in the same run, so it means the same thing on a fast laptop
and a noisy CI runner. A second obsim with \`--settle-delay 1h\` (nothing settles during the
run) is measured beside it as a diagnostic: the difference is what the settlements cost.

\`\`\`sh
npm run bench                  # builds, runs everything below (about ${Math.ceil((results.elapsedS ?? 240) / 60)} minutes), writes bench/results/latest.{json,md}
npm run bench -- --quick       # one short pass per case, smaller backlog and database (about 4 minutes)
npm run bench -- --soak        # plus 60 s of mixed load with RSS sampled (flat-memory check)
npm run bench -- --no-anchors  # without Prism and Mockoon (installed on demand in a temp folder otherwise)
npm run bench -- --profile     # obsim under --cpu-prof; prints the functions with the most self time (profiles kept in bench/results/history/)
npm run bench -- --no-lifecycle --no-background --no-growth --no-sandboxes   # skip those parts
npm run bench:ab -- tmp/before/src/bin.js dist/src/bin.js --cases token --connections 1,50
                               # two builds side by side, alternating passes: a before/after from one run
                               # (-- --starts 10: their cold starts too, alternating; "dist/src/bin.js --journal off": one build, two settings)
npm run bench:journal          # the request journal on against off (and a second off, the control), its queries, its own CPU
npm run bench:journal-cost     # the journal's own CPU per request in one process, no HTTP (-- --dist tmp/before: an older build)
npm run bench:readiness        # the readiness report over a full journal, and POST payments with a report every second
npm run bench:impact           # the contract impact report over 100,000 journal entries: first, incremental, beside a client's reads, and with payments
npm run bench:chaos            # a fault profile's cost: the decision of 10 rules a request, and GET payment status with and without a profile
npm run bench:recording        # recording a 10,000-entry journal as a scenario, and the size of the shipped suite's HTML report
npm run bench:runtimes -- node24=<node>:dist/src/bin.js …   # obsim serve's start and idle RSS on several Node binaries (and builds), alternating
npm run bench:profile          # CPU profiles of the GETs, POST payments and the payment lifecycle, by what the time is spent on
                               # (-- --cases onboarding --connections 1 --serve-args "--journal off" --out NAME: one case, your way)
OBSIM_BENCH_BIN=tmp/before/src/bin.js npm run bench -- --no-build --only none --no-startup --no-background --no-growth --no-sandboxes --no-anchors --no-webhooks
                               # the lifecycle case alone, on another build (run it alternately with dist/)
\`\`\`

How it measures: obsim runs from \`dist/\` (production build) on a file database (WAL) in a temp
folder; the servers are pinned to core 0 and the load generator (autocannon, in its own process)
to core 1 with \`taskset\` when it exists; each case is warmed up, then run several passes at 50
connections and at one connection (what a test suite making one call at a time sees),
alternating the servers, and the medians of requests/s and p50/p99 latency are reported. The
CPU each server used during its passes is read from \`/proc\`: bare Fastify near one core means
the load generator was not the limit (the run says so otherwise, under Notes). The lifecycle
case creates payments at 50 connections for 30 s with one receiver registered for
\`payment.completed\` and samples, once a second from a read-only connection to the database,
how many were created, settled and delivered and the backlog of due timers and pending
deliveries. Reads under background work: one connection reading a payment status and an AIS
balance, quiet, then while a clock advance fires 50,000 due settlements. Cost growth: the same
queries at one connection on a database of 10,000 payments and on one of 1,000,000 (as many
events and deliveries, 1,000 merchants; rows written straight into the file). The sandboxes
bench (\`bench/sandboxes.ts\`) runs at the end with its own servers. Start-up is the time from spawning a cold process (fresh database: migrations, seed,
validators and serializers loaded from the build) to its first \`/healthz\` 200; beside it, the
time a Node takes to only import the modules \`serve\` loads and exit (the floor of obsim's start).
RSS is read from \`/proc\` right after each server starts and again after the cases. The webhook case registers a loopback
receiver, lets 1,000 payments settle at once (one \`POST /_sandbox/clock/advance\` on a frozen
clock) and checks 1,000 correctly signed deliveries, then completes 1,000 payments one by one at
200 per second and measures trigger-to-receipt latency; an open-loop probe (500 GET/s) gives the
API p99 quiet and during both.

Latest run (${results.date.slice(0, 16).replace('T', ' ')} UTC): ${m.nproc} cores, ${m.cpu}, Node ${m.node}, ${m.taskset ? 'server and load generator pinned to separate cores' : 'no CPU pinning'}; command \`${results.command}\`.

${firstTable}

### Every case

${block('## Every case (medians of the passes)')}

### Targets at default settings

${block('## Targets at default settings (issue 17)')}
${results.lifecycle ? `\n### Lifecycle throughput\n\n${block('## Lifecycle throughput')}\n` : ''}${results.background ? `\n### Reads under background work\n\n${block('## Reads under background work')}\n` : ''}${results.growth ? `\n### Cost growth\n\n${block('## Cost growth')}\n` : ''}
### Targets of the first performance issue

${block('## Targets of issue 7')}
${results.notes.length ? `\n### Notes of this run\n\n${block('## Notes')}\n` : ''}${results.webhooks ? `\n### Webhooks\n\n${block('## Webhooks')}\n` : ''}${results.soak ? `\n### Soak\n\n${block('## Soak: RSS over')}\n` : ''}${sandboxes}${journal}${readiness}${chaos}${recording}${profile}${profileBefore}${library}${cluster}${runtimes}
${notes ? `${notes}\n` : ''}`;

// docs/performance.md is this section under its own title
const pagePath = join(ROOT, 'docs', 'performance.md');
writeFileSync(pagePath, `# Performance\n\n${section.trimEnd()}\n`);
console.log(`docs/performance.md written from ${results.date}`);
