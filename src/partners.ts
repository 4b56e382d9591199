/**
 * Partner credentials: the default partner plus any from --partners-file. Kept in memory (they
 * come from configuration); every partner-owned row in the database carries the partner's
 * clientId as partner_id.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PartnerCredential } from './config.js';
import { ApiError } from './domain/errors.js';

export interface Partner {
  clientId: string;
  name: string;
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

export class PartnerRegistry {
  private readonly byId = new Map<string, { partner: Partner; secretDigest: Buffer }>();
  /** Compared against when the id is unknown, so both paths cost the same. */
  private readonly dummyDigest = digest(randomBytes(16).toString('hex'));

  constructor(credentials: readonly PartnerCredential[]) {
    for (const c of credentials) {
      if (this.byId.has(c.clientId)) throw new Error(`partner ${c.clientId} is configured twice`);
      this.byId.set(c.clientId, {
        partner: { clientId: c.clientId, name: c.name ?? c.clientId },
        secretDigest: digest(c.clientSecret),
      });
    }
  }

  list(): Partner[] {
    return [...this.byId.values()].map((e) => e.partner);
  }

  /** 401 unless both headers are present and match; secrets compared in constant time. */
  authenticate(clientId: string | string[] | undefined, clientSecret: string | string[] | undefined): Partner {
    if (typeof clientId !== 'string' || typeof clientSecret !== 'string' || clientId === '' || clientSecret === '') {
      throw new ApiError('partner_credentials_missing');
    }
    const entry = this.byId.get(clientId);
    const ok = timingSafeEqual(entry?.secretDigest ?? this.dummyDigest, digest(clientSecret));
    if (!entry || !ok) throw new ApiError('partner_credentials_invalid');
    return entry.partner;
  }
}
