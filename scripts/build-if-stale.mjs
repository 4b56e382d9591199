// `npm start` runs this first: build only when a source is newer than the last build.
// `npm ci` already builds (prepare), so a fresh checkout starts at once; an edited source is
// rebuilt before the server starts. Plain Node (no TypeScript loader): it runs on every start. The
// tests and obsim's worker threads ask the same question with the same inputs (src/build-state.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
/** The last file the build writes (src/precompile.ts). */
const OUTPUT = join(ROOT, 'dist', 'compiled', 'schemas.cjs');
const SOURCES = ['src', 'schemas', 'fixtures', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function newest(path) {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const built = existsSync(OUTPUT) ? statSync(OUTPUT).mtimeMs : 0;
const changed = Math.max(...SOURCES.map((s) => newest(join(ROOT, s))));
if (built === 0 || changed > built) {
  console.log(built === 0 ? 'obsim: no build yet, building…' : 'obsim: sources changed since the last build, rebuilding…');
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(r.status ?? 1);
}
