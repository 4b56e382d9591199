import t from 'tap';
import { isoFormatter, VirtualClock } from '../src/clock.js';

t.test('a frozen clock moves only when advanced, and tells listeners', async (t) => {
  const clock = VirtualClock.create({ start: '2026-01-01T00:00:00.000Z', frozen: true });
  const seen: number[] = [];
  clock.onAdvance((now) => seen.push(now));
  t.equal(clock.iso(), '2026-01-01T00:00:00.000Z');
  clock.advance(1500);
  t.equal(clock.iso(), '2026-01-01T00:00:01.500Z');
  clock.advanceTo(Date.parse('2026-01-02T00:00:00.000Z'));
  t.equal(clock.iso(), '2026-01-02T00:00:00.000Z');
  t.same(seen, [Date.parse('2026-01-01T00:00:01.500Z'), Date.parse('2026-01-02T00:00:00.000Z')]);
  t.throws(() => clock.advance(-1), RangeError, 'never backwards');
  t.throws(() => clock.advanceTo(0), RangeError);
});

t.test('a running clock follows the wall clock plus an offset', async (t) => {
  let wall = 1_000_000;
  const clock = VirtualClock.create({ start: new Date(5_000_000) }, () => wall);
  t.equal(clock.nowMs(), 5_000_000);
  wall += 250;
  t.equal(clock.nowMs(), 5_000_250, 'runs in real time');
  clock.advance(60_000);
  t.equal(clock.nowMs(), 5_060_250);
  t.same(clock.state(), { offsetMs: 4_060_000, frozenAtMs: null });
  clock.freeze();
  wall += 1000;
  t.equal(clock.nowMs(), 5_060_250, 'frozen');
  clock.resume();
  wall += 10;
  t.equal(clock.nowMs(), 5_060_260, 'resumes from where it was frozen');
});

t.test('two ISO formatters remember their own last instant', async (t) => {
  const a = isoFormatter();
  const b = isoFormatter();
  t.equal(a(0), '1970-01-01T00:00:00.000Z');
  t.equal(b(1_000), '1970-01-01T00:00:01.000Z');
  t.equal(a(0), '1970-01-01T00:00:00.000Z');
  t.equal(b(2_000), '1970-01-01T00:00:02.000Z');
});
