/**
 * docs/console.md: its screenshots exist, are the pages scripts/console-screenshots.ts takes, and
 * the script still takes them (run into a temporary directory, in Chromium).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { screenshotsDir, SHOTS, takeScreenshots, USAGE } from '../../scripts/console-screenshots.js';
import { browserMissing, inCI } from '../helpers/browser.js';
import { ROOT, TSX } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

t.setTimeout(scaled(180_000));
const docs = new URL('../../docs/', import.meta.url);
const page = readFileSync(new URL('console.md', docs), 'utf8');

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  if (b.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error(`${file} is not a PNG`);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

t.test('the page shows every screenshot the script takes, and each exists at its width', async (t) => {
  const referenced = [...page.matchAll(/\(images\/(console-[a-z-]+\.png)\)/g)].map((m) => m[1]);
  const expected = SHOTS.map((s) => `console-${s.name}.png`);
  t.same([...new Set(referenced)].sort(), [...expected].sort(), 'docs/console.md links each screenshot, and only those');
  for (const shot of SHOTS) {
    const size = pngSize(new URL(`images/console-${shot.name}.png`, docs).pathname);
    t.same(size, { width: shot.width ?? 1280, height: 800 }, shot.name);
  }
});

const missing = browserMissing();
t.test('npm run docs:screenshots still takes them', { skip: missing && !inCI() ? missing : false }, async (t) => {
  const out = mkdtempSync(join(tmpdir(), 'obsim-shots-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  const written = await takeScreenshots(out);
  t.equal(written.length, SHOTS.length);
  t.same(readdirSync(out).sort(), SHOTS.map((s) => `console-${s.name}.png`).sort());
  for (const shot of SHOTS) t.same(pngSize(join(out, `console-${shot.name}.png`)), { width: shot.width ?? 1280, height: 800 }, shot.name);
});

t.test("the script's command line: --help prints the usage, a flag is never a folder's name", async (t) => {
  t.same(screenshotsDir(['--help']), { help: true });
  t.same(screenshotsDir(['-h']), { help: true });
  t.same(screenshotsDir(['/tmp/shots']), { dir: '/tmp/shots' });
  t.match(screenshotsDir([]), { dir: /docs\/images$/ }, 'docs/images by default');
  t.match(screenshotsDir(['--out']), { error: /Unknown option '--out'/ }, 'an unknown flag is an error');
  t.match(screenshotsDir(['a', 'b']), { error: /one folder at most/ });
  const run = spawnSync(process.execPath, [...TSX, 'scripts/console-screenshots.ts', '--help'], { cwd: ROOT, encoding: 'utf8' });
  t.equal(run.status, 0);
  t.equal(run.stdout, `${USAGE}\n`, 'prints the usage and takes no screenshot');
  t.notOk(existsSync(join(ROOT, '--help')), 'no folder named --help');
});
