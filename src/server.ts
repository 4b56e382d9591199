/**
 * Start a listening simulator: build the app from a Config, listen, print where and how to use
 * it, and shut down gracefully on SIGTERM/SIGINT (in-flight requests finish, then the
 * database closes).
 */
import closeWithGrace from 'close-with-grace';
import ms from 'ms';
import { DEFAULT_SANDBOX_TTL_MS } from './domain/sandbox.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError } from './config-parsers.js';
import { SANDBOX_PARTNER, type Config } from './config.js';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/**
 * `handleSignals`: close gracefully on SIGTERM/SIGINT (closeOnSignals) from before the banner is
 * printed: a supervisor that signals as soon as it reads "listening" must find the handler there
 * (without one, the signal's default action kills the process on the spot).
 */
export async function startServer(
  config: Config,
  out: (line: string) => void = console.log,
  { handleSignals = false }: { handleSignals?: boolean } = {},
): Promise<RunningServer> {
  const app = await buildApp({ config });
  let closing: Promise<void> | undefined;
  // While shutting down, answer in-flight requests with Connection: close: otherwise their
  // keep-alive connections turn idle after close() began and hold the exit up for the
  // keep-alive timeout (docker stop would then SIGKILL us).
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
  if (config.persona) {
    await buildDefaultPersona(app, config).catch(async (err: unknown) => {
      await app.close();
      throw err;
    });
  }
  const address = await app.listen({ port: config.port, host: config.host });
  const url = address.replace('[::1]', 'localhost');
  // on a port the system chose (0: startObsim, tests), the links obsim hands out name the real one
  if (config.publicUrl === undefined && config.port === 0) app.publicUrl = url;
  const close = () => (closing ??= app.close());
  const server = { app, url, close };
  if (handleSignals) closeOnSignals(server);
  const partners = app.partners.list();
  out(`obsim ${config.environment} simulator listening on ${url}`);
  out(`  database:   ${config.db === ':memory:' ? ':memory: (data is lost on exit)' : config.db}`);
  out(`  clock:      ${app.clock.iso()}${app.clock.frozen ? ' (frozen)' : ''}`);
  out(`  payments:   ${paymentsLine(config)}`);
  for (const line of app.startupNotes) out(`  ${line}`);
  const credentials = defaultPartnerLine(config, partners[0]?.clientId);
  if (credentials) out(`  credentials: ${credentials}`);
  out(`  partners:   ${partners.map((p) => p.clientId).join(', ')}`);
  if (config.environment === 'sandbox') out(`  sandboxes:  ${sandboxesLine(config)}`);
  out(`  docs:       ${url}/docs   openapi: ${url}/openapi.json`);
  out(`  console:    ${url}/console`);
  return server;
}

/**
 * --persona: build the persona's world for the default partner, once per database (a restart on
 * the same file does not build it twice). A persona that does not load stops the start.
 */
async function buildDefaultPersona(app: FastifyInstance, config: Config): Promise<void> {
  const ref = config.persona!;
  if (config.environment !== 'sandbox') throw new ConfigError('persona', 'personas are for the sandbox environment');
  const { loadPersona, PersonaError } = await import('./personas/load.js');
  const { applyPersona } = await import('./personas/apply.js');
  let persona;
  try {
    persona = loadPersona(ref);
  } catch (err) {
    if (err instanceof PersonaError) throw new ConfigError('persona', err.message);
    throw err;
  }
  const key = `persona.applied:${persona.name}`;
  if (app.meta.get(key) !== undefined) {
    app.startupNotes.push(`persona:   ${persona.name} (built at an earlier start of this database)`);
    return;
  }
  await app.ready();
  const partner = {
    clientId: config.partnerClientId ?? SANDBOX_PARTNER.clientId,
    clientSecret: config.partnerClientSecret ?? SANDBOX_PARTNER.clientSecret,
  };
  let built;
  try {
    built = await applyPersona(app, persona, partner);
  } catch (err) {
    if (err instanceof PersonaError) throw new ConfigError('persona', err.message);
    throw err;
  }
  app.meta.set(key, new Date().toISOString());
  app.startupNotes.push(
    `persona:   ${persona.name}: ${built.merchants.length} merchants, ${built.payments} payments, ${built.consents} consents, ${built.webhooks.length} webhooks`,
  );
}

/** How to get an isolated sandbox, for the startup output (sandbox environment only). */
export function sandboxesLine(config: Pick<Config, 'adminKey'>): string {
  const who = config.adminKey === undefined ? '' : ' (with header X-Obsim-Admin-Key)';
  return `POST /_sandbox/sandboxes${who} creates an isolated one: its own credentials, clock and settings; removed after ${ms(DEFAULT_SANDBOX_TTL_MS, { long: true })} idle`;
}

/** How payments end by themselves in this environment, for the startup output. */
export function paymentsLine(config: Pick<Config, 'environment' | 'settleDelayMs' | 'paymentExpiryMs'>): string {
  const expiry = `links expire after ${ms(config.paymentExpiryMs, { long: true })}`;
  if (config.environment === 'production') return `nothing settles by itself; the payer decides on paymentUrl; ${expiry}`;
  return `untouched payments settle after ${ms(config.settleDelayMs, { long: true })}; once a payer opens paymentUrl, the payer decides; ${expiry}`;
}

/**
 * The default partner's headers, for the startup output.
 * - sandbox: id and secret (the well-known `sandbox-partner` / `sandbox-secret`, or the configured
 *   pair: sandbox credentials are test credentials, and the output is where users look them up);
 * - production with a configured secret: the id only, the secret is never printed;
 * - production with a generated id or secret: nothing here, app.startupNotes already prints the
 *   pair (a configured secret there is not printed either).
 * Partners from --partners-file are listed by id only (their secrets are in the file).
 */
function defaultPartnerLine(config: Config, clientId: string | undefined): string | undefined {
  if (clientId === undefined) return undefined;
  if (config.environment !== 'production') {
    return `X-Partner-Client-Id: ${clientId}  X-Partner-Client-Secret: ${config.partnerClientSecret ?? SANDBOX_PARTNER.clientSecret}`;
  }
  if (config.partnerClientId === undefined || config.partnerClientSecret === undefined) return undefined;
  return `X-Partner-Client-Id: ${clientId}  (secret as configured, not printed)`;
}

/**
 * Close gracefully on SIGTERM/SIGINT (and on an uncaught error, then exit 1), with
 * close-with-grace: in-flight requests finish, the database closes; a second signal exits at once,
 * and a close that takes longer than SHUTDOWN_DELAY_MS exits 1.
 */
function closeOnSignals(server: RunningServer): void {
  closeWithGrace({ delay: SHUTDOWN_DELAY_MS, logger: { error: (msg: unknown) => server.app.log.error(msg) } }, async ({ signal, err }) => {
    if (err) server.app.log.error({ err }, 'shutting down after an error');
    else server.app.log.info({ signal }, 'shutting down');
    await server.close();
  });
}

/** Longest graceful shutdown (in-flight requests; webhook deliveries are aborted at once). */
export const SHUTDOWN_DELAY_MS = 20_000;
