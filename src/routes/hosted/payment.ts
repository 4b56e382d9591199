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
 * A bank with a profile (docs/banks.md) may change what approving does: a down bank is refused
 * (the form again, 400, the other banks offered), a decoupled bank sends the payer to its app (a
 * waiting page until the approval arrives on the sandbox clock, or the payment expires; only
 * cancelling is left), a degraded or business-days bank leaves the payment processing.
 * A valid POST answers 303 See Other back to GET /pay/:token (POST-redirect-GET); an invalid one
 * (no bank chosen, unknown decision) re-renders the form with the error next to the field, 400.
 * A POST on a payment that is no longer pending also redirects: the GET shows what happened.
 */
import { journalAs } from '../../plugins/journal.js';
import { causeOf } from '../../plugins/tracing.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SANDBOX_BANKS, bankById } from '../../../fixtures/banks.js';
import { healthAt } from '../../domain/bank-profiles.js';
import { ApiError } from '../../domain/errors.js';
import {
  awaitsPayer,
  PAYER_DECISIONS,
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
        body: html`<p class="notice" role="status"><span class="status wait" data-status="processing">Processing</span> You approved the payment. ${
          p.bank_rule === 'next_business_day'
            ? 'The bank settles it on its next business day.'
            : 'The bank is settling it; this page shows the result when you reload it.'
        }</p>
${summary(p, merchantName)}
<form method="get" action="/pay/${store.payments.tokenFor(p.id)}"><div class="actions"><button type="submit">Check again</button></div></form>`,
      },
      200,
    ],
    pending: (p, merchantName, form) =>
      p.app_approval_requested_at !== null
        ? [{ title: 'Approve in your banking app', body: appWaiting(p, merchantName) }, 200]
        : [
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

  /** The payer was sent to the bank's app: wait (reload), or cancel the payment. */
  function appWaiting(p: PaymentRow, merchantName: string): RawHtml {
    const bank = p.bank_id ? (bankById(p.bank_id)?.name ?? p.bank_id) : 'your bank';
    const action = `/pay/${store.payments.tokenFor(p.id)}`;
    return html`<p class="notice" role="status"><span class="status wait" data-status="awaiting-app">Waiting</span> Open the ${bank} app on your phone and approve the payment there. This page shows the result when you reload it; the payment link expires at ${p.expires_at}.</p>
${summary(p, merchantName)}
<form method="get" action="${action}"><div class="actions"><button type="submit">Check again</button></div></form>
<form method="post" action="${action}"><div class="actions"><button type="submit" name="decision" value="abandon" class="secondary">Cancel payment</button></div></form>`;
  }

  /** A bank's line in the choice: its country and BIC, and whether it is down right now. */
  function bankOptions(p: PaymentRow) {
    const world = engine.worldOf(p.partner_id);
    return SANDBOX_BANKS.map((b) => {
      const down = healthAt(engine.banks.of(world.id, b.bankId)?.profile, world.clock.nowMs()) === 'down';
      return { value: b.bankId, label: b.name, hint: `${b.country} · BIC ${b.bic}${down ? ' · unavailable right now' : ''}` };
    });
  }

  /** The error beside the bank choice when the chosen bank is down. */
  function bankErrors(bankId: string): string {
    return `${bankById(bankId)?.name ?? bankId} is unavailable right now. Choose another bank, or cancel the payment.`;
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
  options: bankOptions(p),
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
    // waiting for the app: only cancelling is left to the page
    if (p.app_approval_requested_at !== null && decision !== 'abandon') return seeOther(reply, location);
    if (!PAYER_DECISIONS.includes(decision)) errors.decision = 'Choose Approve payment, Reject at the bank or Cancel payment.';
    const bank = values.bankId ? bankById(values.bankId) : undefined;
    if (decision !== 'abandon') {
      if (!values.bankId) errors.bankId = 'Choose your bank.';
      else if (!bank) errors.bankId = 'Choose one of the banks in the list.';
    }
    if (Object.keys(errors).length > 0) return render(reply, p, { values, errors });

    try {
      const world = engine.worldOf(p.partner_id);
      const outcome = world.payerDecides(p.id, decision, bank?.bankId, causeOf(request, 'hosted_page', decision));
      if (outcome === 'unavailable') {
        return render(reply, store.payments.getAny(p.id) ?? p, { values, errors: { bankId: bankErrors(bank!.bankId) } });
      }
    } catch (err) {
      // a timer or a control call moved the payment on in between: show what happened
      if (!(err instanceof ApiError) || err.code !== 'illegal_transition') throw err;
    }
    return seeOther(reply, location);
  });
}
