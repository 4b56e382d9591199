/**
 * Caught: each seeded drift of the catalogue (./catalogue.ts), applied by the mutating proxy to
 * one answer or one delivery of a shipped scenario, is reported by the shadow with the right kind
 * and pointer (docs/drift.md).
 * - In `npm test`, the short list (one of each kind, 16 entries) in front of the foreign provider
 *   double (test/helpers/foreign/: a provider that is not obsim) and in front of an obsim: every one
 *   reported, with its kind and pointer.
 * - With OBSIM_DRIFT_ALL=1 (`npm run test:drift`), the whole catalogue: all 50 in front of the double,
 *   at least 48 of them reported, and all 50 in front of an obsim, every one reported.
 * Each entry is a flow through a shadow of its own, and a shadow's replay thread loads an obsim of its
 * own (about 1.5 s of CPU): the 100 entries of the whole catalogue take three minutes of CPU, the 32 of
 * the short list one.
 */
import t from 'tap';
import { runCatalogueEntry, type Upstream } from '../helpers/drift.js';
import { CATALOGUE, type CatalogueEntry } from './catalogue.js';
import { scaled } from '../helpers/speed.js';

const ALL = Boolean(process.env.OBSIM_DRIFT_ALL);
const entries = ALL ? CATALOGUE : CATALOGUE.filter((e) => e.short);
// a flow takes 0.1-0.5 s, one with webhooks its wait on top: all 50 take about a minute
t.setTimeout(scaled(entries.length * 2 * 5_000));

const name = (e: CatalogueEntry) => `${e.id} (${e.scenario}): ${e.expect.kind} at ${e.expect.pointer || '(the answer)'}`;

async function run(
  t: { ok(v: unknown, m: string): void; comment(m: string): void },
  entries: CatalogueEntry[],
  upstream: Upstream,
): Promise<number> {
  let caught = 0;
  for (const entry of entries) {
    const { applied, drifts, found } = await runCatalogueEntry(entry, upstream);
    t.ok(applied, `${entry.id}: the mutation applied (otherwise the entry tests nothing)`);
    if (found) caught++;
    else t.comment(`not reported: ${name(entry)}; reported instead: ${JSON.stringify(drifts).slice(0, 600)}`);
  }
  return caught;
}

t.test(`in front of a provider that is not obsim: ${ALL ? 'at least 48 of the 50' : 'one of each kind, every one'}`, async (t) => {
  const caught = await run(t, entries, 'foreign');
  if (ALL) t.ok(caught >= 48, `${caught} of ${CATALOGUE.length} reported with their kind and pointer`);
  else t.equal(caught, entries.length, `${caught} of the ${entries.length} of the short list reported with their kind and pointer`);
});

t.test(`in front of an obsim: ${ALL ? 'all 50' : 'one of each kind'}`, async (t) => {
  for (const entry of entries) {
    const { applied, drifts, found } = await runCatalogueEntry(entry, 'obsim');
    t.ok(applied, `${entry.id}: the mutation applied`);
    t.ok(found, `reported: ${name(entry)}`, { drifts });
  }
});
