/**
 * `obsim logs tail`: the caller's request journal live, like `stripe logs tail` — one line per
 * answered request and per webhook delivery attempt, coloured on a terminal, or one JSON object
 * per line with --json. Reads the Server-Sent Events of GET /_sandbox/requests/stream.
 * `obsim logs export --har FILE`: the whole journal as one HAR 1.2 file.
 *
 * --filter FIELD OP VALUE (repeatable, all must hold): fields status, method, path, code, type
 * (request | delivery), event, outcome, durationMs; operators = != >= <= > < and ~ (contains).
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { createParser } from 'eventsource-parser';
import { stdoutColors as c } from '../terminal-colors.js';
import { lazyRequire } from '../lazy.js';
import { partnerTargetOptions } from './args.js';
import { CliExit } from './exit.js';
import { writeFileWhole } from './files.js';

const undici = lazyRequire<typeof import('undici')>('undici');

export interface TailFilter {
  field: string;
  op: '=' | '!=' | '>=' | '<=' | '>' | '<' | '~';
  value: string;
}

const FILTER_FIELDS = ['status', 'method', 'path', 'code', 'type', 'event', 'outcome', 'durationMs'] as const;

/** `status>=400`, `method=POST`, `path~/payments` -> a filter; an InvalidArgumentError naming the problem otherwise. */
export function parseFilter(raw: string): TailFilter {
  const m = raw.match(/^\s*([A-Za-z]+)\s*(!=|>=|<=|=|>|<|~)\s*(.*?)\s*$/);
  if (!m) throw new InvalidArgumentError(`"${raw}" is not FIELD OP VALUE (e.g. status>=400, method=POST, path~/payments)`);
  if (!(FILTER_FIELDS as readonly string[]).includes(m[1])) {
    throw new InvalidArgumentError(`"${m[1]}" is not a field to filter on (one of: ${FILTER_FIELDS.join(', ')})`);
  }
  return { field: m[1], op: m[2] as TailFilter['op'], value: m[3] };
}

/** A streamed line as the filters see it. */
export type TailItem = { type: 'request' | 'delivery' } & Record<string, unknown>;

export function passes(item: TailItem, filters: readonly TailFilter[]): boolean {
  return filters.every((f) => {
    const actual = item[f.field];
    if (actual === undefined || actual === null) return f.op === '!=';
    const a = String(actual);
    switch (f.op) {
      case '=':
        return a.toLowerCase() === f.value.toLowerCase();
      case '!=':
        return a.toLowerCase() !== f.value.toLowerCase();
      case '~':
        return a.toLowerCase().includes(f.value.toLowerCase());
      default: {
        const n = Number(actual);
        const v = Number(f.value);
        if (!Number.isFinite(n) || !Number.isFinite(v)) return false;
        return f.op === '>=' ? n >= v : f.op === '<=' ? n <= v : f.op === '>' ? n > v : n < v;
      }
    }
  });
}

function statusColour(status: number | null | undefined): (s: string) => string {
  if (status === null || status === undefined) return c.red;
  if (status >= 500) return c.red;
  if (status >= 400) return c.yellow;
  if (status >= 300) return c.cyan;
  return c.green;
}

/** One human line (colours only when the output is a terminal: Node decides). */
export function formatLine(item: TailItem): string {
  const time = String(item.wallAt ?? new Date().toISOString()).slice(11, 19);
  // a fault the sandbox's profile injected (docs/chaos.md): told apart from what the partner caused
  const f = item.fault as { rule: number; kind: string } | undefined;
  const fault = f ? `  ${c.inverse(` fault ${f.kind} rule ${f.rule} `)}` : '';
  if (item.type === 'delivery') {
    const status = item.statusCode as number | null;
    const colour = statusColour(item.outcome === 'delivered' ? (status ?? 200) : null);
    return `${c.dim(time)}  ${c.magenta('webhook')} ${String(item.event ?? '?').padEnd(28)} ${colour(String(status ?? '---'))} ${colour(String(item.outcome))} ${c.dim(`${String(item.durationMs)}ms`)}  ${c.dim(String(item.url))}  ${c.dim(`delivery ${String(item.id)}`)}${fault}`;
  }
  const status = item.status as number;
  const refused = item.code ? ` ${String(item.code)}${item.field ? ` (${String(item.field)})` : ''}` : '';
  return `${c.dim(time)}  ${c.bold(String(item.method).padEnd(7))} ${String(item.path).padEnd(48)} ${statusColour(status)(`${status}${refused}`)} ${c.dim(`${String(item.durationMs)}ms`)}  ${c.dim(String(item.requestId))}${fault}`;
}

interface TailOpts {
  baseUrl: string;
  partnerClientId: string;
  partnerClientSecret: string;
  filter: TailFilter[];
  json?: boolean;
  max?: number;
}

