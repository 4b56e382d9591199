/**
 * Every `obsim serve` flag reaches the configuration. Found by the benchmark: commander names a
 * value after its flag (--settle-delay -> settleDelay) while the Config key is settleDelayMs, so
 * the duration flags were silently ignored. An invalid value must now fail at start naming the
 * flag, which proves the value was read.
 */
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SETTINGS } from '../../src/config.js';
import { BIN } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = BIN;

const invalid: Record<string, string> = { port: 'abc', environment: 'staging', logLevel: 'loud', rateLimit: '-1', clockStart: 'yesterday' };

t.test('a bad value for any validated serve flag stops the start and names the flag', async (t) => {
  const flags = SETTINGS.filter((s) => !('boolean' in s && s.boolean) && (s.parse.name === 'parseDuration' || s.key in invalid));
  t.ok(
    flags.some((s) => s.key === 'settleDelayMs'),
    'the duration flags are covered',
  );
  for (const s of flags) {
    const value = invalid[s.key] ?? 'soon';
    const res = spawnSync(process.execPath, [...bin, 'serve', '--db', ':memory:', '--port', '0', s.flag, value], {
      cwd: root,
      env: { ...process.env, OBSIM_LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: scaled(30_000),
    });
    t.equal(res.status, 1, `${s.flag} ${value}: exit 1`);
    t.match(res.stderr, s.flag, `${s.flag}: the error names the flag`);
  }
});
