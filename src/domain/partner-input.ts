/**
 * Partner API input rules that JSON Schema cannot state (or states badly): money with at most
 * two decimals, webhook URLs, IBAN checksums, cross-field rules. Each throws the one 400
 * (validation_failed) naming the field, before anything is written.
 */
import type { Environment } from './settings.js';
import { invalidInput as invalid, pointer } from './errors.js';
import { ibanProblem } from './iban.js';

/** Largest payment amount obsim accepts (DKK). */
export const MAX_PAYMENT_AMOUNT = 1_000_000;

/** Amount in DKK (number, > 0, ≤ MAX_PAYMENT_AMOUNT, at most 2 decimals) -> integer øre. */
export function toMinorUnits(amount: number): number {
  const minor = Math.round(amount * 100);
  if (!Number.isFinite(amount) || Math.abs(minor - amount * 100) > 1e-6 * Math.max(1, Math.abs(amount))) {
    throw invalid('/amount', 'amount must have at most 2 decimal places');
  }
  if (minor <= 0) throw invalid('/amount', 'amount must be greater than 0');
  return minor;
}

export function fromMinorUnits(minor: number): number {
  return minor / 100;
}

/** Webhook target: absolute http(s) URL with a host; https only in production. */
export function checkWebhookUrl(raw: string, environment: Environment): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('/url', 'url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid('/url', `url must use http or https (got ${url.protocol.replace(':', '')})`);
  }
  if (url.hostname === '') throw invalid('/url', 'url must name a host');
  if (url.username !== '' || url.password !== '') throw invalid('/url', 'url must not carry credentials');
  if (environment === 'production' && url.protocol !== 'https:') throw invalid('/url', 'url must use https in production');
  return raw;
}

/** IBAN shape, country length and mod-97 checksum. */
export function checkIban(iban: string): void {
  const problem = ibanProblem(iban);
  if (problem) throw invalid('/iban', `iban ${problem}`);
}

/** A sole trader needs the soleTrader person. */
export function checkSoleTrader(body: { isSoleTrader?: boolean; soleTrader?: unknown }): void {
  if (body.isSoleTrader === true && body.soleTrader === undefined) {
    throw invalid('/soleTrader', 'soleTrader is required when isSoleTrader is true');
  }
}

interface PersonLike {
  dateOfBirth?: string;
}

/** Every dateOfBirth of the fast-track persons lies before today (virtual clock). */
export function checkDatesOfBirth(
  body: { soleTrader?: PersonLike; ubos?: readonly PersonLike[]; directors?: readonly PersonLike[]; signatories?: readonly PersonLike[] },
  todayIso: string,
): void {
  const today = todayIso.slice(0, 10);
  const people: [(string | number)[], string, PersonLike | undefined][] = [[['soleTrader'], 'soleTrader', body.soleTrader]];
  for (const list of ['ubos', 'directors', 'signatories'] as const) {
    (body[list] ?? []).forEach((p, i) => people.push([[list, i], `${list}[${i}]`, p]));
  }
  for (const [at, name, person] of people) {
    if (person?.dateOfBirth !== undefined && person.dateOfBirth >= today) {
      throw invalid(pointer(...at, 'dateOfBirth'), `${name}.dateOfBirth must be a date in the past`);
    }
  }
}
