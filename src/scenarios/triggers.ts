/**
 * Triggers: make an event happen on a simulator, as `stripe trigger` does for Stripe users. Create
 * what the event needs through the partner API and the control API, drive it to the event, then
 * wait for the deliveries to every subscribed webhook. Spoken over the scenario runner's transport
 * (HTTP to a running obsim, or in-process); `obsim trigger` and the MCP server's trigger_event are
 * thin adapters over it.
 */
import { EVENT_NAMES, type EventName } from '../domain/machine.js';
import type { FailureReason } from '../domain/payment.js';
import type { Transport } from './transport.js';

export interface TriggerOptions {
  /** The partner credentials it acts with. */
  partner: { clientId: string; clientSecret: string };
  amount: number;
  merchant?: number;
  reason: FailureReason;
  /** How long to wait for the deliveries (ms). */
  timeout: number;
}

/** What each event creates and does. */
export const TRIGGERS: Record<EventName, string> = {
  'payment.completed': 'a test merchant (or --merchant), a payment of --amount, then the control call complete',
  'payment.failed': 'a test merchant (or --merchant), a payment of --amount, then the control call fail with --reason',
  'merchant.activated': 'a test merchant, activated at creation (or --merchant: activate / reactivate it)',
  'merchant.deactivated': 'a test merchant (or --merchant), then the control call deactivate',
  'merchant.onboarding.completed':
    'a standard merchant (or --merchant), then the control call submit-onboarding (complete-fast-track for a fast-tracked one)',
};

export const isTriggerEvent = (event: string | undefined): event is EventName => (EVENT_NAMES as readonly string[]).includes(event ?? '');

export interface TriggeredDelivery {
  id: number;
  event: string;
  webhookId: string;
  url: string;
  state: string;
  statusCode: number | null;
  outcome: string | null;
  error: string | null;
  durationMs: number | null;
  signature: string;
}

/** A call the simulator refused, or a merchant not found: what went wrong, in words. */
export class TriggerError extends Error {}

class Api {
  constructor(
    private readonly transport: Transport,
    private readonly partner: TriggerOptions['partner'],
  ) {}

  async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const res = await this.transport.request({
      method,
      path,
      headers: {
        'x-partner-client-id': this.partner.clientId,
        'x-partner-client-secret': this.partner.clientSecret,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (res.status < 200 || res.status >= 300) throw new TriggerError(`${method} ${path} answered ${res.status}: ${res.text}`);
    return res.json as T;
  }
}

/** Create or find what the event needs and drive it there. */
async function drive(api: Api, event: EventName, opts: TriggerOptions): Promise<string> {
  const testMerchant = () =>
    api.call<{ merchantId: number; clientId: string }>('POST', '/v1/partner/merchants/test', { companyName: `Trigger ${event} ApS` });
  const merchantById = async (id: number) => {
    for (let page = 1; ; page++) {
      const list = await api.call<{ items: { merchantId: number; clientId: string; status: string }[]; total: number }>(
        'GET',
        `/v1/partner/merchants?page=${page}&limit=100`,
      );
      const found = list.items.find((m) => m.merchantId === id);
      if (found) return found;
      if (page * 100 >= list.total) throw new TriggerError(`merchant ${id} not found for partner ${opts.partner.clientId}`);
    }
  };
  const control = (path: string, body?: unknown) => api.call<{ status?: string }>('POST', `/_sandbox/${path}`, body);

  switch (event) {
    case 'payment.completed':
    case 'payment.failed': {
      const merchant = opts.merchant !== undefined ? await merchantById(opts.merchant) : await testMerchant();
      const payment = await api.call<{ paymentId: number }>('POST', '/v1/partner/payments', {
        merchantClientId: merchant.clientId,
        amount: opts.amount,
        referenceNumber: `trigger-${Date.now()}`,
      });
      if (event === 'payment.completed') await control(`payments/${payment.paymentId}/complete`);
      else await control(`payments/${payment.paymentId}/fail`, { reason: opts.reason });
      return `payment ${payment.paymentId} of merchant ${merchant.clientId}`;
    }
    case 'merchant.activated': {
      if (opts.merchant === undefined) return `test merchant ${(await testMerchant()).merchantId}`;
      const m = await merchantById(opts.merchant);
      await control(`merchants/${m.merchantId}/${m.status === 'inactive' ? 'reactivate' : 'activate'}`);
      return `merchant ${m.merchantId}`;
    }
    case 'merchant.deactivated': {
      const id = opts.merchant ?? (await testMerchant()).merchantId;
      await control(`merchants/${id}/deactivate`);
      return `merchant ${id}`;
    }
    case 'merchant.onboarding.completed': {
      let id = opts.merchant;
      let status = id === undefined ? 'pending_onboarding' : (await merchantById(id)).status;
      if (id === undefined) {
        id = (
          await api.call<{ merchantId: number }>('POST', '/v1/partner/merchants', {
            companyName: 'Trigger Onboarding ApS',
            contactEmail: 'trigger@obsim.test',
          })
        ).merchantId;
        status = 'pending_onboarding';
      }
      await control(`merchants/${id}/${status === 'pending_completion' ? 'complete-fast-track' : 'submit-onboarding'}`);
      return `merchant ${id}`;
    }
  }
}

/** The deliveries of `event` made after delivery `afterId`, once none is pending or under way. */
async function settledDeliveries(api: Api, event: string, afterId: number, timeoutMs: number): Promise<TriggeredDelivery[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await api.call<{ items: TriggeredDelivery[] }>('GET', `/_sandbox/deliveries?event=${encodeURIComponent(event)}&limit=500`);
    const fresh = list.items.filter((d) => d.id > afterId);
    if (fresh.every((d) => d.state === 'delivered' || d.state === 'failed') || Date.now() > deadline) return fresh.reverse();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Drive `event` and wait for its deliveries (`obsim trigger`, the MCP server's trigger_event tool). */
export async function runTrigger(
  transport: Transport,
  event: EventName,
  opts: TriggerOptions,
): Promise<{ what: string; deliveries: TriggeredDelivery[] }> {
  const api = new Api(transport, opts.partner);
  const before = (await api.call<{ items: { id: number }[] }>('GET', '/_sandbox/deliveries?limit=1')).items[0]?.id ?? 0;
  const what = await drive(api, event, opts);
  return { what, deliveries: await settledDeliveries(api, event, before, opts.timeout) };
}
