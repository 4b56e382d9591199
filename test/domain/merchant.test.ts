/** Merchant rules as pure functions: no database, no app. */
import t from 'tap';
import { ApiError } from '../../src/domain/errors.js';
import {
  assertActivated,
  assertOnboardingOpen,
  decideMerchant,
  merchantEventData,
  merchantTimer,
  newMerchant,
  newOnboardingLink,
  ONBOARDING_LINK_TTL_MS,
  onboardingLinkState,
  reportedStatus,
  subTpp,
} from '../../src/domain/merchant.js';
import { FAST_TRACK_MAGIC } from '../../src/domain/magic.js';
import { NOW, PRODUCTION, SANDBOX } from '../helpers/domain.js';
import type { MerchantRow } from '../../src/domain/merchant.js';

function row(over: Partial<MerchantRow> = {}): MerchantRow {
  return {
    id: 100002,
    partner_id: 'p',
    client_id: 'c-1',
    kind: 'standard',
    status: 'pending_onboarding',
    company_name: 'Acme ApS',
    contact_email: null,
    contact_phone: null,
    partner_ref_id: null,
    details: '{}',
    sub_tpp_id: 'stpp_1',
    sub_tpp_status: null,
    sub_tpp_message: null,
    onboarding_token: 'onb_x',
    onboarding_expires_at: null,
    created_at: '2026-01-15T09:00:00.000Z',
    updated_at: '2026-01-15T09:00:00.000Z',
    ...over,
  };
}

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('did not throw');
}

t.test('a new merchant: initial fields per way of creation', async (t) => {
  const link = newOnboardingLink(NOW);
  t.match(link.token, /^onb_[A-Za-z0-9_-]{24}$/);
  t.equal(Date.parse(link.expiresAt) - NOW, ONBOARDING_LINK_TTL_MS, 'link valid 7 days');

  const standard = newMerchant('p', { kind: 'standard', contact: { companyName: 'A', contactEmail: 'a@x.dk' }, link });
  t.match(standard, {
    kind: 'standard',
    status: 'pending_onboarding',
    sub_tpp_status: null,
    onboarding_token: link.token,
    onboarding_expires_at: link.expiresAt,
    contact_phone: null,
  });

  const ok = newMerchant('p', {
    kind: 'fast_track',
    contact: { companyName: 'F' },
    link,
    details: { fastTrack: { x: 1 } },
    failure: undefined,
  });
  t.match(ok, {
    kind: 'fast_track',
    status: 'pending_completion',
    sub_tpp_status: 'created',
    sub_tpp_message: null,
    details: '{"fastTrack":{"x":1}}',
  });

  const failed = newMerchant('p', { kind: 'fast_track', contact: { companyName: 'F' }, link, details: {}, failure: FAST_TRACK_MAGIC[0] });
  t.match(failed, { status: 'pending_onboarding', sub_tpp_status: 'failed', sub_tpp_message: FAST_TRACK_MAGIC[0].subTppMessage });

  t.match(newMerchant('p', { kind: 'test', companyName: 'T' }), {
    kind: 'test',
    status: 'activated',
    sub_tpp_status: 'created',
    onboarding_token: null,
  });
  t.match(newMerchant('p', { kind: 'seed', companyName: 'S', contactEmail: 's@x', partnerRefId: 'ref' }), {
    kind: 'test',
    status: 'activated',
    partner_ref_id: 'ref',
    details: '{"seeded":true}',
  });
  t.match(standard.sub_tpp_id, /^stpp_[0-9a-f]{20}$/, 'a sub-TPP id is allocated at creation');
});

