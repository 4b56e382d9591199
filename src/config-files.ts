/**
 * The files a configuration names: the database's path (checked writable at start, one line when
 * not) and the extra partners file.
 */
import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from './config-parsers.js';

export interface PartnerCredential {
  clientId: string;
  clientSecret: string;
  name?: string;
}

/**
 * Fail at start, with one line, when the database file cannot be created or written. `setting`
 * is the name the path was given by (`--db` or `OBSIM_DB`; the default path is named `OBSIM_DB`,
 * the variable that changes it).
 */
export function checkDatabasePath(db: string, setting = 'OBSIM_DB'): void {
  if (db === ':memory:') return;
  const file = resolve(db);
  const dir = dirname(file);
  try {
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    accessSync(dir, constants.W_OK);
    if (existsSync(file)) accessSync(file, constants.R_OK | constants.W_OK);
  } catch (err) {
    throw new ConfigError(setting, `cannot write "${db}" (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

/** Read the extra partners file; every entry needs a clientId and a clientSecret. */
export function readPartnersFile(path: string): PartnerCredential[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError('OBSIM_PARTNERS_FILE', `cannot read "${path}": ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new ConfigError('OBSIM_PARTNERS_FILE', 'expected a JSON array');
  return parsed.map((entry, i) => {
    const e = entry as Partial<PartnerCredential>;
    if (typeof e?.clientId !== 'string' || e.clientId === '' || typeof e.clientSecret !== 'string' || e.clientSecret === '') {
      throw new ConfigError('OBSIM_PARTNERS_FILE', `entry ${i} needs non-empty "clientId" and "clientSecret" strings`);
    }
    return { clientId: e.clientId, clientSecret: e.clientSecret, name: typeof e.name === 'string' ? e.name : undefined };
  });
}

/** A shard's peers name it: --shard-peers is for a shard, and lists this one. */
export function checkShardPeers(
  shard: string | undefined,
  peers: Record<string, string>,
  givenShard: string | undefined,
  givenPeers: string | undefined,
): void {
  if (shard === undefined) throw new ConfigError(givenPeers ?? 'OBSIM_SHARD_PEERS', 'is for a shard: give --shard / OBSIM_SHARD too');
  if (!(shard in peers))
    throw new ConfigError(givenShard ?? 'OBSIM_SHARD', `"${shard}" is not one of the cluster's shards (${Object.keys(peers).join(', ')})`);
}
