/**
 * How a setting's raw text (a flag or an environment variable) becomes its value, and the one
 * error every bad value raises: `ConfigError` names the setting and says what was wrong.
 */
import bytes from 'bytes';
import ms from 'ms';
import type { Environment } from './domain/settings.js';

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`invalid configuration: ${setting}: ${message}`);
  }
}

export type Parser<T> = (raw: string, setting: string) => T;

export const str: Parser<string> = (raw) => raw;
export const optStr: Parser<string | undefined> = (raw) => (raw === '' ? undefined : raw);

export function bool(raw: string, setting: string): boolean {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  throw new ConfigError(setting, `expected true or false, got "${raw}"`);
}

export function port(raw: string, setting: string): number {
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(setting, `"${raw}" is not a port number`);
  const n = Number(raw);
  if (n < 0 || n > 65535) throw new ConfigError(setting, `${n} is outside 0-65535`);
  return n;
}

export function nonNegativeInt(raw: string, setting: string): number {
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(setting, `"${raw}" is not a whole number`);
  return Number(raw);
}

/** "250ms", "5s", "2m", "1h", "7d" or a bare number of milliseconds (parsed by `ms`); never negative. */
export function parseDuration(raw: string, setting = 'duration'): number {
  const value = typeof raw === 'string' && raw.trim() !== '' ? ms(raw.trim() as ms.StringValue) : Number.NaN;
  if (!Number.isFinite(value) || value < 0) throw new ConfigError(setting, `"${raw}" is not a duration (examples: 500ms, 5s, 2m, 1h)`);
  return Math.round(value);
}

/** "64kb", "10mb", or a bare number of bytes (parsed by `bytes`); at least `min`. */
export function byteSize(min: number): Parser<number> {
  return (raw, setting) => {
    const value = /^\s*\d+\s*$/.test(raw) ? Number(raw) : bytes.parse(raw.trim());
    if (value === null || !Number.isFinite(value) || value < min) {
      throw new ConfigError(setting, `"${raw}" is not a size of at least ${bytes.format(min)} (examples: 64kb, 10mb)`);
    }
    return Math.floor(value);
  };
}

export function positiveInt(raw: string, setting: string): number {
  const n = nonNegativeInt(raw, setting);
  if (n < 1) throw new ConfigError(setting, 'must be at least 1');
  return n;
}

export function environment(raw: string, setting: string): Environment {
  if (raw === 'sandbox' || raw === 'production') return raw;
  throw new ConfigError(setting, `"${raw}" is not one of sandbox, production`);
}

export function instant(raw: string, setting: string): string | undefined {
  if (raw === '') return undefined;
  if (Number.isNaN(Date.parse(raw))) throw new ConfigError(setting, `"${raw}" is not an ISO 8601 instant`);
  return new Date(raw).toISOString();
}

export function logLevel(raw: string, setting: string): string {
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(raw)) throw new ConfigError(setting, `"${raw}" is not one of ${levels.join(', ')}`);
  return raw;
}

/** A shard's name: lower-case letters and digits, starting with a letter (it is part of every id the shard hands out). */
export const SHARD_NAME = /^[a-z][a-z0-9]{0,15}$/;

export function shardName(raw: string, setting: string): string | undefined {
  if (raw === '') return undefined;
  if (!SHARD_NAME.test(raw)) {
    throw new ConfigError(setting, `"${raw}" is not a shard name (1-16 lower-case letters and digits, starting with a letter)`);
  }
  return raw;
}

/** "s1=http://10.0.0.1:4011,s2=http://10.0.0.2:4011": every shard once, each with an http(s) URL. */
export function shardPeers(raw: string, setting: string): Record<string, string> | undefined {
  if (raw.trim() === '') return undefined;
  const peers: Record<string, string> = {};
  for (const part of raw.split(',')) {
    const [name, url] = part.trim().split(/=(.*)/s, 2);
    shardName(name ?? '', setting);
    if (name in peers) throw new ConfigError(setting, `shard "${name}" is named twice`);
    if (!/^https?:\/\/[^\s/]+/.test(url ?? '')) throw new ConfigError(setting, `"${part.trim()}" is not name=http://host:port`);
    peers[name] = url.replace(/\/+$/, '');
  }
  return peers;
}
