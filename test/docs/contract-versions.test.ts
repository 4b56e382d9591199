/**
 * docs/contract-versions.md: the "Try it" block prints what the page says against an obsim serving
 * the shipped example version; the page's refusal line is the one obsim prints; the switches'
 * table names every switch the file schema has, and the example file is the one the page describes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { SWITCHES_SCHEMA } from '../../src/contracts/schemas.js';
import { loadVersions } from '../../src/contracts/load.js';
import { ContractFileError } from '../../src/contracts/errors.js';
import { committedProviderDocument } from '../../src/plugins/contract-versions.js';
import { docsPage, runTryIt, tryItSkip } from '../helpers/docs.js';

const { page, block, printed } = docsPage('docs/contract-versions.md');

t.test('the Try it block prints what the page says', { skip: tryItSkip() }, async (t) => {
  const out = await runTryIt(t, block('contract-versions-example', 'sh'), {
    contracts: 'examples/contracts',
    clockStart: '2027-04-01T00:00:00.000Z',
  });
  t.equal(out, printed('contract-versions-example'));
});

t.test("the refusal line the page shows is obsim's, for the file it names", async (t) => {
  const line = /`(obsim: contract version contracts\/next\.yaml at [^`]+)`/.exec(page)?.[1];
  t.ok(line, 'the page shows a refusal line');
  const dir = mkdtempSync(join(tmpdir(), 'docs-contracts-'));
  writeFileSync(
    join(dir, 'next.yaml'),
    'overlay: 1.0.0\ninfo: {title: next, version: next}\nactions:\n  - target: $.paths.nowhere\n    update: {x: 1}\n',
  );
  try {
    await loadVersions(dir, committedProviderDocument());
    t.fail('loaded');
  } catch (err) {
    t.ok(err instanceof ContractFileError);
    t.equal(`obsim: ${(err as Error).message.replace(dir, 'contracts')}`, line);
  }
});

t.test('every switch of the file schema is in the table', async (t) => {
  for (const name of ['deprecatedAt', 'docs', 'sunsetAt', 'status', 'value', 'send', 'when', 'remove'])
    t.match(page, new RegExp('`[^`]*' + name), `${name} is documented`);
  t.same(Object.keys(SWITCHES_SCHEMA.properties).sort(), ['answers', 'deprecatedAt', 'docs', 'operations']);
  t.same(Object.keys(SWITCHES_SCHEMA.properties.answers.items.properties).sort(), [
    'description',
    'field',
    'in',
    'remove',
    'send',
    'value',
    'when',
  ]);
});