export async function tail(opts: TailOpts, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const url = `${opts.baseUrl}/_sandbox/requests/stream`;
  let res;
  try {
    res = await undici().request(url, {
      headers: {
        accept: 'text/event-stream',
        'x-partner-client-id': opts.partnerClientId,
        'x-partner-client-secret': opts.partnerClientSecret,
      },
      bodyTimeout: 0,
    });
  } catch (e) {
    err(
      `obsim logs tail: cannot reach ${opts.baseUrl} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); is obsim running? (--base-url)`,
    );
    return 1;
  }
  if (res.statusCode !== 200) {
    const text = await res.body.text();
    err(`obsim logs tail: ${url} answered ${res.statusCode}: ${text.slice(0, 300)}`);
    return 1;
  }
  err(`Ready! Tailing requests and webhook deliveries of ${opts.partnerClientId} on ${opts.baseUrl} (Ctrl-C to stop)`);
  let shown = 0;
  let done = false;
  const parser = createParser({
    onEvent(message) {
      if (done || (message.event !== 'request' && message.event !== 'delivery')) return;
      const item = { type: message.event, ...(JSON.parse(message.data) as Record<string, unknown>) } as TailItem;
      if (!passes(item, opts.filter)) return;
      out(opts.json ? JSON.stringify(item) : formatLine(item));
      shown++;
      if (opts.max !== undefined && shown >= opts.max) done = true;
    },
  });
  for await (const chunk of res.body) {
    parser.feed((chunk as Buffer).toString('utf8'));
    if (done) {
      res.body.destroy();
      return 0;
    }
  }
  err('obsim logs tail: the stream ended (obsim stopped?)');
  return 1;
}

export function registerLogsCommand(program: Command): void {
  const logs = program.command('logs').description('The request journal of a running obsim (docs/journal.md)');
  partnerTargetOptions(
    logs.command('tail').description('Stream requests and webhook deliveries live, one line each (like stripe logs tail)'),
    'simulator to tail',
  )
    .addOption(
      new Option('--filter <expr>', 'FIELD OP VALUE, repeatable (status>=400, method=POST, path~/payments, type=delivery)')
        .argParser((raw: string, previous: TailFilter[] | undefined) => [...(previous ?? []), parseFilter(raw)])
        .default([]),
    )
    .option('--json', 'one JSON object per line ({ type: request | delivery, …the entry })')
    .addOption(
      new Option('--max <n>', 'stop after this many lines').argParser((raw: string) => {
        if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
        return Number(raw);
      }),
    )
    .action(async (opts: TailOpts) => {
      const code = await tail(
        opts,
        (line) => process.stdout.write(`${line}\n`),
        (line) => process.stderr.write(`${line}\n`),
      );
      if (code !== 0) throw new CliExit(code);
    });

  partnerTargetOptions(
    logs
      .command('export')
      .description(
        "Write the caller's whole request journal as one HAR 1.2 file (oldest first, credentials redacted) to open in a browser's developer tools",
      ),
    'simulator to read',
  )
    .requiredOption('--har <file>', 'the HAR file to write')
    .action(async (opts: { baseUrl: string; partnerClientId: string; partnerClientSecret: string; har: string }) => {
      const count = await exportHar(opts);
      console.error(`${count} request(s) written to ${opts.har}`);
    });
}

interface HarPage {
  log: { version: string; creator: object; entries: unknown[]; _nextCursor?: string };
}

/** Every page of GET /_sandbox/requests?format=har, older pages first, into one file written whole. */
async function exportHar(opts: { baseUrl: string; partnerClientId: string; partnerClientSecret: string; har: string }): Promise<number> {
  const headers = { 'x-partner-client-id': opts.partnerClientId, 'x-partner-client-secret': opts.partnerClientSecret };
  const pages: HarPage[] = [];
  let cursor: string | undefined;
  do {
    const qs = new URLSearchParams({ format: 'har', limit: '500', ...(cursor ? { cursor } : {}) });
    let res;
    try {
      res = await undici().request(`${opts.baseUrl}/_sandbox/requests?${qs}`, { headers });
    } catch (err) {
      throw new CliExit(1, `obsim: cannot reach ${opts.baseUrl} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new CliExit(1, `obsim: ${opts.baseUrl} answered ${res.statusCode}: ${text.slice(0, 300)}`);
    const page = JSON.parse(text) as HarPage;
    pages.unshift(page);
    cursor = page.log._nextCursor;
  } while (cursor);
  const { _nextCursor: _, ...log } = pages[pages.length - 1].log;
  const har = { log: { ...log, entries: pages.flatMap((p) => p.log.entries) } };
  writeFileWhole(opts.har, `${JSON.stringify(har, null, 2)}\n`);
  return har.log.entries.length;
}
