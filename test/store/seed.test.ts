import t from 'tap';
import { buildApp } from '../../src/app.js';
import { VirtualClock } from '../../src/clock.js';
import { openDatabase } from '../../src/store/db.js';
import { DEFAULT_MERCHANT_NAME } from '../../src/store/seed.js';
import { build, T0 } from '../helpers/app.js';

t.test('the default partner has one activated merchant, 100001, noted at start', async (t) => {
  const app = await build(t);
  const row = app.store.merchants.get(100001, 'sandbox-partner')!;
  t.match(row, { status: 'activated', company_name: DEFAULT_MERCHANT_NAME, kind: 'test', created_at: T0 });
  t.ok(
    app.startupNotes.some((n) => n.includes(`default merchant: 100001 (clientId ${row.client_id})`)),
    app.startupNotes.join('\n'),
  );
});

t.test('seeding is idempotent across restarts on the same database, and repairs a deleted seed', async (t) => {
  const db = openDatabase(':memory:');
  t.teardown(() => db.close());
  const start = async () => {
    const app = await buildApp({ db, logger: false, clock: VirtualClock.create({ start: T0, frozen: true }), config: { db: ':memory:' } });
    await app.ready();
    return app;
  };
  const a = await start();
  const first = a.store.merchants.get(100001, 'sandbox-partner')!;
  await a.close();
  const b = await start();
  t.equal(b.db.prepare('SELECT count(*) FROM merchants').pluck().get(), 1, 'no second seed');
  t.equal(b.store.merchants.get(100001, 'sandbox-partner')!.client_id, first.client_id, 'same merchant, same clientId');
  await b.close();

  db.prepare('DELETE FROM merchants').run();
  const c = await start();
  const reseeded = c.db.prepare('SELECT * FROM merchants').all() as { id: number; status: string }[];
  t.equal(reseeded.length, 1);
  t.equal(reseeded[0].status, 'activated');
  t.ok(c.startupNotes.some((n) => n.startsWith(`default merchant: ${reseeded[0].id} `)));
  await c.close();
});
