/**
 * The double's sandbox controls (test/helpers/foreign/provider.ts): the clock, the actions the
 * shipped scenarios take on merchants, payments, consents and deliveries, the delivery log, bank
 * profiles and a payment's transitions, at obsim's control paths (the scenarios call them), each
 * answer the double's own.
 */
import { consentNow } from './ais.js';
import { moveMerchant, movePayment, paymentView, type Emit } from './partner.js';
import { fail, type Req, type Res, type Route } from './http.js';
import { BANKS, hex, type Delivery, type Merchant, type MerchantStatus, type Payment, type World } from './state.js';

const illegal = (what: string, status: string) => fail(409, 'illegal_transition', `Cannot ${what} from ${status}`);

/** Which merchant statuses each action moves from, and to. */
const MERCHANT_ACTIONS: Record<string, { from: MerchantStatus[]; to: MerchantStatus }> = {
  'submit-onboarding': { from: ['pending_onboarding', 'pending_completion', 'pending_partner_ais'], to: 'awaiting_approval' },
  'complete-fast-track': { from: ['pending_partner_ais'], to: 'awaiting_approval' },
  approve: { from: ['awaiting_approval'], to: 'activated' },
  reject: { from: ['awaiting_approval'], to: 'rejected' },
  deactivate: { from: ['activated'], to: 'inactive' },
  reactivate: { from: ['inactive'], to: 'activated' },
};
const PAYMENT_ACTIONS: Record<string, { from: Payment['status'][]; to: Payment['status']; reason?: string }> = {
  approve: { from: ['pending'], to: 'processing' },
  complete: { from: ['pending', 'processing'], to: 'paid' },
  fail: { from: ['pending', 'processing'], to: 'failed', reason: 'bank_rejected' },
  abandon: { from: ['pending'], to: 'failed', reason: 'payer_abandoned' },
  expire: { from: ['pending'], to: 'failed', reason: 'expired' },
};

const bankHealth = (world: World, bankId: string) => {
  const p = world.banks.get(bankId);
  return p?.downUntil !== undefined && p.downUntil > world.now() ? 'down' : 'healthy';
};