t.test('only an activated merchant may take payments, get stores, consents and tokens', async (t) => {
  t.doesNotThrow(() => assertActivated({ id: 1, status: 'activated' }, 'payments'));
  const cases = [
    ['payments', 'merchantClientId', 'Merchant 7 is inactive; only an activated merchant can take payments'],
    ['stores', undefined, 'Merchant 7 is inactive; stores can be added once it is activated'],
    ['consents', 'merchantId', 'The merchant is not activated'],
  ] as const;
  for (const [purpose, field, message] of cases) {
    const err = errorOf(() => assertActivated({ id: 7, status: 'inactive' }, purpose));
    t.match(err, { code: 'merchant_not_activated', status: 409, field, message }, purpose);
  }
  // generate-token's contract lists 200, 400 and 500 only
  t.match(
    errorOf(() => assertActivated({ id: 7, status: 'inactive' }, 'tokens')),
    {
      code: 'merchant_id_not_activated',
      status: 400,
      field: 'merchantId',
      message: 'Merchant 7 is inactive; tokens are issued for activated merchants only',
    },
  );
});

t.test('onboarding links: open, expired at the instant, closed once onboarding is over', async (t) => {
  const expiresAt = new Date(NOW + 1000).toISOString();
  t.equal(onboardingLinkState({ status: 'pending_onboarding', onboarding_expires_at: expiresAt }, NOW + 999), 'open');
  t.equal(onboardingLinkState({ status: 'pending_completion', onboarding_expires_at: expiresAt }, NOW + 1000), 'expired');
  t.equal(onboardingLinkState({ status: 'awaiting_approval', onboarding_expires_at: expiresAt }, NOW), 'closed');
  t.doesNotThrow(() => assertOnboardingOpen({ id: 1, status: 'pending_partner_ais' }));
  t.match(
    errorOf(() => assertOnboardingOpen({ id: 1, status: 'activated' })),
    { code: 'onboarding_closed', status: 409 },
  );
});

t.test('decideMerchant: the table decides, details merge, events named', async (t) => {
  const { change, events } = decideMerchant(row({ details: '{"a":1}' }), 'submit_onboarding', { onboarding: { b: 2 } }, NOW + 5);
  t.same(change, { status: 'awaiting_approval', details: '{"a":1,"onboarding":{"b":2}}', updated_at: '2026-01-15T09:00:00.005Z' });
  t.same(events, ['merchant.onboarding.completed']);
  t.equal(
    decideMerchant(row({ details: 'not json' }), 'activate', undefined, NOW).change.details,
    'not json',
    'details untouched without data',
  );
  t.match(
    errorOf(() => decideMerchant(row({ status: 'activated' }), 'approve', undefined, NOW)),
    { code: 'illegal_transition', status: 409 },
  );
});

t.test('the approval timer exists only in the sandbox and only while awaiting approval', async (t) => {
  t.same(merchantTimer(row({ status: 'awaiting_approval' }), SANDBOX, NOW), { trigger: 'approve', dueAtMs: NOW + 30_000 });
  t.equal(merchantTimer(row({ status: 'awaiting_approval' }), PRODUCTION, NOW), undefined);
  t.equal(merchantTimer(row({ status: 'pending_onboarding' }), SANDBOX, NOW), undefined);
});

t.test('how a merchant reads: webhook status names, sub-TPP, reported status', async (t) => {
  t.same(merchantEventData(row({ status: 'activated' }), 'awaiting_approval', 'T'), {
    merchantId: 100002,
    clientId: 'c-1',
    companyName: 'Acme ApS',
    status: 'active',
    previousStatus: 'awaiting_approval',
    timestamp: 'T',
  });
  t.same(subTpp(row({ status: 'pending_onboarding' })), { id: null, state: 'not_created' });
  t.same(subTpp(row({ status: 'pending_onboarding', sub_tpp_status: 'failed' })), { id: null, state: 'failed' });
  t.same(subTpp(row({ status: 'pending_completion' })), { id: 'stpp_1', state: 'created' });
  t.same(subTpp(row({ status: 'activated' })), { id: 'stpp_1', state: 'active' });
  t.same(subTpp(row({ status: 'rejected' })), { id: 'stpp_1', state: 'rejected' });
  t.equal(reportedStatus('pending_partner_ais'), 'pending_completion');
  t.equal(reportedStatus('inactive'), 'inactive');
});
