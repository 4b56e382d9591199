/**
 * The go-live readiness report's rules (issue 28, docs to follow with its route): from what a
 * sandbox saw — its journal, its webhook deliveries, the states its rows reached — which of the
 * provider's operations the partner called and with which answers, which lifecycle states and
 * events it met, what it did wrong (smells, each with the journal entries that prove it) and a
 * go-live checklist with a verdict. Pure: the caller reads the journal and the store.
 */
import { pathPattern } from './journal.js';

/** What the report reads of a journal entry. */
export interface ReportEntry {
  id: number;
  /** Wall-clock instant of the answer (ISO): retries and polling are judged in real time. */
  wallAt: string;
  method: string;
  path: string;
  status: number;
  code?: string;
  field?: string;
  requestBody?: unknown;
}

/** A partner-facing operation of openapi.json. */
export interface ProviderOperation {
  operationId: string;
  method: string;
  /** OpenAPI path template: `/v1/partner/payments/{paymentId}/status`. */
  path: string;
}

export interface DeliverySeen {
  event: string;
  /** The payment or merchant the event is about, when it names one. */
  paymentId?: number;
  /** The delivery's state (delivered: acknowledged with 2xx; failed: not, and never retried). */
  state: string;
  /** Wall-clock instant of the delivery's last attempt (ISO). */
  wallAt: string;
}

export interface ReadinessInput {
  operations: readonly ProviderOperation[];
  /** The sandbox's journal, oldest first. */
  entries: readonly ReportEntry[];
  deliveries: readonly DeliverySeen[];
  /** States reached, counted: payments by status and failure reason, merchants, consents. */
  payments: Record<string, number>;
  failureReasons: Record<string, number>;
  merchants: Record<string, number>;
  consents: Record<string, number>;
  /** Event names the contract lists. */
  events: readonly string[];
  /** Passing check-receiver runs against the registered URL (none recorded: []). */
  receiverChecks: readonly { url: string; passed: boolean; forgedAccepted: boolean }[];
  /** Seconds a client must wait after a 429 or 503 (the Retry-After obsim sends). */
  retryAfterS?: number;
  /** Reads of one payment's status per second that count as polling too fast. */
  pollPerSecond?: number;
}

export interface OperationCoverage extends ProviderOperation {
  called: boolean;
  calls: number;
  /** Answers by status code: { "201": 3, "409": 1 }. */
  statuses: Record<string, number>;
  /** Up to five journal entry ids of its calls, newest first. */
  evidence: number[];
}

export interface Smell {
  code: SmellCode;
  message: string;
  /** docs/readiness.md#<code>. */
  docs: string;
  evidence: number[];
}

export type SmellCode =
  | 'duplicate_reference_number'
  | 'repeated_validation_error'
  | 'retry_before_retry_after'
  | 'expired_token_reused'
  | 'polling_after_webhook'
  | 'forged_signature_accepted';

export type ItemStatus = 'met' | 'unmet' | 'not_applicable';

export interface ChecklistItem {
  id: string;
  title: string;
  status: ItemStatus;
  /** What the status rests on, in words. */
  because: string;
  evidence: number[];
}

export interface ReadinessReport {
  verdict: 'met' | 'unmet';
  operations: OperationCoverage[];
  lifecycles: {
    payments: Record<string, number>;
    failureReasons: Record<string, number>;
    merchants: Record<string, number>;
    consents: Record<string, number>;
    events: { event: string; acknowledged: number; failed: number }[];
  };
  smells: Smell[];
  checklist: ChecklistItem[];
}

const SMELL_TEXT: Record<SmellCode, string> = {
  duplicate_reference_number: 'The same referenceNumber was sent for more than one payment: one order, several payments.',
  repeated_validation_error: 'A request refused for its input was sent again with the same mistake.',
  retry_before_retry_after: 'A request answered 429 or 503 was retried before its Retry-After had passed.',
  expired_token_reused: 'An expired bearer token was sent again instead of a new one.',
  polling_after_webhook: "A payment's status was read more than once a second after its webhook had been acknowledged.",
  forged_signature_accepted: 'check-receiver proved the webhook receiver accepts deliveries with a forged signature.',
};

const smell = (code: SmellCode, evidence: number[]): Smell => ({
  code,
  message: SMELL_TEXT[code],
  docs: `docs/readiness.md#${code.replace(/_/g, '-')}`,
  evidence,
});

/** The operation a journal entry called (undefined: none of the provider's). */
export function operationOf(operations: readonly ProviderOperation[], method: string, path: string): ProviderOperation | undefined {
  return operations.find((o) => o.method === method && pathPattern(o.path).test(path));
}

