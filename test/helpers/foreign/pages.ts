/**
 * The double's hosted pages (test/helpers/foreign/provider.ts), at the double's own layout: the
 * payer's checkout at `/checkout?session=…` and the merchant's signup form at
 * `/merchant-signup?t=…`, the token in a query parameter where obsim puts it in the path.
 */
import escapeHtml from 'escape-html';
import { moveMerchant, movePayment, type Emit } from './partner.js';
import type { Res, Route } from './http.js';
import { BANKS, DAY, type Payment, type World } from './state.js';

const page = (status: number, title: string, body: string): Res => ({
  status,
  html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`,
});
const seeOther = (location: string): Res => ({ status: 303, headers: { location } });

/** Cut-off 15:00 and opening 09:00, the bank's local time, Monday to Friday. */
function settlesAt(nowMs: number, timeZoneHours: number): number | undefined {
  const local = new Date(nowMs + timeZoneHours * 3_600_000);
  const day = local.getUTCDay();
  const hour = local.getUTCHours();
  if (day >= 1 && day <= 5 && hour < 15) return undefined;
  let next = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) + DAY;
  while ([0, 6].includes(new Date(next).getUTCDay())) next += DAY;
  return next + 9 * 3_600_000 - timeZoneHours * 3_600_000;
}

export function hostedRoutes(world: World, emit: Emit): Route[] {
  const paymentOf = (session: string | null): Payment | undefined => [...world.payments.values()].find((p) => p.session === session);
  const down = (bankId: string) => (world.banks.get(bankId)?.downUntil ?? 0) > world.now();

  return [
    {
      method: 'GET',
      pattern: '/checkout',
      auth: 'none',
      handle: (req) => {
        const p = paymentOf(req.query.get('session'));
        if (!p) return page(404, 'Not found', '<p>This checkout does not exist.</p>');
        p.pageOpened = true;
        const status = p.waitingForApp ? 'awaiting-app' : p.status;
        const banks = BANKS.map(
          (b) =>
            `<li><label><input type="radio" name="bankId" value="${b.bankId}"${down(b.bankId) ? ' disabled' : ''}> ${escapeHtml(b.name)}${
              down(b.bankId) ? ' <span class="hint">is unavailable right now</span>' : ''
            }</label></li>`,
        ).join('');
        return page(
          200,
          'Checkout',
          `<main data-status="${status}"><h1>Pay ${p.amount.toFixed(2)} DKK to ${escapeHtml(p.merchant.companyName)}</h1><form method="post"><ul>${banks}</ul><button name="decision" value="approve">Pay</button><button name="decision" value="cancel">Cancel</button></form></main>`,
        );
      },
    },
    {
      method: 'POST',
      pattern: '/checkout',
      auth: 'none',
      handle: (req) => {
        const p = paymentOf(req.query.get('session'));
        if (!p) return page(404, 'Not found', '<p>This checkout does not exist.</p>');
        if (p.status !== 'pending' || p.waitingForApp) return page(409, 'Checkout', '<p>This payment is no longer waiting for you.</p>');
        const back = `${req.path}?session=${p.session}`;
        if (req.form.get('decision') === 'cancel') {
          movePayment(world, emit, p, 'failed', { reason: 'payer_cancelled' });
          return seeOther(back);
        }
        const bank = BANKS.find((b) => b.bankId === req.form.get('bankId'));
        if (!bank) return page(400, 'Checkout', '<p>Choose your bank.</p>');
        if (down(bank.bankId))
          return page(400, 'Checkout', `<p>${escapeHtml(bank.name)} is unavailable right now. Choose another bank.</p>`);
        const profile = world.banks.get(bank.bankId);
        if (profile?.decoupledNever) {
          // the bank asks the payer to approve in its app; this payer never does (the link expires)
          p.waitingForApp = bank.bankId;
          return seeOther(back);
        }
        if (p.amount === 666.66) {
          movePayment(world, emit, p, 'failed', { reason: 'bank_rejected' });
          return seeOther(back);
        }
        const later = profile?.businessDays ? settlesAt(world.now(), bank.timeZoneHours) : undefined;
        if (later === undefined) movePayment(world, emit, p, 'paid');
        else {
          movePayment(world, emit, p, 'processing', { bankStatus: 'AcceptedCustomerProfile' });
          world.at(later, () => {
            if (p.status === 'processing') movePayment(world, emit, p, 'paid');
          });
        }
        return seeOther(back);
      },
    },
    {
      method: 'GET',
      pattern: '/merchant-signup',
      auth: 'none',
      handle: (req) => {
        const t = req.query.get('t') ?? '';
        const m = [...world.merchants.values()].find((x) => x.token === t);
        if (!m) return page(t.startsWith('ot') ? 410 : 404, 'Signup', '<p>This signup link is no longer valid. Ask for a new one.</p>');
        if (m.tokenExpiresAt <= world.now()) return page(410, 'Signup', '<p>This signup link has expired. Ask for a new one.</p>');
        return page(
          200,
          'Signup',
          `<h1>${escapeHtml(m.companyName)}</h1><form method="post"><input name="registrationNumber"><input name="iban"><button name="action" value="submit">Send</button></form>`,
        );
      },
    },
    {
      method: 'POST',
      pattern: '/merchant-signup',
      auth: 'none',
      handle: (req) => {
        const t = req.query.get('t') ?? '';
        const m = [...world.merchants.values()].find((x) => x.token === t);
        if (!m || m.tokenExpiresAt <= world.now()) return page(410, 'Signup', '<p>This signup link has expired.</p>');
        if (req.form.get('action') !== 'submit') return page(400, 'Signup', '<p>Nothing to do.</p>');
        if (!['pending_onboarding', 'pending_completion', 'pending_partner_ais'].includes(m.status))
          return page(409, 'Signup', '<p>This signup is already complete.</p>');
        moveMerchant(world, emit, m, 'awaiting_approval');
        return seeOther(`${req.path}?t=${t}`);
      },
    },
  ];
}
