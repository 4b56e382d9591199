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
 *   app.engine    lifecycle engine: triggers, timers, scheduler (src/engine)
 *   app.webhooks  webhook delivery worker (src/webhooks), started on ready, stopped on close
 */
import formbody from '@fastify/formbody';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { randomBytes } from 'node:crypto';
import { sharedSchemas } from '../schemas/index.js';
import { VirtualClock } from './clock.js';
import { ConfigError, DEFAULT_DATABASE, defaultConfig, readPartnersFile, SANDBOX_PARTNER, type Config, type PartnerCredential } from './config.js';
import { persistClock, restoreClock } from './engine/clock-state.js';
import { createEngine, type Engine } from './engine/index.js';
import { ApiError, errorBody } from './domain/errors.js';
import { errorsPlugin } from './plugins/errors.js';
import { headerGuardPlugin } from './plugins/header-guard.js';
import { integerParamsPlugin } from './plugins/integer-params.js';
import { preferPlugin } from './plugins/prefer.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { dedupedSerializerFactory } from './plugins/serializers.js';
import { swaggerPlugin } from './plugins/swagger.js';
import { buildValidatorCompiler } from './plugins/validation.js';
import { PartnerRegistry } from './partners.js';
import { routes } from './routes/index.js';
import { metaStore, openDatabase, type Db, type MetaStore } from './store/db.js';
import { createStore, type Store } from './store/index.js';
import { seedOnStart } from './store/seed.js';
import { createWebhookWorker, type WebhookWorker } from './webhooks/worker.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    clock: VirtualClock;
    db: Db;
    meta: MetaStore;
    partners: PartnerRegistry;
    store: Store;
    /** Lifecycle engine (src/engine): apply triggers, schedule and fire timers. */
    engine: Engine;
    /** Webhook delivery worker (src/webhooks/worker.ts). */
    webhooks: WebhookWorker;
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
  /** Webhook delivery time limit (tests shorten it; default DELIVERY_TIMEOUT_MS = 10 s). */
  webhookTimeoutMs?: number;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// request ids: 12 random bytes as hex, cut from a pool refilled 512 ids at a time (one
// randomBytes call per request was a visible cost on the hot path)
let idPool = Buffer.alloc(0);
let idOffset = 0;
function randomHex12(): string {
  if (idOffset + 12 > idPool.length) {
    idPool = randomBytes(12 * 512);
    idOffset = 0;
  }
  idOffset += 12;
  return idPool.toString('hex', idOffset - 12, idOffset);
}

