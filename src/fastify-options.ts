/**
 * The Fastify server options obsim runs with: its own validator compiler (two Ajv instances,
 * src/compilers/validation.ts) and de-duplicated serializers, both precompiled at build time; the
 * one error shape for requests rejected before a route runs; request ids; limits.
 */
import { LogController, type FastifyServerOptions } from 'fastify';
import { sharedSchemas } from '../schemas/index.js';
import type { Config } from './config.js';
import { clientErrorHandler, frameworkErrors, MAX_PARAM_LENGTH } from './plugins/client-errors.js';
import { genReqId } from './plugins/request-id.js';
import { dedupedSerializerFactory } from './compilers/serializers.js';
import { buildValidatorCompiler } from './compilers/validation.js';
import { lazyRequestLogger } from './plugins/request-logger.js';
import { servedByVersion } from './plugins/contract-versions.js';

/** Largest request body (413 payload_too_large above). */
export const BODY_LIMIT_BYTES = 1_048_576;
/** A request not received completely within this is answered 408 (Node checks every 30 s). */
export const REQUEST_TIMEOUT_MS = 30_000;

export function fastifyOptions(config: Config, logger: FastifyServerOptions['logger']) {
  // handed to the schema controller too, so Fastify never loads its default compiler (Ajv) at start
  const validatorCompiler = buildValidatorCompiler(
    sharedSchemas,
    config.strict,
    config.contracts === undefined ? undefined : servedByVersion,
  );
  const options: FastifyServerOptions = {
    schemaController: {
      compilersFactory: {
        buildSerializer: dedupedSerializerFactory(),
        buildValidator: (() => validatorCompiler) as never /* typed for Ajv's own compiler; any compiler function works */,
      },
    },
    logger: logger ?? { level: config.logLevel },
    logController: new LogController({ disableRequestLogging: !config.requestLog }),
    // a request's child logger is made when it logs something, not for every request
    childLoggerFactory: lazyRequestLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: REQUEST_TIMEOUT_MS,
    // no path parameter is cut off by the router: every one reaches its schema, so a value too long
    // is a 400 naming it (no route here matches by regular expression, which is what the cap guards)
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    frameworkErrors,
    clientErrorHandler,
    genReqId,
  };
  return { options, validatorCompiler };
}