const ms = (iso: string) => Date.parse(iso);

function findSmells(input: ReadinessInput): Smell[] {
  const out: Smell[] = [];
  const { entries } = input;

  const byReference = new Map<string, number[]>();
  for (const e of entries) {
    const ref = (e.requestBody as { referenceNumber?: unknown } | undefined)?.referenceNumber;
    if (e.method === 'POST' && e.path === '/v1/partner/payments' && e.status < 300 && typeof ref === 'string') {
      byReference.set(ref, [...(byReference.get(ref) ?? []), e.id]);
    }
  }
  const duplicates = [...byReference.values()].filter((ids) => ids.length > 1).flat();
  if (duplicates.length) out.push(smell('duplicate_reference_number', duplicates));

  const mistakes = new Map<string, number[]>();
  for (const e of entries) {
    if (e.status !== 400 || e.code !== 'validation_failed') continue;
    const key = `${e.method} ${operationOf(input.operations, e.method, e.path)?.path ?? e.path} ${e.field ?? ''}`;
    mistakes.set(key, [...(mistakes.get(key) ?? []), e.id]);
  }
  const repeated = [...mistakes.values()].filter((ids) => ids.length > 1).flat();
  if (repeated.length) out.push(smell('repeated_validation_error', repeated));

  const waitMs = (input.retryAfterS ?? 1) * 1000;
  const early: number[] = [];
  entries.forEach((e, i) => {
    if (e.status !== 429 && e.status !== 503) return;
    const next = entries.slice(i + 1).find((n) => n.method === e.method && n.path === e.path);
    if (next && ms(next.wallAt) - ms(e.wallAt) < waitMs) early.push(e.id, next.id);
  });
  if (early.length) out.push(smell('retry_before_retry_after', [...new Set(early)]));

  const expired = entries.filter((e) => e.code === 'token_expired').map((e) => e.id);
  if (expired.length > 1) out.push(smell('expired_token_reused', expired));

  const perSecond = input.pollPerSecond ?? 1;
  const polled: number[] = [];
  for (const d of input.deliveries) {
    if (d.paymentId === undefined || d.state !== 'delivered') continue;
    const reads = entries.filter(
      (e) => e.method === 'GET' && e.path === `/v1/partner/payments/${d.paymentId}/status` && ms(e.wallAt) >= ms(d.wallAt),
    );
    for (let i = perSecond; i < reads.length; i++) {
      if (ms(reads[i].wallAt) - ms(reads[i - perSecond].wallAt) < 1000) polled.push(reads[i].id);
    }
  }
  if (polled.length) out.push(smell('polling_after_webhook', polled));

  if (input.receiverChecks.some((c) => c.forgedAccepted)) out.push(smell('forged_signature_accepted', []));
  return out;
}

function coverage(input: ReadinessInput): OperationCoverage[] {
  return input.operations.map((o) => {
    const calls = input.entries.filter((e) => e.method === o.method && pathPattern(o.path).test(e.path));
    const statuses: Record<string, number> = {};
    for (const e of calls) statuses[String(e.status)] = (statuses[String(e.status)] ?? 0) + 1;
    return {
      ...o,
      called: calls.length > 0,
      calls: calls.length,
      statuses,
      evidence: calls
        .slice(-5)
        .reverse()
        .map((e) => e.id),
    };
  });
}

function eventCounts(input: ReadinessInput) {
  return input.events.map((event) => {
    const ds = input.deliveries.filter((d) => d.event === event);
    return {
      event,
      acknowledged: ds.filter((d) => d.state === 'delivered').length,
      failed: ds.filter((d) => d.state === 'failed').length,
    };
  });
}

