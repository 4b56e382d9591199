/**
 * Webhook steps.
 *
 * registerWebhook  POST /v1/partner/webhooks with the run's receiver URL; remembers id + secret.
 * expectWebhook    a delivery of the event, data partially matching, signature recomputed.
 * expectNoWebhook  no unmatched delivery of the event within the bound.
 *
 * Deliveries are read from the simulator's delivery log (GET /_sandbox/deliveries?webhookId=…),
 * so no inbound network is needed; with --receiver they are read from the local receiver the
 * runner started (filtered by the per-webhook URL path).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseDuration } from '../../config-parsers.js';
import { StepFailure, type RunContext, type SeenDelivery, type WatchedWebhook } from '../context.js';
import { formatMismatches, partialMatch, short } from '../../domain/match.js';
import { sign, verify } from '../../webhooks/sign.js';
import type { ExpectNoWebhookStep, ExpectWebhookStep, RegisterWebhookStep } from '../types.js';
import { advance } from './clock.js';
import { applyCaptures } from './request.js';
import type { StepHandler } from './types.js';

const POLL_MS = 25;
/** Real time given to deliveries already under way before `within` advances the clock. */
const GRACE_MS = 150;

export const registerWebhook: StepHandler<RegisterWebhookStep> = {
  label: (s) => `${s.events.join(', ')}${s.as ? ` as ${s.as}` : ''}`,
  async run(raw, ctx) {
    const step = ctx.render(raw);
    const as = step.as ?? 'webhook';
    const url = step.url ?? ctx.nextWebhookUrl();
    const res = await ctx.call('POST', '/v1/partner/webhooks', { url, events: step.events });
    ctx.checkResponse('POST /v1/partner/webhooks', res, { status: [200, 201] });
    const body = res.json as { id?: string; secret?: string };
    if (typeof body?.id !== 'string' || typeof body.secret !== 'string') {
      throw new StepFailure(`POST /v1/partner/webhooks: the response has no id and secret: ${short(res.json)}`);
    }
    const hook: WatchedWebhook = { id: body.id, secret: body.secret, url, events: step.events };
    ctx.webhooks.set(as, hook);
    ctx.currentWebhook = as;
    ctx.vars[as] = res.json;
    ctx.vars[`${as}.id`] = body.id;
    ctx.vars[`${as}.secret`] = body.secret;
    ctx.vars[`${as}.url`] = url;
    return { detail: `${body.id} → ${url}` };
  },
};

function watched(ctx: RunContext, name: string | undefined): { name: string; hook: WatchedWebhook } {
  const n = name ?? ctx.currentWebhook;
  if (n === undefined) throw new StepFailure('no webhook registered yet: add a registerWebhook step before expecting deliveries');
  const hook = ctx.webhooks.get(n);
  if (!hook) throw new StepFailure(`no webhook registered as "${n}" (registered: ${[...ctx.webhooks.keys()].join(', ') || 'none'})`);
  return { name: n, hook };
}

function envelopeOf(body: string): SeenDelivery['envelope'] {
  try {
    const v = JSON.parse(body) as unknown;
    return v !== null && typeof v === 'object' ? v : undefined;
  } catch {
    return undefined;
  }
}

interface LogDelivery {
  id: number | string;
  eventId?: string;
  event?: string;
  webhookId?: string;
  body?: string;
  signature?: string | null;
}

/** All deliveries made so far to the webhook (any event). */
export async function deliveriesFor(ctx: RunContext, hook: WatchedWebhook, event?: string): Promise<SeenDelivery[]> {
  if (ctx.receiver) {
    const path = new URL(hook.url).pathname;
    return ctx.receiver.deliveries
      .filter((d) => d.path === path)
      .map((d) => {
        const envelope = envelopeOf(d.body);
        return {
          key: `rx:${d.seq}`,
          eventId: d.headers['x-webhook-id'],
          event: envelope?.event,
          body: d.body,
          envelope,
          signature: d.headers['x-webhook-signature'],
        };
      })
      .filter((d) => event === undefined || d.event === event);
  }
  const qs = new URLSearchParams({ webhookId: hook.id, limit: '100' });
  if (event !== undefined) qs.set('event', event);
  const res = await ctx.call('GET', `/_sandbox/deliveries?${qs}`);
  ctx.checkResponse('GET /_sandbox/deliveries', res, { status: 200 });
  const items = ((res.json as { items?: LogDelivery[] })?.items ?? []).filter((d) => d.webhookId === undefined || d.webhookId === hook.id);
  return items
    .map((d) => {
      const body = typeof d.body === 'string' ? d.body : '';
      return {
        key: `log:${d.id}`,
        eventId: d.eventId,
        event: d.event,
        body,
        envelope: envelopeOf(body),
        signature: d.signature ?? undefined,
      };
    })
    .sort((a, b) => Number(a.key.slice(4)) - Number(b.key.slice(4)));
}

function matches(d: SeenDelivery, event: string, data: unknown): boolean {
  if ((d.envelope?.event ?? d.event) !== event) return false;
  return data === undefined || partialMatch(data, d.envelope?.data).length === 0;
}

