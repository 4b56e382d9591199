/**
 * `obsim trigger <event>`: what `stripe trigger` is for Stripe users. Against a running obsim it
 * creates whatever the event needs through the partner API and the control API, drives it to the
 * event, then waits for the deliveries to every subscribed webhook and prints their outcome
 * (HTTP status, duration, the signature sent). Exit 0 only when every delivery got a 2xx.
 *
 *   obsim trigger payment.completed [--amount 120.50] [--merchant 100001]
 *   obsim trigger payment.failed --reason payer_abandoned
 *   obsim trigger --list
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { EVENT_NAMES, type EventName } from '../domain/machine.js';
import { FAILURE_REASONS, type FailureReason } from '../domain/payment.js';
import { partnerTargetOptions } from './args.js';
import { CliExit } from './exit.js';

export interface TriggerOpts {
  baseUrl: string;
  partnerClientId: string;
  partnerClientSecret: string;
  amount: number;
  merchant?: number;
  reason: FailureReason;
  timeout: number;
  list?: boolean;
}

/** What each event creates and does, shown by --list. */
export const TRIGGERS: Record<EventName, string> = {
  'payment.completed': 'a test merchant (or --merchant), a payment of --amount, then the control call complete',
  'payment.failed': 'a test merchant (or --merchant), a payment of --amount, then the control call fail with --reason',
  'merchant.activated': 'a test merchant, activated at creation (or --merchant: activate / reactivate it)',
  'merchant.deactivated': 'a test merchant (or --merchant), then the control call deactivate',
  'merchant.onboarding.completed':
    'a standard merchant (or --merchant), then the control call submit-onboarding (complete-fast-track for a fast-tracked one)',
};

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

class Api {
  constructor(private readonly opts: TriggerOpts) {}

  async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.opts.baseUrl}${path}`, {
        method,
        headers: {
          'x-partner-client-id': this.opts.partnerClientId,
          'x-partner-client-secret': this.opts.partnerClientSecret,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new CliExit(
        1,
        `obsim trigger: cannot reach ${this.opts.baseUrl} (${(err as Error).message}); is the simulator running? (--base-url)`,
      );
    }
    const text = await res.text();
    if (!res.ok) throw new CliExit(1, `obsim trigger: ${method} ${path} answered ${res.status}: ${text}`);
    return JSON.parse(text) as T;
  }
}

/** Create or find what the event needs and drive it there. */
async function drive(api: Api, event: EventName, opts: TriggerOpts): Promise<string> {
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
      if (page * 100 >= list.total) throw new CliExit(1, `obsim trigger: merchant ${id} not found for partner ${opts.partnerClientId}`);
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

/** Drive `event` and wait for its deliveries (also the MCP server's trigger_event tool). */
export async function runTrigger(event: EventName, opts: TriggerOpts): Promise<{ what: string; deliveries: TriggeredDelivery[] }> {
  const api = new Api(opts);
  const before = (await api.call<{ items: { id: number }[] }>('GET', '/_sandbox/deliveries?limit=1')).items[0]?.id ?? 0;
  const what = await drive(api, event, opts);
  return { what, deliveries: await settledDeliveries(api, event, before, opts.timeout) };
}

export async function trigger(event: EventName, opts: TriggerOpts, out: (line: string) => void): Promise<number> {
  const { what, deliveries } = await runTrigger(event, opts);
  out(`triggered ${event}: ${what}`);
  if (deliveries.length === 0) {
    out(
      `no webhook is subscribed to ${event}: nothing was delivered (register one with POST /v1/partner/webhooks, or run \`obsim listen\`)`,
    );
    return 1;
  }
  let ok = true;
  for (const d of deliveries) {
    const good = d.state === 'delivered';
    ok &&= good;
    const result = d.statusCode !== null ? `${d.statusCode}` : (d.outcome ?? d.state);
    out(
      `  ${good ? 'ok  ' : 'FAIL'} ${d.webhookId} ${d.url} -> ${result}${d.durationMs !== null ? ` in ${d.durationMs} ms` : ''}  signature ${d.signature}${good || !d.error ? '' : `  (${d.error})`}`,
    );
  }
  out(ok ? `${deliveries.length} deliver${deliveries.length === 1 ? 'y' : 'ies'}, all 2xx` : 'not every delivery got a 2xx');
  return ok ? 0 : 1;
}

function amountArg(raw: string): number {
  const n = Number(raw);
  if (!/^\d+(\.\d{1,2})?$/.test(raw) || n <= 0)
    throw new InvalidArgumentError('expected an amount in DKK with at most 2 decimals, e.g. 120.50');
  return n;
}

function integerArg(raw: string): number {
  if (!/^\d+$/.test(raw)) throw new InvalidArgumentError('expected a merchant id (digits)');
  return Number(raw);
}

export function registerTriggerCommand(program: Command): void {
  const command = program
    .command('trigger')
    .description(
      'Create what an event needs on a running obsim, drive it to the event, and print every delivery (status, duration, signature). Exit 0 only when all got a 2xx.',
    )
    .argument('[event]', `one of: ${EVENT_NAMES.join(', ')}`)
    .option('--list', 'list the events and what each creates');
  partnerTargetOptions(command, 'simulator to trigger on')
    .addOption(new Option('--amount <dkk>', 'payment amount for payment.*').default(100, '100').argParser(amountArg))
    .addOption(new Option('--merchant <id>', 'use this merchant instead of creating one').argParser(integerArg))
    .addOption(new Option('--reason <reason>', 'failureReason of payment.failed').choices(FAILURE_REASONS).default('bank_rejected'))
    .addOption(new Option('--timeout <ms>', 'how long to wait for the deliveries').default(15_000, '15000').argParser(integerArg))
    .action(async (event: string | undefined, opts: TriggerOpts) => {
      const out = (line: string) => process.stdout.write(`${line}\n`);
      if (opts.list) {
        for (const name of EVENT_NAMES) out(`${name.padEnd(31)} ${TRIGGERS[name]}`);
        return;
      }
      if (!event || !(EVENT_NAMES as readonly string[]).includes(event)) {
        throw new CliExit(
          2,
          `obsim trigger: ${event ? `"${event}" is not an event` : 'which event?'} (one of: ${EVENT_NAMES.join(', ')}; --list says what each creates)`,
        );
      }
      const code = await trigger(event as EventName, opts, out);
      if (code !== 0) throw new CliExit(code);
    });
}
