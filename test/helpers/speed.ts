/**
 * How fast this machine runs the suite now, against the machine its time limits were written on
 * (test/helpers and docs/testing.md, "A slow machine"): a fixed piece of work, timed once per test
 * process, at most `SPEED_SAMPLE_MS` of it. A machine four times slower (or four times as busy)
 * measures about 4; this one, at rest, about 1. `scaled(ms)` is every wall-clock limit a test
 * sets: a timing belongs in a benchmark, a limit only says when to stop waiting.
 *
 * OBSIM_TEST_SPEED=<factor> sets it (a CI that knows its machine).
 */
import { createHash } from 'node:crypto';

/** The work: 20,000 SHA-256 digests of 1 KiB, about 30–40 ms on the machine the limits were written on. */
const REFERENCE_MS = 40;
const ROUNDS = 20_000;

function measure(): number {
  const block = Buffer.alloc(1024, 7);
  const started = performance.now();
  for (let i = 0; i < ROUNDS; i++) createHash('sha256').update(block).digest();
  return performance.now() - started;
}

const given = Number(process.env.OBSIM_TEST_SPEED);
/** How many times slower than the reference machine this one runs (never less than 1). */
export const SLOWDOWN = Number.isFinite(given) && given > 0 ? Math.max(1, given) : Math.max(1, measure() / REFERENCE_MS);

/** A wall-clock limit of `ms` on the reference machine, on this one. */
export const scaled = (ms: number): number => Math.ceil(ms * SLOWDOWN);
