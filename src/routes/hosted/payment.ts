/**
 * Hosted payment page: GET/POST /pay/:token (token = store.payments.tokenFor(id), handed out as
 * `paymentUrl`). The payer picks a sandbox bank and approves, rejects or abandons; the page then
 * shows the result.
 *
 *   pending                  -> the bank choice form
 *   processing               -> "approved, settlement in progress" (only reachable through the
 *                               control API approve action; the page itself settles at once)
 *   paid                     -> "payment completed"
 *   failed                   -> "payment failed" with the reason in words
 *   failed (expired), or pending past expires_at -> "link expired" (HTTP 410)
 *   unknown token            -> "link not found" (HTTP 404)
 *
 * The payer is in control once the page is open: the first GET of a pending payment records it
 * (engine.paymentPageOpened), which cancels the sandbox's automatic settlement; the payment then
 * waits for the payer's decision below or expires (domain/payment.ts paymentTimer).
 *
 * POST decisions (application/x-www-form-urlencoded `decision`, `bankId`):
 *   approve  -> engine 'approve' (processing) then, in the same transaction, the bank's
 *               settlement: 'settle' (paid, payment.completed) — or 'reject' for the magic amount
 *               666.66 (bank_rejected). So the payer sees the final result at once.
 *   reject   -> engine 'reject'  (failed, bank_rejected, payment.failed)
 *   abandon  -> engine 'abandon' (failed, payer_abandoned, payment.failed); no bank needed
 * A valid POST answers 303 See Other back to GET /pay/:token (POST-redirect-GET); an invalid one
 * (no bank chosen, unknown decision) re-renders the form with the error next to the field, 400.
 * A POST on a payment that is no longer pending also redirects: the GET shows what happened.
 */
import { journalAs } from '../../plugins/journal.js';
import { causeOf } from '../../plugins/tracing.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SANDBOX_BANKS, bankById } from '../../../fixtures/banks.js';
import { ApiError } from '../../domain/errors.js';
import {
  awaitsPayer,
  PAYER_DECISIONS,
  payerDecisionTriggers,
  paymentLinkExpired,
  type FailureReason,
  type PayerDecision,
  type PaymentStatus,
} from '../../domain/payment.js';
import type { PaymentRow } from '../../domain/payment.js';
import { errorSummary, formFields, htmlErrors, radioGroup, seeOther, type FieldErrors } from './forms.js';
import { html, page, sendPage, type PageOptions, type RawHtml } from './layout.js';

const REASON_TEXT: Record<FailureReason, string> = {
  bank_rejected: 'The bank rejected the payment. No money was moved.',
  payer_abandoned: 'The payment was cancelled at the bank. No money was moved.',
  expired: 'The payment link expired before the payment was completed. No money was moved.',
};

const amountFormats = new Map<string, Intl.NumberFormat>();

/** "DKK 1,234.50" from integer minor units (Intl, with the ISO code before the amount). */
export function formatAmount(minor: number, currency: string): string {
  let format = amountFormats.get(currency);
  if (!format)
    amountFormats.set(currency, (format = new Intl.NumberFormat('en', { style: 'currency', currency, currencyDisplay: 'code' })));
  // en puts a no-break space between code and amount; the page has always shown a plain space
  return format.format(minor / 100).replace(/\u00a0/g, ' ');
}

