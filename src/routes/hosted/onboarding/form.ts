/**
 * The onboarding forms as data: what the standard form and the fast-track completion form hold,
 * how a submitted form is parsed and validated (field name -> message), and what a valid one
 * stores in merchants.details. No HTML here (pages.ts), no routes (routes.ts).
 */
import { SANDBOX_BANKS, bankById } from '../../../../fixtures/banks.js';
import { normalizeRegistrationNumber, type RegistryCompany } from '../../../../fixtures/companies.js';
import { ibanProblem, normalizeIban } from '../../../domain/iban.js';
import { parseDetails } from '../../../domain/merchant.js';
import type { MerchantRow } from '../../../domain/merchant.js';
import type { FieldErrors } from '../forms.js';

export const PERSON_GROUPS = [
  {
    key: 'ubos',
    legend: 'Beneficial owners',
    singular: 'beneficial owner',
    hint: 'Everyone who owns or controls more than 25 % of the company.',
  },
  { key: 'directors', legend: 'Directors', singular: 'director', hint: 'Members of the board or the management.' },
  { key: 'signatories', legend: 'Signatories', singular: 'signatory', hint: 'People who may sign on behalf of the company.' },
] as const;
export type PersonGroup = (typeof PERSON_GROUPS)[number]['key'];
export const MAX_PERSONS = 10;

export interface Person {
  fullName: string;
  dateOfBirth: string;
}

/** Everything the standard form holds, as entered (strings). */
export interface StandardForm {
  registrationNumber: string;
  companyName: string;
  website: string;
  street: string;
  postalCode: string;
  city: string;
  countryCode: string;
  ubos: Person[];
  directors: Person[];
  signatories: Person[];
  bankId: string;
  iban: string;
  accountHolderName: string;
  bic: string;
  billingAgreement: boolean;
}

export interface CompletionForm {
  bankId: string;
  iban: string;
  accountHolderName: string;
  bic: string;
  billingAgreement: boolean;
}

export const BILLING_AGREEMENT_VERSION = 'obsim-sandbox-2026-01';

export const BANK_OPTIONS = SANDBOX_BANKS.map((b) => ({ value: b.bankId, label: `${b.name} (${b.country}, BIC ${b.bic})` }));

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

export const personField = (group: string, i: number, prop: keyof Person) => `${group}[${i}].${prop}`;

function persons(values: Record<string, string>, group: string): Person[] {
  const rows = new Map<number, Person>();
  const re = new RegExp(`^${group}\\[(\\d{1,2})\\]\\.(fullName|dateOfBirth)$`);
  for (const [k, v] of Object.entries(values)) {
    const m = k.match(re);
    if (!m) continue;
    const i = Number(m[1]);
    const row = rows.get(i) ?? { fullName: '', dateOfBirth: '' };
    row[m[2] as keyof Person] = v.trim();
    rows.set(i, row);
  }
  return [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, p]) => p)
    .slice(0, MAX_PERSONS);
}

export function parseStandardForm(values: Record<string, string>): StandardForm {
  const v = (k: string) => (values[k] ?? '').trim();
  return {
    registrationNumber: v('registrationNumber'),
    companyName: v('companyName'),
    website: v('website'),
    street: v('street'),
    postalCode: v('postalCode'),
    city: v('city'),
    countryCode: v('countryCode').toUpperCase() || 'DK',
    ubos: persons(values, 'ubos'),
    directors: persons(values, 'directors'),
    signatories: persons(values, 'signatories'),
    bankId: v('bankId'),
    iban: v('iban'),
    accountHolderName: v('accountHolderName'),
    bic: v('bic').toUpperCase(),
    billingAgreement: values.billingAgreement === 'yes',
  };
}

function dateProblem(value: string, todayIso: string): string | null {
  const m = value.match(DATE);
  if (!m) return 'Enter the date of birth as YYYY-MM-DD, for example 1984-03-12.';
  const d = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) return 'Enter a real date (YYYY-MM-DD).';
  if (value >= todayIso.slice(0, 10)) return 'The date of birth must be in the past.';
  if (Number(m[1]) < 1900) return 'The date of birth must be after 1900-01-01.';
  return null;
}

function bankProblems(f: { bankId: string; iban: string; accountHolderName: string; bic: string }, errors: FieldErrors): void {
  if (!f.bankId) errors.bankId = 'Choose the bank that holds the account.';
  else if (!bankById(f.bankId)) errors.bankId = 'Choose one of the sandbox banks in the list.';
  if (!f.iban) errors.iban = 'Enter the IBAN of the account payouts go to.';
  else {
    const problem = ibanProblem(f.iban);
    if (problem) errors.iban = `The IBAN ${problem}.`;
  }
  if (!f.accountHolderName) errors.accountHolderName = 'Enter the name the account is held in.';
  else if (f.accountHolderName.length > 140) errors.accountHolderName = 'Use at most 140 characters.';
  if (f.bic && !BIC.test(f.bic)) errors.bic = 'A BIC has 8 or 11 letters and digits, for example NLYSDKKKXXX.';
}

