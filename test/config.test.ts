import t from 'tap';
import { mkdtempSync, chmodSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, parseDuration } from '../src/config-parsers.js';
import { readPartnersFile } from '../src/config-files.js';
import { loadConfig } from '../src/config.js';

/** The setting a ConfigError names, or 'no error'. */
function settingOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.setting;
    throw err;
  }
  return 'no error';
}

t.test('defaults', async (t) => {
  const c = loadConfig({}, {});
  t.equal(c.port, 4010);
  t.equal(c.host, '127.0.0.1');
  t.equal(c.db, './data/obsim.sqlite');
  t.equal(c.environment, 'sandbox');
  t.equal(c.strict, false);
});

t.test('environment variables, then flags, win over defaults', async (t) => {
  const c = loadConfig(
    { port: '5000' },
    { PORT: '4500', HOST: '0.0.0.0', OBSIM_DB: ':memory:', OBSIM_STRICT: 'true', OBSIM_SETTLE_DELAY: '250ms' },
  );
  t.equal(c.port, 5000, 'flag beats env');
  t.equal(c.host, '0.0.0.0');
  t.equal(c.strict, true);
  t.equal(c.settleDelayMs, 250);
});

t.test('invalid settings name the setting', async (t) => {
  t.throws(() => loadConfig({}, { PORT: 'abc' }), new ConfigError('PORT', '"abc" is not a port number'));
  t.equal(
    settingOf(() => loadConfig({ port: '70000' }, {})),
    '--port',
  );
  t.equal(
    settingOf(() => loadConfig({}, { OBSIM_ENVIRONMENT: 'staging' })),
    'OBSIM_ENVIRONMENT',
  );
  t.equal(
    settingOf(() => loadConfig({}, { OBSIM_STRICT: 'maybe' })),
    'OBSIM_STRICT',
  );
  t.equal(
    settingOf(() => loadConfig({}, { OBSIM_CLOCK_START: 'yesterday' })),
    'OBSIM_CLOCK_START',
  );
});

t.test(
  'an unwritable database path is refused at start',
  { skip: process.getuid?.() === 0 ? 'root can write anywhere' : false },
  async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'obsim-ro-'));
    chmodSync(dir, 0o500);
    t.equal(
      settingOf(() => loadConfig({ db: join(dir, 'x.sqlite') }, {})),
      '--db',
    );
    t.equal(
      settingOf(() => loadConfig({}, { OBSIM_DB: join(dir, 'x.sqlite') })),
      'OBSIM_DB',
    );
  },
);

t.test('a database path under a file is refused at start (also as root)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-cfg-'));
  const file = join(dir, 'not-a-dir');
  writeFileSync(file, 'x');
  t.throws(
    () => loadConfig({ db: join(file, 'obsim.sqlite') }, {}),
    { message: `invalid configuration: --db: cannot write "${join(file, 'obsim.sqlite')}" (ENOTDIR)` },
    'given as the flag: the error names --db',
  );
  t.equal(
    settingOf(() => loadConfig({}, { OBSIM_DB: join(file, 'obsim.sqlite') })),
    'OBSIM_DB',
    'given as the variable: names OBSIM_DB',
  );
  t.equal(
    settingOf(() => loadConfig({ db: join(file, 'obsim.sqlite') }, { OBSIM_DB: ':memory:' })),
    '--db',
    'the flag wins over the variable, and the error names the one that won',
  );
  t.equal(
    settingOf(() => loadConfig({ db: ':memory:' }, { OBSIM_DB: join(file, 'obsim.sqlite') })),
    'no error',
    'a bad variable under a good flag is not used',
  );
});

t.test('durations', async (t) => {
  t.equal(parseDuration('500ms'), 500);
  t.equal(parseDuration('5s'), 5000);
  t.equal(parseDuration('2m'), 120_000);
  t.equal(parseDuration('1h'), 3_600_000);
  t.equal(parseDuration('7d'), 604_800_000);
  t.equal(parseDuration('1500'), 1500);
  t.equal(
    settingOf(() => parseDuration('soon', 'X')),
    'X',
  );
});

t.test('partners file', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-partners-'));
  const good = join(dir, 'good.json');
  writeFileSync(good, JSON.stringify([{ clientId: 'p2', clientSecret: 's2', name: 'Second' }]));
  t.same(readPartnersFile(good), [{ clientId: 'p2', clientSecret: 's2', name: 'Second' }]);
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify([{ clientId: 'p2' }]));
  t.equal(
    settingOf(() => readPartnersFile(bad)),
    'OBSIM_PARTNERS_FILE',
  );
  t.equal(
    settingOf(() => readPartnersFile(join(dir, 'missing.json'))),
    'OBSIM_PARTNERS_FILE',
  );
});
