/**
 * The folder obsim's package.json is in: the checkout when run from src/ (tsx) or dist/, the
 * installed package's folder in a project's node_modules. What ships beside the code (scenarios/,
 * personas/, the package's version) is found from here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'obsim') return (root = dir);
    dir = resolve(dir, '..');
  }
  throw new Error("cannot find obsim's package.json above its code");
}

/** The version of this obsim (package.json). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
