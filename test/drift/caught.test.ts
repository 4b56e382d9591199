/**
 * Caught: each seeded drift of the catalogue (./catalogue.ts), applied by the mutating proxy to
 * one answer or one delivery of a shipped scenario, is reported by the shadow with the right kind
 * and pointer (docs/drift.md). `npm test` runs the short list (one of each kind, 16 entries);
 * OBSIM_DRIFT_ALL=1 (`npm run test:drift`) all 50.
 */
import t from 'tap';
import { runCatalogueEntry } from '../helpers/drift.js';
import { CATALOGUE } from './catalogue.js';
import { scaled } from '../helpers/speed.js';

const entries = process.env.OBSIM_DRIFT_ALL ? CATALOGUE : CATALOGUE.filter((e) => e.short);
// a flow takes 0.1-0.5 s, one with webhooks its wait on top: all 50 take about a minute
t.setTimeout(scaled(entries.length * 5_000));

for (const entry of entries) {
  t.test(`${entry.id} (${entry.scenario}): ${entry.expect.kind} at ${entry.expect.pointer || '(the answer)'}`, async (t) => {
    const { applied, drifts, found } = await runCatalogueEntry(entry);
    t.ok(applied, 'the mutation applied (otherwise the entry tests nothing)');
    t.ok(found, `reported: ${entry.expect.kind} at ${entry.expect.pointer}`, { drifts });
  });
}
