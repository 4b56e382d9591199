/**
 * Crash safety of sandboxes: the real server on a database file, concurrent sandbox creations
 * (plain, and from a snapshot), snapshots and deletions, SIGKILL at a seeded random moment,
 * restart. After every round, on the killed file:
 *   - PRAGMA integrity_check is ok;
 *   - every sandbox is whole or gone: a live one has its default merchant (and, started from a
 *     snapshot, all the snapshot's payments); a deleted one has no row left anywhere; no row
 *     belongs to a sandbox that does not exist;
 *   - everything acknowledged holds: a created sandbox's credentials work after the restart (unless
 *     its deletion was acknowledged too, then they answer 401 sandbox_gone), and an acknowledged
 *     snapshot exists and can be started from.
 * 3 rounds in npm test; OBSIM_CRASH_ROUNDS in `npm run test:long`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { kill, seededRandom, startKillable } from '../helpers/crash.js';
import { scaled } from '../helpers/speed.js';

const ROUNDS = Number(process.env.OBSIM_CRASH_ROUNDS ?? 3);
const SEED = Number(process.env.OBSIM_CRASH_SEED ?? 12);
t.setTimeout(scaled(Math.max(180_000, ROUNDS * 40_000)));

interface Box {
  id: string;
  headers: Record<string, string>;
}

async function send(url: string, method: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

t.test(`SIGKILL during sandbox creations, snapshots and deletions, ${ROUNDS} rounds`, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-sandbox-crash-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'obsim.sqlite');
  const random = seededRandom(SEED);
  let server = await startKillable(file, ['--settle-delay', '24h']);
  t.teardown(() => kill(server.child));

  // a seeded snapshot to start sandboxes from: 20 payments
  const seed = (await send(`${server.url}/_sandbox/sandboxes`, 'POST', { name: 'seed' })).json;
  const seedHeaders = { 'x-partner-client-id': seed.credentials.clientId, 'x-partner-client-secret': seed.credentials.clientSecret };
  for (let i = 0; i < 20; i++) {
    await send(
      `${server.url}/v1/partner/payments`,
      'POST',
      { merchantClientId: seed.defaultMerchant.clientId, amount: 10, referenceNumber: `s${i}` },
      seedHeaders,
    );
  }
  t.equal((await send(`${server.url}/_sandbox/snapshots`, 'POST', { name: 'seed-20' }, seedHeaders)).status, 200);

  const created: Box[] = [];
  const deleted = new Set<string>();
  // a DELETE the kill interrupted may have committed before its answer was lost: either outcome is right
  const deleting = new Set<string>();
  const snapshots: string[] = ['seed-20'];
  let ops = 0;

  for (let round = 1; round <= ROUNDS; round++) {
    const killAfter = 100 + Math.floor(random() * 700);
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        ops++;
        try {
          const pick = (i + w) % 4;
          if (pick === 0 || pick === 1) {
            const res = await send(`${server.url}/_sandbox/sandboxes`, 'POST', pick === 0 ? {} : { snapshot: 'seed-20' });
            if (res.status === 200)
              created.push({
                id: res.json.sandboxId,
                headers: {
                  'x-partner-client-id': res.json.credentials.clientId,
                  'x-partner-client-secret': res.json.credentials.clientSecret,
                },
              });
          } else if (pick === 2) {
            const box = created[Math.floor(random() * created.length)];
            if (!box || deleted.has(box.id)) continue;
            const name = `r${round}w${w}i${i}`;
            const res = await send(`${server.url}/_sandbox/snapshots`, 'POST', { name }, box.headers);
            if (res.status === 200) snapshots.push(name);
          } else {
            const box = created.find((b) => !deleted.has(b.id) && random() < 0.5);
            if (!box) continue;
            deleting.add(box.id);
            const res = await send(`${server.url}/_sandbox/sandboxes/${box.id}`, 'DELETE', undefined, box.headers);
            if (res.status === 200) deleted.add(box.id);
            deleting.delete(box.id);
          }
        } catch {
          return; // the server is gone
        }
      }
    };
    const workers = [0, 1, 2, 3].map((w) => worker(w));
    await new Promise((r) => setTimeout(r, killAfter));
    stop = true;
    await kill(server.child);
    await Promise.allSettled(workers);

    const db = new Database(file);
    try {
      t.equal(db.pragma('integrity_check', { simple: true }), 'ok', `round ${round}: integrity_check`);
      const problems: string[] = [];
      const rows = db.prepare('SELECT id, deleted_at FROM sandboxes').all() as { id: string; deleted_at: string | null }[];
      const known = new Set(rows.map((r) => r.id));
      for (const r of rows) {
        const merchants = db.prepare('SELECT count(*) FROM merchants WHERE partner_id = ?').pluck().get(r.id) as number;
        const payments = db.prepare('SELECT count(*) FROM payments WHERE partner_id = ?').pluck().get(r.id) as number;
        if (r.deleted_at !== null && merchants + payments > 0)
          problems.push(`${r.id}: deleted but ${merchants} merchants, ${payments} payments left`);
        if (r.deleted_at === null && merchants < 1) problems.push(`${r.id}: live without its default merchant`);
        if (r.deleted_at === null && payments !== 0 && payments !== 20) problems.push(`${r.id}: ${payments} of the snapshot's 20 payments`);
      }
      const orphans = db.prepare("SELECT DISTINCT partner_id FROM merchants WHERE partner_id LIKE 'sbx_%'").pluck().all() as string[];
      for (const o of orphans) if (!known.has(o)) problems.push(`rows of ${o}, which has no sandbox row`);
      for (const name of snapshots)
        if (!db.prepare('SELECT 1 FROM snapshots WHERE name = ?').get(name)) problems.push(`acknowledged snapshot ${name} is missing`);
      t.same(problems, [], `round ${round}: every sandbox whole or gone, nothing acknowledged lost`);
    } finally {
      db.close();
    }

    server = await startKillable(file, ['--settle-delay', '24h']);
    for (const box of created) {
      const res = await send(`${server.url}/_sandbox/clock`, 'GET', undefined, box.headers);
      if (deleting.has(box.id) && !deleted.has(box.id) && (res.status === 200 || res.status === 401)) {
        if (res.status === 401) deleted.add(box.id); // the interrupted DELETE had committed
        deleting.delete(box.id); // from now on its state is known
        continue;
      }
      const expected = deleted.has(box.id) ? 401 : 200;
      if (res.status !== expected) t.fail(`${box.id}: ${res.status} after the restart, expected ${expected}`);
    }
    const from = await send(`${server.url}/_sandbox/sandboxes`, 'POST', { snapshot: snapshots[snapshots.length - 1] });
    t.equal(from.status, 200, `round ${round}: a sandbox starts from the last acknowledged snapshot`);
  }
  t.ok(
    created.length > 0 && ops > 0,
    `${ops} operations, ${created.length} sandboxes, ${deleted.size} deleted, ${snapshots.length} snapshots`,
  );
});
