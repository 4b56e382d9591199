/**
 * Gathers what a sandbox saw for its readiness report (src/domain/readiness.ts): the partner
 * operations the app serves (from its route table: the same schemas openapi.json is written
 * from), the journal's entries as written to its pages, the finished deliveries, the states the
 * rows reached and the check-receiver runs. Secrets never reach the report: the journal keeps
 * them redacted, and only each entry's id, instants, route, answer and (for payments) its
 * referenceNumber are read.
 *
 * Everything here reads the database only (no journal index, no engine), so the same code runs
 * on the serving connection or on a worker thread's own (./reporter.ts).
 */
import { readinessReport, type SandboxReadiness } from '../domain/readiness.js';
import type { ProviderOperation, ReportEntry } from '../domain/readiness-input.js';
import { decodePage, requestBodyOf, type StoredEntry } from '../journal/pages.js';
import type { RouteEntry } from '../plugins/route-table.js';
import type { journalStore } from '../store/journal.js';
import type { readinessStore } from '../store/readiness.js';

/** The routes of the provider's API (openapi.json): /v1/* with an operationId. */
export function providerOperations(routes: readonly RouteEntry[]): ProviderOperation[] {
  const seen = new Set<string>();
  const out: ProviderOperation[] = [];
  for (const r of routes) {
    const operationId = r.schema?.operationId;
    if (typeof operationId !== 'string' || !r.url.startsWith('/v1/') || r.method === 'HEAD' || seen.has(operationId)) continue;
    seen.add(operationId);
    out.push({ operationId, method: r.method, path: r.url.replace(/:([A-Za-z]+)/g, '{$1}') });
  }
  return out;
}

/** The tables a report reads: the serving store's, or a reader connection's (src/store/reader.ts). */
export interface ReportReads {
  journal: Pick<ReturnType<typeof journalStore>, 'pages'>;
  readiness: ReturnType<typeof readinessStore>;
}

/**
 * The sandbox a report is of, and its journal as the serving thread knows it when the report is
 * asked for: the entries up to `upTo` are written (the caller flushed the journal and waited for
 * the commit), those below `oldestKept` are dropped by the journal's bounds.
 */
export interface ReportSubject {
  partnerId: string;
  sandboxId: string;
  upTo: number;
  oldestKept: number;
  truncated: boolean;
}

function reportEntry(e: StoredEntry): ReportEntry {
  const r: ReportEntry = { id: e.id, at: e.at, wallAt: e.wallAt, method: e.method, path: e.path, status: e.status };
  if (e.code !== null) r.code = e.code;
  if (e.field !== null) r.field = e.field;
  if (e.method === 'POST' && e.path === '/v1/partner/payments') r.requestBody = requestBodyOf(e);
  if (e.contractVersion !== null) r.contractVersion = e.contractVersion;
  if (e.fault !== null && (e.fault.kind === 'latency' || e.fault.kind === 'error' || e.fault.kind === 'drop')) r.fault = e.fault.kind;
  return r;
}

/**
 * Readiness reports from `reads`, remembering what each partner's last report read of its
 * journal so the next reads only the pages written since (reading a full journal's pages again
 * cost ~60 ms). Entries the journal dropped since are dropped here too. About 150 bytes an entry,
 * for the partners whose report was asked for. `onUnreadablePage`: a page that does not parse is
 * skipped (its entries are lost to the journal too), and said.
 */
export function createReportMaker(operations: readonly ProviderOperation[], reads: ReportReads, onUnreadablePage?: (err: unknown) => void) {
  const byPartner = new Map<string, { lastId: number; entries: ReportEntry[] }>();

  function entries({ partnerId, upTo, oldestKept }: ReportSubject): ReportEntry[] {
    const cached = byPartner.get(partnerId) ?? { lastId: 0, entries: [] };
    const after = Math.max(cached.lastId, oldestKept - 1);
    const fresh: ReportEntry[] = [];
    for (const page of reads.journal.pages(partnerId, after)) {
      let decoded: StoredEntry[];
      try {
        decoded = decodePage(page.data);
      } catch (err) {
        onUnreadablePage?.(err);
        continue;
      }
      for (const e of decoded) if (e.id > after && e.id <= upTo) fresh.push(reportEntry(e));
    }
    let kept = cached.entries;
    if (kept.length > 0 && kept[0].id < oldestKept) {
      const first = kept.findIndex((e) => e.id >= oldestKept);
      kept = first < 0 ? [] : kept.slice(first);
    }
    kept = fresh.length > 0 ? kept.concat(fresh) : kept;
    byPartner.set(partnerId, { lastId: Math.max(after, fresh.at(-1)?.id ?? 0), entries: kept });
    return kept;
  }

  return {
    report(subject: ReportSubject): SandboxReadiness {
      const { partnerId } = subject;
      const deliveries = reads.readiness.finishedDeliveries(partnerId).map((d) => ({
        event: d.event,
        ...(typeof d.payment_id === 'number' ? { paymentId: d.payment_id } : {}),
        state: d.state,
        at: d.attempted_at,
      }));
      const receiverChecks = reads.readiness.receiverChecks(partnerId).map((c) => ({
        url: c.url,
        passed: c.passed === 1,
        forgedAccepted: c.forged_accepted === 1,
        checkedAt: c.checked_at,
      }));
      const report = readinessReport({
        operations,
        entries: entries(subject),
        deliveries,
        ...reads.readiness.states(partnerId),
        receiverChecks,
        journalTruncated: subject.truncated,
      });
      return { sandboxId: subject.sandboxId, generatedAt: new Date().toISOString(), ...report };
    },
    forget: (partnerId: string): void => void byPartner.delete(partnerId),
  };
}
export type ReportMaker = ReturnType<typeof createReportMaker>;
