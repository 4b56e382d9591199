/**
 * One shard, in process (docs/cluster.md): what it refuses at start, with one line each, and
 * what it puts into the ids, tokens and headers it hands out. The shard's tag is the process's
 * (a process is one shard), so every app here is closed before the next starts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { buildApp } from '../../src/app.js';
import { ConfigError } from '../../src/config-parsers.js';
import { loadConfig } from '../../src/config.js';
import { PARTNER } from '../helpers/app.js';

const dir = mkdtempSync(join(tmpdir(), 'obsim-shard-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const quiet = { logLevel: 'silent' };

t.test('shard names and peers are checked when the configuration is read', async (t) => {
  t.throws(
    () => loadConfig({ shard: 'S_1' }, {}),
    new ConfigError('--shard', '"S_1" is not a shard name (1-16 lower-case letters and digits, starting with a letter)'),
  );
  t.throws(() => loadConfig({}, { OBSIM_SHARD: '1a' }), /OBSIM_SHARD: "1a" is not a shard name/);
  t.throws(
    () => loadConfig({ shard: 's9', shardPeers: 's1=http://a:1,s2=http://b:2' }, {}),
    /"s9" is not one of the cluster's shards \(s1, s2\)/,
  );
  t.throws(() => loadConfig({ shard: 's1', shardPeers: 's1=http://a:1,s1=http://b:2' }, {}), /shard "s1" is named twice/);
  t.throws(() => loadConfig({ shard: 's1', shardPeers: 's1=ftp://a' }, {}), /is not name=http:\/\/host:port/);
  t.throws(() => loadConfig({ shardPeers: 's1=http://a:1' }, {}), /is for a shard: give --shard/);
  t.equal(loadConfig({ shard: 's1', shardPeers: 's1=http://a:1/' }, {}).shardPeers?.s1, 'http://a:1');
});

t.test('a shard hands out ids, tokens and headers that name it; a single process does not', async (t) => {
  const db = join(dir, 'tags.sqlite');
  const app = await buildApp({ config: { ...quiet, db, shard: 's7', clockFrozen: true } });
  try {
    const res = await app.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: {} });
    t.equal(res.headers['x-obsim-shard'], 's7');
    const sandbox = res.json();
    t.match(sandbox.sandboxId, /^sbx_s7_[0-9a-f]{20}$/);
    t.equal(sandbox.shard, 's7');
    const headers = { 'x-partner-client-id': sandbox.credentials.clientId, 'x-partner-client-secret': sandbox.credentials.clientSecret };
    const m = (
      await app.inject({
        method: 'POST',
        url: '/v1/partner/merchants',
        headers,
        payload: { companyName: 'Tag ApS', contactEmail: 'a@b.test' },
      })
    ).json();
    t.match(m.onboardingUrl, /\/onboarding\/onb_s7_/);
    const p = (
      await app.inject({
        method: 'POST',
        url: '/v1/partner/payments',
        headers,
        payload: { merchantClientId: sandbox.defaultMerchant.clientId, amount: 5, referenceNumber: 'x' },
      })
    ).json();
    t.match(p.paymentUrl, /\/pay\/pay_s7_[0-9]+_/);
    const page = await app.inject({ method: 'GET', url: new URL(p.paymentUrl).pathname });
    t.equal(page.statusCode, 200, 'its own payment page');
    const untagged = new URL(p.paymentUrl).pathname.replace('pay_s7_', 'pay_');
    t.equal((await app.inject({ method: 'GET', url: untagged })).statusCode, 404, 'a token without the shard is not its token');
    const wh = (
      await app.inject({
        method: 'POST',
        url: '/v1/partner/webhooks',
        headers,
        payload: { url: 'http://127.0.0.1:9/x', events: ['payment.completed'] },
      })
    ).json();
    t.match(wh.id, /^wh_s7_[0-9a-f]+$/);
    const tok = (
      await app.inject({
        method: 'POST',
        url: '/v1/auth/generate-token',
        headers,
        payload: { userId: 'u', merchantId: sandbox.defaultMerchant.merchantId, permissions: ['ais:accounts:read'] },
      })
    ).json();
    t.equal(JSON.parse(Buffer.from(tok.token.split('.')[0], 'base64url').toString()).kid, 's7');
  } finally {
    await app.close();
  }
  const single = await buildApp({ config: { ...quiet, db: ':memory:' } });
  try {
    const res = await single.inject({ method: 'POST', url: '/_sandbox/sandboxes', payload: {} });
    t.equal(res.headers['x-obsim-shard'], undefined, 'no shard header on a single process');
    t.match(res.json().sandboxId, /^sbx_[0-9a-f]{20}$/, 'ids as they always were');
    t.notOk('shard' in res.json());
    const other = await single.inject({ method: 'GET', url: '/v1/partner/merchants', headers: PARTNER });
    t.equal(other.statusCode, 200);
  } finally {
    await single.close();
  }
});

t.test("a database is one shard's: another shard, or no shard, is refused with one line", async (t) => {
  const db = join(dir, 'owned.sqlite');
  const first = await buildApp({ config: { ...quiet, db, shard: 's1' } });
  await first.ready();
  await first.close();
  await t.rejects(buildApp({ config: { ...quiet, db, shard: 's2' } }), {
    message: `invalid configuration: OBSIM_SHARD: "${db}" belongs to shard "s1", not "s2": each shard has its own database (--db)`,
  });
  await t.rejects(buildApp({ config: { ...quiet, db } }), {
    message: `invalid configuration: OBSIM_DB: "${db}" belongs to shard "s1"; start with --shard s1, or give this process another --db`,
  });
  const again = await buildApp({ config: { ...quiet, db, shard: 's1' } });
  t.pass('the same shard opens it again (a restart)');
  await again.close();
});

t.test('a shard that still runs on its database is not started twice; one that died is taken over', async (t) => {
  const db = join(dir, 'running.sqlite');
  const first = await buildApp({ config: { ...quiet, db, shard: 's1' } });
  await first.close();
  // another live process holds the shard (as a second `obsim serve --shard s1` would find it)
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  t.teardown(() => other.kill('SIGKILL'));
  const raw = new Database(db);
  const { hostname } = await import('node:os');
  raw.prepare("UPDATE meta SET value = ? WHERE key = 'shard.running'").run(JSON.stringify({ pid: other.pid, host: hostname() }));
  const stored = raw.prepare("SELECT count(*) FROM meta WHERE key = 'shard.running'").pluck().get();
  if (stored === 0)
    raw.prepare("INSERT INTO meta (key, value) VALUES ('shard.running', ?)").run(JSON.stringify({ pid: other.pid, host: hostname() }));
  raw.close();
  await t.rejects(buildApp({ config: { ...quiet, db, shard: 's1' } }), {
    message: `invalid configuration: OBSIM_SHARD: shard "s1" already runs on "${db}" (pid ${other.pid}); stop it first`,
  });
  other.kill('SIGKILL');
  await new Promise((r) => other.once('exit', r));
  const taken = await buildApp({ config: { ...quiet, db, shard: 's1' } });
  t.pass('the record of a process that died is taken over');
  await taken.close();
});
