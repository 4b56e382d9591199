/**
 * The actors, operations and state digests of the isolation property (test/reliability/isolation.test.ts).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { decodePage } from '../../src/journal/pages.js';
import { OTHER_PARTNER, PARTNER } from './app.js';

export type Env = 'sandbox' | 'production';
export interface Actor {
  name: string;
  env: Env;
  partner: string;
  headers: Record<string, string>;
}
export interface Owned {
  env: Env;
  partner: string;
  id: string;
}

export const PROD = { 'x-partner-client-id': 'prod-partner', 'x-partner-client-secret': 'prod-secret-0123456789' };
/** C: a sandbox created in the same app as A's and B's (its credentials are filled in when it is made). */
export const C: Actor = { name: 'C', env: 'sandbox', partner: '', headers: {} };
export const ACTORS: Actor[] = [
  { name: 'A', env: 'sandbox', partner: 'sandbox-partner', headers: PARTNER },
  { name: 'B', env: 'sandbox', partner: 'other-partner', headers: OTHER_PARTNER },
  C,
  { name: 'P', env: 'production', partner: 'prod-partner', headers: PROD },
];
/** The banks a payer of any sandbox pays at; C's first three have profiles. */
export const PAYER_BANKS = ['nordlys-bank', 'fjord-sparekasse', 'thames-mutual', 'rhein-direktbank'];

export const OPS = [
  'testMerchant',
  'standardMerchant',
  'payment',
  'payAtBank',
  'paymentStatus',
  'onboardingStatus',
  'resend',
  'store',
  'webhook',
  'testWebhook',
  'list',
  'completePayment',
  'deactivate',
  'deliveries',
  'redeliver',
  'token',
  'ais',
  'reset',
  'otherEnvironment',
] as const;

/** Journal entries given a fault, in every page of the app's journal. */
export function storedFaults(app: FastifyInstance): number {
  app.journal?.flush();
  const pages = app.db.prepare('SELECT data FROM journal_pages').pluck().all() as string[];
  return pages.reduce((n, data) => n + decodePage(data).filter((e) => e.fault !== null).length, 0);
}

export function tableDigest(app: FastifyInstance, partner: string): string {
  const h = createHash('sha256');
  const tables = app.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
  for (const table of tables) {
    const cols = (app.db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
    // the journal records requests by whose credentials or token they carry: an AIS call with a
    // token issued for A's merchant is A's to see, whoever sent it (test/routes/sandbox/journal.test.ts)
    if (!cols.includes('partner_id') || table === 'journal_pages') continue;
    const rows = app.db.prepare(`SELECT * FROM "${table}" WHERE partner_id = ? ORDER BY rowid`).raw().all(partner);
    h.update(`${table}:${JSON.stringify(rows)}\n`);
  }
  return h.digest('hex');
}