export async function paymentPages(app: FastifyInstance): Promise<void> {
  const { store, engine } = app;
  htmlErrors(app);
  const linkExpired = (p: PaymentRow): boolean => {
    const { clock, settings } = engine.worldOf(p.partner_id);
    return paymentLinkExpired(p, clock.nowMs(), settings);
  };

  function summary(p: PaymentRow, merchantName: string): RawHtml {
    const bank = p.bank_id ? (bankById(p.bank_id)?.name ?? p.bank_id) : undefined;
    return html`<dl class="summary">
<dt>Pay to</dt><dd>${merchantName}</dd>
<dt>Amount</dt><dd><strong>${formatAmount(p.amount_minor, p.currency)}</strong></dd>
<dt>Reference</dt><dd>${p.reference_number}</dd>
${bank ? html`<dt>Bank</dt><dd>${bank}</dd>` : ''}
<dt>Payment id</dt><dd>${p.id}</dd>
</dl>`;
  }

  type Form = { values?: Record<string, string>; errors?: FieldErrors };

  /** What the payer sees in each state: [title, body, HTTP status]. */
  const PAGES: Record<PaymentStatus, (p: PaymentRow, merchantName: string, form: Form) => [PageOptions, number]> = {
    paid: (p, merchantName) => [
      {
        title: 'Payment completed',
        body: html`<p class="notice ok" role="status"><span class="status ok" data-status="paid">Paid</span> Your payment to ${merchantName} is complete.</p>
${summary(p, merchantName)}<p>You can close this window.</p>`,
      },
      200,
    ],
    failed: (p, merchantName) => [
      {
        title: 'Payment failed',
        body: html`<p class="notice bad" role="status"><span class="status bad" data-status="failed">Failed</span> ${
          REASON_TEXT[p.failure_reason as FailureReason] ?? 'The payment failed.'
        }</p>
${summary(p, merchantName)}<p>Reason code: <code>${p.failure_reason}</code>. You can close this window.</p>`,
      },
      200,
    ],
    processing: (p, merchantName) => [
      {
        title: 'Payment processing',
        body: html`<p class="notice" role="status"><span class="status wait" data-status="processing">Processing</span> You approved the payment. The bank is settling it; this page shows the result when you reload it.</p>
${summary(p, merchantName)}
<form method="get" action="/pay/${store.payments.tokenFor(p.id)}"><div class="actions"><button type="submit">Check again</button></div></form>`,
      },
      200,
    ],
    pending: (p, merchantName, form) => [
      { title: `Pay ${merchantName}`, brand: 'Sandbox bank selection', body: paymentForm(p, merchantName, form) },
      form.errors ? 400 : 200,
    ],
  };

  function render(reply: FastifyReply, p: PaymentRow, form: Form = {}): FastifyReply {
    const merchantName = store.merchants.getAny(p.merchant_id)?.company_name ?? '';
    if (linkExpired(p)) {
      return sendPage(
        reply,
        page({
          title: 'This payment link has expired',
          body: html`<p class="notice bad" role="status">This payment can no longer be completed: its link expired${
            awaitsPayer(p) ? ` at ${p.expires_at}` : ''
          }. No money was moved. Ask ${merchantName || 'the merchant'} for a new payment link.</p>
${summary(p, merchantName)}`,
        }),
        410,
      );
    }
    const [options, status] = PAGES[p.status](p, merchantName, form);
    return sendPage(reply, page(options), status);
  }

  function paymentForm(p: PaymentRow, merchantName: string, form: { values?: Record<string, string>; errors?: FieldErrors }): RawHtml {
    const errors = form.errors ?? {};
    const order = ['bankId', 'decision'];
    const focus = order.find((n) => errors[n]);
    return html`${errorSummary(errors, order)}
<p>Choose your bank and approve the payment. This is the obsim sandbox: pick any bank, no login is needed and no money moves.</p>
${summary(p, merchantName)}
<form method="post" action="/pay/${store.payments.tokenFor(p.id)}" novalidate>
${radioGroup({
  name: 'bankId',
  legend: 'Your bank',
  hint: 'Needed to approve or reject. Cancelling needs no bank.',
  options: SANDBOX_BANKS.map((b) => ({ value: b.bankId, label: b.name, hint: `${b.country} · BIC ${b.bic}` })),
  value: form.values?.bankId,
  error: errors.bankId,
  focus: focus === 'bankId',
})}
${errors.decision ? html`<p class="error" id="f-decision-error" role="alert">${errors.decision}</p>` : ''}
<div class="actions">
<button type="submit" name="decision" value="approve" id="f-decision"${focus === 'decision' ? html` autofocus` : ''}>Approve payment</button>
<button type="submit" name="decision" value="reject" class="danger">Reject at the bank</button>
<button type="submit" name="decision" value="abandon" class="secondary">Cancel payment</button>
</div>
</form>`;
  }

  function notFound(reply: FastifyReply): FastifyReply {
    return sendPage(
      reply,
      page({
        title: 'Payment link not found',
        body: html`<p class="notice bad" role="status">This payment link is not valid. Check that you opened the complete link you were given, or ask the merchant for a new one.</p>`,
      }),
      404,
    );
  }

  app.get<{ Params: { token: string } }>('/pay/:token', { schema: { hide: true } }, async (request, reply) => {
    const found = store.payments.getByToken(request.params.token);
    if (!found) return notFound(reply);
    journalAs(request, found.partner_id);
    // the payer is looking at it now: from here on the payer decides (or the link expires); a HEAD
    // (link checkers) only looks
    const p =
      request.method === 'GET'
        ? (engine.worldOf(found.partner_id).paymentPageOpened(found.id, causeOf(request, 'hosted_page', 'opened')) ?? found)
        : found;
    return render(reply, p);
  });

  app.post<{ Params: { token: string } }>('/pay/:token', { schema: { hide: true } }, async (request, reply) => {
    const p = store.payments.getByToken(request.params.token);
    if (!p) return notFound(reply);
    journalAs(request, p.partner_id);
    const location = `/pay/${encodeURIComponent(request.params.token)}`;
    if (!awaitsPayer(p) || linkExpired(p)) return linkExpired(p) ? render(reply, p) : seeOther(reply, location);

    const values = formFields(request.body);
    const errors: FieldErrors = {};
    const decision = values.decision as PayerDecision;
    if (!PAYER_DECISIONS.includes(decision)) errors.decision = 'Choose Approve payment, Reject at the bank or Cancel payment.';
    const bank = values.bankId ? bankById(values.bankId) : undefined;
    if (decision !== 'abandon') {
      if (!values.bankId) errors.bankId = 'Choose your bank.';
      else if (!bank) errors.bankId = 'Choose one of the banks in the list.';
    }
    if (Object.keys(errors).length > 0) return render(reply, p, { values, errors });

    try {
      // one transaction: approving also settles (or, 666.66, rejects) at once, so the payer sees the result
      const world = engine.worldOf(p.partner_id);
      store.tx(() => {
        for (const [i, trigger] of payerDecisionTriggers(p, decision, world.settings).entries()) {
          world.payment(p.id, trigger, {
            ...(i === 0 && bank ? { bankId: bank.bankId } : {}),
            cause: causeOf(request, 'hosted_page', decision),
          });
        }
      });
    } catch (err) {
      // a timer or a control call moved the payment on in between: show what happened
      if (!(err instanceof ApiError) || err.code !== 'illegal_transition') throw err;
    }
    return seeOther(reply, location);
  });
}
