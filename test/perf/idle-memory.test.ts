/**
 * src/idle-memory.ts: after a burst has grown V8's young generation, a process running
 * keepMemoryReducerWorking() gets it back from V8's memory reducer once idle, and the same process
 * without it does not in the same time (Node 24: the reducer reads a zero rate of C++-heap
 * allocation as the highest). The oracle is V8's own heap statistics in two child processes run
 * side by side; the children sleep, so the file costs wall time (some 20 s), not CPU.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { ROOT, TEST_NODE_ARGS } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

const MODULE = pathToFileURL(join(ROOT, 'src/idle-memory.ts')).href;

/** A child that grows its young generation, then idles and prints its size (MB) every 250 ms. */
function child(nudged: boolean) {
  const script = `
    ${nudged ? `(await import(${JSON.stringify(MODULE)})).keepMemoryReducerWorking();` : ''}
    const { getHeapSpaceStatistics } = await import('node:v8');
    const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576;
    // a burst with survivors: V8 grows the young generation while objects outlive scavenges
    let keep = [];
    for (let i = 0; i < 3e6; i++) { const o = { i, s: 'x' + i, a: [i] }; if (i % 20 === 0) keep.push(o); if (keep.length > 5000) keep = []; }
    keep = null;
    const started = Date.now();
    setInterval(() => console.log(JSON.stringify({ idleMs: Date.now() - started, youngMb: young() })), 250);
  `;
  // the child imports the TypeScript module as a test file does
  const proc = spawn(process.execPath, [...TEST_NODE_ARGS, '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const samples: { idleMs: number; youngMb: number }[] = [];
  let stderr = '';
  let buffered = '';
  proc.stdout.setEncoding('utf8').on('data', (d: string) => {
    buffered += d;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) if (line) samples.push(JSON.parse(line));
  });
  proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return { proc, samples, stderr: () => stderr };
}

t.test('an idle process gives its grown young generation back with the nudges, and keeps it without', async (t) => {
  const nudged = child(true);
  const plain = child(false);
  t.teardown(() => {
    nudged.proc.kill();
    plain.proc.kill();
  });
  const first = (c: ReturnType<typeof child>) => c.samples[0]?.youngMb;
  const shrunk = (c: ReturnType<typeof child>) => c.samples.find((s) => s.youngMb <= 2);
  // V8's reducer looks every 8 s: measured 17 s after the burst on this machine; a slower one waits longer
  const deadline = Date.now() + scaled(60_000);
  while (!shrunk(nudged) && Date.now() < deadline && nudged.proc.exitCode === null) await new Promise((r) => setTimeout(r, 250));
  t.ok(first(nudged) >= 16 && first(plain) >= 16, `the burst grew both young generations (${first(nudged)} and ${first(plain)} MB)`);
  const given = shrunk(nudged);
  t.ok(given, `with the nudges: ${given ? `${given.youngMb} MB after ${given.idleMs} ms idle` : `not given back (${nudged.stderr()})`}`);
  // the control, at least as long idle: still grown
  const idleMs = given?.idleMs ?? 0;
  while ((plain.samples.at(-1)?.idleMs ?? 0) < idleMs + 1000 && plain.proc.exitCode === null) await new Promise((r) => setTimeout(r, 250));
  const control = plain.samples.at(-1);
  t.ok(control && control.youngMb >= 16, `without them, ${control?.youngMb} MB after ${control?.idleMs} ms idle (${plain.stderr()})`);
});