function checklist(input: ReadinessInput, ops: OperationCoverage[], smells: Smell[]): ChecklistItem[] {
  const op = (id: string) => ops.find((o) => o.operationId === id);
  const events = eventCounts(input);
  const acked = (event: string) => events.find((e) => e.event === event)?.acknowledged ?? 0;
  const item = (id: string, title: string, status: ItemStatus, because: string, evidence: number[] = []): ChecklistItem => ({
    id,
    title,
    status,
    because,
    evidence,
  });
  const created = op('createPayment');
  const items: ChecklistItem[] = [
    created?.called && Object.keys(created.statuses).some((s) => s.startsWith('2'))
      ? item('creates_payments', 'Creates payments', 'met', 'POST /v1/partner/payments answered 2xx', created.evidence)
      : item('creates_payments', 'Creates payments', 'unmet', 'no payment was created'),
  ];
  for (const [event, title] of [
    ['payment.completed', 'Handles payment.completed'],
    ['payment.failed', 'Handles payment.failed'],
  ] as const) {
    items.push(
      acked(event) > 0
        ? item(`handles_${event.replace('.', '_')}`, title, 'met', `${acked(event)} ${event} deliveries acknowledged with 2xx`)
        : item(`handles_${event.replace('.', '_')}`, title, 'unmet', `no ${event} delivery was acknowledged with 2xx`),
    );
  }
  const onboards = (input.merchants.pending_onboarding ?? 0) + (input.merchants.activated ?? 0) > 0 || op('createMerchant')?.called;
  items.push(
    !onboards
      ? item('handles_merchant_activated', 'Handles merchant.activated', 'not_applicable', 'no merchant was onboarded')
      : acked('merchant.activated') > 0
        ? item('handles_merchant_activated', 'Handles merchant.activated', 'met', 'a merchant.activated delivery was acknowledged with 2xx')
        : item(
            'handles_merchant_activated',
            'Handles merchant.activated',
            'unmet',
            'no merchant.activated delivery was acknowledged with 2xx',
          ),
  );
  const passing = input.receiverChecks.find((c) => c.passed && !c.forgedAccepted);
  items.push(
    passing
      ? item('verifies_webhook_signatures', 'Verifies webhook signatures', 'met', `check-receiver passed against ${passing.url}`)
      : item(
          'verifies_webhook_signatures',
          'Verifies webhook signatures',
          'unmet',
          'no passing check-receiver run against the registered URL is recorded',
        ),
  );
  const failedPayments = input.deliveries.filter((d) => d.state === 'failed' && d.paymentId !== undefined);
  const fallback = input.entries.filter(
    (e) =>
      e.method === 'GET' &&
      failedPayments.some((d) => e.path === `/v1/partner/payments/${d.paymentId}/status` && ms(e.wallAt) >= ms(d.wallAt)),
  );
  items.push(
    failedPayments.length === 0
      ? item(
          'polls_when_delivery_fails',
          'Falls back to polling when a delivery fails',
          'unmet',
          'no payment webhook delivery has failed yet: fail one (a receiver answering 500) and read the status',
        )
      : fallback.length > 0
        ? item(
            'polls_when_delivery_fails',
            'Falls back to polling when a delivery fails',
            'met',
            'the status of a payment whose delivery failed was read after it',
            fallback.slice(-5).map((e) => e.id),
          )
        : item(
            'polls_when_delivery_fails',
            'Falls back to polling when a delivery fails',
            'unmet',
            'no status read followed a failed payment delivery',
          ),
  );
  const consents = Object.values(input.consents).reduce((n, x) => n + x, 0);
  const aisRead = ops.filter((o) => o.path.startsWith('/v1/ais/accounts') && Object.keys(o.statuses).some((s) => s.startsWith('2')));
  items.push(
    consents === 0
      ? item('reads_accounts_with_consent', 'Reads accounts under an authorized consent', 'not_applicable', 'no consent was requested')
      : (input.consents.authorized ?? 0) > 0 && aisRead.length > 0
        ? item(
            'reads_accounts_with_consent',
            'Reads accounts under an authorized consent',
            'met',
            'a consent was authorized and accounts were read',
            aisRead.flatMap((o) => o.evidence),
          )
        : item(
            'reads_accounts_with_consent',
            'Reads accounts under an authorized consent',
            'unmet',
            'no account was read under an authorized consent',
          ),
  );
  items.push(
    smells.length === 0
      ? item('no_smells', 'Does nothing the report flags', 'met', 'no smell found')
      : item(
          'no_smells',
          'Does nothing the report flags',
          'unmet',
          smells.map((s) => s.code).join(', '),
          smells.flatMap((s) => s.evidence).slice(0, 10),
        ),
  );
  return items;
}

/** The report of what a sandbox saw. */
export function readinessReport(input: ReadinessInput): ReadinessReport {
  const operations = coverage(input);
  const smells = findSmells(input);
  const items = checklist(input, operations, smells);
  return {
    verdict: items.every((i) => i.status !== 'unmet') ? 'met' : 'unmet',
    operations,
    lifecycles: {
      payments: input.payments,
      failureReasons: input.failureReasons,
      merchants: input.merchants,
      consents: input.consents,
      events: eventCounts(input),
    },
    smells,
    checklist: items,
  };
}
