/**
 * The state of one scenario run, shared by the step handlers: variables, the transport, the
 * partner credentials, the registered webhooks, the deliveries already matched, the tracked
 * virtual clock, and where webhook deliveries are read from.
 */
import { CONTRACT_VERSION_HEADER } from '../domain/contract-switches.js';
import { randomBytes } from 'node:crypto';
import { render, type TemplateContext, type Vars } from './template.js';
import { partialMatch, formatMismatches, type Mismatch } from '../domain/match.js';
import type { Receiver } from './receiver.js';
import type { Transport, TransportResponse } from './transport.js';
import type { Expectation } from './types.js';

export class StepFailure extends Error {
  constructor(
    message: string,
    /** What differed, for a report that shows expected beside actual. */
    readonly mismatches?: Mismatch[],
  ) {
    super(message);
  }
}

/** One request the runner sent and its answer, on the sandbox clock (the HTML report's timeline). */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  /** The sandbox clock when the answer came, as the runner tracks it. */
  at: string;
  durationMs: number;
  requestBody?: string;
  responseBody: string;
  /** Identical exchanges in a row (a webhook wait polling the delivery log) are kept once and counted. */
  times: number;
}

/** Bodies longer than this are cut in a report (a page of transactions is not what it is about). */
const EXCHANGE_BODY_LIMIT = 16 * 1024;
const cut = (text: string) =>
  text.length > EXCHANGE_BODY_LIMIT ? `${text.slice(0, EXCHANGE_BODY_LIMIT)}… (${text.length} characters)` : text;

export interface PartnerCredentials {
  clientId: string;
  clientSecret: string;
}

export interface WatchedWebhook {
  id: string;
  secret: string;
  url: string;
  events: string[];
}

/** One delivery as the runner sees it, from the delivery log or from the local receiver. */
export interface SeenDelivery {
  /** Unique per delivery attempt (`log:12`, `rx:3`). */
  key: string;
  eventId: string | undefined;
  event: string | undefined;
  body: string;
  envelope: { event?: string; timestamp?: string; data?: unknown } | undefined;
  signature: string | undefined;
}

/** The header every request of a scenario run carries (its run id); the journal keeps it. */
export const RUNNER_HEADER = 'x-obsim-scenario';

export const UNREACHABLE_BASE = 'http://127.0.0.1:9/obsim-scenario';

export class RunContext {
  readonly vars: Vars;
  readonly runId: string;
  readonly webhooks = new Map<string, WatchedWebhook>();
  currentWebhook: string | undefined;
  /** Deliveries already used by an expectWebhook (each satisfies one expectation). */
  readonly consumed = new Set<string>();
  /** Every request sent, in order (runner.ts hands each step its own). */
  readonly exchanges: Exchange[] = [];
  /** Run an included file's steps here (set by the runner for a scenario read from a file); a line to show. */
  include?: (file: string) => Promise<string>;
  /** Where the running step's exchanges begin (one step's polls are merged, never two steps'). */
  stepStartsAt = 0;
  /** X-Obsim-Cause of the running step's requests (`scenario_step: <scenario> #<n> <kind>`). */
  cause: string | undefined;
  readonly transport: Transport;
  private webhookCounter = 0;
  private clock = { baseMs: Date.now(), atWallMs: Date.now(), frozen: false };
  readonly tpl: TemplateContext;

  constructor(
    transport: Transport,
    readonly partner: PartnerCredentials,
    readonly receiver: Receiver | undefined,
    initialVars: Vars = {},
  ) {
    this.transport = this.recording(transport);
    this.runId = randomBytes(4).toString('hex');
    this.vars = { ...initialVars };
    this.tpl = { vars: this.vars, runId: this.runId, nowMs: () => this.nowMs(), counter: { n: 0 } };
    this.vars['run.id'] = this.runId;
    this.vars['partner.clientId'] = partner.clientId;
  }

  private recording(transport: Transport): Transport {
    return {
      description: transport.description,
      request: async (req) => {
        const started = performance.now();
        if (this.cause !== undefined && req.headers['x-obsim-cause'] === undefined)
          req = { ...req, headers: { ...req.headers, 'x-obsim-cause': this.cause } };
        // the story's contract version names itself on each provider request (the controls are not versioned)
        if (this.contractVersion !== undefined && req.path.startsWith('/v1/') && req.headers[CONTRACT_VERSION_HEADER] === undefined)
          req = { ...req, headers: { ...req.headers, [CONTRACT_VERSION_HEADER]: this.contractVersion } };
        const res = await transport.request(req);
        const previous = this.exchanges[this.exchanges.length - 1];
        if (
          previous &&
          this.exchanges.length > this.stepStartsAt &&
          previous.method === req.method &&
          previous.path === req.path &&
          previous.status === res.status &&
          req.method === 'GET'
        ) {
          previous.times++;
          previous.responseBody = cut(res.text);
          previous.at = new Date(this.nowMs()).toISOString();
          return res;
        }
        this.exchanges.push({
          method: req.method,
          path: req.path,
          status: res.status,
          at: new Date(this.nowMs()).toISOString(),
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          ...(req.body !== undefined ? { requestBody: cut(req.body) } : {}),
          responseBody: cut(res.text),
          times: 1,
        });
        return res;
      },
    };
  }

