/**
 * `obsim check-receiver <url> --secret <whsec_…>`: the conformance check of a partner's webhook
 * endpoint (src/webhooks/receiver-check.ts runs the battery). Prints one line per check as it
 * finishes, or the whole report as JSON; writes a JUnit report for CI. Exit 1 when any check
 * fails (warnings do not fail), 2 for wrong usage. No simulator is needed: the deliveries are made
 * and signed here.
 *
 *   obsim check-receiver http://127.0.0.1:3000/webhooks --secret whsec_… [--json] [--junit report.xml]
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { writeFileSync } from 'node:fs';
import { colors } from '../terminal-colors.js';
import { lazyRequire } from '../lazy.js';
import { DELIVERY_TIMEOUT_MS } from '../webhooks/post.js';
import { checkReceiver, type CheckResult, type ReceiverReport } from '../webhooks/receiver-check.js';
import { urlArg } from './args.js';
import { CliExit } from './exit.js';

/** xmlbuilder2 is loaded when a JUnit report is written, not at start-up. */
const xmlbuilder2 = lazyRequire<typeof import('xmlbuilder2')>('xmlbuilder2');

interface CheckReceiverOpts {
  secret?: string;
  timeout: number;
  json?: boolean;
  junit?: string;
  color?: boolean;
}

const LABEL = { pass: 'PASS', warn: 'WARN', fail: 'FAIL' } as const;

export function resultLine(r: CheckResult, c = colors(false)): string {
  const label = { pass: c.green, warn: c.yellow, fail: c.red }[r.status](LABEL[r.status]);
  return `  ${label}  ${r.title.padEnd(56)} ${r.reason}`;
}

export function summaryLine(report: ReceiverReport): string {
  const total = report.checks.length;
  return `${total} checks: ${report.passed} passed, ${report.warned} warned, ${report.failed} failed`;
}

/** One <testsuite> named after the URL, one <testcase> per check; a warning is a pass with its reason in <system-out>. */
export function receiverJunitXml(report: ReceiverReport): string {
  const secs = (ms: number) => (ms / 1000).toFixed(3);
  const time = secs(report.checks.reduce((n, c) => n + c.durationMs, 0));
  const root = xmlbuilder2()
    .create({ version: '1.0', encoding: 'UTF-8' })
    .ele('testsuites', { name: 'obsim check-receiver', tests: report.checks.length, failures: report.failed, errors: 0, time });
  const suite = root.ele('testsuite', {
    name: report.url,
    tests: report.checks.length,
    failures: report.failed,
    errors: 0,
    skipped: 0,
    time,
    timestamp: report.startedAt,
  });
  for (const check of report.checks) {
    const tc = suite.ele('testcase', { classname: 'check-receiver', name: `${check.id}: ${check.title}`, time: secs(check.durationMs) });
    if (check.status === 'fail')
      tc.ele('failure', { message: check.reason, type: 'ReceiverCheckFailed' }).txt(`expected ${check.expected}`);
    else tc.ele('system-out').txt(`${check.status}: ${check.reason}`);
  }
  return root.end({ prettyPrint: true });
}

function msArg(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new InvalidArgumentError('expected milliseconds, e.g. 10000');
  return Number(raw);
}

export function registerCheckReceiverCommand(program: Command): void {
  program
    .command('check-receiver')
    .description(
      "Check your webhook endpoint: valid deliveries of every event, forged signatures, a duplicate, out-of-order and unknown events, each in the provider's exact format. Exit 1 if any check fails.",
    )
    .argument('<url>', 'your webhook endpoint, e.g. http://127.0.0.1:3000/webhooks', (raw: string) => urlArg(raw, { keepSlash: true }))
    .addOption(new Option('--secret <secret>', 'the webhook secret your receiver verifies with (whsec_…)').env('OBSIM_WEBHOOK_SECRET'))
    .addOption(
      new Option('--timeout <ms>', "the receiver's time limit (the contract's)")
        .default(DELIVERY_TIMEOUT_MS, String(DELIVERY_TIMEOUT_MS))
        .argParser(msArg),
    )
    .option('--json', 'print the report as JSON instead of a table')
    .option('--junit <file>', 'also write a JUnit XML report to this file (one testcase per check)')
    .option('--no-color', 'plain output even on a terminal')
    .action(async (url: string, opts: CheckReceiverOpts) => {
      if (!opts.secret) {
        throw new CliExit(
          2,
          'obsim check-receiver: --secret (or OBSIM_WEBHOOK_SECRET) is required: the secret your receiver verifies with',
        );
      }
      const c = colors(!opts.json && opts.color !== false && process.stdout.isTTY === true && !process.env.NO_COLOR);
      const out = (s: string) => process.stdout.write(`${s}\n`);
      if (!opts.json) out(`obsim check-receiver ${url} (limit ${opts.timeout} ms)`);
      const report = await checkReceiver({
        url,
        secret: opts.secret,
        timeoutMs: opts.timeout,
        onResult: opts.json ? undefined : (r) => out(resultLine(r, c)),
      });
      if (opts.json) out(JSON.stringify(report, null, 2));
      else {
        for (const hint of report.hints) out(c.yellow(`  hint: ${hint}`));
        out(summaryLine(report));
      }
      if (opts.junit) writeFileSync(opts.junit, receiverJunitXml(report));
      if (report.failed > 0) throw new CliExit(1);
    });
}
