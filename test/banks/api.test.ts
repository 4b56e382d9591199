/**
 * Bank profiles through the control API (docs/banks.md): GET /_sandbox/banks, GET / PUT / DELETE
 * /_sandbox/banks/{bankId}, `banks` of a sandbox creation; bad input refused with a JSON pointer
 * and nothing applied; one sandbox's profile never seen by another.
 */
import t from 'tap';
import { build, PARTNER, schemaErrors, T0 } from '../helpers/app.js';
import { call, sandboxHeaders } from '../helpers/partner.js';

type App = Awaited<ReturnType<typeof build>>;
const put = (app: App, bankId: string, body: unknown, headers = PARTNER) => call(app, 'PUT', `/_sandbox/banks/${bankId}`, body, headers);

t.test('every bank is listed unprofiled and healthy, with the shipped profiles', async (t) => {
  const app = await build(t);
  const list = await call(app, 'GET', '/_sandbox/banks');
  t.equal(list.status, 200);
  t.same(schemaErrors('SandboxBankList', list.body), []);
  t.equal(list.body.items.length, 5);
  t.ok(list.body.items.every((b: { profile: unknown; health: string }) => b.profile === null && b.health === 'healthy'));
  t.same(
    list.body.profiles.map((p: { name: string }) => p.name),
    ['healthy', 'degraded', 'down', 'outage-1h', 'slow-app-approval', 'app-approval-timeout', 'weekend-settlement', 'strict-ais'],
  );
});

t.test('a shipped profile with overrides is put in force, filled in, shown, and cleared', async (t) => {
  const app = await build(t);
  const set = await put(app, 'nordlys-bank', { profile: 'degraded', failureRate: 0.5, seed: 7, ais: { pageSize: 50 } });
  t.equal(set.status, 200);
  t.same(schemaErrors('SandboxBank', set.body), []);
  t.same(set.body.profile, {
    profile: 'degraded',
    health: { status: 'degraded', delaySeconds: 60 },
    authorization: { mode: 'redirect', approvalDelaySeconds: 120 },
    settlement: { mode: 'instant', cutOff: '15:00' },
    ais: { historyDays: null, pageSize: 50, pendingTransactions: true, consentMaxDays: null },
    failureRate: 0.5,
    seed: 7,
  });
  t.equal(set.body.health, 'degraded');
  t.equal(set.body.setAt, T0, 'set on the sandbox clock');
  t.same((await call(app, 'GET', '/_sandbox/banks/nordlys-bank')).body, set.body);
  const cleared = await call(app, 'DELETE', '/_sandbox/banks/nordlys-bank');
  t.equal(cleared.body.profile, null);
  t.equal(cleared.body.health, 'healthy');
});

t.test('a window on the sandbox clock: down for an hour from now is one call', async (t) => {
  const app = await build(t);
  const set = await put(app, 'thames-mutual', { health: { status: 'down', forSeconds: 3600 } });
  t.same(set.body.profile.health, { status: 'down', from: T0, until: '2026-01-15T10:00:00.000Z', delaySeconds: 60 });
  t.equal(set.body.health, 'down');
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '59m' });
  t.equal((await call(app, 'GET', '/_sandbox/banks/thames-mutual')).body.health, 'down');
  await call(app, 'POST', '/_sandbox/clock/advance', { duration: '1m' });
  t.equal((await call(app, 'GET', '/_sandbox/banks/thames-mutual')).body.health, 'healthy', 'the window ends on the sandbox clock');
  const shipped = await put(app, 'thames-mutual', { profile: 'outage-1h' });
  t.equal(shipped.body.profile.health.until, '2026-01-15T11:00:00.000Z');
});

