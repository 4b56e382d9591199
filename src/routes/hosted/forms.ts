/**
 * Form building blocks for the hosted pages (payment, onboarding), on top of ./layout.ts.
 *
 * Server-side validation re-renders the form with the entered values and an error next to each
 * field: the field gets aria-invalid="true" and aria-describedby pointing at its error text, an
 * error summary at the top links to every invalid field, and the first invalid field gets
 * `autofocus` so keyboard and screen-reader users land on it. Everything goes through `html`
 * (escaped).
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { toApiError } from '../../plugins/errors.js';
import { html, messagePage, raw, sendPage, type RawHtml } from './layout.js';

/**
 * Errors on a hosted page are pages too: call inside a page plugin so a request the page cannot
 * read (a body of another content type, too large, …) or a defect answers HTML with the same
 * status and message the API would use, never a JSON body in the payer's browser.
 */
export function htmlErrors(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => {
    const apiErr = toApiError(err as FastifyError);
    if (apiErr.status >= 500) request.log.error({ err }, 'hosted page error');
    const title = apiErr.status >= 500 ? 'Something went wrong' : 'This request could not be handled';
    return sendPage(
      reply,
      messagePage(title, `${apiErr.message} (HTTP ${apiErr.status}, ${apiErr.code}, request ${request.id}).`, 'bad'),
      apiErr.status,
    );
  });
}

/** POST-redirect-GET: 303 See Other to `location`. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).header('cache-control', 'no-store').send();
}

// ---------------------------------------------------------------- forms

/** Field errors: form field name -> message. */
export type FieldErrors = Record<string, string>;

/** A DOM id derived from a field name (`ubos[0].fullName` -> `f-ubos-0-fullName`). */
export function fieldId(name: string): string {
  return `f-${name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/-+$/, '')}`;
}

/**
 * The box at the top of a re-rendered form: "There is a problem" and one link per error to the
 * field (WCAG "error identification"). Not focused itself: the first invalid field is.
 */
export function errorSummary(errors: FieldErrors, order: readonly string[], labels: Record<string, string> = {}): RawHtml {
  const names = [...order.filter((n) => errors[n] !== undefined), ...Object.keys(errors).filter((n) => !order.includes(n))];
  if (names.length === 0) return html``;
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">There ${names.length === 1 ? 'is a problem' : `are ${names.length} problems`} with what you entered</h2>
<ul>${names.map((n) => html`<li><a href="#${fieldId(n)}">${labels[n] ? `${labels[n]}: ` : ''}${errors[n]}</a></li>`)}</ul>
</div>`;
}

export interface FieldOptions {
  name: string;
  label: string;
  value?: string | null;
  error?: string;
  hint?: string;
  type?: 'text' | 'email' | 'url' | 'date';
  required?: boolean;
  autocomplete?: string;
  inputmode?: 'numeric' | 'text' | 'email' | 'url';
  /** Put autofocus on this field (the first invalid one). */
  focus?: boolean;
  pattern?: string;
  maxlength?: number;
}

/** label + hint + error + input, wired with aria-describedby / aria-invalid. */
export function textField(o: FieldOptions): RawHtml {
  const id = fieldId(o.name);
  const describedBy = [o.hint ? `${id}-hint` : '', o.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
<label for="${id}">${o.label}${o.required ? html` <span aria-hidden="true">*</span>` : html` <span class="hint">(optional)</span>`}</label>
${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}
${o.error ? html`<p class="error" id="${id}-error"><span class="visually-hidden">Error: </span>${o.error}</p>` : ''}
<input type="${o.type ?? 'text'}" id="${id}" name="${o.name}" value="${o.value ?? ''}"${o.required ? raw(' required aria-required="true"') : ''}${
    o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ''
  }${o.inputmode ? html` inputmode="${o.inputmode}"` : ''}${o.maxlength ? html` maxlength="${o.maxlength}"` : ''}${
    describedBy ? html` aria-describedby="${describedBy}"` : ''
  }${o.error ? raw(' aria-invalid="true"') : ''}${o.focus ? raw(' autofocus') : ''}>
</div>`;
}

