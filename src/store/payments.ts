/**
 * Payments table. Amounts are integer minor units (øre); every partner-facing read filters on
 * partner_id. Numeric ids start at 5000001 (001_core).
 */
import { randomBytes } from 'node:crypto';
import type { FailureReason, PaymentStatus } from '../domain/payment.js';
import type { Db } from './db.js';

export interface PaymentRow {
  id: number;
  partner_id: string;
  merchant_id: number;
  merchant_client_id: string;
  amount_minor: number;
  currency: string;
  reference_number: string;
  status: PaymentStatus;
  bank_payment_status: string | null;
  failure_reason: FailureReason | null;
  bank_id: string | null;
  payment_token: string;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export type NewPayment = Omit<PaymentRow, 'id' | 'payment_token' | 'created_at' | 'updated_at'>;

export function newPaymentToken(): string {
  return `pay_${randomBytes(18).toString('base64url')}`;
}

export function paymentStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO payments (partner_id, merchant_id, merchant_client_id, amount_minor, currency, reference_number, status,
       bank_payment_status, failure_reason, bank_id, payment_token, expires_at, created_at, updated_at)
     VALUES (@partner_id, @merchant_id, @merchant_client_id, @amount_minor, @currency, @reference_number, @status,
       @bank_payment_status, @failure_reason, @bank_id, @payment_token, @expires_at, @created_at, @updated_at)
     RETURNING *`,
  );
  const byIdForPartner = db.prepare('SELECT * FROM payments WHERE id = ? AND partner_id = ?');
  const byId = db.prepare('SELECT * FROM payments WHERE id = ?');
  const byToken = db.prepare('SELECT * FROM payments WHERE payment_token = ?');

  return {
    insert(p: NewPayment, nowIso: string): PaymentRow {
      return insert.get({ ...p, payment_token: newPaymentToken(), created_at: nowIso, updated_at: nowIso }) as PaymentRow;
    },
    get: (id: number, partnerId: string) => byIdForPartner.get(id, partnerId) as PaymentRow | undefined,
    /** Unscoped read, for the engine and the hosted payment page. */
    getAny: (id: number) => byId.get(id) as PaymentRow | undefined,
    getByToken: (token: string) => byToken.get(token) as PaymentRow | undefined,
  };
}
export type PaymentStore = ReturnType<typeof paymentStore>;
