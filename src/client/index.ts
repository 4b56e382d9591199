/**
 * `obsim/client`: a typed client for the whole API of a running obsim (docs/testing-with-obsim.md).
 *
 * `client.api` is an openapi-fetch client typed by src/client/api.ts, which openapi-typescript
 * generates from the committed openapi.json (`npm run openapi`): every path, body and answer of
 * the document, with the partner credential headers set. The methods below are the flows that
 * need several calls or a wait; each is the same public HTTP API a script would use.
 */
import createClient from 'openapi-fetch';
import type { Client } from 'openapi-fetch';
import { describeDifferences, describeEntry } from '../domain/journal.js';
import { partialMatch } from '../domain/match.js';
import { applyRequirements, type Requirements } from '../domain/readiness-requirements.js';
import type { components, paths } from './api.js';

export type { components, paths } from './api.js';
export type { Requirements } from '../domain/readiness-requirements.js';

type Schemas = components['schemas'];
export type JournalEntry = Schemas['JournalEntry'];
export type RequestMatcher = Schemas['RequestMatcher'];
export type VerifyResult = Schemas['JournalVerifyResult'];
export type Delivery = Schemas['SandboxDelivery'];
export type SandboxCreateOptions = Schemas['SandboxCreateRequest'];
export type ReadinessReport = Schemas['SandboxReadinessReport'];
export type FaultProfile = Schemas['FaultProfile'];
export type FaultProfileRequest = Schemas['FaultProfileRequest'];

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

export interface ClientOptions {
  baseUrl: string;
  credentials: Credentials;
  /** X-Obsim-Admin-Key, when the server runs with OBSIM_ADMIN_KEY (sandbox management needs it). */
  adminKey?: string;
  /** The contract version every provider request names (Obsim-Contract-Version; docs/contract-versions.md). */
  contractVersion?: string;
}

/** The well-known default partner of a sandbox-environment obsim. */
export const DEFAULT_CREDENTIALS: Readonly<Credentials> = { clientId: 'sandbox-partner', clientSecret: 'sandbox-secret' };

