/**
 * What the docs tests share: a docs page's marked example blocks (`<!-- name:start -->` around a
 * fenced block) and the text the page says one prints.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Test } from 'tap';
import { defaultConfig, type Config } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { ROOT } from './processes.js';
import { scaled } from './speed.js';

/** A docs page and its marked blocks. */
export function docsPage(file: string) {
  const page = readFileSync(join(ROOT, file), 'utf8');
  return {
    page,
    /** The fenced `lang` block between `<!-- name:start -->` and `<!-- name:end -->`. */
    block(name: string, lang: string): string {
      const m = new RegExp(`<!-- ${name}:start -->\\n\`\`\`${lang}\\n([\\s\\S]*?)\`\`\`\\n<!-- ${name}:end -->`).exec(page);
      if (!m) throw new Error(`${file}: no ${name} block`);
      return m[1];
    },
    /** What the page says block `name` prints: the fenced block after "prints". */
    printed: (name: string): string | undefined =>
      new RegExp(`<!-- ${name}:end -->\\n\\nprints\\n\\n\`\`\`\\n([\\s\\S]*?)\`\`\``).exec(page)?.[1],
    /** What the page says code block `name` prints on one line: prints `…`. */
    printsLine: (name: string): string | undefined => new RegExp(`<!-- ${name}:end -->\\n\\nprints \`([^\`]+)\``).exec(page)?.[1],
  };
}

/** The shell tools a "Try it" block uses that this machine lacks (CI installs them). */
export const missingTools = (...tools: string[]): string[] =>
  tools.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);

/**
 * A page's "Try it" block (`name`, sh) run with bash against a listening obsim on a frozen clock
 * (`$OBSIM` its URL): what it printed, to compare with what the page says it prints. A test
 * skips it where bash, curl or jq is missing (outside CI: CI installs them).
 */
export async function runTryIt(t: Test, script: string, config: Partial<Config> = {}, timeoutMs = 30_000): Promise<string> {
  const server = await startServer(
    { ...defaultConfig(), port: 0, db: ':memory:', logLevel: 'silent', clockFrozen: true, ...config },
    () => undefined,
  );
  t.teardown(() => server.close());
  const run = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
    env: { ...process.env, OBSIM: server.url },
    encoding: 'utf8',
    timeout: scaled(timeoutMs),
  });
  return run.stdout;
}

/** Why a "Try it" test is skipped here (a tool missing outside CI), or false. */
export function tryItSkip(): string | false {
  const missing = missingTools('bash', 'curl', 'jq');
  return missing.length > 0 && !process.env.CI ? `${missing.join(', ')} not installed` : false;
}