export function controlRoutes(world: World, emit: Emit, redeliver: (d: Delivery) => Delivery): Route[] {
  const mine = <T extends { partner: string }>(req: Req, found: T | undefined) =>
    found && found.partner === req.partner!.clientId ? found : undefined;
  const deliveryView = (d: Delivery) => ({
    id: d.id,
    eventId: d.eventId,
    event: d.event,
    webhookId: d.hook.id,
    url: d.hook.url,
    state: d.state,
    statusCode: d.statusCode,
    body: d.body,
    signature: d.signature,
    redeliveryOf: d.redeliveryOf,
    createdAt: world.iso(d.createdAt),
  });
  const bankView = (bankId: string) => {
    const p = world.banks.get(bankId);
    return { bankId, health: bankHealth(world, bankId), profile: p ? { profile: p.profile, seed: 1 } : null };
  };

  return [
    {
      method: 'GET',
      pattern: '/_sandbox/clock',
      auth: 'partner',
      handle: () => ({ status: 200, json: { now: world.iso(), frozen: false, offsetMs: world.offsetMs } }),
    },
    {
      method: 'POST',
      pattern: '/_sandbox/clock/advance',
      auth: 'partner',
      handle: (req) => {
        const b = (req.body ?? {}) as { ms?: number; to?: string };
        const target = typeof b.ms === 'number' ? world.now() + b.ms : typeof b.to === 'string' ? Date.parse(b.to) : NaN;
        if (!Number.isFinite(target) || target < world.now())
          return fail(400, 'validation_failed', 'ms or a later instant `to` is required', { field: '/ms', in: 'body' });
        const fired = world.advanceTo(target);
        return { status: 200, json: { now: world.iso(), fired } };
      },
    },
    {
      method: 'POST',
      pattern: '/_sandbox/merchants/:merchantId/:action',
      auth: 'partner',
      handle: (req) => {
        const m = mine<Merchant>(req, world.merchants.get(Number(req.params.merchantId)));
        if (!m) return fail(404, 'merchant_not_found', 'Merchant not found');
        const action = MERCHANT_ACTIONS[req.params.action];
        if (!action) return fail(404, 'route_not_found', `No merchant action ${req.params.action}`);
        const previous = m.status;
        if (!action.from.includes(m.status) || (req.params.action === 'complete-fast-track' && m.subTppFailed))
          return illegal(req.params.action, m.status);
        moveMerchant(world, emit, m, action.to);
        return {
          status: 200,
          json: { merchantId: m.merchantId, status: m.status, previousStatus: previous, updatedAt: world.iso(m.updatedAt) },
        };
      },
    },
    {
      method: 'POST',
      pattern: '/_sandbox/payments/:paymentId/:action',
      auth: 'partner',
      handle: (req) => {
        const p = mine<Payment>(req, world.payments.get(Number(req.params.paymentId)));
        if (!p) return fail(404, 'payment_not_found', 'Payment not found');
        const action = PAYMENT_ACTIONS[req.params.action];
        if (!action) return fail(404, 'route_not_found', `No payment action ${req.params.action}`);
        if (!action.from.includes(p.status)) return illegal(req.params.action, p.status);
        const previous = p.status;
        const reason = (req.body as { reason?: unknown } | undefined)?.reason;
        movePayment(world, emit, p, action.to, { reason: typeof reason === 'string' ? reason : (action.reason ?? null) });
        return { status: 200, json: { ...paymentView(p, world), previousStatus: previous } };
      },
    },
    {
      method: 'POST',
      pattern: '/_sandbox/consents/:requestId/:action',
      auth: 'partner',
      handle: (req) => {
        const found = world.consents.get(req.params.requestId);
        const c = found && mine(req, found) ? consentNow(found, world) : undefined;
        if (!c) return fail(404, 'consent_not_found', 'Consent not found');
        const to = { authorize: 'authorized', deny: 'failed', revoke: 'revoked', expire: 'expired' }[req.params.action] as
          typeof c.status | undefined;
        if (!to) return fail(404, 'route_not_found', `No consent action ${req.params.action}`);
        if (c.status !== (to === 'revoked' ? 'authorized' : 'pending')) return illegal(req.params.action, c.status);
        c.status = to;
        c.updatedAt = world.now();
        if (to === 'authorized') c.consentId = `consent-${hex(10)}`;
        if (to === 'failed') c.errorMessage = 'Declined by the account holder';
        return {
          status: 200,
          json: {
            requestId: c.requestId,
            merchantId: c.merchantId,
            userId: c.userId,
            status: c.status,
            ...(c.consentId ? { consentId: c.consentId } : {}),
            ...(c.errorMessage ? { errorMessage: c.errorMessage } : {}),
            updatedAt: world.iso(c.updatedAt),
          },
        };
      },
    },
    {
      method: 'GET',
      pattern: '/_sandbox/deliveries',
      auth: 'partner',
      handle: (req) => {
        const hook = req.query.get('webhookId');
        const event = req.query.get('event');
        const limit = Number(req.query.get('limit') ?? 50);
        const all = world.deliveries
          .filter((d) => d.hook.partner === req.partner!.clientId && (!hook || d.hook.id === hook) && (!event || d.event === event))
          .sort((a, b) => b.id - a.id);
        return { status: 200, json: { items: all.slice(0, limit).map(deliveryView), total: all.length } };
      },
    },
    {
      method: 'POST',
      pattern: '/_sandbox/deliveries/:deliveryId/redeliver',
      auth: 'partner',
      handle: (req) => {
        const d = world.deliveries.find((x) => x.id === Number(req.params.deliveryId) && x.hook.partner === req.partner!.clientId);
        if (!d) return fail(404, 'delivery_not_found', 'Delivery not found');
        return { status: 200, json: deliveryView(redeliver(d)) };
      },
    },
    {
      method: 'GET',
      pattern: '/_sandbox/payments/:paymentId/transitions',
      auth: 'partner',
      handle: (req) => {
        const p = mine<Payment>(req, world.payments.get(Number(req.params.paymentId)));
        if (!p) return fail(404, 'payment_not_found', 'Payment not found');
        return { status: 200, json: { items: p.transitions.map((t) => ({ ...t, at: world.iso(t.at) })) } };
      },
    },
    {
      method: 'GET',
      pattern: '/_sandbox/banks/:bankId',
      auth: 'partner',
      handle: (req) => bank(req.params.bankId, () => bankView(req.params.bankId)),
    },
    {
      method: 'PUT',
      pattern: '/_sandbox/banks/:bankId',
      auth: 'partner',
      handle: (req) =>
        bank(req.params.bankId, () => {
          const profile = String((req.body as { profile?: unknown } | undefined)?.profile ?? '');
          if (profile === 'outage-1h') world.banks.set(req.params.bankId, { profile, downUntil: world.now() + 3_600_000 });
          else if (profile === 'app-approval-timeout') world.banks.set(req.params.bankId, { profile, decoupledNever: true });
          else if (profile === 'weekend-settlement') world.banks.set(req.params.bankId, { profile, businessDays: true });
          else return fail(400, 'validation_failed', `Unknown profile ${profile}`, { field: '/profile', in: 'body' });
          return bankView(req.params.bankId);
        }),
    },
    {
      method: 'DELETE',
      pattern: '/_sandbox/banks/:bankId',
      auth: 'partner',
      handle: (req) =>
        bank(req.params.bankId, () => {
          world.banks.delete(req.params.bankId);
          return bankView(req.params.bankId);
        }),
    },
  ];
}

function bank(bankId: string, answer: () => Res | object): Res {
  if (!BANKS.some((b) => b.bankId === bankId)) return fail(404, 'bank_not_found', `No bank ${bankId}`);
  const a = answer();
  return 'status' in a && typeof a.status === 'number' ? a : { status: 200, json: a };
}
