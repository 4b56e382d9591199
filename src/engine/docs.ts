/**
 * README material generated from the code, so the docs cannot drift: the Mermaid state
 * diagrams come from the transition tables (test/engine/readme.test.ts checks the README holds
 * the current ones).
 */
import { consentMachine } from '../domain/consent.js';
import { toMermaid, type Machine } from '../domain/machine.js';
import { merchantMachine } from '../domain/merchant.js';
import { paymentMachine } from '../domain/payment.js';

export function lifecycleDiagrams(): { merchant: string; payment: string; consent: string } {
  return {
    merchant: toMermaid(merchantMachine as unknown as Machine<string, string>, ['pending_onboarding', 'pending_completion', 'activated']),
    payment: toMermaid(paymentMachine as unknown as Machine<string, string>, ['pending']),
    consent: toMermaid(consentMachine as unknown as Machine<string, string>, ['pending']),
  };
}