const BAD: [string, unknown, string][] = [
  ['an unknown profile name', { profile: 'sleepy' }, '/profile'],
  [
    'a window that ends before it starts',
    { health: { status: 'down', from: '2026-01-15T10:00:00Z', until: '2026-01-15T09:00:00Z' } },
    '/health/until',
  ],
  ['a window end that is no instant', { health: { status: 'down', until: 'tomorrow' } }, '/health/until'],
  ['a rate above 1', { failureRate: 1.5 }, '/failureRate'],
  ['a rate below 0', { failureRate: -0.1 }, '/failureRate'],
  ['a cut-off that is not a time', { settlement: { mode: 'business_days', cutOff: '25:00' } }, '/settlement/cutOff'],
  ['a negative delay', { authorization: { mode: 'decoupled', approvalDelaySeconds: -5 } }, '/authorization/approvalDelaySeconds'],
  ['a negative degraded delay', { health: { delaySeconds: -1 } }, '/health/delaySeconds'],
  ['a page size of 0', { ais: { pageSize: 0 } }, '/ais/pageSize'],
  ['an unknown health', { health: { status: 'sleepy' } }, '/health/status'],
  ['both until and forSeconds', { health: { status: 'down', until: '2026-01-15T10:00:00Z', forSeconds: 60 } }, '/health/forSeconds'],
];

for (const [what, body, field] of BAD) {
  t.test(`${what}: 400 naming ${field}, nothing applied`, async (t) => {
    const app = await build(t);
    await put(app, 'nordlys-bank', { profile: 'strict-ais', seed: 1 });
    const before = (await call(app, 'GET', '/_sandbox/banks/nordlys-bank')).body;
    const r = await put(app, 'nordlys-bank', body);
    t.equal(r.status, 400);
    t.same(schemaErrors('ErrorBody', r.body), []);
    t.equal(r.body.field, field);
    t.same((await call(app, 'GET', '/_sandbox/banks/nordlys-bank')).body, before, 'the profile in force is unchanged');
  });
}

t.test('an unknown bank id: 400 naming bankId, for every method', async (t) => {
  const app = await build(t);
  for (const method of ['GET', 'PUT', 'DELETE'] as const) {
    const r = await call(app, method, '/_sandbox/banks/no-such-bank', method === 'PUT' ? { profile: 'down' } : undefined);
    t.equal(r.status, 400, method);
    t.equal(r.body.field, '/bankId');
    t.equal(r.body.in, 'path');
    t.match(r.body.message, /nordlys-bank/);
  }
});

t.test('a sandbox created with banks has them from the start; a bad one creates nothing', async (t) => {
  const app = await build(t);
  const before = app.store.sandboxes.live().length;
  const bad = await call(app, 'POST', '/_sandbox/sandboxes', { banks: { 'nordlys-bank': { failureRate: 2 } } });
  t.equal(bad.status, 400);
  t.equal(bad.body.field, '/banks/nordlys-bank/failureRate');
  const unknown = await call(app, 'POST', '/_sandbox/sandboxes', { banks: { 'no-bank': { profile: 'down' } } });
  t.equal(unknown.status, 400);
  t.match(unknown.body.field, /^\/banks/);
  t.equal(app.store.sandboxes.live().length, before, 'no sandbox was created');

  const created = await call(app, 'POST', '/_sandbox/sandboxes', {
    banks: { 'nordlys-bank': { profile: 'outage-1h' }, 'baltic-credit': { profile: 'strict-ais' } },
  });
  t.equal(created.status, 200, JSON.stringify(created.body));
  const headers = sandboxHeaders(created.body);
  const mine = (await call(app, 'GET', '/_sandbox/banks', undefined, headers)).body.items;
  t.same(
    mine.map((b: { bankId: string; health: string }) => `${b.bankId}:${b.health}`),
    ['nordlys-bank:down', 'fjord-sparekasse:healthy', 'baltic-credit:healthy', 'rhein-direktbank:healthy', 'thames-mutual:healthy'],
  );
  t.equal(mine[2].profile.ais.pageSize, 50);
  // isolation: the default sandbox sees none of it, and its own profile stays its own
  t.ok((await call(app, 'GET', '/_sandbox/banks')).body.items.every((b: { profile: unknown }) => b.profile === null));
  await put(app, 'fjord-sparekasse', { profile: 'down' });
  t.equal((await call(app, 'GET', '/_sandbox/banks/fjord-sparekasse', undefined, headers)).body.profile, null);
  await call(app, 'DELETE', `/_sandbox/sandboxes/${created.body.sandboxId}`);
  t.equal(app.engine.banks.list(created.body.sandboxId).size, 0, 'forgotten with its sandbox');
});
