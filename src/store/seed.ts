/**
 * Start-up seed (sandbox only): the default partner gets one activated merchant so that payments
 * and AIS calls work right after `npm start`. Idempotent: the merchant's id is remembered in the
 * meta table per partner; it is created again only when missing (fresh database, or deleted by
 * a sandbox reset). On a fresh database it is merchant 100001.
 */
import type { MetaStore } from './db.js';
import type { Store } from './index.js';
import { newSubTppId, type MerchantRow } from './merchants.js';

export const DEFAULT_MERCHANT_NAME = 'obsim Default Merchant ApS';
export const DEFAULT_MERCHANT_REF = 'obsim-default-merchant';

export function seedDefaultMerchant(store: Store, meta: MetaStore, partnerId: string, nowIso: string): MerchantRow {
  const key = `default_merchant:${partnerId}`;
  return store.tx(() => {
    const known = meta.get(key);
    const existing = known === undefined ? undefined : store.merchants.get(Number(known), partnerId);
    if (existing) return existing;
    const row = store.merchants.insert(
      {
        partner_id: partnerId,
        kind: 'test',
        status: 'activated',
        company_name: DEFAULT_MERCHANT_NAME,
        contact_email: 'merchant@obsim.test',
        contact_phone: null,
        partner_ref_id: DEFAULT_MERCHANT_REF,
        details: JSON.stringify({ seeded: true }),
        sub_tpp_id: newSubTppId(),
        sub_tpp_status: 'created',
        sub_tpp_message: null,
        onboarding_token: null,
        onboarding_expires_at: null,
      },
      nowIso,
    );
    meta.set(key, String(row.id));
    return row;
  });
}

/** Called once by buildApp: seed the default partner's merchant (sandbox) and note its id. */
export function seedOnStart(app: {
  config: { environment: string };
  store: Store;
  meta: MetaStore;
  partners: { list(): { clientId: string }[] };
  clock: { iso(): string };
  startupNotes: string[];
}): void {
  if (app.config.environment !== 'sandbox') return;
  const partner = app.partners.list()[0];
  if (!partner) return;
  const m = seedDefaultMerchant(app.store, app.meta, partner.clientId, app.clock.iso());
  app.startupNotes.push(`default merchant: ${m.id} (clientId ${m.client_id}), activated, owned by ${partner.clientId}`);
}
