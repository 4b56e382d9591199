/**
 * Giving memory back once a load has passed. After a burst of requests V8's young generation has
 * grown to its largest (128 MB on a 24 GB machine) and V8's memory reducer shrinks it once the
 * process allocates little. On Node 24 the reducer never finds that it does: one of the three
 * rates it reads, the allocation on the C++ heap V8 shares with Node (cppgc), is exactly zero in a
 * process that never allocates there, and zero counts as the highest rate
 * (`--trace-mutator-utilization` prints `Embedder mutator utilization = 0.000 (mutator_speed=0,
 * …)` at each of its looks, then `Memory reducer: high alloc`). An idle obsim kept its young
 * generation, some 300 instead of 150 MB of RSS, at least until V8's 100 s watchdog, which any
 * other full collection puts off again. A compiled `vm.Script` is one of the few objects Node
 * makes on that heap: compiling a one-character script every few seconds (microseconds each)
 * keeps that rate above zero and small, and the reducer shrinks the space some 10-20 s after the
 * load, as it does on Node 22 (docs/performance.md, "Where the memory is";
 * test/perf/idle-memory.test.ts).
 */
import { Script } from 'node:vm';

/** Measured: every 0.5-5 s, the space shrank 17 s after a burst; every 10 s, 25 s; every 30 s, 41 s. */
const NUDGE_MS = 5_000;

/** Start the nudges for this process (`obsim serve`). Keeps no process alive. */
export function keepMemoryReducerWorking(): void {
  setInterval(() => new Script('0'), NUDGE_MS).unref();
}