export async function buildApp(options: AppOptions = {}): Promise<FastifyInstance> {
  const config: Config = { ...defaultConfig(), ...options.config };
  // each environment has its own default file (never the same one by accident)
  if (options.config?.db === undefined) config.db = DEFAULT_DATABASE[config.environment];
  // our own validator compiler (src/plugins/validation.ts), also handed to the schema controller
  // so Fastify never loads its default one (@fastify/ajv-compiler, i.e. Ajv) at start-up
  const validatorCompiler = buildValidatorCompiler(sharedSchemas, config.strict);
  const app = Fastify({
    // one fast-json-stringify serializer per distinct response schema, not per route (start-up
    // time); validators and serializers come precompiled from dist/compiled when built
    schemaController: { compilersFactory: { buildSerializer: dedupedSerializerFactory(), buildValidator: (() => validatorCompiler) as never /* typed for Ajv's own compiler; any compiler function works */ } },
    logger: options.logger ?? { level: config.logLevel },
    logController: new LogController({ disableRequestLogging: !config.requestLog }),
    bodyLimit: 1_048_576,
    requestTimeout: 30_000,
    routerOptions: { maxParamLength: 200 },
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // router-level rejections (a path parameter over maxParamLength, a malformed %-escape) leave
    // in the one error shape too; without this Fastify answers its own body (found by the fuzzer)
    frameworkErrors: (error, request, reply) => {
      const message =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is longer than 200 characters' : 'The URL is not valid (bad percent-encoding?)';
      void (reply as unknown as FastifyReply).code(400).type('application/json').send(errorBody(new ApiError('validation_failed', { message, field: 'url' }), request.id));
    },
    // requests Node's HTTP parser refuses (bad header bytes such as a bare CR/LF, headers over
    // 16 KiB, a request not received within requestTimeout) are answered in ErrorBody as well
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      const apiErr =
        err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new ApiError('request_timeout')
          : err.code === 'HPE_HEADER_OVERFLOW'
            ? new ApiError('headers_too_large')
            : new ApiError('validation_failed', { message: 'The HTTP request is malformed (invalid header or request line)' });
      const body = JSON.stringify(errorBody(apiErr, `req_${randomBytes(12).toString('hex')}`));
      // like Node's own handler: never write into a response that has started (it would corrupt it)
      const inFlight = (socket as unknown as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
      if (socket.writable && (!inFlight || !inFlight.headersSent)) {
        socket.write(`HTTP/1.1 ${apiErr.status} ${apiErr.status === 400 ? 'Bad Request' : apiErr.status === 408 ? 'Request Timeout' : 'Request Header Fields Too Large'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      }
      socket.destroy();
    },
    // echo a well-formed x-request-id, otherwise mint one
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : `req_${randomHex12()}`;
    },
  });

  const db = options.db ?? openDatabase(config.db);
  const meta = metaStore(db);
  try {
    claimDatabase(db, meta, config);
  } catch (err) {
    if (!options.db) db.close();
    throw err;
  }
  // the simulated time survives a restart (meta clock.state) unless --clock-start is given
  const clock = options.clock ?? restoreClock(config, meta);

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
  app.decorate('partners', new PartnerRegistry(partnerCredentials(config, meta, app.startupNotes)));
  app.decorate('store', createStore(db, clock));
  seedOnStart(app);
  app.decorate('engine', createEngine({ store: app.store, clock, config, db, log: app.log }));
  app.decorate('webhooks', createWebhookWorker({ db, store: app.store, clock, log: app.log, timeoutMs: options.webhookTimeoutMs }));
  const offClockPersist = clock.onAdvance(() => persistClock(clock, meta));
  app.addHook('onReady', async () => {
    app.engine.start(); // fire what fell due while obsim was down
    app.webhooks.start(); // resume pending and interrupted deliveries
  });

  // callback style: no promise per request. Every answer waits until the writes of its turn are
  // committed (group commit, src/store/index.ts): nothing is acknowledged before it is durable.
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', request.id);
    const committed = app.store.committed();
    if (!committed) return done(null, payload);
    committed.then(
      () => done(null, payload),
      (err: unknown) => {
        request.log.error({ err }, 'commit failed: the change was rolled back');
        const apiErr = new ApiError('internal_error', { message: 'The change could not be stored (the database refused the commit); nothing was changed' });
        void reply.code(500).type('application/json; charset=utf-8');
        done(null, JSON.stringify(errorBody(apiErr, request.id)));
      },
    );
  });
  app.addHook('onClose', async () => {
    app.store.flush(); // commit what the last turn wrote before anything closes
    app.engine.close();
    offClockPersist();
    await app.webhooks.stop();
    if (db.open) persistClock(clock, meta);
    if (!options.db) db.close();
  });

  for (const schema of sharedSchemas) app.addSchema(schema);
  app.setValidatorCompiler(validatorCompiler);

  await app.register(errorsPlugin);
  await app.register(headerGuardPlugin);
  await app.register(preferPlugin);
  // loaded only when on (it compiles every response schema with Ajv: tests and --validate-responses)
  if (config.validateResponses) await app.register((await import('./plugins/response-validation.js')).responseValidationPlugin);
  await app.register(swaggerPlugin);
  await app.register(formbody);
  await app.register(rateLimitPlugin);
  await app.register(integerParamsPlugin);
  await app.register(routes);
  return app;
}

/** meta key holding the environment that created the database. */
export const DATABASE_ENVIRONMENT_KEY = 'environment';

/**
 * A database belongs to the environment that created it: recorded in meta at first start, and a
 * server of the other environment refuses to open it (one ConfigError line, before anything is
 * read or written). Otherwise the timers and deliveries of one environment would be fired and
 * sent by the other, which shares no credentials, secrets or rules with it. Recorded in an
 * IMMEDIATE transaction so two servers starting on a new file at once cannot both claim it. A
 * database from before this check has no record and is claimed by the first server that opens it.
 */
function claimDatabase(db: Db, meta: MetaStore, config: Config): void {
  const owner = db.transaction(() => meta.getOrCreate(DATABASE_ENVIRONMENT_KEY, () => config.environment)).immediate();
  if (owner === config.environment) return;
  throw new ConfigError(
    'OBSIM_DB',
    `"${config.db}" is a ${owner} database (recorded at its first start); a ${config.environment} server cannot open it: give each environment its own database with --db / OBSIM_DB (default ${DEFAULT_DATABASE[config.environment]})`,
  );
}

/**
 * The default partner plus the partners file.
 * - sandbox: the well-known `sandbox-partner` / `sandbox-secret` unless configured;
 * - production: no well-known credentials. Unless configured, they are generated at first start,
 *   persisted in the database (meta `production.partnerClientId` / `production.partnerClientSecret`)
 *   so they survive restarts on a file database, and printed once per start via startupNotes.
 */
function partnerCredentials(config: Config, meta: MetaStore, notes: string[]): PartnerCredential[] {
  let clientId = config.partnerClientId;
  let clientSecret = config.partnerClientSecret;
  if (config.environment === 'production') {
    const generatedId = clientId === undefined;
    const generatedSecret = clientSecret === undefined;
    clientId ??= meta.getOrCreate('production.partnerClientId', () => `live_${randomBytes(8).toString('hex')}`);
    clientSecret ??= meta.getOrCreate('production.partnerClientSecret', () => `live_secret_${randomBytes(24).toString('base64url')}`);
    if (generatedId || generatedSecret) {
      // a configured secret is never printed, only a generated one
      notes.push(
        `production credentials (generated, stored in the database): X-Partner-Client-Id: ${clientId}  X-Partner-Client-Secret: ${generatedSecret ? clientSecret : '(as configured, not printed)'}`,
      );
    }
  }
  const list: PartnerCredential[] = [
    {
      clientId: clientId ?? SANDBOX_PARTNER.clientId,
      clientSecret: clientSecret ?? SANDBOX_PARTNER.clientSecret,
      name: config.environment === 'production' ? 'Default production partner' : 'Default sandbox partner',
    },
  ];
  if (config.partnersFile) list.push(...readPartnersFile(config.partnersFile));
  return list;
}
