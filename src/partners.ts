/**
 * Partner credentials: the default partner plus any from --partners-file, kept in memory (they
 * come from configuration) and all in the sandbox 'default'; and, through `created`, the one
 * credential of each created sandbox (its client id is the sandbox id). Every partner-owned row in
 * the database carries the partner's clientId as partner_id.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readPartnersFile, type PartnerCredential } from './config-files.js';
import { SANDBOX_PARTNER, type Config } from './config.js';
import { ApiError } from './domain/errors.js';
import { DEFAULT_SANDBOX } from './domain/sandbox.js';
import type { MetaStore } from './store/db.js';

export interface Partner {
  clientId: string;
  name: string;
  /** The sandbox whose data and clock this partner sees ('default' for the configured partners). */
  sandboxId: string;
}

/** Authenticates the credentials of created sandboxes (engine/sandboxes.ts). */
export interface CreatedPartners {
  authenticate(clientId: string, clientSecret: string): Partner | undefined;
  /** The live sandbox whose client id this is (undefined: none, or deleted). */
  get(clientId: string): unknown;
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export class PartnerRegistry {
  private readonly byId = new Map<string, { partner: Partner; secretDigest: Buffer; verified?: Buffer }>();
  /** Compared against when the id is unknown, so both paths cost the same. */
  private readonly dummyDigest = digest(randomBytes(16).toString('hex'));
  /** Created sandboxes' credentials, when sandboxes can be created. */
  created: CreatedPartners | undefined;

  constructor(credentials: readonly PartnerCredential[]) {
    for (const c of credentials) {
      if (this.byId.has(c.clientId)) throw new Error(`partner ${c.clientId} is configured twice`);
      this.byId.set(c.clientId, {
        partner: { clientId: c.clientId, name: c.name ?? c.clientId, sandboxId: DEFAULT_SANDBOX },
        secretDigest: digest(c.clientSecret),
      });
    }
  }

  list(): Partner[] {
    return [...this.byId.values()].map((e) => e.partner);
  }

  /** The configured default partner (the first one; the sandbox seeds its merchant). */
  isDefault(clientId: string): boolean {
    return this.byId.keys().next().value === clientId;
  }

  /** A configured partner's or a live sandbox's client id (refused requests naming it go to its journal). */
  knows(clientId: unknown): clientId is string {
    return typeof clientId === 'string' && (this.byId.has(clientId) || this.created?.get(clientId) !== undefined);
  }

  /** 401 unless both headers are present and match; secrets compared in constant time. */
  authenticate(clientId: string | string[] | undefined, clientSecret: string | string[] | undefined): Partner {
    if (typeof clientId !== 'string' || typeof clientSecret !== 'string' || clientId === '' || clientSecret === '') {
      throw new ApiError('partner_credentials_missing');
    }
    const entry = this.byId.get(clientId);
    if (!entry) {
      const sandboxPartner = this.created?.authenticate(clientId, clientSecret);
      if (sandboxPartner) return sandboxPartner;
    }
    // a secret verified once is compared as it is, in constant time, against that one: hashing it
    // again on every request cost ~4 µs (engine/sandboxes.ts does the same for sandboxes)
    const given = Buffer.from(clientSecret, 'utf8');
    if (entry?.verified && entry.verified.length === given.length && timingSafeEqual(entry.verified, given)) return entry.partner;
    const ok = timingSafeEqual(entry?.secretDigest ?? this.dummyDigest, digest(clientSecret));
    if (!entry || !ok) throw new ApiError('partner_credentials_invalid');
    entry.verified = given;
    return entry.partner;
  }
}

/**
 * The default partner plus the partners file.
 * - sandbox: the well-known `sandbox-partner` / `sandbox-secret` unless configured;
 * - production: no well-known credentials. Unless configured, they are generated at first start,
 *   persisted in the database (meta `production.partnerClientId` / `production.partnerClientSecret`)
 *   so they survive restarts on a file database, and printed once per start via `notes`.
 */
export function partnerCredentials(config: Config, meta: MetaStore, notes: string[]): PartnerCredential[] {
  let clientId = config.partnerClientId;
  let clientSecret = config.partnerClientSecret;
  if (config.environment === 'production') {
    const generatedId = clientId === undefined;
    const generatedSecret = clientSecret === undefined;
    clientId ??= meta.getOrCreate('production.partnerClientId', () => `live_${randomBytes(8).toString('hex')}`);
    clientSecret ??= meta.getOrCreate('production.partnerClientSecret', () => `live_secret_${randomBytes(24).toString('base64url')}`);
    if (generatedId || generatedSecret) {
      // a configured secret is never printed, only a generated one
      notes.push(
        `production credentials (generated, stored in the database): X-Partner-Client-Id: ${clientId}  X-Partner-Client-Secret: ${generatedSecret ? clientSecret : '(as configured, not printed)'}`,
      );
    }
  }
  const list: PartnerCredential[] = [
    {
      clientId: clientId ?? SANDBOX_PARTNER.clientId,
      clientSecret: clientSecret ?? SANDBOX_PARTNER.clientSecret,
      name: config.environment === 'production' ? 'Default production partner' : 'Default sandbox partner',
    },
  ];
  if (config.partnersFile) list.push(...readPartnersFile(config.partnersFile));
  return list;
}
