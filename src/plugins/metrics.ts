/**
 * `GET /metrics`: Prometheus's text format, with prom-client (docs/operations.md, "Metrics").
 *
 * Counted where the fact is decided, with label sets fixed here and no label value taken from
 * user input: the request's operationId and status class in one onResponse hook; a delivery's
 * outcome when the webhook worker records it; sandboxes when they are created and removed; the
 * rest (sandboxes live, resources by state, timers, clock lag, the journal, the database files)
 * read when Prometheus scrapes. No label carries a sandbox id, a path or a request id, unless the
 * operator asks for a sandbox label (--metrics-sandbox-label) and accepts a series per sandbox.
 *
 * Guarded whenever a metrics token or an admin key is set: `Authorization: Bearer <token>` with
 * OBSIM_METRICS_TOKEN, or the admin key (as the bearer or X-Obsim-Admin-Key); open when neither is
 * (the default sandbox profile). The start says which.
 *
 * With a series per sandbox (--metrics-sandbox-label), a removed sandbox's series leave with it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { statSync } from 'node:fs';
import { timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { responses } from '../../schemas/common.js';
import { ApiError } from '../domain/errors.js';
import { DEFAULT_SANDBOX } from '../domain/sandbox.js';
import { packageVersion } from '../package-root.js';
import { ADMIN_KEY_HEADER } from './admin-key.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's Prometheus registry (GET /metrics). */
    metrics: Registry;
  }
}

