/**
 * The sandbox bank's consent (authorization) page: GET/POST /consent/:token, where :token is
 * the secret part of the consent's authorizationUrl. Hidden from the OpenAPI document.
 *
 * GET shows the merchant, the user, the requested permissions and the date window, the sandbox
 * banks (fixtures/banks.ts) as radio buttons, and Authorize / Deny buttons in one real form.
 * POST (application/x-www-form-urlencoded: action=authorize|deny, bankId):
 *   - authorize -> status authorized, consentId set (engine), then 303 to
 *     callbackUrl?consentId=…&status=authorized&requestId=…;
 *   - deny      -> status failed, errorMessage set, then 303 to
 *     callbackUrl?status=failed&error=access_denied&requestId=…;
 *   - without callbackUrl, and for a consent that is no longer pending: 303 back to the same URL
 *     (POST-redirect-GET, like the other hosted pages), whose GET shows the outcome — so a
 *     reload never decides twice.
 * GET of a decided consent shows the result (authorized with its consent id, declined, revoked);
 * an expired one says it expired (410). An unknown token is a 404 page. A missing or unknown
 * bank, or one that is down (its profile, docs/banks.md), re-renders the form with the error (400).
 * A bank that grants shorter consents shortens the consent as it is authorized.
 */
import { journalAs } from '../../plugins/journal.js';
import { causeOf } from '../../plugins/tracing.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SANDBOX_BANKS, bankById } from '../../../fixtures/banks.js';
import { healthAt } from '../../domain/bank-profiles.js';
import { awaitsUser, consentPermissions, DENIED_ON_BANK_PAGE, type ConsentPermission, type ConsentStatus } from '../../domain/consent.js';
import type { ConsentRow } from '../../domain/consent.js';
import { errorSummary, formFields, radioGroup, seeOther } from './forms.js';
import { html, messagePage, page, sendPage } from './layout.js';

const PERMISSION_LABELS: Record<ConsentPermission, string> = {
  ReadAccountsDetail: 'See your account details (account names, numbers and IBANs)',
  ReadBalances: 'See your account balances',
  ReadTransactionsDetail: 'See your transactions, with amounts, descriptions and counterparties',
};

const day = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** callbackUrl with the result appended to its query string. */
export function callbackLocation(callbackUrl: string, params: Record<string, string>): string {
  const url = new URL(callbackUrl);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

export async function consentPages(app: FastifyInstance): Promise<void> {
  const { store, engine } = app;
  /** The sandbox of a consent: its merchant's partner's. */
  const partnerOf = (row: ConsentRow) => store.merchants.getAny(row.merchant_id)?.partner_id ?? '';
  const worldOf = (row: ConsentRow) => engine.worldOf(partnerOf(row));
  /** The consent of a page token, as it is now (expired once its instant has passed). */
  const byToken = (token: string): ConsentRow | undefined => {
    const row = store.consents.getByToken(token);
    return row && worldOf(row).consentAsOf(row);
  };

  /** The bank is down right now in the consent's sandbox (docs/banks.md): the page offers the others. */
  function bankDown(row: ConsentRow, bankId: string): boolean {
    const world = worldOf(row);
    return healthAt(engine.banks.of(world.id, bankId)?.profile, world.clock.nowMs()) === 'down';
  }

  function merchantName(row: ConsentRow): string {
    return store.merchants.getAny(row.merchant_id)?.company_name ?? `Merchant ${row.merchant_id}`;
  }

  /** The page for a consent that is no longer pending (GET only; POSTs redirect here), by status. */
  const RESULT_PAGES: Record<Exclude<ConsentStatus, 'pending'>, (row: ConsentRow) => [string, number]> = {
    expired: (row) => [
      messagePage(
        'This consent request has expired',
        `It expired at ${day(row.expiration_date_time)}. Return to ${merchantName(row)} and start again.`,
        'bad',
      ),
      410,
    ],
    authorized: (row) => [
      messagePage(
        'Access authorized',
        html`${merchantName(row)} can now read your accounts until ${day(row.expiration_date_time)}. Consent id: <code>${row.consent_id}</code>. You can close this page.`,
        'ok',
      ),
      200,
    ],
    failed: (row) => [
      messagePage(
        'Access denied',
        `You declined ${merchantName(row)}'s request (${row.error_message ?? 'failed'}). You can close this page.`,
        'bad',
      ),
      200,
    ],
    revoked: (row) => [
      messagePage('Consent revoked', `${merchantName(row)} can no longer read your accounts with this consent.`, 'bad'),
      200,
    ],
  };

  function resultPage(reply: FastifyReply, row: ConsentRow): FastifyReply {
    const [document, status] = RESULT_PAGES[row.status as Exclude<ConsentStatus, 'pending'>](row);
    return sendPage(reply, document, status);
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
  options: SANDBOX_BANKS.map((b) => ({
    value: b.bankId,
    label: b.name,
    hint: `${b.country} · ${b.currency}${bankDown(row, b.bankId) ? ' · unavailable right now' : ''}`,
  })),
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
    const row = byToken(request.params.token);
    if (row) journalAs(request, partnerOf(row));
    if (!row)
      return sendPage(
        reply,
        messagePage('Consent request not found', 'This link is not valid. Ask the service that sent you here for a new one.', 'bad'),
        404,
      );
    if (!awaitsUser(row)) return resultPage(reply, row);
    return sendPage(reply, formPage(row));
  });

  app.post<{ Params: { token: string } }>('/consent/:token', { schema: { hide: true } }, async (request, reply) => {
    const row = byToken(request.params.token);
    if (row) journalAs(request, partnerOf(row));
    if (!row) return sendPage(reply, messagePage('Consent request not found', 'This link is not valid.', 'bad'), 404);
    const self = `/consent/${encodeURIComponent(request.params.token)}`;
    if (!awaitsUser(row)) return seeOther(reply, self); // already decided or expired: show it, change nothing
    const form = formFields(request.body);

    if (form.action === 'deny') {
      const denied = worldOf(row).consent(row.request_id, 'deny', {
        errorMessage: DENIED_ON_BANK_PAGE,
        cause: causeOf(request, 'hosted_page', 'deny'),
      });
      if (!row.callback_url) return seeOther(reply, self);
      return seeOther(
        reply,
        callbackLocation(row.callback_url, { status: denied.status, error: 'access_denied', requestId: row.request_id }),
      );
    }

    if (form.action !== 'authorize') return sendPage(reply, formPage(row, 'Choose Authorize access or Deny'), 400);
    const bank = form.bankId ? bankById(form.bankId) : undefined;
    if (!bank) return sendPage(reply, formPage(row, 'Choose your bank'), 400);
    if (bankDown(row, bank.bankId)) {
      return sendPage(reply, formPage(row, `${bank.name} is unavailable right now. Choose another bank, or deny the request.`), 400);
    }
    worldOf(row).consent(row.request_id, 'authorize', { bankId: bank.bankId, cause: causeOf(request, 'hosted_page', 'authorize') });
    const updated = store.consents.get(row.request_id)!;
    if (!updated.callback_url) return seeOther(reply, self);
    return seeOther(
      reply,
      callbackLocation(updated.callback_url, {
        consentId: updated.consent_id ?? '',
        status: updated.status,
        requestId: updated.request_id,
      }),
    );
  });
}
