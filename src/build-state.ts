/**
 * Whether dist/ holds a build of the TypeScript sources as they are: the build's last output
 * (dist/compiled/schemas.cjs, written by src/precompile.ts) is newer than every file the build is
 * made of. The same inputs as scripts/build-if-stale.mjs (`npm start`'s rebuild), which runs before
 * anything is built and so cannot import this. Only a checkout has sources; an installed package
 * (no src/) never asks.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';

/** What the build reads: its sources, and the settings that change what it writes. */
export const BUILD_INPUTS = ['src', 'schemas', 'fixtures', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

/** The newest modification time under `path` (0: it is not there). */
function newest(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

let current: boolean | undefined;

/** Whether the checkout's dist/ is a build of its sources as they are (asked once per process). */
export function buildIsCurrent(): boolean {
  if (current !== undefined) return current;
  const root = packageRoot();
  const output = join(root, 'dist/compiled/schemas.cjs');
  return (current = existsSync(output) && statSync(output).mtimeMs >= Math.max(...BUILD_INPUTS.map((input) => newest(join(root, input)))));
}
