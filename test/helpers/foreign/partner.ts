/**
 * The double's partner API (test/helpers/foreign/provider.ts): merchants, payments and webhooks as
 * the provider's document describes them, with the double's own ids and links.
 */
import { fail, type Req, type Res, type Route } from './http.js';
import { DAY, hex, HOSTED, uuid, type Hook, type Merchant, type MerchantStatus, type Payment, type World } from './state.js';

export type Emit = (partnerId: string, event: string, data: Record<string, unknown>) => void;

const REGISTRY_FAILURES: Record<string, string> = {
  '00000000': 'Company registry lookup failed: registration number not found',
  '99999999': 'Sub-TPP creation rejected: the company is not active in the company registry',
};
const OPEN: MerchantStatus[] = ['pending_onboarding', 'pending_completion', 'pending_partner_ais'];
const reported = (s: MerchantStatus) => (s === 'pending_partner_ais' ? 'pending_completion' : s);
/** A status as events report it: the document names an activated merchant `active` there. */
export const webhookStatus = (s: MerchantStatus) => (s === 'activated' ? 'active' : reported(s));
const bad = (field: string, message: string) => fail(400, 'validation_failed', message, { field, in: 'body' });

function subTpp(m: Merchant): { id?: string; status: string } {
  if (m.status === 'pending_onboarding') return { status: m.subTppFailed ? 'failed' : 'not_created' };
  const status =
    m.status === 'activated' ? 'active' : m.status === 'inactive' ? 'inactive' : m.status === 'rejected' ? 'rejected' : 'created';
  return { id: m.subTppId, status };
}

export function merchantEvent(world: World, m: Merchant, previous: MerchantStatus) {
  return {
    merchantId: m.merchantId,
    clientId: m.clientId,
    companyName: m.companyName,
    status: webhookStatus(m.status),
    previousStatus: webhookStatus(previous),
    timestamp: world.iso(),
  };
}

export function paymentView(p: Payment, world: World) {
  return {
    paymentId: p.paymentId,
    status: p.status,
    bankPaymentStatus: p.bankPaymentStatus,
    failureReason: p.failureReason,
    amount: p.amount,
    currency: 'DKK',
    referenceNumber: p.referenceNumber,
    merchantClientId: p.merchant.clientId,
    merchantName: p.merchant.companyName,
    paymentUrl: `${HOSTED}/checkout?session=${p.session}`,
    createdAt: world.iso(p.createdAt),
    updatedAt: world.iso(p.updatedAt),
    expiresAt: world.iso(p.expiresAt),
  };
}

export function paymentEvent(p: Payment, world: World) {
  return {
    paymentId: p.paymentId,
    referenceNumber: p.referenceNumber,
    status: p.status,
    amount: p.amount,
    currency: 'DKK',
    merchantClientId: p.merchant.clientId,
    merchantName: p.merchant.companyName,
    bankPaymentStatus: p.bankPaymentStatus,
    timestamp: world.iso(),
    ...(p.status === 'failed' ? { failureReason: p.failureReason } : {}),
  };
}

/** A payment moves on: its status, what the bank reports, the event and the transition. */
export function movePayment(
  world: World,
  emit: Emit,
  p: Payment,
  to: Payment['status'],
  how: { reason?: string | null; bank?: { bankId: string; rule: string }; bankStatus?: string } = {},
): void {
  const from = p.status;
  const reason = how.reason ?? null;
  p.status = to;
  p.failureReason = to === 'failed' ? reason : null;
  p.bankPaymentStatus =
    how.bankStatus ??
    (to === 'pending'
      ? 'Pending'
      : to === 'processing'
        ? 'AcceptedSettlementInProcess'
        : to === 'paid'
          ? 'AcceptedSettlementCompleted'
          : reason === 'bank_rejected'
            ? 'Rejected'
            : 'Cancelled');
  p.updatedAt = world.now();
  p.transitions.push({
    from,
    to,
    at: p.updatedAt,
    ...(to === 'failed' && reason ? { reason } : {}),
    ...(how.bank ? { bank: how.bank } : {}),
  });
  if (to === 'paid') emit(p.partner, 'payment.completed', paymentEvent(p, world));
  if (to === 'failed') emit(p.partner, 'payment.failed', paymentEvent(p, world));
}

