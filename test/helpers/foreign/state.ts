/**
 * The foreign provider double's world (test/helpers/foreign/provider.ts): a second, separate
 * implementation of the provider's document, written for the shadow's tests. It shares no code
 * with obsim's routes, stores or views, and where the document leaves a choice open it chooses
 * otherwise: merchant ids from 700001 and payment ids from 9100001, its own UUIDs and event ids,
 * hosted links on another host and path, the token in a query parameter.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';

export const DAY = 86_400_000;
export const HOSTED = 'https://hosted.double.test';

export type MerchantStatus =
  'pending_onboarding' | 'pending_completion' | 'pending_partner_ais' | 'awaiting_approval' | 'activated' | 'rejected' | 'inactive';

export interface Merchant {
  merchantId: number;
  clientId: string;
  partner: string;
  kind: 'standard' | 'fast_track' | 'test';
  companyName: string;
  contactEmail?: string;
  partnerRefId?: string;
  status: MerchantStatus;
  subTppId: string;
  subTppFailed: string | null;
  token: string | null;
  tokenExpiresAt: number;
  createdAt: number;
  updatedAt: number;
}

export interface Payment {
  paymentId: number;
  partner: string;
  merchant: Merchant;
  amount: number;
  referenceNumber: string;
  status: 'pending' | 'processing' | 'paid' | 'failed';
  bankPaymentStatus: string;
  failureReason: string | null;
  session: string;
  pageOpened: boolean;
  waitingForApp: string | null;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  transitions: { from: string | null; to: string; at: number; reason?: string; bank?: { bankId: string; rule: string } }[];
}

export interface Consent {
  requestId: string;
  partner: string;
  merchantId: number;
  userId: string;
  permissions: string[];
  expirationDateTime: string;
  transactionFromDateTime: string;
  status: 'pending' | 'authorized' | 'expired' | 'revoked' | 'failed';
  consentId?: string;
  errorMessage?: string;
  reference: string;
  createdAt: number;
  updatedAt: number;
}

export interface Hook {
  id: string;
  partner: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: number;
}

export interface Delivery {
  id: number;
  eventId: string;
  event: string;
  hook: Hook;
  body: string;
  signature: string;
  createdAt: number;
  redeliveryOf: number | null;
  state: 'pending' | 'delivered' | 'failed';
  statusCode: number | null;
}

export interface BankProfile {
  profile: string;
  downUntil?: number;
  decoupledNever?: boolean;
  businessDays?: boolean;
}

export const BANKS = [
  { bankId: 'nordlys-bank', name: 'Nordlys Bank', bic: 'NLYSDKKKXXX', country: 'DK', currency: 'DKK', timeZoneHours: 1 },
  { bankId: 'fjord-sparekasse', name: 'Fjord Sparekasse', bic: 'FJRDDKKKXXX', country: 'DK', currency: 'DKK', timeZoneHours: 1 },
  { bankId: 'baltic-credit', name: 'Baltic Credit AB', bic: 'BLTCSESSXXX', country: 'SE', currency: 'SEK', timeZoneHours: 1 },
  { bankId: 'rhein-direktbank', name: 'Rhein Direktbank', bic: 'RHDBDEFFXXX', country: 'DE', currency: 'EUR', timeZoneHours: 1 },
  { bankId: 'thames-mutual', name: 'Thames Mutual', bic: 'THMSGB2LXXX', country: 'GB', currency: 'GBP', timeZoneHours: 0 },
];

/** The partner credentials the double issues (its own, not obsim's). */
export interface Partner {
  clientId: string;
  clientSecret: string;
}

export const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');
export const hex = (n: number) => randomBytes(n).toString('hex');
export const uuid = () => randomUUID();

export class World {
  offsetMs = 0;
  readonly merchants = new Map<number, Merchant>();
  readonly payments = new Map<number, Payment>();
  readonly consents = new Map<string, Consent>();
  readonly hooks = new Map<string, Hook>();
  readonly deliveries: Delivery[] = [];
  readonly banks = new Map<string, BankProfile>();
  private timers: { at: number; fire: () => void }[] = [];
  private nextMerchant = 700001;
  private nextPayment = 9100001;
  private nextDelivery = 1;
  private nextStore = 501;
  readonly jwtSecret = hex(32);

  /** While a timer fires, the clock reads its instant (what it does is stamped then). */
  private firing: number | undefined;

  now(): number {
    return this.firing ?? Date.now() + this.offsetMs;
  }

  private fire(timer: { at: number; fire: () => void }): void {
    this.firing = timer.at;
    try {
      timer.fire();
    } finally {
      this.firing = undefined;
    }
  }
  iso(ms = this.now()): string {
    return new Date(ms).toISOString();
  }
  merchantId(): number {
    return this.nextMerchant++;
  }
  paymentId(): number {
    return this.nextPayment++;
  }
  deliveryId(): number {
    return this.nextDelivery++;
  }
  storeId(): number {
    return this.nextStore++;
  }

  /** Run `fire` when the clock reaches `at`. */
  at(at: number, fire: () => void): void {
    this.timers.push({ at, fire });
  }

  /** Every timer due by the clock now, in time order (a running clock, or an advance). */
  fireDue(): number {
    let fired = 0;
    for (;;) {
      const now = this.now();
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > now) return fired;
      this.timers.shift();
      this.fire(next);
      fired++;
    }
  }

  /** Move the clock on to `target`, each timer fired at its own instant. */
  advanceTo(target: number): number {
    let fired = 0;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.offsetMs += Math.max(0, next.at - this.now());
      this.timers.shift();
      this.fire(next);
      fired++;
    }
    this.offsetMs += Math.max(0, target - this.now());
    return fired;
  }
}
