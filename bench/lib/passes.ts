/**
 * What the benches that compare alternating passes share (bench:readiness, bench:chaos): their
 * options (--quick, --passes N, --no-build), building dist/ first, and printing a line.
 */
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function passOptions(argv: readonly string[] = process.argv.slice(2)) {
  const quick = argv.includes('--quick');
  const at = argv.indexOf('--passes');
  return { quick, passes: at >= 0 ? Number(argv[at + 1]) : quick ? 2 : 4, durationS: quick ? 2 : 5, build: !argv.includes('--no-build') };
}

/** `npm run build`, unless --no-build: the benches measure obsim from dist/. */
export function buildDist(build: boolean): void {
  if (!build) return;
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build failed');
}

export const log = (line: string): void => void process.stdout.write(`${line}\n`);
