/**
 * `obsim/testcontainers`: obsim's image as a Testcontainers module (docs/testing-with-obsim.md).
 *
 *   const obsim = await new ObsimContainer('obsim:latest').withClock({ frozen: true }).start();
 *   const client = obsim.client();                 // typed client, default partner
 *   const box = await obsim.createSandbox();       // an isolated world for this test
 *   await obsim.stop();
 *
 * Readiness is an HTTP wait on /healthz (never a log line or a sleep). `testcontainers` is an
 * optional peer dependency: install it (>= 11.9) in the project that imports this module.
 */
import { AbstractStartedContainer, GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import {
  createObsimClient,
  DEFAULT_CREDENTIALS,
  type CreatedSandbox,
  type Credentials,
  type ObsimClient,
  type SandboxCreateOptions,
} from './client/index.js';

/** The port obsim listens on inside its image (PORT). */
export const OBSIM_PORT = 4010;

export class ObsimContainer extends GenericContainer {
  private credentials: Credentials = { ...DEFAULT_CREDENTIALS };
  private adminKey: string | undefined;

  constructor(image = 'obsim:latest') {
    super(image);
    this.withExposedPorts(OBSIM_PORT)
      .withEnvironment({ PORT: String(OBSIM_PORT), HOST: '0.0.0.0' })
      .withWaitStrategy(Wait.forHttp('/healthz', OBSIM_PORT).forStatusCode(200))
      .withStartupTimeout(60_000);
  }

  /** Build this persona (a shipped name such as `shop-with-history`) for the default partner. */
  withPersona(name: string): this {
    return this.withEnvironment({ OBSIM_PERSONA: name });
  }

  /** The default sandbox's clock: a start instant and/or frozen. */
  withClock(clock: { start?: string; frozen?: boolean }): this {
    const env: Record<string, string> = {};
    if (clock.start !== undefined) env.OBSIM_CLOCK_START = new Date(clock.start).toISOString();
    if (clock.frozen !== undefined) env.OBSIM_CLOCK_FROZEN = String(clock.frozen);
    return this.withEnvironment(env);
  }

  /** The default partner's credentials (OBSIM_PARTNER_CLIENT_ID / _SECRET). */
  withCredentials(credentials: Credentials): this {
    this.credentials = { ...credentials };
    return this.withEnvironment({ OBSIM_PARTNER_CLIENT_ID: credentials.clientId, OBSIM_PARTNER_CLIENT_SECRET: credentials.clientSecret });
  }

  /** Sandbox management then needs this key (OBSIM_ADMIN_KEY); the module sends it. */
  withAdminKey(key: string): this {
    this.adminKey = key;
    return this.withEnvironment({ OBSIM_ADMIN_KEY: key });
  }

  override async start(): Promise<StartedObsimContainer> {
    return new StartedObsimContainer(await super.start(), this.credentials, this.adminKey);
  }
}

export class StartedObsimContainer extends AbstractStartedContainer {
  constructor(
    started: StartedTestContainer,
    private readonly credentials: Credentials,
    private readonly adminKey: string | undefined,
  ) {
    super(started);
  }

  /** `http://<host>:<mapped port>` */
  getBaseUrl(): string {
    return `http://${this.getHost()}:${this.getMappedPort(OBSIM_PORT)}`;
  }

  getCredentials(): Credentials {
    return { ...this.credentials };
  }

  /** A typed client with the default partner's credentials. */
  client(): ObsimClient {
    return createObsimClient({ baseUrl: this.getBaseUrl(), credentials: this.credentials, adminKey: this.adminKey });
  }

  /** A new isolated sandbox (own data and clock) with a client for it. */
  createSandbox(options: SandboxCreateOptions = {}): Promise<CreatedSandbox> {
    return this.client().createSandbox(options);
  }
}
