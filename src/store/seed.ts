/**
 * Start-up seed (sandbox only): the default partner gets one activated merchant so that payments
 * and AIS calls work right after `npm start`. Idempotent: the merchant's id is remembered in the
 * meta table per partner; it is created again only when missing (fresh database, or deleted by
 * a sandbox reset). On a fresh database it is merchant 100001.
 */
import { newMerchant } from '../domain/merchant.js';
import type { Store } from './index.js';
import type { MerchantRow } from '../domain/merchant.js';

export const DEFAULT_MERCHANT_NAME = 'obsim Default Merchant ApS';
export const DEFAULT_MERCHANT_REF = 'obsim-default-merchant';

export function seedDefaultMerchant(store: Store, partnerId: string, nowIso: string): MerchantRow {
  const key = `default_merchant:${partnerId}`;
  return store.tx(() => {
    const known = store.meta.get(key);
    const existing = known === undefined ? undefined : store.merchants.get(Number(known), partnerId);
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
    return row;
  });
}
