/**
 * Gathers what a sandbox saw for its readiness report (src/domain/readiness.ts): the partner
 * operations the app serves (from its route table: the same schemas openapi.json is written
 * from), the journal's entries, the finished deliveries, the states the rows reached and the
 * check-receiver runs. Secrets never reach the report: the journal keeps them redacted, and only
 * each entry's id, instants, route, answer and (for payments) its referenceNumber are read.
 */
import { readinessReport, type SandboxReadiness } from '../domain/readiness.js';
import type { ProviderOperation, ReportEntry } from '../domain/readiness-input.js';
import type { Journal } from '../journal/index.js';
import { requestBodyOf, type StoredEntry } from '../journal/pages.js';
import type { RouteEntry } from '../plugins/route-table.js';
import type { Store } from '../store/index.js';

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

export interface ReportSources {
  routes: readonly RouteEntry[];
  journal: Journal;
  store: Store;
  cache: ReportCache;
}

function reportEntry(e: StoredEntry): ReportEntry {
  const r: ReportEntry = { id: e.id, at: e.at, wallAt: e.wallAt, method: e.method, path: e.path, status: e.status };
  if (e.code !== null) r.code = e.code;
  if (e.field !== null) r.field = e.field;
  if (e.method === 'POST' && e.path === '/v1/partner/payments') r.requestBody = requestBodyOf(e);
  return r;
}

/**
 * What the report read of each partner's journal the last time, so the next report reads only
 * the entries added since (reading a full journal's pages again cost ~60 ms; a report asked for
 * every second must not take that from the requests). Entries the journal dropped since are
 * dropped here too. About 150 bytes an entry, for the partners whose report was asked for.
 */
export function createReportCache() {
  const byPartner = new Map<string, { lastId: number; entries: ReportEntry[] }>();
  return {
    entries(journal: Journal, partnerId: string): ReportEntry[] {
      const cached = byPartner.get(partnerId) ?? { lastId: 0, entries: [] };
      const oldest = journal.oldestKept(partnerId);
      const fresh = journal.entries(partnerId, Math.max(cached.lastId, oldest - 1)).map(reportEntry);
      let kept = cached.entries;
      if (kept.length > 0 && kept[0].id < oldest) kept = kept.slice(kept.findIndex((e) => e.id >= oldest) >>> 0);
      if (kept.length > 0 && kept[0].id < oldest) kept = [];
      kept = fresh.length > 0 ? kept.concat(fresh) : kept;
      byPartner.set(partnerId, { lastId: fresh.at(-1)?.id ?? cached.lastId, entries: kept });
      return kept;
    },
    forget: (partnerId: string): void => void byPartner.delete(partnerId),
  };
}
export type ReportCache = ReturnType<typeof createReportCache>;

export function sandboxReport(sources: ReportSources, partnerId: string, sandboxId: string): SandboxReadiness {
  const { journal, store } = sources;
  const entries = sources.cache.entries(journal, partnerId);
  const deliveries = store.readiness.finishedDeliveries(partnerId).map((d) => ({
    event: d.event,
    ...(typeof d.payment_id === 'number' ? { paymentId: d.payment_id } : {}),
    state: d.state,
    at: d.attempted_at,
  }));
  const receiverChecks = store.readiness.receiverChecks(partnerId).map((c) => ({
    url: c.url,
    passed: c.passed === 1,
    forgedAccepted: c.forged_accepted === 1,
    checkedAt: c.checked_at,
  }));
  const report = readinessReport({
    operations: providerOperations(sources.routes),
    entries,
    deliveries,
    ...store.readiness.states(partnerId),
    receiverChecks,
    journalTruncated: journal.stats(partnerId).truncated,
  });
  return { sandboxId, generatedAt: new Date().toISOString(), ...report };
}