  render<T>(value: T): T {
    return render(value, this.tpl);
  }

  nowMs(): number {
    return this.clock.frozen ? this.clock.baseMs : this.clock.baseMs + (Date.now() - this.clock.atWallMs);
  }

  setNow(iso: string, frozen?: boolean): void {
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) return;
    this.clock = { baseMs: ms, atWallMs: Date.now(), frozen: frozen ?? this.clock.frozen };
  }

  /** Read the simulator clock (GET /_sandbox/clock); falls back to the wall clock when unavailable. */
  async syncClock(): Promise<void> {
    try {
      const res = await this.call('GET', '/_sandbox/clock');
      const body = res.json as { now?: string; frozen?: boolean } | undefined;
      if (res.status === 200 && typeof body?.now === 'string') this.setNow(body.now, body.frozen === true);
    } catch {
      /* keep the wall clock */
    }
  }

  /** URL to register the next webhook with: the local receiver, or an address never reached. */
  nextWebhookUrl(): string {
    const n = ++this.webhookCounter;
    return this.receiver ? `${this.receiver.url}/hooks/${this.runId}/${n}/webhooks` : `${UNREACHABLE_BASE}/${this.runId}/${n}/webhooks`;
  }

  partnerHeaders(): Record<string, string> {
    return { 'x-partner-client-id': this.partner.clientId, 'x-partner-client-secret': this.partner.clientSecret, ...this.runHeader() };
  }

  /** Marks the runner's own requests, so request expectations count only the code under test's. */
  runHeader(): Record<string, string> {
    return { [RUNNER_HEADER]: this.runId };
  }

  /** The contract version the story runs under (undefined: the sandbox's). */
  contractVersion: string | undefined;

  /** The story's contract version is one the simulator serves (else the run fails naming the ones it does). */
  async checkContractVersion(): Promise<void> {
    const res = await this.call('GET', '/_sandbox/contract/versions');
    const names = ((res.json as { items?: { name: string }[] } | undefined)?.items ?? []).map((v) => v.name);
    if (res.status === 200 && !names.includes(this.contractVersion!))
      throw new Error(
        `no contract version ${JSON.stringify(this.contractVersion)} on this simulator: the versions are ${names.join(', ')}`,
      );
  }

  /** The newest journal entry when the run started: request expectations look only after it. */
  journalAfter = 0;

  /** Remember where the journal stands (0 when it is off or unreadable: then everything counts). */
  async markJournal(): Promise<void> {
    const res = await this.call('GET', '/_sandbox/requests?limit=1');
    const newest = (res.json as { items?: { id?: number }[] } | undefined)?.items?.[0]?.id;
    this.journalAfter = res.status === 200 && typeof newest === 'number' ? newest : 0;
  }

  /** A partner-authenticated call (control API, delivery log). */
  async call(method: string, path: string, body?: unknown): Promise<TransportResponse> {
    const headers = this.partnerHeaders();
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    return this.transport.request({ method, path, headers, body: payload });
  }

  /** Check a response against an expectation; throws StepFailure with a readable diff. */
  checkResponse(what: string, res: TransportResponse, expect: Expectation | undefined): void {
    const expected = expect?.status;
    const okStatus =
      expected === undefined
        ? res.status >= 200 && res.status < 300
        : Array.isArray(expected)
          ? expected.includes(res.status)
          : res.status === expected;
    if (!okStatus) {
      const want = expected === undefined ? '2xx' : Array.isArray(expected) ? expected.join(' or ') : String(expected);
      throw new StepFailure(
        `${what}: expected status ${want}, got ${res.status}\n  response body:\n${indent(res.json !== undefined ? JSON.stringify(res.json, null, 2) : res.text)}`,
        [{ path: 'status', expected: want, actual: res.status, reason: 'differs' }],
      );
    }
    if (expect?.headers) {
      const mismatches = partialMatch(lowerKeys(this.render(expect.headers)), res.headers);
      if (mismatches.length > 0)
        throw new StepFailure(`${what}: ${formatMismatches('response headers', mismatches, res.headers)}`, mismatches);
    }
    if (expect?.body !== undefined) {
      const wanted = this.render(expect.body);
      const actual = res.json !== undefined ? res.json : res.text;
      const mismatches: Mismatch[] = partialMatch(wanted, actual);
      if (mismatches.length > 0) throw new StepFailure(`${what}: ${formatMismatches('response body', mismatches, actual)}`, mismatches);
    }
  }
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

export function indent(text: string, maxLines = 30): string {
  const lines = text.split('\n');
  const shown = lines.slice(0, maxLines).map((l) => `    ${l}`);
  if (lines.length > maxLines) shown.push(`    … (${lines.length - maxLines} more lines)`);
  return shown.join('\n');
}
