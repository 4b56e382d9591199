/**
 * Webhook signature: lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the
 * webhook's secret (contract "Delivery rules" 1). A receiver recomputes it over the raw body it
 * received, before parsing, and compares in constant time (docs/lifecycle-and-webhooks.md shows the snippet).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function sign(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Constant-time check of a received X-Webhook-Signature against our own computation: false for
 * a missing or malformed one (64 hex digits, any case).
 */
export function verify(secret: string, body: string | Buffer, signature: string | undefined): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  return timingSafeEqual(Buffer.from(sign(secret, body), 'hex'), Buffer.from(signature, 'hex'));
}
