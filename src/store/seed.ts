/**
 * Start-up seed (sandbox only): the default partner gets one activated merchant so that payments
 * and AIS calls work right after `npm start`. Idempotent: the merchant's id is remembered in the
 * meta table per partner; it is created again only when missing (fresh database, or deleted by
 * a sandbox reset). On a fresh database it is merchant 100001.
 */
import { newMerchant } from '../domain/merchant.js';
import type { Cause } from '../domain/transitions.js';
import type { Store } from './index.js';
import type { MerchantRow } from '../domain/merchant.js';

export const DEFAULT_MERCHANT_NAME = 'obsim Default Merchant ApS';
export const DEFAULT_MERCHANT_REF = 'obsim-default-merchant';

/**
 * The partner's default merchant, created (with its creation transition, `cause` naming the
 * request or start-up that made it) when missing.
 */
export function seedDefaultMerchant(
  store: Store,
  partnerId: string,
  nowIso: string,
  cause: Cause = { kind: 'seed', name: 'start' },
): MerchantRow {
  const key = `default_merchant:${partnerId}`;
  return store.tx(() => {
    const existing = defaultMerchantOf(store, partnerId);
    if (existing) return existing;
    const row = store.merchants.insert(
      newMerchant(partnerId, {
        kind: 'seed',
        companyName: DEFAULT_MERCHANT_NAME,
        contactEmail: 'merchant@obsim.test',
        partnerRefId: DEFAULT_MERCHANT_REF,
      }),
      nowIso,
    );
    store.meta.set(key, String(row.id));
    store.transitions.record({ partnerId, resource: 'merchant', resourceId: row.id, from: null, to: row.status, at: nowIso, cause });
    return row;
  });
}

/** The partner's default merchant (undefined: it has none, or it was deleted by a reset not yet reseeded). */
export function defaultMerchantOf(store: Store, partnerId: string): MerchantRow | undefined {
  const known = store.meta.get(`default_merchant:${partnerId}`);
  return known === undefined ? undefined : store.merchants.get(Number(known), partnerId);
}
