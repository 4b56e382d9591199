/**
 * Hosted HTML pages (no /v1 prefix, hidden from the OpenAPI document): the bank consent page
 * (/consent/:token), and the payment and onboarding pages. Each page area is its own plugin
 * file registered here; shared layout helpers live in ./layout.ts.
 */
import type { FastifyInstance } from 'fastify';
import { consentPages } from './consent.js';
import { onboardingPages } from './onboarding/routes.js';
import { paymentPages } from './payment.js';

export async function hostedRoutes(app: FastifyInstance): Promise<void> {
  await app.register(consentPages);
  await app.register(paymentPages);
  await app.register(onboardingPages);
}
