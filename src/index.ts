/**
 * `obsim`, the library: an obsim in the test process (docs/testing-with-obsim.md).
 *
 *   const sim = await startObsim();               // listening on 127.0.0.1, a random port, :memory:
 *   const box = await sim.sandbox();              // an isolated world for this test
 *   await box.client.payAndSettle();
 *   await sim.close();                            // or: await using sim = await startObsim();
 *
 * It is the same server `obsim serve` runs (src/server.ts), answering on a real port, so the code
 * under test talks HTTP to it exactly as it would to the container or the provider.
 */
import {
  createObsimClient,
  DEFAULT_CREDENTIALS,
  type ObsimClient,
  type CreatedSandbox,
  type Credentials,
  type ReadinessReport,
  type SandboxCreateOptions,
} from './client/index.js';
import { defaultConfig, type Config } from './config.js';
import type { Requirements } from './domain/readiness-requirements.js';
import { loadRequirements } from './readiness/requirements.js';
import { unsupportedNode } from './node-version.js';
import { startServer } from './server.js';

export { createObsimClient, ObsimClient, ObsimError } from './client/index.js';
export type {
  ClientOptions,
  CreatedSandbox,
  Credentials,
  Delivery,
  FaultProfile,
  FaultProfileRequest,
  JournalEntry,
  ReadinessReport,
  RequestMatcher,
  Requirements,
  VerifyResult,
} from './client/index.js';

export interface StartObsimOptions {
  /** TCP port (default 0: a free one). */
  port?: number;
  /** Interface (default 127.0.0.1). */
  host?: string;
  /** SQLite file, or ':memory:' (the default). */
  db?: string;
  /** The default sandbox's virtual clock: its start instant (ISO 8601), frozen or running (default: now, running). */
  clock?: { start?: string; frozen?: boolean };
  /** A persona (shipped name or file) built for the default partner. */
  persona?: string;
  /** Any other setting (docs/configuration.md), e.g. `{ settleDelayMs: 1000 }`. */
  config?: Partial<Config>;
  /** Lines obsim prints at start (default: none). */
  log?: (line: string) => void;
}

export interface Obsim {
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  /** The default partner's credentials. */
  credentials: Credentials;
  /** A typed client with those credentials. */
  client: ObsimClient;
  /** A new isolated sandbox (own data, own clock); deleted by close() if still there. */
  sandbox(options?: SandboxCreateOptions): Promise<CreatedSandbox>;
  /**
   * The go-live readiness report of the default partner's sandbox, or of `sandbox` (docs/readiness.md);
   * `require`: a requirements file (YAML or JSON) or object that replaces the default checklist.
   */
  report(options?: { require?: string | Requirements; sandbox?: string }): Promise<ReadinessReport>;
  /**
   * The default sandbox's fault profile (docs/chaos.md): `faults.set({ profile: 'flaky-network',
   * seed: 7 })`, `faults.show()`, `faults.clear()`. A created sandbox's: `box.client.faults`.
   */
  faults: ObsimClient['faults'];
  /** Stop listening and close the database; nothing is left running. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Start obsim in this process; resolves once /healthz answers 200. */
export async function startObsim(options: StartObsimOptions = {}): Promise<Obsim> {
  const unsupported = unsupportedNode();
  if (unsupported) throw new Error(unsupported);
  const config: Config = {
    ...defaultConfig(),
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    db: options.db ?? ':memory:',
    logLevel: 'silent',
    clockStart: options.clock?.start === undefined ? undefined : new Date(options.clock.start).toISOString(),
    clockFrozen: options.clock?.frozen ?? false,
    persona: options.persona,
    ...options.config,
  };
  const server = await startServer(config, options.log ?? (() => undefined));
  const baseUrl = server.url;
  const health = await fetch(`${baseUrl}/healthz`).catch((err: unknown) => err as Error);
  if (health instanceof Error || !health.ok) {
    await server.close();
    throw new Error(`obsim started but /healthz did not answer 200 (${health instanceof Error ? health.message : health.status})`);
  }
  const credentials: Credentials = {
    clientId: config.partnerClientId ?? DEFAULT_CREDENTIALS.clientId,
    clientSecret: config.partnerClientSecret ?? DEFAULT_CREDENTIALS.clientSecret,
  };
  const client = createObsimClient({ baseUrl, credentials, adminKey: config.adminKey });
  const open = new Set<CreatedSandbox>();
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      for (const box of open) await box.delete().catch(() => undefined);
      await server.close();
    })());
  return {
    baseUrl,
    credentials,
    client,
    async sandbox(sandboxOptions) {
      const box = await client.createSandbox(sandboxOptions);
      const remove = () => box.delete();
      const tracked: CreatedSandbox = {
        ...box,
        delete: async () => {
          open.delete(tracked);
          await remove();
        },
      };
      open.add(tracked);
      return tracked;
    },
    report: async (reportOptions = {}) => {
      const { require: wanted, sandbox } = reportOptions;
      const requirements = typeof wanted === 'string' ? { name: wanted, ...loadRequirements(wanted) } : wanted;
      return client.report({ requirements, sandbox });
    },
    faults: client.faults,
    close,
    [Symbol.asyncDispose]: close,
  };
}
