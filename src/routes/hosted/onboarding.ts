/**
 * Hosted onboarding pages: GET/POST /onboarding/:token (token = merchants.onboarding_token,
 * handed out as `onboardingUrl`).
 *
 *   unknown token (never issued, or replaced by resend-onboarding)  -> "link expired", HTTP 410
 *   open state and onboarding_expires_at <= now                     -> "link expired", HTTP 410
 *   pending_onboarding (standard, or fast-track whose sub-TPP failed) -> the standard form
 *   pending_completion / pending_partner_ais (fast-track)           -> the short completion form
 *   any other state (awaiting_approval, activated, …)               -> a status page, HTTP 200
 *
 * The standard form, one page with sections (fieldsets):
 *   1. company registry lookup — its own small GET form (?registrationNumber=…), looks the
 *      number up in fixtures/companies.ts and fills the sections below;
 *   2. company details and address; 3. beneficial owners, directors, signatories (at least one
 *      each; "Add another …" / "Remove" buttons re-render the form without JavaScript);
 *   4. bank account linking (sandbox bank, IBAN checked with mod-97, account holder);
 *   5. billing agreement (must be accepted).
 * Validation is server-side: an invalid submission re-renders the form with the entered values,
 * an error summary and each message next to its field, HTTP 400, the first invalid field focused.
 * A valid one calls engine.merchant(id, 'submit_onboarding', { data: { onboarding } }) (stored in
 * merchants.details.onboarding; status awaiting_approval, event merchant.onboarding.completed)
 * and answers 303 See Other back to the same URL, which now shows the status page.
 *
 * Fast-track completion: bank linking + billing agreement -> engine 'complete_fast_track' with
 * data { completion } -> awaiting_approval, 303 to the status page.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SANDBOX_BANKS, bankById } from '../../../fixtures/banks.js';
import { lookupCompany, normalizeRegistrationNumber, type RegistryCompany } from '../../../fixtures/companies.js';
import { ApiError } from '../../domain/errors.js';
import { ibanProblem, normalizeIban } from '../../domain/iban.js';
import { ONBOARDING_OPEN_STATES, type MerchantStatus } from '../../domain/merchant.js';
import type { Engine } from '../../engine/index.js';
import type { MerchantRow } from '../../store/merchants.js';
import {
  checkbox,
  errorSummary,
  formFields,
  htmlErrors,
  seeOther,
  selectField,
  textField,
  type FieldErrors,
} from './forms.js';
import { html, page, raw, sendPage, type RawHtml } from './layout.js';

export const PERSON_GROUPS = [
  { key: 'ubos', legend: 'Beneficial owners', singular: 'beneficial owner', hint: 'Everyone who owns or controls more than 25 % of the company.' },
  { key: 'directors', legend: 'Directors', singular: 'director', hint: 'Members of the board or the management.' },
  { key: 'signatories', legend: 'Signatories', singular: 'signatory', hint: 'People who may sign on behalf of the company.' },
] as const;
export type PersonGroup = (typeof PERSON_GROUPS)[number]['key'];
const MAX_PERSONS = 10;

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

const BILLING_AGREEMENT_VERSION = 'obsim-sandbox-2026-01';

const BANK_OPTIONS = SANDBOX_BANKS.map((b) => ({ value: b.bankId, label: `${b.name} (${b.country}, BIC ${b.bic})` }));

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

const personField = (group: string, i: number, prop: keyof Person) => `${group}[${i}].${prop}`;

// ---------------------------------------------------------------- parsing and validation

function persons(values: Record<string, string>, group: string): Person[] {
  const rows = new Map<number, Person>();
  const re = new RegExp(`^${group}\\[(\\d{1,2})\\]\\.(fullName|dateOfBirth)$`);
  for (const [k, v] of Object.entries(values)) {
    const m = re.exec(k);
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
  const m = DATE.exec(value);
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
  if (f.website && !/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(f.website)) errors.website = 'Enter a web address starting with https://, or leave it empty.';
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

function bankLinking(f: { bankId: string; iban: string; accountHolderName: string; bic: string }, nowIso: string) {
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

const billing = (nowIso: string) => ({ accepted: true, version: BILLING_AGREEMENT_VERSION, acceptedAt: nowIso });

const cleanPersons = (rows: Person[]) =>
  rows.filter((p) => p.fullName).map((p) => (p.dateOfBirth ? { fullName: p.fullName, dateOfBirth: p.dateOfBirth } : { fullName: p.fullName }));

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

function fromRegistry(c: RegistryCompany, current: StandardForm): StandardForm {
  const toRows = (list: readonly { fullName: string; dateOfBirth?: string }[]) => list.map((p) => ({ fullName: p.fullName, dateOfBirth: p.dateOfBirth ?? '' }));
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

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** A fresh form, prefilled from what obsim already knows about the merchant. */
function initialForm(m: MerchantRow): StandardForm {
  const details = safeJson(m.details);
  const ft = (details.fastTrack ?? {}) as Record<string, unknown>;
  const addr = (ft.address ?? {}) as Record<string, unknown>;
  const people = (v: unknown): Person[] =>
    Array.isArray(v) ? v.map((p) => ({ fullName: str((p as Record<string, unknown>)?.fullName), dateOfBirth: str((p as Record<string, unknown>)?.dateOfBirth) })) : [];
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

function safeJson(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

// ---------------------------------------------------------------- rendering

const STANDARD_ORDER = (f: StandardForm): string[] => [
  'registrationNumber',
  'companyName',
  'website',
  'street',
  'postalCode',
  'city',
  'countryCode',
  ...PERSON_GROUPS.flatMap((g) => {
    const n = Math.max(1, f[g.key].length);
    return Array.from({ length: n }, (_, i) => [personField(g.key, i, 'fullName'), personField(g.key, i, 'dateOfBirth')]).flat();
  }),
  'bankId',
  'iban',
  'accountHolderName',
  'bic',
  'billingAgreement',
];

const LABELS: Record<string, string> = {
  registrationNumber: 'Registration number',
  companyName: 'Company name',
  website: 'Website',
  street: 'Street',
  postalCode: 'Postal code',
  city: 'City',
  countryCode: 'Country',
  bankId: 'Bank',
  iban: 'IBAN',
  accountHolderName: 'Account holder',
  bic: 'BIC',
  billingAgreement: 'Billing agreement',
};

function labelFor(name: string): string {
  const m = /^(ubos|directors|signatories)\[(\d+)\]\.(fullName|dateOfBirth)$/.exec(name);
  if (!m) return LABELS[name] ?? name;
  const g = PERSON_GROUPS.find((x) => x.key === m[1])!;
  const who = `${g.singular.charAt(0).toUpperCase()}${g.singular.slice(1)} ${Number(m[2]) + 1}`;
  return `${who}, ${m[3] === 'fullName' ? 'full name' : 'date of birth'}`;
}

function billingSection(o: { checked: boolean; error?: string; focus: boolean }): RawHtml {
  return html`<fieldset>
<legend>Billing agreement</legend>
<p>Sandbox terms, version <code>${BILLING_AGREEMENT_VERSION}</code>: the provider charges the merchant per settled payment and pays settled amounts out to the linked account on the next banking day. In the sandbox no fees are charged and no money moves.</p>
${checkbox({ name: 'billingAgreement', label: 'I accept the billing agreement on behalf of the company', checked: o.checked, error: o.error, focus: o.focus, required: true })}
</fieldset>`;
}

function bankSection(
  f: { bankId: string; iban: string; accountHolderName: string; bic: string },
  errors: FieldErrors,
  focus: string | undefined,
): RawHtml {
  return html`<fieldset>
<legend>Bank account linking</legend>
<p class="hint">The account settled payments are paid out to. Sandbox: any IBAN with a valid checksum works, for example DK50 0040 0440 1162 43.</p>
${selectField({ name: 'bankId', label: 'Bank', options: BANK_OPTIONS, value: f.bankId, error: errors.bankId, focus: focus === 'bankId', required: true, placeholder: 'Choose a bank' })}
${textField({ name: 'iban', label: 'IBAN', value: f.iban, error: errors.iban, focus: focus === 'iban', required: true, hint: 'Spaces between groups are fine.', autocomplete: 'off', maxlength: 42 })}
${textField({ name: 'accountHolderName', label: 'Account holder', value: f.accountHolderName, error: errors.accountHolderName, focus: focus === 'accountHolderName', required: true, autocomplete: 'organization' })}
${textField({ name: 'bic', label: 'BIC', value: f.bic, error: errors.bic, focus: focus === 'bic', autocomplete: 'off', maxlength: 11 })}
</fieldset>`;
}

function personSection(
  g: (typeof PERSON_GROUPS)[number],
  rows: Person[],
  errors: FieldErrors,
  focus: string | undefined,
): RawHtml {
  const list = rows.length > 0 ? rows : [{ fullName: '', dateOfBirth: '' }];
  return html`<fieldset id="${g.key}">
<legend>${g.legend}</legend>
<p class="hint">${g.hint} At least one; the full name is required, the date of birth is optional.</p>
${list.map(
  (p, i) => html`<fieldset>
<legend>${g.singular.charAt(0).toUpperCase()}${g.singular.slice(1)} ${i + 1}</legend>
${textField({ name: personField(g.key, i, 'fullName'), label: 'Full name', value: p.fullName, error: errors[personField(g.key, i, 'fullName')], focus: focus === personField(g.key, i, 'fullName'), required: true, autocomplete: 'off' })}
${textField({ name: personField(g.key, i, 'dateOfBirth'), label: 'Date of birth', value: p.dateOfBirth, error: errors[personField(g.key, i, 'dateOfBirth')], focus: focus === personField(g.key, i, 'dateOfBirth'), hint: 'YYYY-MM-DD', autocomplete: 'off', maxlength: 10 })}
${list.length > 1 ? html`<button type="submit" class="link" name="action" value="remove:${g.key}:${i}">Remove ${g.singular} ${i + 1}</button>` : ''}
</fieldset>`,
)}
${list.length < MAX_PERSONS ? html`<button type="submit" class="secondary" name="action" value="add:${g.key}">Add another ${g.singular}</button>` : ''}
</fieldset>`;
}

function standardPage(
  m: MerchantRow,
  token: string,
  f: StandardForm,
  o: { errors?: FieldErrors; lookup?: { value: string; error?: string; found?: string }; focus?: string } = {},
): string {
  const errors = o.errors ?? {};
  const order = STANDARD_ORDER(f);
  const focus = o.focus ?? order.find((n) => errors[n] !== undefined);
  const labels = Object.fromEntries(Object.keys(errors).map((n) => [n, labelFor(n)]));
  const action = `/onboarding/${encodeURIComponent(token)}`;
  const lookupId = 'f-lookup';
  return page({
    title: 'Merchant onboarding',
    brand: m.company_name,
    body: html`${errorSummary(errors, order, labels)}
<p>Onboarding for <strong>${m.company_name}</strong>. Complete every section; fields marked <span aria-hidden="true">*</span><span class="visually-hidden">as required</span> are required. Link valid until ${m.onboarding_expires_at}.</p>
<h2 id="lookup-title">1. Company registry lookup</h2>
<form method="get" action="${action}" aria-labelledby="lookup-title">
<label for="${lookupId}">Registration number (CVR)</label>
<p class="hint" id="${lookupId}-hint">8 digits. Sandbox registry: try 20000007 (Fjordcykler A/S) or see the README.</p>
${o.lookup?.error ? html`<p class="error" id="${lookupId}-error" role="alert"><span class="visually-hidden">Error: </span>${o.lookup.error}</p>` : ''}
${o.lookup?.found ? html`<p class="notice ok" role="status">Found ${o.lookup.found} in the registry; the details below were filled in. Check them before you submit.</p>` : ''}
<input type="text" id="${lookupId}" name="registrationNumber" value="${o.lookup?.value ?? ''}" inputmode="numeric" maxlength="10" autocomplete="off" aria-describedby="${lookupId}-hint${o.lookup?.error ? ` ${lookupId}-error` : ''}"${
      o.lookup?.error ? raw(' aria-invalid="true" autofocus') : ''
    }>
<div class="actions"><button type="submit" class="secondary">Look up company</button></div>
</form>
<form method="post" action="${action}" novalidate>
<button type="submit" name="action" value="submit" class="visually-hidden" tabindex="-1" aria-hidden="true">Submit onboarding</button>
<h2>2. Company details and address</h2>
<fieldset>
<legend>Company</legend>
${textField({ name: 'registrationNumber', label: 'Registration number (CVR)', value: f.registrationNumber, error: errors.registrationNumber, focus: focus === 'registrationNumber', required: true, inputmode: 'numeric', maxlength: 10, autocomplete: 'off' })}
${textField({ name: 'companyName', label: 'Legal company name', value: f.companyName, error: errors.companyName, focus: focus === 'companyName', required: true, autocomplete: 'organization' })}
${textField({ name: 'website', label: 'Website', type: 'url', value: f.website, error: errors.website, focus: focus === 'website', autocomplete: 'url' })}
</fieldset>
<fieldset>
<legend>Registered address</legend>
${textField({ name: 'street', label: 'Street and number', value: f.street, error: errors.street, focus: focus === 'street', required: true, autocomplete: 'street-address' })}
${textField({ name: 'postalCode', label: 'Postal code', value: f.postalCode, error: errors.postalCode, focus: focus === 'postalCode', required: true, autocomplete: 'postal-code', inputmode: 'numeric', maxlength: 10 })}
${textField({ name: 'city', label: 'City', value: f.city, error: errors.city, focus: focus === 'city', required: true, autocomplete: 'address-level2' })}
${textField({ name: 'countryCode', label: 'Country code', value: f.countryCode, error: errors.countryCode, focus: focus === 'countryCode', required: true, hint: 'Two letters, DK for Denmark.', autocomplete: 'country', maxlength: 2 })}
</fieldset>
<h2>3. Beneficial owners, directors and signatories</h2>
${PERSON_GROUPS.map((g) => personSection(g, f[g.key], errors, focus))}
<h2>4. Bank account</h2>
${bankSection(f, errors, focus)}
<h2>5. Billing agreement</h2>
${billingSection({ checked: f.billingAgreement, error: errors.billingAgreement, focus: focus === 'billingAgreement' })}
<div class="actions"><button type="submit" name="action" value="submit">Submit onboarding</button></div>
</form>`,
  });
}

function completionPage(m: MerchantRow, token: string, f: CompletionForm, errors: FieldErrors = {}): string {
  const order = ['bankId', 'iban', 'accountHolderName', 'bic', 'billingAgreement'];
  const focus = order.find((n) => errors[n] !== undefined);
  const ft = (safeJson(m.details).fastTrack ?? {}) as Record<string, unknown>;
  return page({
    title: 'Complete your onboarding',
    brand: m.company_name,
    body: html`${errorSummary(errors, order, LABELS)}
<p>Your partner has already registered <strong>${m.company_name}</strong> with us. Two steps are left: link the bank account payouts go to, and accept the billing agreement. Link valid until ${m.onboarding_expires_at}.</p>
<dl class="summary">
<dt>Company</dt><dd>${m.company_name}</dd>
${ft.registrationNumber ? html`<dt>Registration number</dt><dd>${str(ft.registrationNumber)}</dd>` : ''}
${ft.website ? html`<dt>Website</dt><dd>${str(ft.website)}</dd>` : ''}
<dt>Merchant id</dt><dd>${m.id}</dd>
</dl>
<form method="post" action="/onboarding/${encodeURIComponent(token)}" novalidate>
${bankSection(f, errors, focus)}
${billingSection({ checked: f.billingAgreement, error: errors.billingAgreement, focus: focus === 'billingAgreement' })}
<div class="actions"><button type="submit" name="action" value="submit">Complete onboarding</button></div>
</form>`,
  });
}

const STATUS_TEXT: Partial<Record<MerchantStatus, { title: string; text: string; tone: 'ok' | 'bad' | '' }>> = {
  awaiting_approval: {
    title: 'Onboarding submitted',
    text: 'Thank you. Your onboarding is complete and is awaiting approval. Your partner is notified when the merchant account is activated; there is nothing more to do here.',
    tone: 'ok',
  },
  activated: { title: 'Merchant account active', text: 'Your merchant account is active and can accept payments. There is nothing more to do here.', tone: 'ok' },
  rejected: { title: 'Application rejected', text: 'Your application was rejected. Contact your partner for details.', tone: 'bad' },
  inactive: { title: 'Merchant account deactivated', text: 'Your merchant account is deactivated. Contact your partner to reactivate it.', tone: 'bad' },
};

function statusPage(m: MerchantRow): string {
  const s = STATUS_TEXT[m.status] ?? { title: 'Onboarding status', text: `Status: ${m.status}.`, tone: '' as const };
  return page({
    title: s.title,
    brand: m.company_name,
    body: html`<p class="notice ${s.tone}" role="status">${s.text}</p>
<dl class="summary">
<dt>Company</dt><dd>${m.company_name}</dd>
<dt>Merchant id</dt><dd>${m.id}</dd>
<dt>Status</dt><dd><span class="status ${s.tone === 'bad' ? 'bad' : m.status === 'awaiting_approval' ? 'wait' : 'ok'}" data-status="${m.status}">${m.status}</span></dd>
<dt>Last change</dt><dd>${m.updated_at}</dd>
</dl>`,
  });
}

function expiredPage(partnerName: string | undefined, m?: MerchantRow): string {
  return page({
    title: 'This onboarding link has expired',
    body: html`<p class="notice bad" role="status">This onboarding link is no longer valid: onboarding links expire after 7 days, and a link stops working as soon as a new one is sent.</p>
<p>Ask ${partnerName ?? 'the partner that sent you this link'} to resend the onboarding link${m ? html` for <strong>${m.company_name}</strong>` : ''}; the new link opens the form again.</p>`,
  });
}

// ---------------------------------------------------------------- routes

export async function onboardingPages(app: FastifyInstance): Promise<void> {
  const { store, clock } = app;
  htmlErrors(app);
  const engine = (): Engine => app.engine;
  const partnerName = (id: string) => app.partners.list().find((p) => p.clientId === id)?.name;

  type Resolved = { kind: 'expired'; merchant?: MerchantRow } | { kind: 'open' | 'closed'; merchant: MerchantRow };

  function resolve(token: string): Resolved {
    const m = store.merchants.getByOnboardingToken(token);
    if (!m) return { kind: 'expired' };
    if (!ONBOARDING_OPEN_STATES.includes(m.status)) return { kind: 'closed', merchant: m };
    if (m.onboarding_expires_at && Date.parse(m.onboarding_expires_at) <= clock.nowMs()) return { kind: 'expired', merchant: m };
    return { kind: 'open', merchant: m };
  }

  function expired(reply: FastifyReply, m?: MerchantRow): FastifyReply {
    return sendPage(reply, expiredPage(m ? partnerName(m.partner_id) : undefined, m), 410);
  }

  app.get<{ Params: { token: string }; Querystring: { registrationNumber?: string } }>(
    '/onboarding/:token',
    { schema: { hide: true } },
    async (request, reply) => {
      const { token } = request.params;
      const r = resolve(token);
      if (r.kind === 'expired') return expired(reply, r.merchant);
      const m = r.merchant;
      if (r.kind === 'closed') return sendPage(reply, statusPage(m));
      if (m.status !== 'pending_onboarding') {
        const ft = (safeJson(m.details).fastTrack ?? {}) as Record<string, unknown>;
        return sendPage(reply, completionPage(m, token, { bankId: '', iban: str(ft.iban), accountHolderName: m.company_name, bic: str(ft.bic), billingAgreement: false }));
      }
      let form = initialForm(m);
      const q = typeof request.query.registrationNumber === 'string' ? request.query.registrationNumber.trim() : undefined;
      if (q === undefined) return sendPage(reply, standardPage(m, token, form));
      const normalized = normalizeRegistrationNumber(q);
      if (!/^[0-9]{8}$/.test(normalized)) {
        return sendPage(reply, standardPage(m, token, form, { lookup: { value: q, error: 'A CVR number has exactly 8 digits.' } }));
      }
      const company = lookupCompany(normalized);
      if (!company) {
        form = { ...form, registrationNumber: normalized };
        return sendPage(
          reply,
          standardPage(m, token, form, {
            lookup: { value: q, error: `No company with registration number ${normalized} in the sandbox registry. Check the number, or enter the details by hand below.` },
          }),
        );
      }
      form = fromRegistry(company, form);
      return sendPage(reply, standardPage(m, token, form, { lookup: { value: normalized, found: company.companyName } }));
    },
  );

  app.post<{ Params: { token: string } }>('/onboarding/:token', { schema: { hide: true } }, async (request, reply) => {
    const { token } = request.params;
    const r = resolve(token);
    if (r.kind === 'expired') return expired(reply, r.merchant);
    const location = `/onboarding/${encodeURIComponent(token)}`;
    if (r.kind === 'closed') return seeOther(reply, location);
    const m = r.merchant;
    const values = formFields(request.body);
    const nowIso = clock.iso();

    if (m.status !== 'pending_onboarding') {
      const f: CompletionForm = {
        bankId: (values.bankId ?? '').trim(),
        iban: (values.iban ?? '').trim(),
        accountHolderName: (values.accountHolderName ?? '').trim(),
        bic: (values.bic ?? '').trim().toUpperCase(),
        billingAgreement: values.billingAgreement === 'yes',
      };
      const errors = validateCompletionForm(f);
      if (Object.keys(errors).length > 0) return sendPage(reply, completionPage(m, token, f, errors), 400);
      const completion = { bankLinking: bankLinking(f, nowIso), billingAgreement: billing(nowIso), completedAt: nowIso };
      return transition(reply, m, 'complete_fast_track', { completion }, location);
    }

    const f = parseStandardForm(values);
    const action = values.action ?? 'submit';
    const add = /^add:(ubos|directors|signatories)$/.exec(action);
    if (add) {
      const key = add[1] as PersonGroup;
      const rows = f[key].length > 0 ? f[key] : [{ fullName: '', dateOfBirth: '' }];
      if (rows.length < MAX_PERSONS) rows.push({ fullName: '', dateOfBirth: '' });
      const next = { ...f, [key]: rows };
      return sendPage(reply, standardPage(m, token, next, { focus: personField(key, rows.length - 1, 'fullName') }));
    }
    const remove = /^remove:(ubos|directors|signatories):(\d{1,2})$/.exec(action);
    if (remove) {
      const key = remove[1] as PersonGroup;
      const rows = f[key].filter((_, i) => i !== Number(remove[2]));
      const next = { ...f, [key]: rows };
      return sendPage(reply, standardPage(m, token, next, { focus: personField(key, Math.max(0, Math.min(Number(remove[2]), rows.length - 1)), 'fullName') }));
    }
    const errors = validateStandardForm(f, nowIso);
    if (Object.keys(errors).length > 0) return sendPage(reply, standardPage(m, token, f, { errors }), 400);
    return transition(reply, m, 'submit_onboarding', { onboarding: onboardingData(f, nowIso) }, location);
  });

  function transition(
    reply: FastifyReply,
    m: MerchantRow,
    trigger: 'submit_onboarding' | 'complete_fast_track',
    data: Record<string, unknown>,
    location: string,
  ): FastifyReply {
    try {
      engine().merchant(m.id, trigger, { data });
    } catch (err) {
      // moved on in between (control call, double submit): the GET shows the current state
      if (!(err instanceof ApiError) || err.code !== 'illegal_transition') throw err;
    }
    return seeOther(reply, location);
  }
}