/** Seconds: from a fast GET (a fraction of a millisecond) to the 10-second webhook limit. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const LAG_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1, 5, 30, 120];

/** A route's label: its operationId; the pages and unmatched requests by what they are. */
function operationLabel(request: FastifyRequest, reply: FastifyReply): string {
  const url = request.routeOptions.url;
  if (url === undefined) return reply.statusCode === 404 ? 'unmatched' : 'refused';
  const operation = request.routeOptions.schema?.operationId;
  if (operation) return operation;
  if (url.startsWith('/console')) return 'console';
  if (url.startsWith('/docs')) return 'docs';
  return 'hosted_page';
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** The outcome label of a finished attempt: delivered, failed, or chaos (the sandbox's fault profile dropped it). */
function deliveryOutcome(outcome: string): 'delivered' | 'failed' | 'chaos' {
  if (outcome === 'delivered') return 'delivered';
  return outcome === 'chaos_drop' ? 'chaos' : 'failed';
}

function fileBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function sameSecret(given: string, expected: string | undefined): boolean {
  if (!expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const shard = config.shard ?? 'none';
    const perSandbox = config.metricsSandboxLabel;
    const registry = new Registry();
    registry.setDefaultLabels({ shard });
    collectDefaultMetrics({ register: registry });
    app.decorate('metrics', registry);

    new Gauge({
      name: 'obsim_build_info',
      help: 'Always 1; the labels say which obsim and which Node answer',
      labelNames: ['version', 'node', 'environment'],
      registers: [registry],
    }).set({ version: packageVersion(), node: process.version, environment: config.environment }, 1);

    // ---- requests: counted where the answer is decided
    const requestLabels = perSandbox ? ['operation', 'status_class', 'sandbox'] : ['operation', 'status_class'];
    const requests = new Counter({
      name: 'obsim_http_requests_total',
      help: 'Requests answered, by operationId (or console, hosted_page, docs, unmatched, refused) and status class',
      labelNames: requestLabels,
      registers: [registry],
    });
    const latency = new Histogram({
      name: 'obsim_http_request_duration_seconds',
      help: 'From the request received to its answer sent, by operationId',
      labelNames: ['operation'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
    const chaos = new Counter({
      name: 'obsim_chaos_injections_total',
      help: "Faults a sandbox's fault profile injected (docs/chaos.md), by kind: API answers and webhook deliveries",
      labelNames: ['kind'],
      registers: [registry],
    });
    app.addHook('onResponse', (request, reply, done) => {
      const operation = operationLabel(request, reply);
      const labels: Record<string, string> = { operation, status_class: statusClass(reply.statusCode) };
      if (perSandbox) labels.sandbox = request.partner?.sandboxId ?? (request.partner ? DEFAULT_SANDBOX : 'none');
      requests.inc(labels);
      latency.observe({ operation }, reply.elapsedTime / 1000);
      if (request.fault) chaos.inc({ kind: request.fault.kind });
      done();
    });

    // ---- sandboxes
    const created = new Counter({ name: 'obsim_sandboxes_created_total', help: 'Sandboxes created', registers: [registry] });
    const removed = new Counter({
      name: 'obsim_sandboxes_removed_total',
      help: 'Sandboxes removed, by reason: deleted (DELETE) or expired (idle past their time to live)',
      labelNames: ['reason'],
      registers: [registry],
    });
    app.sandboxes.onCreated(() => created.inc());
    app.sandboxes.onRemoved((id, reason) => {
      removed.inc({ reason });
      if (perSandbox) void forgetSandbox(id);
    });
    new Gauge({
      name: 'obsim_sandboxes',
      help: "Sandboxes live now (created ones; the configured partners' default sandbox is not counted)",
      registers: [registry],
      collect() {
        this.set(app.sandboxes.list().length);
      },
    });

    // ---- resources by state, read from the database when scraped
    new Gauge({
      name: 'obsim_resources',
      help: 'Payments, merchants and consents by state, every sandbox of the process',
      labelNames: ['resource', 'state'],
      registers: [registry],
      collect() {
        this.reset();
        for (const { resource, state, count } of app.store.metrics.stateCounts()) this.set({ resource, state }, count);
      },
    });

    // ---- webhook deliveries: counted when the worker records an attempt's outcome
    const deliveries = new Counter({
      name: 'obsim_webhook_deliveries_total',
      help: 'Delivery attempts finished, by event and outcome: delivered (2xx), failed (any other answer, timeout or connection error), chaos (dropped by the fault profile)',
      labelNames: perSandbox ? ['event', 'outcome', 'sandbox'] : ['event', 'outcome'],
      registers: [registry],
    });
    const retries = new Counter({
      name: 'obsim_webhook_retries_total',
      help: 'Deliveries sent again, by event: a redelivery from the console or the API, or a duplicate the fault profile made',
      labelNames: ['event'],
      registers: [registry],
    });
    const attempts = new Counter({
      name: 'obsim_webhook_attempts_total',
      help: 'Delivery attempts that went out over the network, by event',
      labelNames: ['event'],
      registers: [registry],
    });
    const lag = new Histogram({
      name: 'obsim_webhook_delivery_lag_seconds',
      help: 'Real seconds from a delivery queued (its change committed) to its attempt sent',
      buckets: LAG_BUCKETS,
      registers: [registry],
    });
    app.webhooks.onAttempt(({ delivery, result }) => {
      const outcome = deliveryOutcome(result.outcome);
      const labels: Record<string, string> = { event: delivery.event, outcome };
      if (perSandbox) labels.sandbox = app.engine.worldOf(delivery.partner_id).id;
      deliveries.inc(labels);
      if (delivery.redelivery_of !== null) retries.inc({ event: delivery.event });
      if (outcome === 'chaos') chaos.inc({ kind: 'webhook_drop' });
      else {
        attempts.inc({ event: delivery.event });
        if (delivery.queued_at_ms !== null) lag.observe(Math.max(0, (Date.now() - result.duration_ms - delivery.queued_at_ms) / 1000));
      }
      const fault = result.fault ? (JSON.parse(result.fault) as { kind: string }).kind : undefined;
      if (fault && fault !== 'webhook_drop') chaos.inc({ kind: fault });
    });
    new Gauge({
      name: 'obsim_webhook_deliveries_waiting',
      help: 'Deliveries queued and not yet claimed by the worker',
      registers: [registry],
      collect() {
        this.set(app.webhooks.backlog);
      },
    });

    // ---- timers and clocks, read when scraped
    new Gauge({
      name: 'obsim_timers_due',
      help: "Timed transitions (settlements, expiries, approvals) due on their sandbox's clock and not fired yet",
      registers: [registry],
      collect() {
        this.set(app.engine.timerStats().due);
      },
    });
    new Gauge({
      name: 'obsim_timers_overdue',
      help: "Timed transitions due more than a second ago on their sandbox's clock and not fired yet",
      registers: [registry],
      collect() {
        this.set(app.engine.timerStats().overdue);
      },
    });
    new Gauge({
      name: 'obsim_clock_lag_seconds',
      help: "Running clocks: how far the oldest unfired due timer lies behind its sandbox's clock (the largest over the sandboxes); 0 when none is late",
      registers: [registry],
      collect() {
        this.set(app.engine.timerStats().lagMs / 1000);
      },
    });

    // ---- the journal and the database, read when scraped
    if (app.journal) {
      const journal = app.journal;
      new Gauge({
        name: 'obsim_journal_entries',
        help: 'Request journal entries kept, every sandbox loaded',
        registers: [registry],
        collect() {
          this.set(journal.totals().entries);
        },
      });
      new Counter({
        name: 'obsim_journal_dropped_total',
        help: "Journal entries dropped by the journal's bounds (the oldest, past --journal-max-entries or --journal-max-bytes)",
        registers: [registry],
        collect() {
          this.reset();
          this.inc(journal.totals().dropped);
        },
      });
    }
    const dbFile = app.db.memory ? undefined : app.db.name;
    new Gauge({
      name: 'obsim_sqlite_bytes',
      help: "The SQLite database's files: the database and its write-ahead log (0 for an in-memory database)",
      labelNames: ['file'],
      registers: [registry],
      collect() {
        this.set({ file: 'database' }, dbFile ? fileBytes(dbFile) : 0);
        this.set({ file: 'wal' }, dbFile ? fileBytes(`${dbFile}-wal`) : 0);
      },
    });

    /** A removed sandbox's series (--metrics-sandbox-label): none of it is scraped any more. */
    async function forgetSandbox(sandboxId: string): Promise<void> {
      for (const metric of [requests, deliveries]) {
        for (const { labels } of (await metric.get()).values) if (labels.sandbox === sandboxId) metric.remove(labels as never);
      }
    }

    const guarded = config.metricsToken !== undefined || config.adminKey !== undefined;
    app.startupNotes.push(
      guarded
        ? `metrics:    GET /metrics guarded: Authorization: Bearer <${config.metricsToken ? 'the metrics token' : 'the admin key'}>${config.metricsToken && config.adminKey ? ' or the admin key' : ''}`
        : 'metrics:    GET /metrics open to anyone who can reach it (--metrics-token or an admin key guards it)',
    );

    app.get(
      '/metrics',
      {
        schema: {
          tags: ['system'],
          operationId: 'getMetrics',
          summary: "The process's metrics in Prometheus's text format",
          description:
            'Requests by operation and status class with a latency histogram, sandboxes, payments, merchants and consents by state, webhook deliveries by event and outcome with their lag, timers due and overdue, clock lag, the journal, chaos injections, the database files, and Node process and event-loop metrics (docs/operations.md). When the server runs with a metrics token or an admin key, send `Authorization: Bearer <OBSIM_METRICS_TOKEN>` or the admin key (X-Obsim-Admin-Key, or as the bearer); open otherwise.',
          security: [{}, { metricsToken: [] }, { adminKey: [] }],
          response: responses({
            description: 'Prometheus text exposition format 0.0.4',
            content: { 'text/plain': { schema: { type: 'string' } } },
          }),
        },
      },
      async (request, reply) => {
        if (guarded) {
          const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
          const admin = request.headers[ADMIN_KEY_HEADER];
          const ok =
            (bearer !== undefined && (sameSecret(bearer, config.metricsToken) || sameSecret(bearer, config.adminKey))) ||
            (typeof admin === 'string' && sameSecret(admin, config.adminKey));
          if (!ok) throw new ApiError('metrics_unauthorized');
        }
        reply.header('content-type', registry.contentType);
        return registry.metrics();
      },
    );
  },
  { name: 'obsim-metrics', dependencies: ['obsim-store', 'obsim-engine', 'obsim-webhooks'] },
);
