/**
 * A database belongs to one environment. Each environment has its own default file, the
 * environment is recorded in the database at first start, and a server of the other environment
 * refuses to open it with one configuration-error line, before reading or writing anything (its
 * timers would otherwise fire, and its deliveries be sent, by the wrong environment).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { buildApp, DATABASE_ENVIRONMENT_KEY } from '../../src/app.js';
import { ConfigError } from '../../src/config-parsers.js';
import { DEFAULT_DATABASE, loadConfig, SETTINGS } from '../../src/config.js';
import { serve, serveFails } from '../helpers/processes.js';
import { scaled } from '../helpers/speed.js';

// generous: CI machines run many test files at once (tap's default is 30 s per file)
t.setTimeout(scaled(180_000));

function tempDir(t: { teardown(fn: () => unknown): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-envdb-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const metaOf = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(
      (db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]),
    );
  } finally {
    db.close();
  }
};

t.test('each environment has its own default database file; --db / OBSIM_DB still win', async (t) => {
  t.equal(DEFAULT_DATABASE.sandbox, './data/obsim.sqlite');
  t.equal(DEFAULT_DATABASE.production, './data/obsim-production.sqlite');
  t.equal(loadConfig({}, {}).db, './data/obsim.sqlite', 'sandbox default');
  t.equal(loadConfig({ environment: 'production' }, {}).db, './data/obsim-production.sqlite', 'production default (flag)');
  t.equal(loadConfig({}, { OBSIM_ENVIRONMENT: 'production' }).db, './data/obsim-production.sqlite', 'production default (variable)');
  t.equal(loadConfig({ environment: 'production', db: ':memory:' }, {}).db, ':memory:', '--db wins');
  t.equal(loadConfig({}, { OBSIM_ENVIRONMENT: 'production', OBSIM_DB: './data/x.sqlite' }).db, './data/x.sqlite', 'OBSIM_DB wins');
  const setting = SETTINGS.find((s) => s.key === 'db')!;
  t.match(
    setting.defaultText,
    /`\.\/data\/obsim\.sqlite` \(sandbox\); `\.\/data\/obsim-production\.sqlite` \(production\)/,
    'the README table says both',
  );
});

t.test('buildApp without a db uses the environment’s default file', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'data')); // (the CLI creates it: loadConfig checks the path first)
  const cwd = process.cwd();
  process.chdir(dir);
  t.teardown(() => process.chdir(cwd));
  const app = await buildApp({ logger: false, config: { environment: 'production' } });
  t.equal(app.config.db, './data/obsim-production.sqlite');
  await app.close();
  t.ok(existsSync(join(dir, 'data/obsim-production.sqlite')));
  t.notOk(existsSync(join(dir, 'data/obsim.sqlite')), 'the sandbox file is not touched');
});

t.test('the environment is recorded at first start; the other environment is refused, nothing written', async (t) => {
  const dir = tempDir(t);
  for (const [first, other] of [
    ['sandbox', 'production'],
    ['production', 'sandbox'],
  ] as const) {
    const file = join(dir, `${first}.sqlite`);
    const app = await buildApp({ logger: false, config: { db: file, environment: first } });
    t.equal(app.meta.get(DATABASE_ENVIRONMENT_KEY), first, `${first}: recorded at first start`);
    await app.close();
    const before = metaOf(file);

    const err = await buildApp({ logger: false, config: { db: file, environment: other } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    t.ok(err instanceof ConfigError, `${other} on a ${first} database: a ConfigError`);
    t.equal((err as ConfigError).setting, 'OBSIM_DB');
    t.equal(
      (err as Error).message,
      `invalid configuration: OBSIM_DB: "${file}" is a ${first} database (recorded at its first start); a ${other} server cannot open it: give each environment its own database with --db / OBSIM_DB (default ${DEFAULT_DATABASE[other]})`,
    );
    t.notMatch((err as Error).message, /\n/, 'one line');
    t.same(metaOf(file), before, 'nothing written (no credentials, secret or clock of the other environment)');

    const again = await buildApp({ logger: false, config: { db: file, environment: first } });
    t.equal(again.config.environment, first, `${first} still opens it`);
    await again.close();
  }
});

t.test('a database from before the check (no record) is claimed by the first environment that opens it', async (t) => {
  const file = join(tempDir(t), 'old.sqlite');
  const app = await buildApp({ logger: false, config: { db: file } });
  await app.close();
  const db = new Database(file);
  db.prepare('DELETE FROM meta WHERE key = ?').run(DATABASE_ENVIRONMENT_KEY);
  db.close();
  const prod = await buildApp({ logger: false, config: { db: file, environment: 'production' } });
  t.equal(prod.meta.get(DATABASE_ENVIRONMENT_KEY), 'production');
  await prod.close();
  await t.rejects(
    buildApp({ logger: false, config: { db: file } }),
    { setting: 'OBSIM_DB', message: /is a production database/ },
    'from then on the sandbox is refused',
  );
});

t.test(
  'obsim serve: production started without --db next to a sandbox gets its own file; a sandbox database given to production is refused with one line',
  async (t) => {
    const dir = tempDir(t);
    const sandbox = await serve([], { cwd: dir });
    t.teardown(() => void sandbox.child.kill('SIGKILL'));
    const production = await serve(['--environment', 'production'], { cwd: dir });
    t.teardown(() => void production.child.kill('SIGKILL'));
    t.match(sandbox.stdout(), /database: +\.\/data\/obsim\.sqlite\n/);
    t.match(production.stdout(), /database: +\.\/data\/obsim-production\.sqlite\n/);
    t.equal(metaOf(join(dir, 'data/obsim.sqlite'))[DATABASE_ENVIRONMENT_KEY], 'sandbox');
    t.equal(metaOf(join(dir, 'data/obsim-production.sqlite'))[DATABASE_ENVIRONMENT_KEY], 'production');
    t.equal(((await fetch(`${production.url}/healthz`).then((r) => r.json())) as { environment: string }).environment, 'production');
    t.equal(await production.stop(), 0);
    t.equal(await sandbox.stop(), 0);

    // the same file given to the other environment: refused at start, one line, the config-error exit code
    const reference = serveFails(['--port', 'abc'], { cwd: dir });
    const refused = serveFails(['--environment', 'production', '--db', './data/obsim.sqlite'], { cwd: dir });
    t.not(refused.status, 0, 'does not start');
    t.equal(refused.status, reference.status, `exits like every invalid configuration (${reference.status})`);
    t.equal(
      refused.stderr,
      `obsim: invalid configuration: OBSIM_DB: "./data/obsim.sqlite" is a sandbox database (recorded at its first start); a production server cannot open it: give each environment its own database with --db / OBSIM_DB (default ./data/obsim-production.sqlite)\n`,
    );
    t.notMatch(refused.stdout, /listening/);
    t.equal(metaOf(join(dir, 'data/obsim.sqlite'))[DATABASE_ENVIRONMENT_KEY], 'sandbox', 'still the sandbox’s');
    t.notOk(metaOf(join(dir, 'data/obsim.sqlite'))['production.partnerClientId'], 'no production credentials generated in it');
  },
);
