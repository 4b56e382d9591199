/**
 * Fastify stays pinned at a version with the content-type validation CVEs fixed (README "Fastify
 * and the content-type CVEs"): an exact version in package.json (no range an install could move),
 * the same version in the lockfile and in node_modules, at least 5.8.5 and at least every "fixed
 * in" version the README lists, and the README names the version actually pinned.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ROOT } from '../helpers/process.js';

/** The newest content-type fix (CVE-2026-33806, GHSA-247c-9743-5963). */
const MINIMUM = '5.8.5';

const readJson = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));

function compare(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

t.test('fastify is pinned exactly, installed at that version, and has the content-type CVE fixes', async (t) => {
  const pinned = readJson('package.json').dependencies.fastify as string;
  t.match(pinned, /^\d+\.\d+\.\d+$/, `package.json pins an exact version (got "${pinned}", no ^ or ~)`);
  const locked = readJson('package-lock.json').packages['node_modules/fastify'].version as string;
  t.equal(locked, pinned, 'package-lock.json has the pinned version');
  const installed = readJson('node_modules/fastify/package.json').version as string;
  t.equal(installed, pinned, 'node_modules has the pinned version');
  t.ok(compare(installed, MINIMUM) >= 0, `installed ${installed} >= ${MINIMUM}`);

  const readme = readFileSync(join(ROOT, 'docs/reliability.md'), 'utf8');
  const section = /### Fastify and the content-type CVEs\n([\s\S]*?)(?=\n#{2,3} )/.exec(readme)?.[1] ?? '';
  t.ok(section, 'README has the section');
  t.match(section, new RegExp(`pins \`fastify\` ${pinned.replace(/\./g, '\\.')}\\b`), 'README names the pinned version');
  const fixes = [...section.matchAll(/fixed in (\d+\.\d+\.\d+)/g)].map((m) => m[1]);
  t.ok(fixes.length >= 3, `README lists the fixed-in versions (${fixes.join(', ')})`);
  for (const fixed of fixes) t.ok(compare(installed, fixed) >= 0, `installed ${installed} >= ${fixed}`);
  t.ok(fixes.includes(MINIMUM), `the README lists the ${MINIMUM} fix`);
});
