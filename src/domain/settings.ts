/**
 * The settings the lifecycle rules read: which environment, and the sandbox's delays. Passed
 * into every rule as input, so the rules stay pure and a later per-sandbox override is one
 * object, not a search through the code.
 */
/** The provider environment obsim imitates (docs/configuration.md, "Environments"). */
export type Environment = 'sandbox' | 'production';

export interface LifecycleSettings {
  environment: Environment;
  /** Sandbox: an untouched payment settles after this delay (also: processing -> paid). */
  settleDelayMs: number;
  /** Sandbox: a merchant awaiting approval is approved after this delay. */
  approvalDelayMs: number;
  /** How long a payment link stays open before the payment expires. */
  paymentExpiryMs: number;
}

/** The settings of a configuration (the one place a Config becomes LifecycleSettings). */
export function lifecycleSettings(config: Pick<LifecycleSettings, keyof LifecycleSettings>): LifecycleSettings {
  const { environment, settleDelayMs, approvalDelayMs, paymentExpiryMs } = config;
  return { environment, settleDelayMs, approvalDelayMs, paymentExpiryMs };
}

/** Sandbox-only behaviour (automatic settlement and approval, magic values). */
export const isSandbox = (settings: Pick<LifecycleSettings, 'environment'>): boolean => settings.environment !== 'production';

/** A timed transition a rule asks for: fire `trigger` on the aggregate at `dueAtMs` (virtual clock). */
export interface TimerRequest<T extends string = string> {
  trigger: T;
  dueAtMs: number;
}

export const isoOf = (ms: number): string => new Date(ms).toISOString();
