/**
 * The database and its repositories: opens (or takes) the SQLite database, claims it for this
 * environment, and decorates `db`, `meta` and `store`. Every HTTP answer waits until the writes
 * of its turn are committed (group commit, src/store/index.ts): nothing is acknowledged before
 * it is durable; a failed COMMIT answers 500 and stores nothing.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ConfigError } from '../config-parsers.js';
import { DEFAULT_DATABASE, type Config } from '../config.js';
import { ApiError, errorBody, storageUnavailable } from '../domain/errors.js';
import { startCheckpointer } from '../store/checkpointer.js';
import { storageFault, type StorageFaultKind } from '../store/faults.js';
import { claimDatabase, openDatabase, servingBusyTimeout, type Db, type MetaStore } from '../store/db.js';
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
  async (app: FastifyInstance, opts: { db?: Db; accountPageCache?: boolean }) => {
    let db: Db | undefined = opts.db;
    let owner: string;
    try {
      db ??= openDatabase(app.config.db);
      // a database belongs to the environment that created it (store/db.ts claimDatabase)
      owner = claimDatabase(db, app.config.environment);
    } catch (err) {
      // a locked, damaged, read-only or full database: one configuration line, not a stack trace
      const fault = storageFault(err);
      if (!opts.db && db?.open) db.close();
      if (!fault) throw err;
      throw new ConfigError('OBSIM_DB', `cannot use "${app.config.db}": ${fault.message}${FAULT_ADVICE[fault.kind]}`);
    }
    if (owner !== app.config.environment) {
      if (!opts.db) db.close();
      throw wrongEnvironment(owner, app.config);
    }
    servingBusyTimeout(db);
    const store = createStore(db, { accountPageCache: opts.accountPageCache });
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
          const fault = storageFault(err);
          const apiErr = fault
            ? storageUnavailable(fault.message)
            : new ApiError('internal_error', {
                message: 'The change could not be stored (the database refused the commit); nothing was changed',
              });
          void reply.code(apiErr.status).type('application/json; charset=utf-8');
          if (apiErr.headers) void reply.headers(apiErr.headers);
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

const FAULT_ADVICE: Record<StorageFaultKind, string> = {
  disk_full: '; free some space, or give obsim another --db',
  read_only: '; make the file and its directory writable, or give obsim another --db',
  locked: '; stop the other process (another obsim on the same --db?), or give obsim another --db',
  io_error: '; check the disk, or give obsim another --db',
  damaged: '; move the file aside (obsim creates a new one) or restore a copy',
  cannot_open: '; check that the directory exists and is writable, or give obsim another --db',
};

/** The start-up error for a database another environment created. */
function wrongEnvironment(owner: string, config: Config): ConfigError {
  return new ConfigError(
    'OBSIM_DB',
    `"${config.db}" is a ${owner} database (recorded at its first start); a ${config.environment} server cannot open it: give each environment its own database with --db / OBSIM_DB (default ${DEFAULT_DATABASE[config.environment]})`,
  );
}
