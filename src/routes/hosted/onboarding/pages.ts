/**
 * The onboarding pages as HTML: the standard form (registry lookup, company, people, bank
 * linking, billing agreement), the fast-track completion form, the status page and the
 * "link expired" page. Every value goes through the escaping `html` template.
 */
import { parseDetails, type MerchantStatus } from '../../../domain/merchant.js';
import type { MerchantRow } from '../../../domain/merchant.js';
import { checkbox, errorSummary, selectField, textField, type FieldErrors } from '../forms.js';
import { html, page, raw, type RawHtml } from '../layout.js';
import {
  BANK_OPTIONS,
  BILLING_AGREEMENT_VERSION,
  MAX_PERSONS,
  PERSON_GROUPS,
  personField,
  str,
  type CompletionForm,
  type Person,
  type StandardForm,
} from './form.js';

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
  const m = name.match(/^(ubos|directors|signatories)\[(\d+)\]\.(fullName|dateOfBirth)$/);
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

function personSection(g: (typeof PERSON_GROUPS)[number], rows: Person[], errors: FieldErrors, focus: string | undefined): RawHtml {
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

export function standardPage(
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
<p class="hint" id="${lookupId}-hint">8 digits. Sandbox registry: try 20000007 (Fjordcykler A/S); docs/sandbox-controls.md lists the others.</p>
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

export function completionPage(m: MerchantRow, token: string, f: CompletionForm, errors: FieldErrors = {}): string {
  const order = ['bankId', 'iban', 'accountHolderName', 'bic', 'billingAgreement'];
  const focus = order.find((n) => errors[n] !== undefined);
  const ft = (parseDetails(m.details).fastTrack ?? {}) as Record<string, unknown>;
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
  activated: {
    title: 'Merchant account active',
    text: 'Your merchant account is active and can accept payments. There is nothing more to do here.',
    tone: 'ok',
  },
  rejected: { title: 'Application rejected', text: 'Your application was rejected. Contact your partner for details.', tone: 'bad' },
  inactive: {
    title: 'Merchant account deactivated',
    text: 'Your merchant account is deactivated. Contact your partner to reactivate it.',
    tone: 'bad',
  },
};

export function statusPage(m: MerchantRow): string {
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

export function expiredPage(partnerName: string | undefined, m?: MerchantRow): string {
  return page({
    title: 'This onboarding link has expired',
    body: html`<p class="notice bad" role="status">This onboarding link is no longer valid: onboarding links expire after 7 days, and a link stops working as soon as a new one is sent.</p>
<p>Ask ${partnerName ?? 'the partner that sent you this link'} to resend the onboarding link${m ? html` for <strong>${m.company_name}</strong>` : ''}; the new link opens the form again.</p>`,
  });
}
