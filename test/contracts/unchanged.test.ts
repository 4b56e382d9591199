/**
 * With no version pinned, the shipped scenarios' full traffic (every provider answer, delivery
 * and journal entry: test/helpers/traffic.ts) is what the build before contract versions gave:
 * test/fixtures/shipped-traffic.json was recorded by this file on main at 87793ad (the last commit
 * before contract versions), with OBSIM_RECORD_TRAFFIC=FILE. Compared twice: without --contracts,
 * and with the example version loaded but not asked for (then every provider answer names the base
 * in Obsim-Contract-Version, and nothing else differs).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { VirtualClock } from '../../src/clock.js';
import { build } from '../helpers/app.js';
import { ROOT } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';
import { canonicalTraffic, shippedTraffic } from '../helpers/traffic.js';

t.setTimeout(scaled(300_000));

const GOLDEN = join(ROOT, 'test/fixtures/shipped-traffic.json');
const START = '2026-06-01T08:00:00.000Z';

async function traffic(t: Parameters<typeof build>[0], contracts?: string) {
  const app = await build(t, { clock: VirtualClock.create({ start: START, frozen: true }), config: contracts ? { contracts } : {} });
  return shippedTraffic(app);
}

const record = process.env.OBSIM_RECORD_TRAFFIC;
if (record) {
  t.test('record', async (t) => {
    writeFileSync(record, `${JSON.stringify(canonicalTraffic(await traffic(t)), null, 1)}\n`);
    t.pass(`written to ${record}`);
  });
} else {
  const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as { name: string }[];

  t.test('without --contracts: the traffic of the build before versions, byte for byte', async (t) => {
    const now = canonicalTraffic(await traffic(t)) as { name: string }[];
    t.same(
      now.map((s) => s.name),
      golden.map((s) => s.name),
      'the same scenarios',
    );
    for (const [i, scenario] of now.entries()) t.same(scenario, golden[i], scenario.name);
  });

  t.test('with a version loaded but not asked for: the same, each provider answer naming the base', async (t) => {
    const raw = await traffic(t, 'examples/contracts');
    for (const s of raw)
      for (const e of s.exchanges as { headers: Record<string, unknown> }[]) {
        t.equal(e.headers['obsim-contract-version'], 'base');
        delete e.headers['obsim-contract-version'];
      }
    const now = canonicalTraffic(raw) as { name: string }[];
    for (const [i, scenario] of now.entries()) t.same(scenario, golden[i], scenario.name);
  });
}
