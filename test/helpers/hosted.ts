/**
 * Helpers of the hosted-page tests (not a test file: tap runs *.test.ts only).
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { json, PARTNER } from './app.js';

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
export const VALID_IBAN = 'DK5000400440116243';

/** POST a urlencoded form (values may repeat keys via arrays). */
export function postForm(app: FastifyInstance, url: string, fields: Record<string, string | string[]>): Promise<LightMyRequestResponse> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
  return app.inject({ method: 'POST', url, headers: FORM, payload: body.toString() });
}

export async function partnerCall(app: FastifyInstance, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await app.inject({ method, url, headers: PARTNER, ...(payload === undefined ? {} : { payload: payload as object }) });
  if (res.statusCode >= 400) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return json(res);
}

export async function testMerchant(app: FastifyInstance, companyName = 'Hosted Shop ApS') {
  return (await partnerCall(app, 'POST', '/v1/partner/merchants/test', { companyName })) as { merchantId: number; clientId: string };
}

/** A payment of `amount` DKK; returns its id, token and path (/pay/<token>). */
export async function newPayment(app: FastifyInstance, amount = 125.5, companyName?: string) {
  const m = await testMerchant(app, companyName);
  const p = (await partnerCall(app, 'POST', '/v1/partner/payments', {
    merchantClientId: m.clientId,
    amount,
    referenceNumber: 'INV-1001',
  })) as {
    paymentId: number;
    paymentUrl: string;
  };
  const path = new URL(p.paymentUrl).pathname;
  return { id: p.paymentId, path, token: path.split('/').pop()!, merchant: m };
}

export async function standardMerchant(app: FastifyInstance, companyName = 'Standard Shop ApS') {
  const m = (await partnerCall(app, 'POST', '/v1/partner/merchants', { companyName, contactEmail: 'ops@standard.test' })) as {
    merchantId: number;
    onboardingUrl: string;
    onboardingToken: string;
  };
  return { ...m, path: new URL(m.onboardingUrl).pathname };
}

export async function fastTrackMerchant(app: FastifyInstance, overrides: Record<string, unknown> = {}) {
  const m = (await partnerCall(app, 'POST', '/v1/partner/merchants/fast-track', {
    companyName: 'Fast Track Bikes ApS',
    contactEmail: 'ops@fast.test',
    registrationNumber: '12345678',
    website: 'https://fast.test',
    iban: VALID_IBAN,
    ...overrides,
  })) as { merchantId: number; onboardingUrl: string; status: string };
  return { ...m, path: new URL(m.onboardingUrl).pathname };
}

/** A complete, valid standard onboarding form. */
export function validStandardForm(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    action: 'submit',
    registrationNumber: '20000007',
    companyName: 'Fjordcykler A/S',
    website: 'https://fjordcykler.example',
    street: 'Havnegade 4',
    postalCode: '8000',
    city: 'Aarhus C',
    countryCode: 'DK',
    'ubos[0].fullName': 'Mads Kjær Nielsen',
    'ubos[0].dateOfBirth': '1976-11-02',
    'directors[0].fullName': 'Mads Kjær Nielsen',
    'directors[0].dateOfBirth': '',
    'signatories[0].fullName': 'Ida Bruun Sørensen',
    'signatories[0].dateOfBirth': '1981-06-27',
    bankId: 'nordlys-bank',
    iban: 'DK50 0040 0440 1162 43',
    accountHolderName: 'Fjordcykler A/S',
    bic: '',
    billingAgreement: 'yes',
    ...overrides,
  };
}

/** Outbox events of one name, parsed. */
export function events(app: FastifyInstance, name: string): { event: string; timestamp: string; data: Record<string, unknown> }[] {
  return (app.db.prepare('SELECT body FROM events WHERE name = ? ORDER BY created_at, rowid').pluck().all(name) as string[]).map((b) =>
    JSON.parse(b),
  );
}

/** The text of the element with `id` (first match), tags stripped. */
export function textOf(body: string, id: string): string | undefined {
  const m = new RegExp(`<([a-z]+)[^>]*\\bid="${id.replace(/[[\].]/g, (c) => `\\${c}`)}"[^>]*>([\\s\\S]*?)</\\1>`, 'i').exec(body);
  return m?.[2].replace(/<[^>]+>/g, '');
}

/** The opening tag of the element with `id`. */
export function tagOf(body: string, id: string): string | undefined {
  return new RegExp(`<[a-z]+[^>]*\\bid="${id.replace(/[[\].]/g, (c) => `\\${c}`)}"[^>]*>`, 'i').exec(body)?.[0];
}
