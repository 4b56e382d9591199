/**
 * The shadow's own obsim (./replayer.ts): in memory, with one sandbox that never expires while the
 * shadow runs, its clock frozen at the start (the replay moves it). With `--contracts` and
 * `--contract-version`, the sandbox is pinned to that version, and the document it answers by is
 * handed back for the comparison to read.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import type { OpenApiDocument } from '../openapi/documents.js';
import type { ReplayerOptions } from './shadow-messages.js';

export interface ShadowObsim {
  app: FastifyInstance;
  sandboxHeaders: Record<string, string>;
  clockNowMs: number;
  /** The version's document when the sandbox is pinned to one; undefined: the base. */
  document: OpenApiDocument | undefined;
}

export async function startShadowObsim(options: Pick<ReplayerOptions, 'contracts' | 'contractVersion'>): Promise<ShadowObsim> {
  const { contracts, contractVersion } = options;
  const app = await buildApp({
    config: { db: ':memory:', logLevel: 'silent', metrics: false, journal: false, ...(contracts !== undefined ? { contracts } : {}) },
    logger: false,
  });
  await app.ready();
  const version = contractVersion === undefined ? undefined : app.contracts.find(contractVersion);
  if (contractVersion !== undefined && !version && contractVersion !== 'base') {
    await app.close();
    throw new Error(`no contract version ${JSON.stringify(contractVersion)}: the versions are ${app.contracts.names().join(', ')}`);
  }
  const start = new Date().toISOString();
  // never expires while the shadow runs: a time to live of 30 days, used at least hourly (tick)
  const created = await app.inject({
    method: 'POST',
    url: '/_sandbox/sandboxes',
    payload: { name: 'shadow', ttl: '30d', clock: { start, frozen: true }, ...(contractVersion !== undefined ? { contractVersion } : {}) },
  });
  if (created.statusCode !== 200) throw new Error(`obsim could not make the shadow's sandbox: ${created.body}`);
  const { clientId, clientSecret } = created.json<{ credentials: { clientId: string; clientSecret: string } }>().credentials;
  return {
    app,
    sandboxHeaders: { 'x-partner-client-id': clientId, 'x-partner-client-secret': clientSecret },
    clockNowMs: Date.parse(start),
    document: version?.document,
  };
}
