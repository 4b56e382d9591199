/**
 * `obsim listen`: a local webhook receiver, what `stripe listen` gives Stripe users, offline.
 * Prints one line per delivery (time, event, X-Webhook-Id, key fields, signature valid or not)
 * and optionally forwards each delivery unchanged (same body bytes and headers) to your app,
 * answering the simulator with your app's status.
 *
 *   obsim listen --port 9000 --secret whsec… --forward-to http://localhost:3000/webhooks
 */
import { type Command, Option } from 'commander';
import { portArg, urlArg } from './args.js';
import { colors } from '../terminal-colors.js';
import { lazyRequire } from '../lazy.js';
import { startReceiver, type ReceivedDelivery } from '../scenarios/receiver.js';
import { verify } from '../webhooks/sign.js';

/** undici is loaded only when `obsim listen --forward-to` forwards (start-up time of every command). */
const undici = lazyRequire<typeof import('undici')>('undici');

interface ListenOpts {
  port: number;
  host: string;
  secret?: string;
  forwardTo?: string;
  body?: boolean;
  color?: boolean;
}

const KEY_FIELDS = [
  'paymentId',
  'merchantId',
  'webhookId',
  'clientId',
  'referenceNumber',
  'status',
  'previousStatus',
  'amount',
  'currency',
  'failureReason',
  'bankPaymentStatus',
];

/** `paymentId=5000001 status=paid amount=125.5 …` from the envelope data. */
export function keyFields(data: unknown): string {
  if (data === null || typeof data !== 'object') return '';
  const d = data as Record<string, unknown>;
  return KEY_FIELDS.filter((k) => d[k] !== undefined && d[k] !== null && typeof d[k] !== 'object')
    .map((k) => `${k}=${String(d[k])}`)
    .join(' ');
}

export function describeDelivery(d: ReceivedDelivery, secret: string | undefined): { line: string; valid: boolean | undefined } {
  let envelope: { event?: unknown; data?: unknown } | undefined;
  try {
    envelope = JSON.parse(d.body) as typeof envelope;
  } catch {
    envelope = undefined;
  }
  const event = typeof envelope?.event === 'string' ? envelope.event : '(not JSON)';
  const id = d.headers['x-webhook-id'] ?? '-';
  const valid = secret === undefined ? undefined : verify(secret, d.body, d.headers['x-webhook-signature']);
  const sig =
    valid === undefined
      ? 'signature not checked (no --secret)'
      : valid
        ? 'signature valid'
        : d.headers['x-webhook-signature']
          ? 'signature INVALID'
          : 'signature MISSING';
  const fields = keyFields(envelope?.data);
  return { line: `${d.receivedAt} ${d.method} ${d.path} ${event} ${id}${fields ? ` ${fields}` : ''} ${sig}`, valid };
}

const FORWARDED_HEADERS = ['content-type', 'x-webhook-signature', 'x-webhook-id', 'user-agent'];

export function registerListenCommand(program: Command): void {
  program
    .command('listen')
    .description(
      'Receive webhook deliveries locally: print one line per delivery (event, id, key fields, signature valid or not), optionally forward them',
    )
    .addOption(new Option('--port <port>', 'port to listen on (0 = any free port)').default(9000).argParser(portArg))
    .addOption(new Option('--host <host>', 'interface to bind (0.0.0.0 to accept deliveries from a container)').default('127.0.0.1'))
    .addOption(
      new Option('--secret <secret>', 'webhook secret to verify X-Webhook-Signature with (from POST /v1/partner/webhooks)').env(
        'OBSIM_WEBHOOK_SECRET',
      ),
    )
    .option('--forward-to <url>', 'forward every delivery (same body and headers) to this URL and answer with its status', (raw: string) =>
      urlArg(raw, { keepSlash: true }),
    )
    .option('--body', 'also print the JSON body of each delivery')
    .option('--no-color', 'plain output even on a terminal')
    .action(async (opts: ListenOpts) => {
      const c = colors(opts.color !== false && process.stdout.isTTY === true && !process.env.NO_COLOR);
      const out = (s: string) => process.stdout.write(`${s}\n`);
      const receiver = await startReceiver({
        host: opts.host,
        port: opts.port,
        async onDelivery(d) {
          const { line, valid } = describeDelivery(d, opts.secret);
          out(valid === false ? c.red(line) : valid ? line.replace('signature valid', c.green('signature valid')) : line);
          if (opts.body) out(c.dim(d.body));
          if (!opts.forwardTo) return { status: 200 };
          const headers: Record<string, string> = {};
          for (const h of FORWARDED_HEADERS) if (d.headers[h] !== undefined) headers[h] = d.headers[h];
          try {
            const res = await undici().request(opts.forwardTo, {
              method: 'POST',
              headers,
              body: d.body,
              headersTimeout: 9_000,
              bodyTimeout: 9_000,
            });
            const text = await res.body.text();
            out(c.dim(`  → forwarded to ${opts.forwardTo}: ${res.statusCode}`));
            return { status: res.statusCode, body: text };
          } catch (err) {
            out(c.red(`  → forwarding to ${opts.forwardTo} failed: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`));
            return { status: 502, body: '{"forwarded":false}' };
          }
        },
      });
      out(`obsim listen: receiving webhooks on ${receiver.url}${opts.forwardTo ? `, forwarding to ${opts.forwardTo}` : ''}`);
      if (!opts.secret) out('  no --secret: signatures are not checked');
      out('  register it: POST /v1/partner/webhooks {"url": "<this url>", "events": [...]}; Ctrl-C to stop');
      await new Promise<void>((resolve) => {
        const stop = () => {
          void receiver.close().then(resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
