/**
 * Building a persona's world in a sandbox through obsim's own API (in-process, with the sandbox's
 * partner credentials): every merchant, store, payment and consent is created and driven to its
 * state by the same calls a partner and the control API make, so it has the events, timers and
 * history a real one would. Webhooks are registered last, so building the world sends none.
 * The caller deletes the sandbox when this throws (nothing half-built stays).
 */
import type { FastifyInstance } from 'fastify';
import type { Persona } from '../../schemas/persona.js';
import { TOKEN_PERMISSIONS } from '../domain/consent.js';
import { CONSENT_PERMISSIONS } from '../domain/consent.js';
import { pointer, readablePointer, type JsonPointer } from '../domain/errors.js';
import { PersonaError } from './load.js';

export interface PersonaApplied {
  merchants: { companyName: string; merchantId: number; clientId: string; state: string }[];
  payments: number;
  consents: number;
  webhooks: { id: string; url: string; secret: string }[];
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- answers of our own API, checked by status

export async function applyPersona(
  app: FastifyInstance,
  persona: Persona,
  partner: { clientId: string; clientSecret: string },
): Promise<PersonaApplied> {
  const headers = { 'x-partner-client-id': partner.clientId, 'x-partner-client-secret': partner.clientSecret };
  const call = async (
    at: JsonPointer,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: unknown,
    extra: Record<string, string> = {},
  ): Promise<Json> => {
    const res = await app.inject({
      method,
      url,
      // what the persona builds is recorded as its doing (src/plugins/tracing.ts, X-Obsim-Cause)
      headers: { ...headers, 'x-obsim-cause': `persona: ${persona.name} ${readablePointer(at)}`, ...extra },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    if (res.statusCode !== 200) {
      // a refusal that names its place in the body sent names it in the persona too
      const field = res.headers['content-type']?.toString().includes('json') ? res.json<{ field?: string; in?: string }>() : {};
      const within = payload !== undefined && field.in === 'body' && field.field?.startsWith('/') ? (field.field as JsonPointer) : '';
      throw new PersonaError(persona.name, `${at}${within}`, `${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
    }
    return res.json<Json>();
  };
  const control = (at: JsonPointer, url: string, payload?: unknown) => call(at, 'POST', `/_sandbox/${url}`, payload);
  const applied: PersonaApplied = { merchants: [], payments: 0, consents: 0, webhooks: [] };

  // the banks first: the world the persona builds is already in the banks' hands
  for (const [bankId, profile] of Object.entries(persona.banks ?? {}))
    await call(pointer('banks', bankId), 'PUT', `/_sandbox/banks/${encodeURIComponent(bankId)}`, profile);

  for (const [i, m] of (persona.merchants ?? []).entries()) {
    const at = pointer('merchants', i);
    let merchant: Json;
    if (m.state === 'activated' || m.state === 'inactive') {
      merchant = await call(at, 'POST', '/v1/partner/merchants/test', { companyName: m.companyName });
      if (m.state === 'inactive') await control(at, `merchants/${merchant.merchantId}/deactivate`);
    } else {
      merchant = await call(at, 'POST', '/v1/partner/merchants', {
        companyName: m.companyName,
        contactEmail: m.contactEmail ?? 'merchant@obsim.test',
      });
      if (m.state === 'awaiting_approval') await control(at, `merchants/${merchant.merchantId}/submit-onboarding`);
      if (m.state === 'rejected') await control(at, `merchants/${merchant.merchantId}/reject`);
    }
    const merchantId = merchant.merchantId as number;
    const clientId = (merchant.clientId ??
      (await call(at, 'GET', `/v1/partner/merchants/${merchantId}/onboarding-status`)).clientId) as string;
    applied.merchants.push({ companyName: m.companyName, merchantId, clientId, state: m.state });

    for (const [j, s] of (m.stores ?? []).entries())
      await call(`${at}${pointer('stores', j)}`, 'POST', `/v1/partner/merchants/${merchantId}/stores`, { name: s.name });

    for (const [j, p] of (m.payments ?? []).entries()) {
      const pat: JsonPointer = `${at}${pointer('payments', j)}`;
      const payment = await call(pat, 'POST', '/v1/partner/payments', {
        merchantClientId: clientId,
        amount: p.amount,
        referenceNumber: p.referenceNumber,
      });
      const state = p.state ?? 'paid';
      if (state === 'paid') await control(pat, `payments/${payment.paymentId}/complete`);
      if (state === 'processing') await control(pat, `payments/${payment.paymentId}/approve`);
      if (state === 'failed') await control(pat, `payments/${payment.paymentId}/fail`, { reason: p.failureReason ?? 'bank_rejected' });
      applied.payments++;
    }

    for (const [j, c] of (m.consents ?? []).entries()) {
      const cat: JsonPointer = `${at}${pointer('consents', j)}`;
      const { token } = await call(cat, 'POST', '/v1/auth/generate-token', {
        userId: c.userId,
        merchantId,
        permissions: TOKEN_PERMISSIONS,
      });
      const sandboxNow = Date.parse((await call(cat, 'GET', '/_sandbox/clock')).now as string);
      const consent = await call(
        cat,
        'POST',
        '/v1/ais/consents',
        {
          userId: c.userId,
          merchantId,
          permissions: c.permissions ?? CONSENT_PERMISSIONS,
          expirationDateTime: new Date(sandboxNow + 90 * 86_400_000).toISOString(),
          transactionFromDateTime: new Date(sandboxNow - 365 * 86_400_000).toISOString(),
        },
        { authorization: `Bearer ${token}` },
      );
      const state = c.state ?? 'authorized';
      const requestId = consent.requestId as string;
      if (state !== 'pending') await control(cat, `consents/${requestId}/${state === 'failed' ? 'deny' : 'authorize'}`);
      if (state === 'revoked' || state === 'expired')
        await control(cat, `consents/${requestId}/${state === 'revoked' ? 'revoke' : 'expire'}`);
      applied.consents++;
    }
  }

  for (const [i, w] of (persona.webhooks ?? []).entries()) {
    const hook = await call(pointer('webhooks', i), 'POST', '/v1/partner/webhooks', { url: w.url, events: w.events });
    if (w.secret) app.store.tx(() => app.store.webhooks.setSecret(hook.id as string, w.secret!));
    applied.webhooks.push({ id: hook.id as string, url: w.url, secret: w.secret ?? (hook.secret as string) });
  }
  return applied;
}
