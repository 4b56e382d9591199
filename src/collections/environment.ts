/**
 * One sandbox's environment for a collection: where obsim answers, the credentials the caller
 * proved it holds (obsim keeps only a digest of a sandbox's secret, so it can only echo what was
 * sent), its default merchant, its contract version and its settlement delay.
 */
import { randomUUID } from 'node:crypto';
import { ENVIRONMENT_VARIABLES, SECRET_VARIABLES, type EnvironmentVariable } from '../domain/collection-environment.js';
import { DEFAULT_USER } from './plan.js';

export interface SandboxContext {
  /** The sandbox's id (a configured partner's: `default`). */
  sandboxId: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The sandbox's default merchant (undefined: it has none, e.g. in production). */
  merchant: { merchantId: number; clientId: string } | undefined;
  contractVersion: string;
  settleDelayMs: number;
  /** Now on the sandbox clock (the environment's export instant). */
  now: string;
  obsimVersion: string;
}

export function environmentValues(ctx: SandboxContext): Record<EnvironmentVariable, string> {
  return {
    baseUrl: ctx.baseUrl,
    partnerClientId: ctx.clientId,
    partnerClientSecret: ctx.clientSecret,
    merchantId: ctx.merchant === undefined ? '' : String(ctx.merchant.merchantId),
    merchantClientId: ctx.merchant?.clientId ?? '',
    userId: DEFAULT_USER,
    contractVersion: ctx.contractVersion,
    settleDelayMs: String(ctx.settleDelayMs),
  };
}

export const environmentName = (ctx: Pick<SandboxContext, 'sandboxId' | 'contractVersion'>): string =>
  `obsim ${ctx.sandboxId} (${ctx.contractVersion})`;

/** A Postman environment (the format Postman exports): the credentials as `secret` values. */
export function postmanEnvironment(ctx: SandboxContext) {
  const values = environmentValues(ctx);
  return {
    id: randomUUID(),
    name: environmentName(ctx),
    values: ENVIRONMENT_VARIABLES.map((key) => ({
      key,
      value: values[key],
      type: SECRET_VARIABLES.includes(key) ? ('secret' as const) : ('default' as const),
      enabled: true,
    })),
    _postman_variable_scope: 'environment' as const,
    _postman_exported_at: ctx.now,
    _postman_exported_using: `obsim/${ctx.obsimVersion}`,
  };
}
