/**
 * The database and its repositories: opens (or takes) the SQLite database, claims it for this
 * environment, and decorates `db`, `meta` and `store`. Every HTTP answer waits until the writes
 * of its turn are committed (group commit, src/store/index.ts): nothing is acknowledged before
 * it is durable; a failed COMMIT answers 500 and stores nothing.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ConfigError, DEFAULT_DATABASE, type Config } from '../config.js';
import { ApiError, errorBody } from '../domain/errors.js';
import { startCheckpointer } from '../store/checkpointer.js';
import { claimDatabase, openDatabase, type Db, type MetaStore } from '../store/db.js';
import { createStore, type Store } from '../store/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The better-sqlite3 handle (tests reach into it; the product goes through `store`). */
    db: Db;
    /** Persisted key/value settings. */
    meta: MetaStore;
    /** One repository per table (src/store), statements prepared once. */
    store: Store;
  }
}

export const storePlugin = fp(
  async (app: FastifyInstance, opts: { db?: Db }) => {
    const db = opts.db ?? openDatabase(app.config.db);
    // a database belongs to the environment that created it (store/db.ts claimDatabase)
    const owner = claimDatabase(db, app.config.environment);
    if (owner !== app.config.environment) {
      if (!opts.db) db.close();
      throw wrongEnvironment(owner, app.config);
    }
    const store = createStore(db);
    // a file database's WAL is copied back by a worker thread, not inside a request's COMMIT
    const checkpointer = startCheckpointer(db, { log: app.log });
    app.decorate('db', db);
    app.decorate('meta', store.meta);
    app.decorate('store', store);

    // callback style: no promise per request
    app.addHook('onSend', (request, reply, payload, done) => {
      const committed = store.committed();
      if (!committed) return done(null, payload);
      committed.then(
        () => done(null, payload),
        (err: unknown) => {
          request.log.error({ err }, 'commit failed: the change was rolled back');
          const apiErr = new ApiError('internal_error', {
            message: 'The change could not be stored (the database refused the commit); nothing was changed',
          });
          void reply.code(500).type('application/json; charset=utf-8');
          done(null, JSON.stringify(errorBody(apiErr, request.id)));
        },
      );
    });
    // commit what the last turn wrote before anything closes; the database closes last (onClose
    // hooks run in reverse order of registration)
    app.addHook('preClose', async () => store.flush());
    app.addHook('onClose', async () => {
      store.flush();
      await checkpointer?.close();
      if (!opts.db && db.open) db.close();
    });
  },
  { name: 'obsim-store', dependencies: [] },
);

/** The start-up error for a database another environment created. */
function wrongEnvironment(owner: string, config: Config): ConfigError {
  return new ConfigError(
    'OBSIM_DB',
    `"${config.db}" is a ${owner} database (recorded at its first start); a ${config.environment} server cannot open it: give each environment its own database with --db / OBSIM_DB (default ${DEFAULT_DATABASE[config.environment]})`,
  );
}
