/**
 * Running as one shard of a cluster (--shard, docs/cluster.md): the database must be this
 * shard's, every id and token the process hands out carries the shard's name (domain/ids.ts),
 * and every answer says which shard gave it (X-Obsim-Shard), so a user, and a test, can see
 * where the router sent a request. Without --shard nothing here changes anything.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ConfigError } from '../config-parsers.js';
import { useShardTag } from '../domain/ids.js';
import { claimShard, releaseShard } from '../store/shard.js';
import { listAcrossShards, type Listed } from './shard-peers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** With --shard-peers: what the routes ask of every shard (undefined for a single process). */
    acrossShards: AcrossShards | undefined;
  }
}

export interface AcrossShards {
  /** This shard's `own` sandboxes and every peer's, oldest first; `unreachable` names the silent peers. */
  listSandboxes<T extends Listed>(own: T[], headers: Record<string, string>): Promise<{ items: (T | Listed)[]; unreachable: string[] }>;
}

export const SHARD_HEADER = 'x-obsim-shard';

export const shardPlugin = fp(
  async (app: FastifyInstance) => {
    const { shard, db: file, shardPeers } = app.config;
    app.decorate(
      'acrossShards',
      shardPeers === undefined
        ? undefined
        : { listSandboxes: (own: Listed[], headers: Record<string, string>) => listAcrossShards(own, shard, shardPeers, headers) },
    );
    const claim = claimShard(app.db, shard);
    if (!claim.ok) {
      if (claim.reason === 'running') {
        throw new ConfigError('OBSIM_SHARD', `shard "${shard}" already runs on "${file}" (pid ${claim.pid}); stop it first`);
      }
      if (claim.reason === 'unsharded_file') {
        throw new ConfigError(
          'OBSIM_DB',
          `"${file}" belongs to shard "${claim.owner}"; start with --shard ${claim.owner}, or give this process another --db`,
        );
      }
      throw new ConfigError(
        'OBSIM_SHARD',
        `"${file}" belongs to shard "${claim.owner}", not "${shard}": each shard has its own database (--db)`,
      );
    }
    useShardTag(shard);
    app.addHook('onClose', async () => {
      if (shard !== undefined) releaseShard(app.db);
      useShardTag(undefined);
    });
    if (shard === undefined) return;
    app.addHook('onRequest', (_request, reply, done) => {
      void reply.header(SHARD_HEADER, shard);
      done();
    });
  },
  { name: 'obsim-shard', dependencies: ['obsim-store'] },
);
