/**
 * Which answer and request fields hold an id the contract places, and which value of a provider
 * state stands for each kind. One small door to the shared id rule: today the shadow's
 * (src/shadow/contract.ts), to be repointed when that rule moves to a module of its own.
 */
import { idKindOf } from '../shadow/contract.js';

/** The kind of id a property holds (`merchant`, `payment`, …), by its name and its schema's component; undefined: not an id. */
export function idKind(key: string, component?: string): string | undefined {
  return idKindOf(key, component);
}

/** The value a built-in provider state answers for an id of each kind (what `fromProviderState` names). */
export const STATE_VALUE_OF_KIND: Readonly<Record<string, string>> = {
  merchant: 'merchantId',
  merchantClient: 'merchantClientId',
  payment: 'paymentId',
  webhook: 'webhookId',
  account: 'accountId',
  consentRequest: 'consentRequestId',
  consent: 'consentId',
  aisToken: 'token',
};

/** Path template parameters by name: the id kind each stands for. */
export function pathParamKind(name: string): string | undefined {
  if (name === 'id') return 'webhook';
  if (name === 'requestId') return 'consentRequest';
  return idKindOf(name);
}
