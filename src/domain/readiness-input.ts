/**
 * What the readiness report reads (ReadinessInput, gathered by src/readiness/collect.ts) and the
 * parts of what it answers that its rules share (src/domain/readiness*.ts).
 */
/** What the report reads of a journal entry. */
export interface ReportEntry {
  id: number;
  /** The sandbox's clock (ISO): orders an entry against a delivery. */
  at: string;
  /** Wall clock (ISO): retries and polling are judged in real time. */
  wallAt: string;
  method: string;
  path: string;
  status: number;
  code?: string;
  field?: string;
  requestBody?: unknown;
  /** The sandbox's fault profile injected this (docs/chaos.md): its answer is not the partner's doing. */
  fault?: 'latency' | 'error' | 'drop';
  /** The contract version that served it; absent: the base. */
  contractVersion?: string;
}

/** A partner-facing operation of openapi.json. */
export interface ProviderOperation {
  operationId: string;
  method: string;
  /** OpenAPI path template: `/v1/partner/payments/{paymentId}/status`. */
  path: string;
  /** The contract versions that mark it deprecated (docs/contract-versions.md); absent: none. */
  deprecatedIn?: readonly string[];
}

export interface DeliverySeen {
  event: string;
  /** The payment the event is about, when it names one. */
  paymentId?: number;
  /** delivered: acknowledged with 2xx; failed: not (and never retried). */
  state: 'delivered' | 'failed';
  /** The sandbox's clock (ISO) of its attempt. */
  at: string;
}

export interface ReceiverCheckSeen {
  url: string;
  passed: boolean;
  forgedAccepted: boolean;
  /** Wall clock (ISO). */
  checkedAt: string;
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
  /** Transitions made, by name (`pending -> failed (expired)`), per resource kind. */
  transitions?: { payments: Record<string, number>; merchants: Record<string, number>; consents: Record<string, number> };
  /** Payments and consents a bank profile's rule was behind, by rule (docs/banks.md). */
  bankRules?: Record<string, number>;
  /** The check-receiver runs made against the registered webhooks, oldest first. */
  receiverChecks: readonly ReceiverCheckSeen[];
  /** The journal dropped older entries (its bounds): what they showed is not in the report. */
  journalTruncated?: boolean;
}

export interface OperationCoverage extends ProviderOperation {
  called: boolean;
  calls: number;
  /** Answers by status code: { "200": 3, "409": 1 }. */
  statuses: Record<string, number>;
  /** The answers worth having seen (readiness.ts statusesToSee) that were not. */
  unseen: string[];
  /** Up to five journal entry ids of its calls, newest first. */
  evidence: number[];
  /** Up to five journal entry ids per status answered, newest first. */
  evidenceByStatus: Record<string, number[]>;
  /**
   * Faults the sandbox's profile injected into its calls, apart from `statuses`: by status,
   * `dropped` (no answer) and `latency` (answered late, counted in `statuses` too).
   */
  injected?: Record<string, number>;
}

/** A lifecycle's states (or an event's deliveries): how many reached each, and those never reached. */
export interface StatesSeen {
  reached: Record<string, number>;
  unreached: string[];
}

export interface EventSeen {
  event: string;
  acknowledged: number;
  failed: number;
}
