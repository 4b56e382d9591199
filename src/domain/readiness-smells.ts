/**
 * The readiness report's smells (docs/readiness.md "Smells"): things a partner's integration did
 * that will hurt in production, each with a stable code, a one-line explanation, its docs section
 * and the journal entries that prove it (readable with GET /_sandbox/requests/{id}).
 */
import type { ProviderOperation, ReadinessInput, ReportEntry } from './readiness-input.js';

export const SMELL_CODES = [
  'duplicate_reference_number',
  'repeated_validation_error',
  'retry_before_retry_after',
  'expired_token_reused',
  'polling_after_webhook',
  'forged_signature_accepted',
] as const;
export type SmellCode = (typeof SMELL_CODES)[number];

export interface Smell {
  code: SmellCode;
  message: string;
  /** docs/readiness.md#<code with dashes>. */
  docs: string;
  evidence: number[];
}

export const SMELL_TEXT: Record<SmellCode, string> = {
  duplicate_reference_number: 'The same referenceNumber was sent for more than one payment: one order, several payments.',
  repeated_validation_error: 'A request refused for its input was sent again with the same mistake.',
  retry_before_retry_after: 'A request answered 429 or 503 was retried before its Retry-After had passed.',
  expired_token_reused: 'An expired bearer token was sent again instead of a new one.',
  polling_after_webhook: "A payment's status was read more than once a second after its webhook had been acknowledged.",
  forged_signature_accepted: 'check-receiver proved the webhook receiver accepts deliveries with a forged signature.',
};

/** Seconds a client must wait after a 429 or 503 at least (the Retry-After obsim sends is 1 or more). */
export const RETRY_AFTER_S = 1;
/** Reads of one payment's status per second, after its webhook was acknowledged, that count as too many. */
export const POLLS_PER_SECOND = 1;

const smell = (code: SmellCode, evidence: number[]): Smell => ({
  code,
  message: SMELL_TEXT[code],
  docs: `docs/readiness.md#${code.replace(/_/g, '-')}`,
  evidence,
});

const ms = Date.parse;

function groups<K>(entries: readonly ReportEntry[], key: (e: ReportEntry, i: number) => K | undefined): Map<K, ReportEntry[]> {
  const out = new Map<K, ReportEntry[]>();
  entries.forEach((e, i) => {
    const k = key(e, i);
    if (k === undefined) return;
    const list = out.get(k);
    if (list) list.push(e);
    else out.set(k, [e]);
  });
  return out;
}

const repeated = (g: Map<unknown, ReportEntry[]>) =>
  [...g.values()].filter((list) => list.length > 1).flatMap((list) => list.map((e) => e.id));

/** `operations[i]`: the operation entries[i] called (readiness.ts operationsOf). */
export function findSmells(input: ReadinessInput, operations: readonly (ProviderOperation | undefined)[]): Smell[] {
  const out: Smell[] = [];
  const { entries } = input;

  const byReference = groups(entries, (e) => {
    const ref = (e.requestBody as { referenceNumber?: unknown } | undefined)?.referenceNumber;
    return e.method === 'POST' && e.path === '/v1/partner/payments' && e.status < 300 && typeof ref === 'string' ? ref : undefined;
  });
  const duplicates = repeated(byReference);
  if (duplicates.length) out.push(smell('duplicate_reference_number', duplicates));

  const mistakes = groups(entries, (e, i) =>
    e.status === 400 && e.code === 'validation_failed' ? `${e.method} ${operations[i]?.path ?? e.path} ${e.field ?? ''}` : undefined,
  );
  const sameMistake = repeated(mistakes);
  if (sameMistake.length) out.push(smell('repeated_validation_error', sameMistake));

  // the first request after each 429 / 503 to the same method and path
  const early = new Set<number>();
  const waiting = new Map<string, ReportEntry>();
  for (const e of entries) {
    if (waiting.size > 0) {
      const key = `${e.method} ${e.path}`;
      const refused = waiting.get(key);
      if (refused) {
        waiting.delete(key);
        if (ms(e.wallAt) - ms(refused.wallAt) < RETRY_AFTER_S * 1000) early.add(refused.id).add(e.id);
      }
    }
    if (e.status === 429 || e.status === 503) waiting.set(`${e.method} ${e.path}`, e);
  }
  if (early.size)
    out.push(
      smell(
        'retry_before_retry_after',
        [...early].sort((a, b) => a - b),
      ),
    );

  const expired = entries.filter((e) => e.code === 'token_expired').map((e) => e.id);
  if (expired.length > 1) out.push(smell('expired_token_reused', expired));

  const statusReads = groups(entries, (e) => (e.method === 'GET' && e.path.endsWith('/status') ? e.path : undefined));
  const polled = new Set<number>();
  for (const d of input.deliveries) {
    if (d.paymentId === undefined || d.state !== 'delivered') continue;
    const reads = (statusReads.get(`/v1/partner/payments/${d.paymentId}/status`) ?? []).filter((e) => e.at >= d.at);
    for (let i = POLLS_PER_SECOND; i < reads.length; i++) {
      if (ms(reads[i].wallAt) - ms(reads[i - POLLS_PER_SECOND].wallAt) < 1000) polled.add(reads[i].id);
    }
  }
  if (polled.size)
    out.push(
      smell(
        'polling_after_webhook',
        [...polled].sort((a, b) => a - b),
      ),
    );

  if (input.receiverChecks.some((c) => c.forgedAccepted)) out.push(smell('forged_signature_accepted', []));
  return out;
}