/** A failed call: the answer's status and ErrorBody. */
export class ObsimError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what}: ${status} ${JSON.stringify(body)}`);
  }
}

function ok<T>(what: string, res: { data?: T; error?: unknown; response: Response }): T {
  if (res.data === undefined) throw new ObsimError(res.response.status, res.error, what);
  return res.data;
}

export interface CreatedSandbox {
  sandboxId: string;
  credentials: Credentials;
  defaultMerchant: { merchantId: number; clientId: string };
  expiresAt: string;
  /** A client with the sandbox's credentials. */
  client: ObsimClient;
  /** Delete the sandbox and every row it owns. */
  delete(): Promise<void>;
}

export class ObsimClient {
  /** The typed client: `await client.api.GET('/v1/partner/merchants/{merchantId}/onboarding-status', …)`. */
  readonly api: Client<paths>;

  constructor(readonly options: ClientOptions) {
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: {
        'x-partner-client-id': options.credentials.clientId,
        'x-partner-client-secret': options.credentials.clientSecret,
        // the controls ignore it (they are not versioned); the provider's operations are served by it
        ...(options.contractVersion === undefined ? {} : { 'obsim-contract-version': options.contractVersion }),
      },
    });
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  get credentials(): Credentials {
    return this.options.credentials;
  }

  /** A new isolated sandbox (its own data and clock), with a client for it. */
  async createSandbox(options: SandboxCreateOptions = {}): Promise<CreatedSandbox> {
    const headers = this.options.adminKey ? { 'x-obsim-admin-key': this.options.adminKey } : undefined;
    const created = ok('POST /_sandbox/sandboxes', await this.api.POST('/_sandbox/sandboxes', { body: options, headers }));
    const client = new ObsimClient({ ...this.options, credentials: created.credentials });
    return {
      sandboxId: created.sandboxId,
      credentials: created.credentials,
      defaultMerchant: created.defaultMerchant,
      expiresAt: created.expiresAt,
      client,
      delete: async () => {
        ok(
          `DELETE /_sandbox/sandboxes/${created.sandboxId}`,
          await this.api.DELETE('/_sandbox/sandboxes/{sandboxId}', { params: { path: { sandboxId: created.sandboxId } }, headers }),
        );
      },
    };
  }

  /** Advance the caller's sandbox clock (`'1h'`, `'30d'`, `'500ms'`); what fell due fires. */
  async advanceClock(duration: string) {
    return ok('POST /_sandbox/clock/advance', await this.api.POST('/_sandbox/clock/advance', { body: { duration } }));
  }

  /** An activated test merchant, ready to take payments. */
  async createTestMerchant(companyName = 'Test Shop ApS') {
    return ok('POST /v1/partner/merchants/test', await this.api.POST('/v1/partner/merchants/test', { body: { companyName } }));
  }

  /**
   * A payment that ends paid: created for `merchantClientId` (a new test merchant when omitted),
   * then settled through the control API (`payment.completed` is sent to subscribed webhooks).
   */
  async payAndSettle(options: { merchantClientId?: string; amount?: number; referenceNumber?: string } = {}) {
    const merchantClientId = options.merchantClientId ?? (await this.createTestMerchant()).clientId;
    const payment = ok(
      'POST /v1/partner/payments',
      await this.api.POST('/v1/partner/payments', {
        body: { merchantClientId, amount: options.amount ?? 100, referenceNumber: options.referenceNumber ?? `order-${Date.now()}` },
      }),
    );
    return ok(
      'POST /_sandbox/payments/{paymentId}/complete',
      await this.api.POST('/_sandbox/payments/{paymentId}/{action}', {
        params: { path: { paymentId: payment.paymentId, action: 'complete' } },
        body: {},
      }),
    );
  }

  /**
   * The first finished delivery of `event` whose envelope `data` partially matches `match`, read
   * from the delivery log (polled every 20 ms, no fixed sleeps); rejects after `timeoutMs`.
   */
  async waitForDelivery(options: { event: string; match?: Record<string, unknown>; timeoutMs?: number }): Promise<Delivery> {
    const deadline = Date.now() + (options.timeoutMs ?? 5000);
    for (;;) {
      const list = ok(
        'GET /_sandbox/deliveries',
        await this.api.GET('/_sandbox/deliveries', { params: { query: { event: options.event, limit: 500 } } }),
      );
      const found = list.items.find((d) => {
        if (d.state !== 'delivered' && d.state !== 'failed') return false;
        if (!options.match) return true;
        const envelope = JSON.parse(d.body) as { data?: unknown };
        return partialMatch(options.match, envelope.data).length === 0;
      });
      if (found) return found;
      if (Date.now() >= deadline) {
        throw new Error(
          `no finished ${options.event} delivery${options.match ? ` matching ${JSON.stringify(options.match)}` : ''} in ${options.timeoutMs ?? 5000} ms (${list.total} ${options.event} deliveries in the log)`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * The sandbox's go-live readiness report (`GET /_sandbox/report`, docs/readiness.md); with
   * `requirements`, judged by them instead of the default checklist. `sandbox`: an admin's
   * report of another sandbox (needs the admin key when the server has one).
   */
  async report(options: { requirements?: Requirements; sandbox?: string } = {}): Promise<ReadinessReport> {
    const headers = options.sandbox !== undefined && this.options.adminKey ? { 'x-obsim-admin-key': this.options.adminKey } : undefined;
    const query = options.sandbox === undefined ? {} : { sandbox: options.sandbox };
    const report = ok('GET /_sandbox/report', await this.api.GET('/_sandbox/report', { params: { query }, headers }));
    if (!options.requirements) return report;
    const judged = applyRequirements(report, options.requirements, options.requirements.name ?? 'requirements');
    return { ...report, ...(judged as unknown as ReadinessReport) };
  }

  /**
   * The sandbox's fault profile (docs/chaos.md): `set` puts one in force (a shipped one by name,
   * rules, a seed) and answers it with its seed; `show` the one in force and what it injected;
   * `clear` ends it.
   */
  readonly faults = {
    set: async (profile: FaultProfileRequest): Promise<FaultProfile> =>
      ok('PUT /_sandbox/faults', await this.api.PUT('/_sandbox/faults', { body: profile })),
    show: async (): Promise<FaultProfile> => ok('GET /_sandbox/faults', await this.api.GET('/_sandbox/faults')),
    clear: async (): Promise<FaultProfile> => ok('DELETE /_sandbox/faults', await this.api.DELETE('/_sandbox/faults')),
  };

  /** How many journal entries match (`POST /_sandbox/requests/verify`); `verified: false` comes with near misses. */
  async verifyRequests(
    request: RequestMatcher,
    expected: { count?: number; atLeast?: number; atMost?: number; after?: number } = {},
  ): Promise<VerifyResult> {
    return ok('POST /_sandbox/requests/verify', await this.api.POST('/_sandbox/requests/verify', { body: { request, ...expected } }));
  }

  /** verifyRequests that throws an Error whose message lists the near misses (for test assertions). */
  async expectRequests(
    request: RequestMatcher,
    expected: { count?: number; atLeast?: number; atMost?: number; after?: number } = {},
  ): Promise<void> {
    const result = await this.verifyRequests(request, expected);
    if (result.verified) return;
    const lines = [`expected ${JSON.stringify(result.expected)} requests matching ${JSON.stringify(request)}, found ${result.actual}`];
    for (const m of result.nearMisses ?? []) {
      lines.push(`  near miss ${describeEntry(m.entry)}`);
      for (const d of describeDifferences(m.differences)) lines.push(`    ${d}`);
    }
    for (const e of result.matched ?? []) lines.push(`  matched ${describeEntry(e)}`);
    throw new Error(lines.join('\n'));
  }
}

/** A client for a running obsim (default: the sandbox partner on 127.0.0.1:4010). */
export function createObsimClient(options: Partial<ClientOptions> = {}): ObsimClient {
  return new ObsimClient({
    baseUrl: options.baseUrl ?? 'http://127.0.0.1:4010',
    credentials: options.credentials ?? { ...DEFAULT_CREDENTIALS },
    adminKey: options.adminKey,
  });
}
