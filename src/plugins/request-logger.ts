/**
 * The request's logger (`request.log`, `reply.log`), made when something is logged and not
 * before: Fastify builds a child of the server's logger for every request (pino serializing the
 * request id into its bindings), and obsim writes a request's log line only when something goes
 * wrong (request logging is off by default). A line written through it is the same line, with
 * the same bindings, as one written through the child Fastify would have made.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];

class RequestLogger {
  #real: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The child Fastify would have made, made once. */
  get #logger(): FastifyBaseLogger {
    return (this.#real ??= this.#parent.child(this.#bindings, this.#options));
  }

  get level(): string {
    return this.#logger.level;
  }
  set level(level: string) {
    this.#logger.level = level;
  }
  fatal(...args: Parameters<FastifyBaseLogger['fatal']>): void {
    this.#logger.fatal(...args);
  }
  error(...args: Parameters<FastifyBaseLogger['error']>): void {
    this.#logger.error(...args);
  }
  warn(...args: Parameters<FastifyBaseLogger['warn']>): void {
    this.#logger.warn(...args);
  }
  info(...args: Parameters<FastifyBaseLogger['info']>): void {
    this.#logger.info(...args);
  }
  debug(...args: Parameters<FastifyBaseLogger['debug']>): void {
    this.#logger.debug(...args);
  }
  trace(...args: Parameters<FastifyBaseLogger['trace']>): void {
    this.#logger.trace(...args);
  }
  silent(...args: Parameters<FastifyBaseLogger['silent']>): void {
    this.#logger.silent(...args);
  }
  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: a request's logger that becomes pino's child on its first use. */
export const lazyRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  new RequestLogger(logger, bindings, options);
