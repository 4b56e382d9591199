/**
 * docs/partner-tools.md "A HAR becomes a scenario": every example runs. The command-line block on
 * the committed foreign-provider HAR prints what the page says and the scenario it wrote passes
 * (`obsim scenario run --in-process`); the HTTP block, run with bash against a listening obsim,
 * prints what the page says; the exit codes the page names for bad files.
 */
import t from 'tap';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docsPage, runTryIt, tryItSkip } from '../helpers/docs.js';
import { harWith } from '../helpers/har.js';
import { ROOT, runObsim } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(120_000));
const { block, printed } = docsPage('docs/partner-tools.md');

const workdir = (t: { teardown(fn: () => unknown): void }) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-docs-har-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

t.test('the command-line example prints what the page says, and the scenario it writes passes', async (t) => {
  const dir = workdir(t);
  copyFileSync(join(ROOT, 'test/fixtures/har/foreign-provider.har'), join(dir, 'foreign-provider.har'));
  const [importLine, runLine] = block('har-import-cli', 'sh').trim().split('\n');
  const imported = await runObsim(importLine.split(' ').slice(1), { cwd: dir });
  t.equal(imported.code, 0, imported.stderr);
  t.equal(imported.stderr, printed('har-import-cli'));
  const run = await runObsim(runLine.split(' ').slice(1), { cwd: dir });
  t.equal(run.code, 0, run.stdout);
  t.match(run.stdout, /PASS foreign-provider/);
});

t.test('the exit codes the page names: 2 for a file that is not HAR 1.2 (one line), 1 for a HAR without the API', async (t) => {
  const dir = workdir(t);
  writeFileSync(join(dir, 'cut.har'), '{"log": {"version": "1.2", "entries": [');
  writeFileSync(join(dir, 'v11.har'), JSON.stringify({ log: { version: '1.1', creator: { name: 'x', version: '1' }, entries: [] } }));
  const font = JSON.parse(harWith()).log.entries[0].request;
  writeFileSync(join(dir, 'fonts.har'), harWith({ request: { ...font, url: 'https://fonts.example/a.woff2' } }));
  const cut = await runObsim(['scenario', 'import', 'cut.har', '--out', 'cut.yaml'], { cwd: dir });
  t.equal(cut.code, 2);
  t.equal(cut.stderr, 'obsim scenario import: cut.har: not a HAR file: the JSON ends before it is complete (a truncated file?)\n');
  const old = await runObsim(['scenario', 'import', 'v11.har'], { cwd: dir });
  t.equal(old.code, 2);
  t.equal(old.stderr, 'obsim scenario import: v11.har: not HAR 1.2: /log/version is "1.1", expected "1.2"\n');
  const fonts = await runObsim(['scenario', 'import', 'fonts.har', '--out', 'fonts.yaml'], { cwd: dir });
  t.equal(fonts.code, 1);
  t.match(
    fonts.stderr,
    /^obsim scenario import: fonts\.har: no entry of this HAR is a request to the provider's API \(1 entries: fonts\.example: not the provider’s API \(1\)\); no scenario written\n$/,
  );
  t.notOk(existsSync(join(dir, 'fonts.yaml')) || existsSync(join(dir, 'cut.yaml')), 'nothing written');
});

t.test('the HTTP example prints what the page says', { skip: tryItSkip() }, async (t) => {
  t.equal(await runTryIt(t, block('har-import-api', 'sh')), printed('har-import-api'));
});