export function moveMerchant(world: World, emit: Emit, m: Merchant, to: MerchantStatus): void {
  const previous = m.status;
  m.status = to;
  m.updatedAt = world.now();
  if (to === 'awaiting_approval') {
    emit(m.partner, 'merchant.onboarding.completed', merchantEvent(world, m, previous));
    // the regulator approves after thirty seconds of the clock
    world.at(world.now() + 30_000, () => {
      if (m.status === 'awaiting_approval') moveMerchant(world, emit, m, 'activated');
    });
  }
  if (to === 'activated') emit(m.partner, 'merchant.activated', merchantEvent(world, m, previous));
  if (to === 'inactive') emit(m.partner, 'merchant.deactivated', merchantEvent(world, m, previous));
}

function newMerchant(world: World, partner: string, kind: Merchant['kind'], fields: Partial<Merchant>): Merchant {
  const now = world.now();
  const m: Merchant = {
    merchantId: world.merchantId(),
    clientId: uuid(),
    partner,
    kind,
    companyName: '',
    status: 'pending_onboarding',
    subTppId: `sub-${hex(6)}`,
    subTppFailed: null,
    token: `ot${hex(10)}`,
    tokenExpiresAt: now + 7 * DAY,
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
  world.merchants.set(m.merchantId, m);
  return m;
}

const link = (m: Merchant) => `${HOSTED}/merchant-signup?t=${m.token}`;

export function partnerRoutes(world: World, emit: Emit, sendTest: (hook: Hook) => { id: number; eventId: string }): Route[] {
  const mine = (req: Req, id: number) => {
    const m = world.merchants.get(id);
    return m && m.partner === req.partner!.clientId ? m : undefined;
  };
  const body = (req: Req) => (req.body ?? {}) as Record<string, unknown>;
  const createPayment = (req: Req): Res => {
    const b = body(req);
    if (typeof b.merchantClientId !== 'string') return bad('/merchantClientId', 'merchantClientId is required');
    if (typeof b.amount !== 'number' || b.amount <= 0) return bad('/amount', 'amount must be greater than 0');
    if (typeof b.referenceNumber !== 'string') return bad('/referenceNumber', 'referenceNumber is required');
    const merchant = [...world.merchants.values()].find((m) => m.clientId === b.merchantClientId && m.partner === req.partner!.clientId);
    if (!merchant)
      return fail(404, 'merchant_not_found', `No merchant with clientId ${b.merchantClientId}`, { field: '/merchantClientId', in: 'body' });
    if (merchant.status !== 'activated')
      return fail(409, 'merchant_not_activated', 'The merchant is not activated', { field: '/merchantClientId', in: 'body' });
    const now = world.now();
    const p: Payment = {
      paymentId: world.paymentId(),
      partner: req.partner!.clientId,
      merchant,
      amount: b.amount,
      referenceNumber: b.referenceNumber,
      status: 'pending',
      bankPaymentStatus: 'Pending',
      failureReason: null,
      session: `ses${hex(12)}`,
      pageOpened: false,
      waitingForApp: null,
      createdAt: now,
      updatedAt: now,
      expiresAt: now + 30 * 60_000,
      transitions: [{ from: null, to: 'pending', at: now }],
    };
    world.payments.set(p.paymentId, p);
    // untouched for five seconds, it settles (the sandbox's amounts that decide otherwise aside);
    // the link expires after thirty minutes
    world.at(now + 5_000, () => {
      if (p.status !== 'pending' || p.pageOpened || p.amount === 888.88) return;
      if (p.amount === 666.66) movePayment(world, emit, p, 'failed', { reason: 'bank_rejected' });
      else if (p.amount === 777.77) movePayment(world, emit, p, 'failed', { reason: 'payer_abandoned' });
      else movePayment(world, emit, p, 'paid');
    });
    world.at(p.expiresAt, () => {
      if (p.status === 'pending')
        movePayment(world, emit, p, 'failed', {
          reason: 'expired',
          ...(p.waitingForApp ? { bank: { bankId: p.waitingForApp, rule: 'app_approval_expired' } } : {}),
        });
    });
    return { status: 200, json: paymentView(p, world) };
  };

  /** A new merchant's answer: who it is, its onboarding link, and what else the route adds after its email. */
  const created = (m: Merchant, extra: object = {}) => ({
    merchantId: m.merchantId,
    clientId: m.clientId,
    companyName: m.companyName,
    contactEmail: m.contactEmail,
    ...extra,
    onboardingUrl: link(m),
    onboardingToken: m.token,
    status: m.status,
    expiresAt: world.iso(m.tokenExpiresAt),
  });

  return [
    {
      method: 'POST',
      pattern: '/v1/partner/merchants',
      auth: 'partner',
      handle: (req) => {
        const b = body(req);
        if (typeof b.companyName !== 'string' || b.companyName === '') return bad('/companyName', 'companyName is required');
        if (typeof b.contactEmail !== 'string') return bad('/contactEmail', 'contactEmail is required');
        const m = newMerchant(world, req.partner!.clientId, 'standard', {
          companyName: b.companyName,
          contactEmail: b.contactEmail,
          ...(typeof b.partnerRefId === 'string' ? { partnerRefId: b.partnerRefId } : {}),
        });
        return { status: 200, json: created(m) };
      },
    },
    {
      method: 'POST',
      pattern: '/v1/partner/merchants/fast-track',
      auth: 'partner',
      handle: (req) => {
        const b = body(req);
        for (const f of ['companyName', 'contactEmail', 'registrationNumber', 'website', 'iban'])
          if (typeof b[f] !== 'string') return bad(`/${f}`, `${f} is required`);
        const failure = REGISTRY_FAILURES[String(b.registrationNumber).trim()] ?? null;
        const m = newMerchant(world, req.partner!.clientId, 'fast_track', {
          companyName: String(b.companyName),
          contactEmail: String(b.contactEmail),
          status: failure ? 'pending_onboarding' : 'pending_partner_ais',
          subTppFailed: failure,
        });
        const subTpp = {
          ...(failure ? {} : { subTppId: m.subTppId }),
          subTppStatus: failure ? 'failed' : 'created',
          subTppMessage: failure,
        };
        return { status: 200, json: created(m, subTpp) };
      },
    },
    {
      method: 'POST',
      pattern: '/v1/partner/merchants/test',
      auth: 'partner',
      handle: (req) => {
        const b = body(req);
        if (typeof b.companyName !== 'string' || b.companyName === '') return bad('/companyName', 'companyName is required');
        const m = newMerchant(world, req.partner!.clientId, 'test', { companyName: b.companyName, token: null });
        moveMerchant(world, emit, m, 'activated');
        return {
          status: 200,
          json: {
            merchantId: m.merchantId,
            clientId: m.clientId,
            companyName: m.companyName,
            status: m.status,
            message: 'A test merchant, active at once.',
          },
        };
      },
    },
    {
      method: 'GET',
      pattern: '/v1/partner/merchants',
      auth: 'partner',
      handle: (req) => {
        const page = Number(req.query.get('page') ?? 1);
        const limit = Number(req.query.get('limit') ?? 20);
        const all = [...world.merchants.values()]
          .filter((m) => m.partner === req.partner!.clientId)
          .sort((a, b) => a.merchantId - b.merchantId);
        const items = all.slice((page - 1) * limit, page * limit).map((m) => {
          const s = subTpp(m);
          return {
            merchantId: m.merchantId,
            clientId: m.clientId,
            companyName: m.companyName,
            type: m.kind,
            status: reported(m.status),
            subTppStatus: s.status,
            createdAt: world.iso(m.createdAt),
            updatedAt: world.iso(m.updatedAt),
            ...(m.contactEmail ? { contactEmail: m.contactEmail } : {}),
            ...(m.partnerRefId ? { partnerRefId: m.partnerRefId } : {}),
            ...(s.id ? { subTppId: s.id } : {}),
          };
        });
        return { status: 200, json: { items, page, limit, total: all.length } };
      },
    },
    {
      method: 'GET',
      pattern: '/v1/partner/merchants/:merchantId/onboarding-status',
      auth: 'partner',
      handle: (req) => {
        const m = mine(req, Number(req.params.merchantId));
        if (!m) return fail(404, 'merchant_not_found', 'Merchant not found');
        const s = subTpp(m);
        return {
          status: 200,
          json: {
            merchantId: m.merchantId,
            onboardingStatus: reported(m.status),
            subTppDetails: { status: s.status, isActivated: m.status === 'activated' },
            ...(s.id ? { subTppId: s.id } : {}),
          },
        };
      },
    },
    {
      method: 'POST',
      pattern: '/v1/partner/merchants/:merchantId/resend-onboarding',
      auth: 'partner',
      handle: (req) => {
        const m = mine(req, Number(req.params.merchantId));
        if (!m) return fail(404, 'merchant_not_found', 'Merchant not found');
        if (!OPEN.includes(m.status)) return fail(409, 'onboarding_closed', 'The merchant has finished onboarding');
        m.token = `ot${hex(10)}`;
        m.tokenExpiresAt = world.now() + 7 * DAY;
        return {
          status: 200,
          json: {
            merchantId: m.merchantId,
            onboardingUrl: link(m),
            onboardingToken: m.token,
            expiresAt: world.iso(m.tokenExpiresAt),
            status: reported(m.status),
          },
        };
      },
    },
    {
      method: 'POST',
      pattern: '/v1/partner/merchants/:merchantId/stores',
      auth: 'partner',
      handle: (req) => {
        const m = mine(req, Number(req.params.merchantId));
        if (!m) return fail(404, 'merchant_not_found', 'Merchant not found');
        if (m.status !== 'activated') return fail(409, 'merchant_not_activated', 'The merchant is not activated');
        const b = body(req);
        return {
          status: 200,
          json: {
            storeId: world.storeId(),
            merchantId: m.merchantId,
            name: b.name,
            address: b.address ?? null,
            mccCode: b.mccCode ?? null,
            partnerRefId: b.partnerRefId ?? null,
            createdAt: world.iso(),
          },
        };
      },
    },
    { method: 'POST', pattern: '/v1/partner/payments', auth: 'partner', handle: createPayment },
    {
      method: 'GET',
      pattern: '/v1/partner/payments/:paymentId/status',
      auth: 'partner',
      handle: (req) => {
        const p = world.payments.get(Number(req.params.paymentId));
        if (!p || p.partner !== req.partner!.clientId) return fail(404, 'payment_not_found', 'Payment not found');
        return { status: 200, json: paymentView(p, world) };
      },
    },
    {
      method: 'POST',
      pattern: '/v1/partner/webhooks',
      auth: 'partner',
      handle: (req) => {
        const b = body(req);
        if (typeof b.url !== 'string') return bad('/url', 'url is required');
        if (!Array.isArray(b.events) || b.events.length === 0) return bad('/events', 'events must not be empty');
        const hook: Hook = {
          id: `hook_${uuid()}`,
          partner: req.partner!.clientId,
          url: b.url,
          events: b.events as string[],
          secret: `dbl_${hex(20)}`,
          createdAt: world.now(),
        };
        world.hooks.set(hook.id, hook);
        return {
          status: 200,
          json: { id: hook.id, url: hook.url, events: hook.events, secret: hook.secret, createdAt: world.iso(hook.createdAt) },
        };
      },
    },
    {
      method: 'POST',
      pattern: '/v1/partner/webhooks/:id/test',
      auth: 'partner',
      handle: (req) => {
        const hook = world.hooks.get(req.params.id);
        if (!hook || hook.partner !== req.partner!.clientId) return fail(404, 'webhook_not_found', 'Webhook not found');
        const d = sendTest(hook);
        return { status: 200, json: { webhookId: hook.id, eventId: d.eventId, deliveryId: d.id, status: 'queued' } };
      },
    },
  ];
}
