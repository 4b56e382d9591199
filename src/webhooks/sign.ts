/**
 * Webhook signature: lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the
 * webhook's secret (contract "Delivery rules" 1). A receiver recomputes it over the raw body it
 * received, before parsing, and compares in constant time (README shows the snippet).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function sign(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** Constant-time check of a received signature (used by tests and documented for receivers). */
export function verify(secret: string, body: string | Buffer, signature: string): boolean {
  const expected = Buffer.from(sign(secret, body), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
