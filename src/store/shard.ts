/**
 * A shard's claim on its database (docs/cluster.md). A database belongs to the shard that first
 * started on it: a database file is one shard's, never two's, and an unsharded process does not
 * open a shard's file (its ids would lack the shard's name). While a shard runs, its process is
 * recorded, so the same shard started twice on one file is refused instead of both writing.
 */
import { hostname } from 'node:os';
import { metaStore, type Db } from './db.js';

const SHARD_KEY = 'shard';
const RUNNING_KEY = 'shard.running';

export type ShardClaim =
  | { ok: true }
  | { ok: false; reason: 'other_shard'; owner: string }
  | { ok: false; reason: 'unsharded_file'; owner: string }
  | { ok: false; reason: 'running'; pid: number };

interface Running {
  pid: number;
  host: string;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Claim `db` for `shard` (undefined: a single process). In one IMMEDIATE transaction, so two
 * processes starting at once cannot both claim it. A record left by a process that died (not
 * running on this host any more) is taken over: a restarted shard gets its database back.
 */
export function claimShard(db: Db, shard: string | undefined): ShardClaim {
  const meta = metaStore(db);
  return db
    .transaction((): ShardClaim => {
      const owner = meta.get(SHARD_KEY);
      if (shard === undefined) return owner === undefined ? { ok: true } : { ok: false, reason: 'unsharded_file', owner };
      if (owner !== undefined && owner !== shard) return { ok: false, reason: 'other_shard', owner };
      const running = meta.get(RUNNING_KEY);
      if (running !== undefined) {
        const r = JSON.parse(running) as Running;
        if (r.host === hostname() && r.pid !== process.pid && alive(r.pid)) return { ok: false, reason: 'running', pid: r.pid };
      }
      meta.set(SHARD_KEY, shard);
      meta.set(RUNNING_KEY, JSON.stringify({ pid: process.pid, host: hostname() } satisfies Running));
      return { ok: true };
    })
    .immediate();
}

/** At a clean stop: the shard no longer runs on this database. */
export function releaseShard(db: Db): void {
  const meta = metaStore(db);
  const running = meta.get(RUNNING_KEY);
  if (running !== undefined && (JSON.parse(running) as Running).pid === process.pid) meta.delete(RUNNING_KEY);
}
