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
import { journalAs } from '../../../plugins/journal.js';
import { causeOf } from '../../../plugins/tracing.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { lookupCompany, normalizeRegistrationNumber } from '../../../../fixtures/companies.js';
import { ApiError } from '../../../domain/errors.js';
import { onboardingLinkState, parseDetails } from '../../../domain/merchant.js';
import type { MerchantRow } from '../../../domain/merchant.js';
import { formFields, htmlErrors, seeOther } from '../forms.js';
import { sendPage } from '../layout.js';
import {
  bankLinking,
  billing,
  fromRegistry,
  initialForm,
  MAX_PERSONS,
  onboardingData,
  parseStandardForm,
  personField,
  str,
  validateCompletionForm,
  validateStandardForm,
  type CompletionForm,
  type PersonGroup,
} from './form.js';
import { completionPage, expiredPage, standardPage, statusPage } from './pages.js';

export async function onboardingPages(app: FastifyInstance): Promise<void> {
  const { store, engine } = app;
  htmlErrors(app);
  const partnerName = (id: string) => app.partners.list().find((p) => p.clientId === id)?.name ?? app.sandboxes.get(id)?.name;

  type Resolved = { kind: 'expired'; merchant?: MerchantRow } | { kind: 'open' | 'closed'; merchant: MerchantRow };

  function resolve(token: string): Resolved {
    const m = store.merchants.getByOnboardingToken(token);
    if (!m) return { kind: 'expired' };
    const state = onboardingLinkState(m, engine.worldOf(m.partner_id).clock.nowMs());
    return state === 'expired' ? { kind: 'expired', merchant: m } : { kind: state, merchant: m };
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
      if (r.merchant) journalAs(request, r.merchant.partner_id);
      if (r.kind === 'expired') return expired(reply, r.merchant);
      const m = r.merchant;
      if (r.kind === 'closed') return sendPage(reply, statusPage(m));
      if (m.status !== 'pending_onboarding') {
        const ft = (parseDetails(m.details).fastTrack ?? {}) as Record<string, unknown>;
        return sendPage(
          reply,
          completionPage(m, token, {
            bankId: '',
            iban: str(ft.iban),
            accountHolderName: m.company_name,
            bic: str(ft.bic),
            billingAgreement: false,
          }),
        );
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
            lookup: {
              value: q,
              error: `No company with registration number ${normalized} in the sandbox registry. Check the number, or enter the details by hand below.`,
            },
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
    if (r.merchant) journalAs(request, r.merchant.partner_id);
    if (r.kind === 'expired') return expired(reply, r.merchant);
    const location = `/onboarding/${encodeURIComponent(token)}`;
    if (r.kind === 'closed') return seeOther(reply, location);
    const m = r.merchant;
    const values = formFields(request.body);
    const nowIso = engine.worldOf(m.partner_id).clock.iso();

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
    const add = action.match(/^add:(ubos|directors|signatories)$/);
    if (add) {
      const key = add[1] as PersonGroup;
      const rows = f[key].length > 0 ? f[key] : [{ fullName: '', dateOfBirth: '' }];
      if (rows.length < MAX_PERSONS) rows.push({ fullName: '', dateOfBirth: '' });
      const next = { ...f, [key]: rows };
      return sendPage(reply, standardPage(m, token, next, { focus: personField(key, rows.length - 1, 'fullName') }));
    }
    const remove = action.match(/^remove:(ubos|directors|signatories):(\d{1,2})$/);
    if (remove) {
      const key = remove[1] as PersonGroup;
      const rows = f[key].filter((_, i) => i !== Number(remove[2]));
      const next = { ...f, [key]: rows };
      return sendPage(
        reply,
        standardPage(m, token, next, { focus: personField(key, Math.max(0, Math.min(Number(remove[2]), rows.length - 1)), 'fullName') }),
      );
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
      engine.worldOf(m.partner_id).merchant(m.id, trigger, { data, cause: causeOf(reply.request, 'hosted_page', trigger) });
    } catch (err) {
      // moved on in between (control call, double submit): the GET shows the current state
      if (!(err instanceof ApiError) || err.code !== 'illegal_transition') throw err;
    }
    return seeOther(reply, location);
  }
}
