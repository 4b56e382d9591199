/**
 * buildApp(options) -> a ready Fastify instance. Never listens: tests use app.inject(), the CLI
 * (src/server.ts) listens. Only wiring: infrastructure as named plugins with declared
 * dependencies (docs/architecture.md draws the graph), then the route areas.
 */
import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { sharedSchemas } from '../schemas/index.js';
import { tokensPlugin } from './auth/plugin.js';
import type { VirtualClock } from './clock.js';
import { DEFAULT_DATABASE, defaultConfig, type Config } from './config.js';
import { fastifyOptions } from './fastify-options.js';
import { clockPlugin } from './plugins/clock.js';
import { enginePlugin, webhookWorkerPlugin } from './plugins/engine.js';
import { errorsPlugin } from './plugins/errors.js';
import { headerGuardPlugin } from './plugins/header-guard.js';
import { closedControlsPlugin } from './plugins/closed-controls.js';
import { contractVersionsPlugin } from './plugins/contract-versions.js';
import { reportsPlugin } from './plugins/reports.js';
import { integerParamsPlugin } from './plugins/integer-params.js';
import { journalPlugin } from './plugins/journal.js';
import { partnerRequestPlugin } from './plugins/partner-auth.js';
import { partnersPlugin } from './plugins/partners.js';
import { preferPlugin } from './plugins/prefer.js';
import { chaosPlugin } from './plugins/chaos.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { requestIdPlugin } from './plugins/request-id.js';
import { routeTablePlugin } from './plugins/route-table.js';
import { shardPlugin } from './plugins/shard.js';
import { tracingPlugin } from './plugins/tracing.js';
import { metricsPlugin } from './plugins/metrics.js';
import { storePlugin } from './plugins/store.js';
import { swaggerPlugin } from './plugins/swagger.js';
import { routes } from './routes/index.js';
import type { Db } from './store/db.js';

export { DATABASE_ENVIRONMENT_KEY } from './store/db.js';
export type { RouteEntry } from './plugins/route-table.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** Lines the CLI prints at start (default merchant id, generated credentials, …). */
    startupNotes: string[];
    /** Absolute base URL for links obsim hands out (onboardingUrl, paymentUrl, authorizationUrl). */
    publicUrl: string;
  }
}

export interface AppOptions {
  /** Overrides on top of the defaults (tests pass a few). */
  config?: Partial<Config>;
  /** Inject a clock (tests pass a frozen one). Default: the persisted one, or from config. */
  clock?: VirtualClock;
  /** Inject an open database. Default: openDatabase(config.db). */
  db?: Db;
  /** Fastify logger option. Default: pino at config.logLevel. */
  logger?: FastifyServerOptions['logger'];
  /** Webhook delivery time limit (tests shorten it; default DELIVERY_TIMEOUT_MS = 10 s). */
  webhookTimeoutMs?: number;
  /** Keep account-data pages once read (default true; a test turns it off to compare with it on). */
  accountPageCache?: boolean;
}

export async function buildApp(options: AppOptions = {}): Promise<FastifyInstance> {
  const config: Config = { ...defaultConfig(), ...options.config };
  // each environment has its own default file (never the same one by accident)
  if (options.config?.db === undefined) config.db = DEFAULT_DATABASE[config.environment];
  const { options: fastify, validatorCompiler } = fastifyOptions(config, options.logger);
  const app = Fastify(fastify);
  app.decorate('config', config);
  app.decorate('startupNotes', []);
  app.decorate('publicUrl', (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, ''));
  for (const schema of sharedSchemas) app.addSchema(schema);
  app.setValidatorCompiler(validatorCompiler);

  await app.register(routeTablePlugin);
  await app.register(requestIdPlugin);
  await app.register(tracingPlugin);
  await app.register(storePlugin, { db: options.db, accountPageCache: options.accountPageCache });
  await app.register(shardPlugin);
  await app.register(clockPlugin, { clock: options.clock });
  await app.register(partnersPlugin);
  await app.register(enginePlugin);
  await app.register(webhookWorkerPlugin, { timeoutMs: options.webhookTimeoutMs });
  await app.register(tokensPlugin);
  await app.register(partnerRequestPlugin);
  await app.register(chaosPlugin);
  await app.register(journalPlugin);
  await app.register(errorsPlugin);
  await app.register(headerGuardPlugin);
  await app.register(preferPlugin);
  await app.register(contractVersionsPlugin);
  await app.register(reportsPlugin);
  // loaded only when on (it compiles every response schema with Ajv: tests and --validate-responses)
  if (config.validateResponses) await app.register((await import('./plugins/response-validation.js')).responseValidationPlugin);
  await app.register(swaggerPlugin);
  await app.register(formbody);
  await app.register(rateLimitPlugin);
  await app.register(integerParamsPlugin);
  await app.register(closedControlsPlugin);
  if (config.metrics) await app.register(metricsPlugin);
  await app.register(routes);
  return app;
}
