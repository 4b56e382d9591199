/**
 * Test helpers (tap skips test/helpers/**). `build(t)` gives a fresh in-memory app on a frozen
 * clock, closed when the test ends.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { buildApp, type AppOptions } from '../../src/app.js';
import { VirtualClock } from '../../src/clock.js';
import type { Config } from '../../src/config.js';
import type { MerchantStatus } from '../../src/domain/merchant.js';
import { sharedSchemas } from '../../schemas/index.js';

export const T0 = '2026-01-15T09:00:00.000Z';
export const PARTNER = { 'x-partner-client-id': 'sandbox-partner', 'x-partner-client-secret': 'sandbox-secret' };
export const OTHER_PARTNER = { 'x-partner-client-id': 'other-partner', 'x-partner-client-secret': 'other-secret' };

interface Teardown {
  teardown(fn: () => unknown): void;
}

export async function build(t: Teardown, options: AppOptions & { config?: Partial<Config> } = {}): Promise<FastifyInstance> {
  const app = await buildApp({
    logger: false,
    clock: options.clock ?? VirtualClock.create({ start: T0, frozen: true }),
    ...options,
    config: { db: ':memory:', validateResponses: true, ...options.config },
  });
  await app.ready();
  t.teardown(() => app.close());
  return app;
}

/** JSON body of an injected response. */
export function json<T = any>(res: LightMyRequestResponse): T {
  return JSON.parse(res.body) as T;
}

/** Ajv with every shared schema, to check response bodies against their documented schema. */
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
for (const s of sharedSchemas) ajv.addSchema(s);

/** Errors of `body` against the shared schema `$id` (empty array = valid). */
export function schemaErrors(id: string, body: unknown): string[] {
  const validate = ajv.getSchema(id);
  if (!validate) throw new Error(`no shared schema ${id}`);
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/**
 * Put a merchant straight into a status, skipping the state machine (a test back door: the
 * product has none; tests write SQL through app.db).
 */
export function forceMerchantStatus(app: FastifyInstance, merchantId: number, status: MerchantStatus): void {
  app.db.prepare('UPDATE merchants SET status = ?, updated_at = ? WHERE id = ?').run(status, app.clock.iso(), merchantId);
}

/**
 * The RFC 6901 pointer a test expects in an error's `field`, written the way a reader names the
 * place: `ubos[0].dateOfBirth` → `/ubos/0/dateOfBirth` (names here never hold `~` or `/`).
 */
export const at = (readable: string): string =>
  readable === ''
    ? ''
    : `/${readable
        .replace(/\[(\d+)\]/g, '.$1')
        .split('.')
        .join('/')}`;
