/**
 * docs/partner-tools.md, "Postman and Bruno collections": both Try it blocks print what the page
 * says, run with bash against a listening obsim; `newman` and `bru` are the pinned devDependencies
 * (node_modules/.bin), `obsim` this checkout's command line.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { docsPage, runTryIt, tryItSkip } from '../helpers/docs.js';
import { BIN, ROOT } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(300_000));
const { block, printed } = docsPage('docs/partner-tools.md');

// the tools a partner installs globally, found where this checkout installed them
const bin = mkdtempSync(join(tmpdir(), 'obsim-docs-bin-'));
t.teardown(() => rmSync(bin, { recursive: true, force: true }));
writeFileSync(join(bin, 'obsim'), `#!/bin/sh\nexec ${[process.execPath, ...BIN].map((a) => `'${a}'`).join(' ')} "$@"\n`);
chmodSync(join(bin, 'obsim'), 0o755);
process.env.PATH = `${bin}:${join(ROOT, 'node_modules/.bin')}:${process.env.PATH ?? ''}`;

t.test(
  'the Postman block: Newman runs the collection with its environment, every assertion passes, the Flows end paid',
  { skip: tryItSkip() },
  async (t) => {
    const out = await runTryIt(t, block('partner-tools-postman', 'sh'), {}, 120_000);
    t.equal(out, printed('partner-tools-postman'));
  },
);

t.test("the Bruno block: obsim collection writes the folder, Bruno's CLI runs its Flows", { skip: tryItSkip() }, async (t) => {
  const out = await runTryIt(t, block('partner-tools-bruno', 'sh'), {}, 180_000);
  t.equal(out, printed('partner-tools-bruno'));
});