function describeSeen(list: SeenDelivery[], event: string, data: unknown): string {
  if (list.length === 0) return '  no delivery at all was made to this webhook';
  const lines = [`  deliveries made to this webhook (${list.length}):`];
  for (const d of list.slice(-10)) lines.push(`    - ${d.envelope?.event ?? d.event} ${short(d.envelope?.data)}`);
  const sameEvent = list.filter((d) => (d.envelope?.event ?? d.event) === event);
  if (sameEvent.length > 0 && data !== undefined) {
    const closest = sameEvent[sameEvent.length - 1];
    lines.push(formatMismatches(`  data of the latest ${event}`, partialMatch(data, closest.envelope?.data), closest.envelope?.data));
  }
  return lines.join('\n');
}

export const expectWebhook: StepHandler<ExpectWebhookStep> = {
  label: (s) => `${s.event}${s.within !== undefined ? ` within ${typeof s.within === 'number' ? `${s.within}ms` : s.within}` : ''}`,
  async run(raw, ctx) {
    const { within: bound, ...step } = ctx.render(raw);
    // within: a duration string is virtual time (advance the clock), an integer real milliseconds
    const within = typeof bound === 'string' ? bound : undefined;
    const { hook } = watched(ctx, step.webhook);
    const timeoutMs = typeof bound === 'number' ? bound : (step.timeoutMs ?? 5000);
    const started = Date.now();
    let advanced: string | undefined;
    for (;;) {
      const all = await deliveriesFor(ctx, hook);
      const found = all.find(
        (d) => !ctx.consumed.has(d.key) && matches(d, step.event, step.data) && (step.eventId === undefined || d.eventId === step.eventId),
      );
      const elapsed = Date.now() - started;
      // a delivery still pending in the log is not signed yet: wait for the worker to claim it
      const ready = found !== undefined && (found.signature != null || (step.signature ?? 'valid') === 'ignore' || elapsed >= timeoutMs);
      if (found && ready) {
        if ((step.signature ?? 'valid') === 'valid' && !verify(hook.secret, found.body, found.signature)) {
          throw new StepFailure(
            `${step.event} delivery ${found.eventId ?? found.key}: X-Webhook-Signature does not verify with the webhook secret\n    received: ${found.signature ?? '(none)'}\n    expected: ${sign(hook.secret, found.body)} (HMAC-SHA256 of the ${found.body.length}-byte body)`,
          );
        }
        ctx.consumed.add(found.key);
        ctx.vars['last.webhook'] = found.envelope;
        ctx.vars['last.eventId'] = found.eventId;
        applyCaptures(ctx, step.capture, found.envelope, 'the delivered envelope');
        const sig = (step.signature ?? 'valid') === 'valid' ? 'signature valid' : 'signature not checked';
        return {
          detail: `${found.eventId ?? found.key} ${sig}${advanced ? ` (after advancing ${advanced})` : ''}`,
          webhook: {
            event: step.event,
            eventId: found.eventId,
            signature: (step.signature ?? 'valid') === 'valid' ? 'valid' : 'not checked',
            body: found.body,
          },
        };
      }
      if (within !== undefined && !found && advanced === undefined && elapsed >= Math.min(GRACE_MS, timeoutMs)) {
        await advance(ctx, { ms: parseDuration(within) });
        advanced = within;
        continue;
      }
      if (elapsed >= timeoutMs && !found) {
        const closest = all.filter((d) => (d.envelope?.event ?? d.event) === step.event).pop();
        throw new StepFailure(
          `expected a ${step.event} delivery to webhook ${hook.id}${step.eventId ? ` with X-Webhook-Id ${step.eventId}` : ''}${step.data !== undefined ? ` with data matching ${short(step.data)}` : ''}${
            within ? ` within ${within} of virtual time` : ''
          }; none arrived in ${timeoutMs}ms\n${describeSeen(all, step.event, step.data)}`,
          closest && step.data !== undefined
            ? partialMatch(step.data, closest.envelope?.data).map((m) => ({ ...m, path: `data.${m.path}` }))
            : undefined,
        );
      }
      await sleep(POLL_MS);
    }
  },
};

export const expectNoWebhook: StepHandler<ExpectNoWebhookStep> = {
  label: (s) => `${s.event}${s.within !== undefined ? ` within ${typeof s.within === 'number' ? `${s.within}ms` : s.within}` : ''}`,
  async run(raw, ctx) {
    const { within: bound, ...step } = ctx.render(raw);
    const within = typeof bound === 'string' ? bound : undefined;
    const { hook } = watched(ctx, step.webhook);
    const timeoutMs = typeof bound === 'number' ? bound : (step.timeoutMs ?? 300);
    if (within !== undefined) await advance(ctx, { ms: parseDuration(within) });
    const started = Date.now();
    for (;;) {
      const all = await deliveriesFor(ctx, hook);
      const found = all.find((d) => !ctx.consumed.has(d.key) && matches(d, step.event, step.data));
      if (found) {
        throw new StepFailure(`expected no ${step.event} delivery, got ${found.eventId ?? found.key}:\n    ${found.body.slice(0, 1000)}`);
      }
      if (Date.now() - started >= timeoutMs) return { detail: `none in ${timeoutMs}ms${within ? ` after advancing ${within}` : ''}` };
      await sleep(POLL_MS);
    }
  },
};