export interface ChoiceOption {
  value: string;
  label: string;
  hint?: string;
}

/**
 * A radio group as a fieldset with a legend; the error sits under the legend and is linked to
 * the group. `name`'s DOM id goes on the first radio so error-summary links land there.
 */
export function radioGroup(o: {
  name: string;
  legend: string;
  options: readonly ChoiceOption[];
  value?: string | null;
  error?: string;
  hint?: string;
  focus?: boolean;
  required?: boolean;
}): RawHtml {
  const id = fieldId(o.name);
  const describedBy = [o.hint ? `${id}-hint` : '', o.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<fieldset${describedBy ? html` aria-describedby="${describedBy}"` : ''}${o.required ? raw(' aria-required="true"') : ''}>
<legend>${o.legend}</legend>
${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}
${o.error ? html`<p class="error" id="${id}-error"><span class="visually-hidden">Error: </span>${o.error}</p>` : ''}
${o.options.map((opt, i) => {
  const optId = i === 0 ? id : `${id}-${i}`;
  return html`<div class="choice"><input type="radio" id="${optId}" name="${o.name}" value="${opt.value}"${opt.value === o.value ? raw(' checked') : ''}${
    o.error ? raw(' aria-invalid="true"') : ''
  }${o.focus && i === 0 ? raw(' autofocus') : ''}${o.required ? raw(' required') : ''}><label for="${optId}">${opt.label}${
    opt.hint ? html` <span class="hint">${opt.hint}</span>` : ''
  }</label></div>`;
})}
</fieldset>`;
}

/** A single checkbox (e.g. "I accept the billing agreement"), error next to it. */
export function checkbox(o: {
  name: string;
  label: string | RawHtml;
  checked?: boolean;
  error?: string;
  focus?: boolean;
  required?: boolean;
}): RawHtml {
  const id = fieldId(o.name);
  return html`<div class="field">
${o.error ? html`<p class="error" id="${id}-error"><span class="visually-hidden">Error: </span>${o.error}</p>` : ''}
<div class="choice"><input type="checkbox" id="${id}" name="${o.name}" value="yes"${o.checked ? raw(' checked') : ''}${o.required ? raw(' required aria-required="true"') : ''}${
    o.error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''
  }${o.focus ? raw(' autofocus') : ''}><label for="${id}">${o.label}</label></div>
</div>`;
}

/** A <select> with a label; `options` values and labels are escaped. */
export function selectField(o: {
  name: string;
  label: string;
  options: readonly ChoiceOption[];
  value?: string | null;
  error?: string;
  hint?: string;
  focus?: boolean;
  required?: boolean;
  placeholder?: string;
}): RawHtml {
  const id = fieldId(o.name);
  const describedBy = [o.hint ? `${id}-hint` : '', o.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
<label for="${id}">${o.label}${o.required ? html` <span aria-hidden="true">*</span>` : html` <span class="hint">(optional)</span>`}</label>
${o.hint ? html`<p class="hint" id="${id}-hint">${o.hint}</p>` : ''}
${o.error ? html`<p class="error" id="${id}-error"><span class="visually-hidden">Error: </span>${o.error}</p>` : ''}
<select id="${id}" name="${o.name}"${o.required ? raw(' required aria-required="true"') : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}${
    o.error ? raw(' aria-invalid="true"') : ''
  }${o.focus ? raw(' autofocus') : ''}>
${o.placeholder !== undefined ? html`<option value="">${o.placeholder}</option>` : ''}
${o.options.map((opt) => html`<option value="${opt.value}"${opt.value === o.value ? raw(' selected') : ''}>${opt.label}</option>`)}
</select>
</div>`;
}

/** A urlencoded form body as a flat string map (repeated keys: the last value wins). */
export function formFields(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!body || typeof body !== 'object') return out;
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    const value = Array.isArray(v) ? v[v.length - 1] : v;
    if (typeof value === 'string') out[k] = value;
  }
  return out;
}
