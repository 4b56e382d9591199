/** Stores table: points of sale of an activated merchant (obsim's design; not shown in the contract). */
import type { Db } from './db.js';

export interface StoreRow {
  id: number;
  partner_id: string;
  merchant_id: number;
  name: string;
  /** JSON: { address?, mccCode?, partnerRefId? } */
  details: string;
  created_at: string;
}

export interface StoreDetails {
  address?: { street?: string; city?: string; postalCode?: string; countryCode?: string };
  mccCode?: string;
  partnerRefId?: string;
}

export function storeStore(db: Db) {
  const insert = db.prepare('INSERT INTO stores (partner_id, merchant_id, name, details, created_at) VALUES (?, ?, ?, ?, ?) RETURNING *');
  const forMerchant = db.prepare(
    'SELECT * FROM stores WHERE merchant_id = CAST(? AS INTEGER) AND partner_id = CAST(? AS TEXT) ORDER BY id',
  );

  return {
    insert(partnerId: string, merchantId: number, name: string, details: StoreDetails, nowIso: string): StoreRow {
      return insert.get(partnerId, merchantId, name, JSON.stringify(details), nowIso) as StoreRow;
    },
    listForMerchant: (merchantId: number, partnerId: string) => forMerchant.all(merchantId, partnerId) as StoreRow[],
  };
}