/** Field name -> message for every problem; empty when the form is valid. */
export function validateStandardForm(f: StandardForm, nowIso: string): FieldErrors {
  const errors: FieldErrors = {};
  const reg = normalizeRegistrationNumber(f.registrationNumber);
  if (!reg) errors.registrationNumber = 'Enter the company registration number (CVR).';
  else if (!/^[0-9]{8}$/.test(reg)) errors.registrationNumber = 'A CVR number has exactly 8 digits.';
  if (!f.companyName) errors.companyName = 'Enter the legal company name.';
  else if (f.companyName.length > 200) errors.companyName = 'Use at most 200 characters.';
  if (f.website && !/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(f.website))
    errors.website = 'Enter a web address starting with https://, or leave it empty.';
  if (f.website.length > 200) errors.website = 'Use at most 200 characters.';
  if (!f.street) errors.street = 'Enter the street and number.';
  else if (f.street.length > 200) errors.street = 'Use at most 200 characters.';
  if (!/^[A-Z]{2}$/.test(f.countryCode)) errors.countryCode = 'Enter a two-letter country code, for example DK.';
  if (!f.postalCode) errors.postalCode = 'Enter the postal code.';
  else if (f.countryCode === 'DK' && !/^[0-9]{4}$/.test(f.postalCode)) errors.postalCode = 'A Danish postal code has 4 digits.';
  else if (f.postalCode.length > 10) errors.postalCode = 'Use at most 10 characters.';
  if (!f.city) errors.city = 'Enter the city.';
  else if (f.city.length > 100) errors.city = 'Use at most 100 characters.';
  for (const g of PERSON_GROUPS) {
    const rows = f[g.key];
    let named = 0;
    rows.forEach((p, i) => {
      if (p.fullName) named++;
      if (!p.fullName && p.dateOfBirth) errors[personField(g.key, i, 'fullName')] = `Enter the full name of this ${g.singular}.`;
      else if (p.fullName.length > 140) errors[personField(g.key, i, 'fullName')] = 'Use at most 140 characters.';
      if (p.dateOfBirth) {
        const problem = dateProblem(p.dateOfBirth, nowIso);
        if (problem) errors[personField(g.key, i, 'dateOfBirth')] = problem;
      }
    });
    if (named === 0) errors[personField(g.key, 0, 'fullName')] ??= `Enter at least one ${g.singular}: a full name is required.`;
  }
  bankProblems(f, errors);
  if (!f.billingAgreement) errors.billingAgreement = 'Accept the billing agreement to finish onboarding.';
  return errors;
}

export function validateCompletionForm(f: CompletionForm): FieldErrors {
  const errors: FieldErrors = {};
  bankProblems(f, errors);
  if (!f.billingAgreement) errors.billingAgreement = 'Accept the billing agreement to finish onboarding.';
  return errors;
}

export function bankLinking(f: { bankId: string; iban: string; accountHolderName: string; bic: string }, nowIso: string) {
  const bank = bankById(f.bankId)!;
  return {
    bankId: bank.bankId,
    bankName: bank.name,
    iban: normalizeIban(f.iban),
    accountHolderName: f.accountHolderName,
    ...(f.bic ? { bic: f.bic } : {}),
    linkedAt: nowIso,
  };
}

export const billing = (nowIso: string) => ({ accepted: true, version: BILLING_AGREEMENT_VERSION, acceptedAt: nowIso });

const cleanPersons = (rows: Person[]) =>
  rows
    .filter((p) => p.fullName)
    .map((p) => (p.dateOfBirth ? { fullName: p.fullName, dateOfBirth: p.dateOfBirth } : { fullName: p.fullName }));

/** What a valid standard form stores in merchants.details.onboarding. */
export function onboardingData(f: StandardForm, nowIso: string): Record<string, unknown> {
  return {
    registrationNumber: normalizeRegistrationNumber(f.registrationNumber),
    companyName: f.companyName,
    ...(f.website ? { website: f.website } : {}),
    address: { street: f.street, postalCode: f.postalCode, city: f.city, countryCode: f.countryCode },
    ubos: cleanPersons(f.ubos),
    directors: cleanPersons(f.directors),
    signatories: cleanPersons(f.signatories),
    bankLinking: bankLinking(f, nowIso),
    billingAgreement: billing(nowIso),
    submittedAt: nowIso,
  };
}

export function fromRegistry(c: RegistryCompany, current: StandardForm): StandardForm {
  const toRows = (list: readonly { fullName: string; dateOfBirth?: string }[]) =>
    list.map((p) => ({ fullName: p.fullName, dateOfBirth: p.dateOfBirth ?? '' }));
  return {
    ...current,
    registrationNumber: c.registrationNumber,
    companyName: c.companyName,
    website: c.website ?? '',
    street: c.address.street,
    postalCode: c.address.postalCode,
    city: c.address.city,
    countryCode: c.address.countryCode,
    ubos: toRows(c.ubos),
    directors: toRows(c.directors),
    signatories: toRows(c.signatories),
    accountHolderName: current.accountHolderName || c.companyName,
  };
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** A fresh form, prefilled from what obsim already knows about the merchant. */
export function initialForm(m: MerchantRow): StandardForm {
  const details = parseDetails(m.details);
  const ft = (details.fastTrack ?? {}) as Record<string, unknown>;
  const addr = (ft.address ?? {}) as Record<string, unknown>;
  const people = (v: unknown): Person[] =>
    Array.isArray(v)
      ? v.map((p) => ({
          fullName: str((p as Record<string, unknown>)?.fullName),
          dateOfBirth: str((p as Record<string, unknown>)?.dateOfBirth),
        }))
      : [];
  return {
    registrationNumber: str(ft.registrationNumber),
    companyName: m.company_name,
    website: str(ft.website),
    street: str(addr.street),
    postalCode: str(addr.postalCode),
    city: str(addr.city),
    countryCode: str(addr.countryCode) || 'DK',
    ubos: people(ft.ubos),
    directors: people(ft.directors),
    signatories: people(ft.signatories),
    bankId: '',
    iban: str(ft.iban),
    accountHolderName: '',
    bic: str(ft.bic),
    billingAgreement: false,
  };
}
