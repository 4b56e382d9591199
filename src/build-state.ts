/**
 * Whether dist/ holds a build of the TypeScript sources as they are: the build's last output
 * (dist/compiled/schemas.cjs, written by src/precompile.ts) is newer than every source file. Only
 * a checkout has sources; an installed package (no src/) never asks.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';

/** The newest modification time of the files the build is made of. */
function newestSource(root: string): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of ['src', 'schemas', 'fixtures']) if (existsSync(join(root, dir))) walk(join(root, dir));
  return newest;
}

let current: boolean | undefined;

/** Whether the checkout's dist/ is a build of its sources as they are (asked once per process). */
export function buildIsCurrent(): boolean {
  if (current !== undefined) return current;
  const root = packageRoot();
  const output = join(root, 'dist/compiled/schemas.cjs');
  return (current = existsSync(output) && statSync(output).mtimeMs >= newestSource(root));
}
