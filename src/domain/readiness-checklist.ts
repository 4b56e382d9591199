/**
 * The readiness report's go-live checklist (docs/readiness.md "The checklist"): obsim's default,
 * derived from the provider's document. Each item is `met`, `unmet` (never exercised counts as
 * unmet) or `not_applicable` (only where the partner's own choices rule it out), with the
 * evidence behind it; the verdict is met when no item is unmet.
 */
import type { EventSeen, OperationCoverage, ReadinessInput } from './readiness-input.js';
import type { Smell } from './readiness-smells.js';

export type ItemStatus = 'met' | 'unmet' | 'not_applicable';

export interface ChecklistItem {
  id: string;
  title: string;
  status: ItemStatus;
  /** What the status rests on, in words. */
  because: string;
  /** Journal entry ids behind it (newest first where there are many). */
  evidence: number[];
}

export const DEFAULT_ITEMS = {
  creates_payments: 'Creates payments',
  handles_payment_completed: 'Handles payment.completed',
  handles_payment_failed: 'Handles payment.failed',
  handles_merchant_activated: 'Handles merchant.activated',
  verifies_webhook_signatures: 'Verifies webhook signatures',
  polls_when_delivery_fails: 'Falls back to polling when a delivery fails',
  reads_accounts_with_consent: 'Reads accounts under an authorized consent',
  no_smells: 'Does nothing the report flags',
} as const;
export type DefaultItemId = keyof typeof DEFAULT_ITEMS;
export const DEFAULT_ITEM_IDS = Object.keys(DEFAULT_ITEMS) as DefaultItemId[];

export const verdictOf = (items: readonly ChecklistItem[]): 'met' | 'unmet' => (items.some((i) => i.status === 'unmet') ? 'unmet' : 'met');

const answered2xx = (o: OperationCoverage | undefined) => o !== undefined && Object.keys(o.statuses).some((s) => s.startsWith('2'));

export function defaultChecklist(
  input: ReadinessInput,
  ops: readonly OperationCoverage[],
  events: readonly EventSeen[],
  smells: readonly Smell[],
): ChecklistItem[] {
  const op = (id: string) => ops.find((o) => o.operationId === id);
  const item = (id: DefaultItemId, status: ItemStatus, because: string, evidence: number[] = []): ChecklistItem => ({
    id,
    title: DEFAULT_ITEMS[id],
    status,
    because,
    evidence,
  });
  const acked = (event: string) => events.find((e) => e.event === event)?.acknowledged ?? 0;
  const eventItem = (id: DefaultItemId, event: string) =>
    acked(event) > 0
      ? item(id, 'met', `${acked(event)} ${event} ${acked(event) === 1 ? 'delivery' : 'deliveries'} acknowledged with 2xx`)
      : item(id, 'unmet', `no ${event} delivery was acknowledged with 2xx`);

  const created = op('createPayment');
  const items = [
    answered2xx(created)
      ? item(
          'creates_payments',
          'met',
          'POST /v1/partner/payments answered 2xx',
          Object.entries(created!.evidenceByStatus).flatMap(([status, ids]) => (status.startsWith('2') ? ids : [])),
        )
      : item('creates_payments', 'unmet', 'no payment was created'),
    eventItem('handles_payment_completed', 'payment.completed'),
    eventItem('handles_payment_failed', 'payment.failed'),
    answered2xx(op('createMerchant')) || answered2xx(op('createFastTrackMerchant'))
      ? eventItem('handles_merchant_activated', 'merchant.activated')
      : item('handles_merchant_activated', 'not_applicable', 'no merchant was onboarded (only test merchants, which are active at once)'),
  ];

  const checks = input.receiverChecks;
  const last = checks.at(-1);
  items.push(
    last && last.passed && !last.forgedAccepted
      ? item('verifies_webhook_signatures', 'met', `check-receiver passed against ${last.url} at ${last.checkedAt}`)
      : last
        ? item('verifies_webhook_signatures', 'unmet', `the last check-receiver run against ${last.url} did not pass`)
        : item('verifies_webhook_signatures', 'unmet', 'no check-receiver run against the registered webhook is recorded'),
  );

  const failed = input.deliveries.filter((d) => d.state === 'failed' && d.paymentId !== undefined);
  const fallback = input.entries.filter(
    (e) => e.method === 'GET' && failed.some((d) => e.path === `/v1/partner/payments/${d.paymentId}/status` && e.at >= d.at),
  );
  items.push(
    failed.length === 0
      ? item(
          'polls_when_delivery_fails',
          'unmet',
          'no payment webhook delivery has failed yet: fail one (a receiver answering 500) and read the status',
        )
      : fallback.length > 0
        ? item(
            'polls_when_delivery_fails',
            'met',
            'the status of a payment whose delivery failed was read after it',
            fallback
              .slice(-5)
              .reverse()
              .map((e) => e.id),
          )
        : item('polls_when_delivery_fails', 'unmet', 'no status read followed a failed payment delivery'),
  );

  const consents = Object.values(input.consents).reduce((n, x) => n + x, 0);
  const aisReads = ops.filter((o) => o.path.startsWith('/v1/ais/accounts') && answered2xx(o));
  items.push(
    consents === 0
      ? item('reads_accounts_with_consent', 'not_applicable', 'no consent was requested')
      : (input.consents.authorized ?? 0) > 0 && aisReads.length > 0
        ? item(
            'reads_accounts_with_consent',
            'met',
            'a consent was authorized and accounts were read',
            aisReads.flatMap((o) => o.evidence),
          )
        : item('reads_accounts_with_consent', 'unmet', 'no account was read under an authorized consent'),
  );

  items.push(
    smells.length === 0
      ? item('no_smells', 'met', 'no smell found')
      : item('no_smells', 'unmet', smells.map((s) => s.code).join(', '), smells.flatMap((s) => s.evidence).slice(0, 10)),
  );
  return items;
}
