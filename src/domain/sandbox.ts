/**
 * Sandboxes: isolated worlds in one process. Each has its own partner credential, virtual clock
 * and lifecycle settings; the configured partners share the sandbox 'default', which never
 * expires. A created sandbox is removed after `ttl` of idle time (no request with its
 * credentials), measured on the wall clock: its own virtual clock may be frozen or years ahead.
 */
import type { LifecycleSettings } from './settings.js';

/** The sandbox of the configured partners (the one every request used before sandboxes existed). */
export const DEFAULT_SANDBOX = 'default';

/** Idle time after which a created sandbox is removed, unless its creation says otherwise. */
export const DEFAULT_SANDBOX_TTL_MS = 24 * 60 * 60 * 1000;
/** The longest idle ttl a sandbox can ask for. */
export const MAX_SANDBOX_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** The shortest: one second (tests of expiry use it with a wall-clock wait of about that). */
export const MIN_SANDBOX_TTL_MS = 1_000;

/** The lifecycle delays a sandbox may override at creation. */
export interface SandboxSettingsOverrides {
  settleDelayMs?: number;
  approvalDelayMs?: number;
  paymentExpiryMs?: number;
  /** The contract version the sandbox is pinned to (docs/contract-versions.md); absent: the base. */
  contractVersion?: string;
}

/** The settings a sandbox runs with: the server's, with its own overrides on top. */
export function sandboxSettings(base: LifecycleSettings, overrides: SandboxSettingsOverrides): LifecycleSettings {
  return {
    environment: base.environment,
    settleDelayMs: overrides.settleDelayMs ?? base.settleDelayMs,
    approvalDelayMs: overrides.approvalDelayMs ?? base.approvalDelayMs,
    paymentExpiryMs: overrides.paymentExpiryMs ?? base.paymentExpiryMs,
  };
}

/** When an idle sandbox is removed (wall clock). */
export const sandboxExpiresAt = (lastUsedMs: number, ttlMs: number): string => new Date(lastUsedMs + ttlMs).toISOString();
