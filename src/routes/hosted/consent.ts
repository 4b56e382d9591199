/**
 * The sandbox bank's consent (authorization) page: GET/POST /consent/:token, where :token is
 * the secret part of the consent's authorizationUrl. Hidden from the OpenAPI document.
 *
 * GET shows the merchant, the user, the requested permissions and the date window, the sandbox
 * banks (fixtures/banks.ts) as radio buttons, and Authorize / Deny buttons in one real form.
 * POST (application/x-www-form-urlencoded: action=authorize|deny, bankId):
 *   - authorize -> status authorized, consentId set (engine), then 303 to
 *     callbackUrl?consentId=…&status=authorized&requestId=…  (no callbackUrl: a result page);
 *   - deny      -> status failed, errorMessage set, then 303 to
 *     callbackUrl?status=failed&error=access_denied&requestId=…  (no callbackUrl: a result page).
 * A consent that is no longer pending shows a page saying so (409 on POST; no second transition);
 * an expired one says it expired (410). An unknown token is a 404 page.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SANDBOX_BANKS, bankById } from '../../../fixtures/banks.js';
import { consentPermissions, type ConsentPermission, type ConsentRow } from '../../store/consents.js';
import { errorSummary, formFields, radioGroup, seeOther } from './forms.js';
import { html, messagePage, page, sendPage } from './layout.js';

const PERMISSION_LABELS: Record<ConsentPermission, string> = {
  ReadAccountsDetail: 'See your account details (account names, numbers and IBANs)',
  ReadBalances: 'See your account balances',
  ReadTransactionsDetail: 'See your transactions, with amounts, descriptions and counterparties',
};

const DENIED_MESSAGE = 'The user denied access at the bank';

const day = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** callbackUrl with the result appended to its query string. */
export function callbackLocation(callbackUrl: string, params: Record<string, string>): string {
  const url = new URL(callbackUrl);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

export async function consentPages(app: FastifyInstance): Promise<void> {
  const { store, clock, engine } = app;

  function merchantName(row: ConsentRow): string {
    return store.merchants.getAny(row.merchant_id)?.company_name ?? `Merchant ${row.merchant_id}`;
  }

  function notPendingPage(reply: FastifyReply, row: ConsentRow, onPost: boolean): FastifyReply {
    switch (row.status) {
      case 'expired':
        return sendPage(
          reply,
          messagePage('This consent request has expired', `It expired at ${day(row.expiration_date_time)}. Return to ${merchantName(row)} and start again.`, 'bad'),
          410,
        );
      case 'authorized':
        return sendPage(reply, messagePage('Consent already authorized', `You already gave ${merchantName(row)} access. Nothing was changed.`, 'ok'), onPost ? 409 : 200);
      case 'failed':
        return sendPage(reply, messagePage('Consent already declined', `This request was declined: ${row.error_message ?? 'failed'}. Nothing was changed.`, 'bad'), onPost ? 409 : 200);
      default:
        return sendPage(reply, messagePage('Consent revoked', 'This consent has been revoked. Nothing was changed.', 'bad'), onPost ? 409 : 200);
    }
  }

  function formPage(row: ConsentRow, error?: string): string {
    const merchant = merchantName(row);
    const perms = consentPermissions(row);
    const errors: Record<string, string> = error ? { bankId: error } : {};
    return page({
      title: `${merchant} asks for access to your accounts`,
      brand: 'Sandbox bank authorization',
      body: html`${errorSummary(errors, ['bankId'], { bankId: 'Bank' })}
<p><strong>${merchant}</strong> would like to read the following from your bank:</p>
<ul class="plain">${perms.map((p) => html`<li>${PERMISSION_LABELS[p]} <small>(${p})</small></li>`)}</ul>
<dl>
<dt>User</dt><dd>${row.user_id}</dd>
<dt>Transactions from</dt><dd>${day(row.transaction_from_date_time)}</dd>
<dt>Access until</dt><dd>${day(row.expiration_date_time)}</dd>
<dt>Request id</dt><dd>${row.request_id}</dd>
</dl>
<form method="post" action="">
${radioGroup({
  name: 'bankId',
  legend: 'Choose your bank',
  hint: 'Sandbox banks: no real bank is contacted and no credentials are needed.',
  options: SANDBOX_BANKS.map((b) => ({ value: b.bankId, label: b.name, hint: `${b.country} · ${b.currency}` })),
  value: row.bank_id,
  error,
  focus: Boolean(error),
  required: true,
})}
<div class="actions">
<button type="submit" name="action" value="authorize">Authorize access</button>
<button type="submit" name="action" value="deny" class="danger" formnovalidate>Deny</button>
</div>
</form>`,
    });
  }

  app.get<{ Params: { token: string } }>('/consent/:token', { schema: { hide: true } }, async (request, reply) => {
    const row = store.consents.getByToken(request.params.token, clock.nowMs());
    if (!row) return sendPage(reply, messagePage('Consent request not found', 'This link is not valid. Ask the service that sent you here for a new one.', 'bad'), 404);
    if (row.status !== 'pending') return notPendingPage(reply, row, false);
    return sendPage(reply, formPage(row));
  });

  app.post<{ Params: { token: string } }>('/consent/:token', { schema: { hide: true } }, async (request, reply) => {
    const row = store.consents.getByToken(request.params.token, clock.nowMs());
    if (!row) return sendPage(reply, messagePage('Consent request not found', 'This link is not valid.', 'bad'), 404);
    if (row.status !== 'pending') return notPendingPage(reply, row, true);
    const form = formFields(request.body);

    if (form.action === 'deny') {
      engine.consent(row.request_id, 'deny', { errorMessage: DENIED_MESSAGE });
      const updated = store.consents.get(row.request_id, clock.nowMs())!;
      if (updated.callback_url) {
        return seeOther(reply, callbackLocation(updated.callback_url, { status: 'failed', error: 'access_denied', requestId: updated.request_id }));
      }
      return sendPage(reply, messagePage('Access denied', `You declined ${merchantName(updated)}'s request. You can close this page.`, 'bad'));
    }

    if (form.action !== 'authorize') return sendPage(reply, formPage(row, 'Choose Authorize access or Deny'), 400);
    const bank = form.bankId ? bankById(form.bankId) : undefined;
    if (!bank) return sendPage(reply, formPage(row, 'Choose your bank'), 400);
    engine.consent(row.request_id, 'authorize', { bankId: bank.bankId });
    const updated = store.consents.get(row.request_id, clock.nowMs())!;
    if (updated.callback_url) {
      return seeOther(
        reply,
        callbackLocation(updated.callback_url, { consentId: updated.consent_id ?? '', status: updated.status, requestId: updated.request_id }),
      );
    }
    return sendPage(
      reply,
      messagePage('Access authorized', html`${merchantName(updated)} can now read your accounts. Consent id: <code>${updated.consent_id}</code>. You can close this page.`, 'ok'),
    );
  });
}
