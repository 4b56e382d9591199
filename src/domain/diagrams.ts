/**
 * Documentation generated from the code, so the docs cannot drift: the Mermaid state diagrams
 * come from the transition tables (test/docs/lifecycle.test.ts checks docs/lifecycle-and-webhooks.md holds
 * the current ones).
 */
import { consentMachine } from './consent.js';
import { toMermaid } from './machine.js';
import { merchantMachine } from './merchant.js';
import { paymentMachine } from './payment.js';

export function lifecycleDiagrams(): { merchant: string; payment: string; consent: string } {
  return {
    merchant: toMermaid(merchantMachine, ['pending_onboarding', 'pending_completion', 'activated']),
    payment: toMermaid(paymentMachine, ['pending']),
    consent: toMermaid(consentMachine, ['pending']),
  };
}
