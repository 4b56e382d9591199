/**
 * buildApp(options) -> a ready Fastify instance. Never listens: tests use app.inject(), the CLI
 * (src/server.ts) listens. Everything the routes need is decorated on the instance:
 *
 *   app.config    validated Config
 *   app.clock     the virtual clock (the only "now")
 *   app.db        the better-sqlite3 handle
 *   app.meta      persisted key/value settings
 *   app.partners  partner credentials
 *   app.store     repositories (src/store), one per table group, statements prepared once
 */
import formbody from '@fastify/formbody';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { randomBytes } from 'node:crypto';
import { sharedSchemas } from '../schemas/index.js';
import { VirtualClock } from './clock.js';
import { defaultConfig, readPartnersFile, type Config, type PartnerCredential } from './config.js';
import { errorsPlugin } from './plugins/errors.js';
import { swaggerPlugin } from './plugins/swagger.js';
import { buildValidatorCompiler } from './plugins/validation.js';
import { PartnerRegistry } from './partners.js';
import { routes } from './routes/index.js';
import { metaStore, openDatabase, type Db, type MetaStore } from './store/db.js';
import { createStore, type Store } from './store/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    clock: VirtualClock;
    db: Db;
    meta: MetaStore;
    partners: PartnerRegistry;
    store: Store;
    /** Lines the CLI prints at start (default merchant id, generated credentials, …). */
    startupNotes: string[];
    /** Absolute base URL for links obsim hands out (onboardingUrl, paymentUrl, authorizationUrl). */
    publicUrl: string;
    /** Every route as registered (the reliability fuzzer and isolation tests walk this table). */
    routeTable: RouteEntry[];
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  schema: Record<string, unknown> | undefined;
}

export interface AppOptions {
  /** Overrides on top of the defaults (tests pass a few). */
  config?: Partial<Config>;
  /** Inject a clock (tests pass a frozen one). Default: from config.clockStart / clockFrozen. */
  clock?: VirtualClock;
  /** Inject an open database. Default: openDatabase(config.db). */
  db?: Db;
  /** Fastify logger option. Default: pino at config.logLevel. */
  logger?: FastifyServerOptions['logger'];
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(options: AppOptions = {}): Promise<FastifyInstance> {
  const config: Config = { ...defaultConfig(), ...options.config };
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    logController: new LogController({ disableRequestLogging: !config.requestLog }),
    bodyLimit: 1_048_576,
    requestTimeout: 30_000,
    routerOptions: { maxParamLength: 200 },
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // echo a well-formed x-request-id, otherwise mint one
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : `req_${randomBytes(12).toString('hex')}`;
    },
  });

  const db = options.db ?? openDatabase(config.db);
  const clock = options.clock ?? VirtualClock.create({ start: config.clockStart, frozen: config.clockFrozen });
  const meta = metaStore(db);

  app.decorate('config', config);
  app.decorate('startupNotes', []);
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routeTable.push({ method, url: route.url, schema: route.schema as Record<string, unknown> | undefined });
    }
  });
  app.decorate('clock', clock);
  app.decorate('db', db);
  app.decorate('meta', meta);
  app.decorate('publicUrl', (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, ''));
  app.decorate('partners', new PartnerRegistry(partnerCredentials(config, meta)));
  app.decorate('store', createStore(db, clock));

  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  app.addHook('onClose', async () => {
    if (!options.db) db.close();
  });

  for (const schema of sharedSchemas) app.addSchema(schema);
  app.setValidatorCompiler(buildValidatorCompiler(sharedSchemas, config.strict));

  await app.register(errorsPlugin);
  await app.register(swaggerPlugin);
  await app.register(formbody);
  await app.register(routes);
  return app;
}

/** The default partner (from config, or the sandbox defaults) plus the partners file. */
function partnerCredentials(config: Config, _meta: MetaStore): PartnerCredential[] {
  const list: PartnerCredential[] = [
    {
      clientId: config.partnerClientId ?? 'sandbox-partner',
      clientSecret: config.partnerClientSecret ?? 'sandbox-secret',
      name: 'Default sandbox partner',
    },
  ];
  if (config.partnersFile) list.push(...readPartnersFile(config.partnersFile));
  return list;
}
