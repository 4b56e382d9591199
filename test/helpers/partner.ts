/**
 * Shared fixtures of the partner tests (not a test file: tap runs *.test.ts only).
 * `buildTwo(t)` builds an app that also knows OTHER_PARTNER (via a temporary partners file).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { AppOptions } from '../../src/app.js';
import { decodePage, type StoredEntry } from '../../src/journal/pages.js';
import { build, json, OTHER_PARTNER, PARTNER } from './app.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export async function buildTwo(t: Teardown, options: AppOptions = {}): Promise<FastifyInstance> {
  const dir = mkdtempSync(join(tmpdir(), 'obsim-partners-'));
  const file = join(dir, 'partners.json');
  writeFileSync(
    file,
    JSON.stringify([
      { clientId: OTHER_PARTNER['x-partner-client-id'], clientSecret: OTHER_PARTNER['x-partner-client-secret'], name: 'Other' },
    ]),
  );
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return build(t, { ...options, config: { partnersFile: file, ...options.config } });
}

export const VALID_IBAN = 'DK5000400440116243';

export function fastTrackBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    companyName: 'Fast Co ApS',
    contactEmail: 'ops@fast.test',
    registrationNumber: '12345678',
    website: 'https://fast.test',
    iban: VALID_IBAN,
    ...overrides,
  };
}

type Headers = Record<string, string>;

/** Small inject wrapper: call(app, 'POST', url, body?, headers?) -> { status, body }. */
export async function call(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  payload?: unknown,
  headers: Headers = PARTNER,
) {
  const res = await app.inject({
    method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
  });
  return { status: res.statusCode, body: res.body === '' ? undefined : json(res), headers: res.headers };
}

export async function testMerchant(app: FastifyInstance, headers: Headers = PARTNER, companyName = 'Test Shop ApS') {
  const r = await call(app, 'POST', '/v1/partner/merchants/test', { companyName }, headers);
  if (r.status !== 200) throw new Error(`test merchant: ${JSON.stringify(r.body)}`);
  return r.body as { merchantId: number; clientId: string; companyName: string };
}

export async function standardMerchant(app: FastifyInstance, headers: Headers = PARTNER) {
  const r = await call(app, 'POST', '/v1/partner/merchants', { companyName: 'Std ApS', contactEmail: 'std@shop.test' }, headers);
  if (r.status !== 200) throw new Error(`merchant: ${JSON.stringify(r.body)}`);
  return r.body as { merchantId: number; clientId: string; onboardingToken: string; onboardingUrl: string };
}

/** Count rows of a table (optionally filtered). */
export function count(app: FastifyInstance, table: string, where = '1 = 1', ...params: unknown[]): number {
  return app.db
    .prepare(`SELECT count(*) FROM ${table} WHERE ${where}`)
    .pluck()
    .get(...params) as number;
}

/** Normalise volatile values (ids, tokens, uuids, timestamps) for snapshots. */
export function normalise(body: unknown): unknown {
  return JSON.parse(
    JSON.stringify(body)
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
      // base64url tokens may end in '-' or '_' (no \b word boundary there): explicit lookaround
      .replace(/\bpay_[0-9]+_[A-Za-z0-9_-]{22}(?![A-Za-z0-9_-])/g, 'pay_<token>')
      .replace(/\b(onb|pay)_[A-Za-z0-9_-]{24}(?![A-Za-z0-9_-])/g, '$1_<token>')
      .replace(/\b(wh|whsec|evt|stpp|req)_[0-9a-f]+\b/g, '$1_<hex>'),
  );
}

/**
 * The journal entries in the database (every page of every partner, or of one), oldest first,
 * after the pending ones are written: what a restart would find.
 */
export function storedJournal(app: FastifyInstance, partnerId?: string): (StoredEntry & { partnerId: string })[] {
  app.journal?.flush();
  const rows = app.db
    .prepare(`SELECT partner_id, data, answers FROM journal_pages WHERE ? IS NULL OR partner_id = ? ORDER BY first_id`)
    .all(partnerId ?? null, partnerId ?? null) as { partner_id: string; data: string; answers: string }[];
  return rows.flatMap((r) => decodePage(r.data, r.answers).map((e) => ({ ...e, partnerId: r.partner_id })));
}

/** The partner headers of a created sandbox (POST /_sandbox/sandboxes answer). */
export const sandboxHeaders = (created: { credentials: { clientId: string; clientSecret: string } }): Headers => ({
  'x-partner-client-id': created.credentials.clientId,
  'x-partner-client-secret': created.credentials.clientSecret,
});
