/**
 * The two OpenAPI linters a partner's toolchain would run, as the project runs them
 * (`npm run openapi:lint`, with the repository's .spectral.yaml and redocly.yaml): the real
 * Spectral and Redocly CLIs, their results as JSON.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './processes.js';

const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);

/** Spectral (spectral:oas, every rule on, failing on any result) over `file`. */
export function spectral(file: string) {
  const r = spawnSync(bin('spectral'), ['lint', file, '--fail-severity', 'hint', '--format', 'json', '--quiet'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const results = JSON.parse(r.stdout || '[]') as { code: string; message: string; path: string[] }[];
  return { code: r.status, results, stderr: r.stderr };
}

/** Redocly (recommended-strict: warnings are errors) over `file`. */
export function redocly(file: string) {
  const r = spawnSync(bin('redocly'), ['lint', file, '--format', 'json'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  const report = JSON.parse(r.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
  return { code: r.status, ...report };
}
