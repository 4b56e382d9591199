/**
 * Caught: each seeded drift of the catalogue (./catalogue.ts), applied by the mutating proxy to
 * one answer or one delivery of a shipped scenario, is reported by the shadow with the right kind
 * and pointer (docs/drift.md).
 * - In front of the foreign provider double (test/helpers/foreign/: a provider that is not obsim),
 *   all 50: at least 48 reported, each one found with its kind and pointer.
 * - In front of an obsim, the short list (one of each kind, 16 entries); OBSIM_DRIFT_ALL=1
 *   (`npm run test:drift`) all 50.
 */
import t from 'tap';
import { runCatalogueEntry, type Upstream } from '../helpers/drift.js';
import { CATALOGUE, type CatalogueEntry } from './catalogue.js';
import { scaled } from '../helpers/speed.js';

const againstObsim = process.env.OBSIM_DRIFT_ALL ? CATALOGUE : CATALOGUE.filter((e) => e.short);
// a flow takes 0.1-0.5 s, one with webhooks its wait on top: all 50 take about a minute
t.setTimeout(scaled((CATALOGUE.length + againstObsim.length) * 5_000));

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

t.test('in front of a provider that is not obsim: at least 48 of the 50', async (t) => {
  const caught = await run(t, CATALOGUE, 'foreign');
  t.ok(caught >= 48, `${caught} of ${CATALOGUE.length} reported with their kind and pointer`);
});

t.test(`in front of an obsim: ${againstObsim.length === CATALOGUE.length ? 'all 50' : 'one of each kind'}`, async (t) => {
  for (const entry of againstObsim) {
    const { applied, drifts, found } = await runCatalogueEntry(entry, 'obsim');
    t.ok(applied, `${entry.id}: the mutation applied`);
    t.ok(found, `reported: ${name(entry)}`, { drifts });
  }
});
