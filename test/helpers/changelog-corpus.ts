/**
 * The changelog corpus (test/fixtures/contracts/corpus/): two versions over the provider's
 * document, corpus-a (what a partner's traffic runs under) and corpus-b (what it upgrades to),
 * with the changes the corpus seeds between them, written down by hand from the two files: the
 * changelog must find exactly these (test/contracts/changelog.test.ts), and the impact report
 * names exactly the exercised ones (test/contracts/impact.test.ts).
 */
import { join } from 'node:path';
import { loadVersions, type LoadedVersion } from '../../src/contracts/load.js';
import { committedProviderDocument } from '../../src/plugins/contract-versions.js';
import { ROOT } from './processes.js';

export const CORPUS_DIR = join(ROOT, 'test/fixtures/contracts/corpus');

export async function corpusVersions(): Promise<{ a: LoadedVersion; b: LoadedVersion }> {
  const [a, b] = await loadVersions(CORPUS_DIR, committedProviderDocument());
  return { a, b };
}

/**
 * Every change from corpus-a to corpus-b, by id; `true` where the partner traffic of
 * `corpusTraffic` (test/contracts/impact.test.ts) exercises it, and why.
 */
export const CORPUS_CHANGES: Record<string, string | false> = {
  // operations removed, deprecated; a sunset
  'operation-removed listMerchants': 'it listed merchants',
  'operation-removed resendMerchantOnboarding': false,
  'operation-deprecated getMerchantOnboardingStatus': false,
  'operation-deprecated getPaymentStatus': 'it read a payment status',
  'sunset getPaymentStatus': 'it read a payment status',
  // request fields
  'request-field-removed createMerchant /partnerRefId': 'it sent partnerRefId',
  'request-field-required createMerchant /contactPhone': 'it created a merchant without contactPhone',
  'request-field-added createTestMerchant /country': 'a required field no call sent',
  'request-field-removed createMerchantStore /mccCode': false,
  'request-field-added createPayment /description': false,
  'request-field-retyped createPayment /amount': 'it sent amount',
  'field-deprecated createPayment /referenceNumber': 'it sent referenceNumber',
  'header-added createPayment header:idempotency-key': 'a required header no call sent',
  'enum-value-removed registerWebhook /events/* "merchant.deactivated"': 'it subscribed to merchant.deactivated',
  'enum-value-added registerWebhook /events/* "payment.refunded"': false,
  'header-removed createConsent header:x-request-id': false,
  'request-field-removed createConsent /userId': false,
  'request-field-added createConsent /customerId': false,
  // statuses
  'status-removed createTestMerchant 5XX': false,
  'status-removed createPayment 4XX': 'a payment was refused with 400',
  'status-added createPayment 202': 'it created payments',
  'status-removed registerWebhook 201': 'its registration was answered 201',
  'status-added createConsent 202': false,
  'status-changed registerWebhook 200': 'its registration was answered 201 (the switch)',
  // answer headers a switch makes (declared in corpus-b's document)
  'header-added getPaymentStatus 200 retry-after': 'it read a payment status',
  'header-added createConsent 200 x-consent-token': false,
  // answer fields: renamed (removed + added), removed, retyped, enum values, now optional
  'answer-field-optional createTestMerchant 200 /message': 'it received message',
  'answer-field-removed createPayment 200 /referenceNumber': 'it received referenceNumber',
  'answer-field-removed createPayment 200 /merchantName': 'it received merchantName',
  'answer-field-removed createPayment 200 /settlementRef': 'it received settlementRef',
  'answer-field-added createPayment 200 /reference': 'it received createPayment answers',
  'enum-value-removed createPayment 200 /status "pending"': 'it received status pending',
  'enum-value-added createPayment 200 /status "authorized"': 'it reads status',
  'enum-value-added createPayment 200 /status "cancelled"': 'it reads status',
  'enum-value-removed createPayment 200 /failureReason "expired"': false,
  'answer-field-retyped createPayment 200 /amount': 'it received amount',
  'answer-field-removed getPaymentStatus 200 /referenceNumber': 'it received referenceNumber',
  'answer-field-removed getPaymentStatus 200 /merchantName': 'it received merchantName',
  'answer-field-removed getPaymentStatus 200 /settlementRef': 'it received settlementRef',
  'answer-field-added getPaymentStatus 200 /reference': 'it received getPaymentStatus answers',
  'enum-value-removed getPaymentStatus 200 /status "pending"': 'it received status pending',
  'enum-value-added getPaymentStatus 200 /status "authorized"': 'it reads status',
  'enum-value-added getPaymentStatus 200 /status "cancelled"': 'it reads status',
  'enum-value-removed getPaymentStatus 200 /failureReason "expired"': false,
  'answer-field-retyped getPaymentStatus 200 /amount': 'it received amount',
  // the webhook payloads
  'webhook-field-removed payment.completed /data/merchantName': 'payment.completed was delivered to it',
  'webhook-field-added payment.completed /data/settledAt': 'payment.completed was delivered to it',
  'webhook-field-removed payment.failed /data/merchantName': false,
  'webhook-field-added payment.failed /data/settledAt': false,
  // the switches
  'value-now-sent getPaymentStatus /status "authorized"': false,
  'field-made createPayment /reference': 'it received createPayment answers',
  'field-no-longer-sent createPayment /referenceNumber': 'it received referenceNumber',
  'field-no-longer-made createPayment /settlementRef': 'it received settlementRef',
  'field-no-longer-made getPaymentStatus /settlementRef': 'it received settlementRef',
};
