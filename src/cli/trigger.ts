/**
 * `obsim trigger <event>`: what `stripe trigger` is for Stripe users (src/scenarios/triggers.ts).
 * Against a running obsim it creates whatever the event needs, drives it to the event, then waits
 * for the deliveries to every subscribed webhook and prints their outcome (HTTP status, duration,
 * the signature sent). Exit 0 only when every delivery got a 2xx.
 *
 *   obsim trigger payment.completed [--amount 120.50] [--merchant 100001]
 *   obsim trigger payment.failed --reason payer_abandoned
 *   obsim trigger --list
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { EVENT_NAMES, type EventName } from '../domain/machine.js';
import { FAILURE_REASONS, type FailureReason } from '../domain/payment.js';
import { httpTransport } from '../scenarios/transport.js';
import { isTriggerEvent, runTrigger, TRIGGERS } from '../scenarios/triggers.js';
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

export async function trigger(event: EventName, opts: TriggerOpts, out: (line: string) => void): Promise<number> {
  let result;
  try {
    result = await runTrigger(httpTransport(opts.baseUrl), event, {
      partner: { clientId: opts.partnerClientId, clientSecret: opts.partnerClientSecret },
      amount: opts.amount,
      merchant: opts.merchant,
      reason: opts.reason,
      timeout: opts.timeout,
    });
  } catch (err) {
    // refused by the simulator, or not reached (the transport names the --base-url)
    throw new CliExit(1, `obsim trigger: ${(err as Error).message}`);
  }
  const { what, deliveries } = result;
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
      if (!isTriggerEvent(event)) {
        throw new CliExit(
          2,
          `obsim trigger: ${event ? `"${event}" is not an event` : 'which event?'} (one of: ${EVENT_NAMES.join(', ')}; --list says what each creates)`,
        );
      }
      const code = await trigger(event, opts, out);
      if (code !== 0) throw new CliExit(code);
    });
}
