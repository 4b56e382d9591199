/**
 * A field the provider's contract types as a plain string, number or object is never null in
 * obsim's answers: it is present with its type, or absent. A strictly typed partner client
 * (generated from the contract) fails on a null where it expects a string. The contract allows
 * null only for subTppMessage ("string or null"). Fields of obsim's own objects (the sandbox
 * control API, stores, a payment's failureReason: payloads the contract does not show) are listed
 * here with the reason they may be null; any other nullable property fails this test.
 * --validate-responses (on in the whole suite) then rejects any null the schemas do not allow.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';

type Document = {
  components: { schemas: Record<string, { properties?: Record<string, { type?: string | string[]; anyOf?: { type?: string }[] }> }> };
};
const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as Document;
// the component schemas of both documents (the provider's, and obsim's controls)
const openapi = {
  components: { schemas: { ...read('openapi.json').components.schemas, ...read('openapi-controls.json').components.schemas } },
};

/** `schema.property` allowed to be null, and why. */
const ALLOWED: Record<string, string> = {
  'FastTrackMerchantResponse.subTppMessage': 'the contract: subTppMessage is "string or null"',
  'Payment.failureReason': "obsim's payment record (fields not shown by the contract): null unless the payment failed",
  'StoreResponse.address': 'stores: payload not shown by the contract',
  'StoreResponse.mccCode': 'stores: payload not shown by the contract',
  'StoreResponse.partnerRefId': 'stores: payload not shown by the contract',
  'SandboxDelivery.statusCode': 'obsim control API: the delivery log, before or without an answer',
  'SandboxDelivery.outcome': 'obsim control API: null until attempted',
  'SandboxDelivery.error': 'obsim control API',
  'SandboxDelivery.durationMs': 'obsim control API',
  'SandboxDelivery.attemptedAt': 'obsim control API',
  'SandboxDelivery.redeliveryOf': 'obsim control API',
  'SandboxResetResponse.defaultMerchantId': 'obsim control API: null for a partner without a default merchant',
  'SandboxOverview.sandboxId': 'obsim control API: null for the configured partners (no created sandbox)',
  'SandboxMerchantList.nextCursor': 'obsim control API: null on the last page',
  'SandboxPaymentList.nextCursor': 'obsim control API: null on the last page',
  'SandboxTransition.from': 'obsim control API: null for the creation (the resource came into being in `to`)',
  'SandboxConsentList.nextCursor': 'obsim control API: null on the last page',
  'SandboxMerchant.onboardingUrl': 'obsim control API: null once onboarding is closed',
  'SandboxMerchant.onboardingExpiresAt': 'obsim control API: null once onboarding is closed',
};

t.test('no response property is nullable unless the contract or an obsim-only object says so', async (t) => {
  const nullable: string[] = [];
  for (const [id, schema] of Object.entries(openapi.components.schemas)) {
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      if ([prop.type].flat().includes('null') || (prop.anyOf ?? []).some((s) => s.type === 'null')) nullable.push(`${id}.${name}`);
    }
  }
  t.same(nullable.filter((p) => !(p in ALLOWED)).sort(), [], 'nullable properties outside the allowed list');
  t.same(
    Object.keys(ALLOWED).filter((p) => !nullable.includes(p)),
    [],
    'every allowed entry still exists (keep the list exact)',
  );
  for (const field of [
    'OnboardingStatusResponse.subTppId',
    'FastTrackMerchantResponse.subTppId',
    'MerchantSummary.contactEmail',
    'MerchantSummary.subTppId',
  ]) {
    t.notOk(nullable.includes(field), `${field}: a string when present`);
  }
});
