/**
 * Watching an obsim cluster with Prometheus (docs/operations.md): the scrape configuration of each
 * layout (`obsim cluster`, Compose, Kubernetes), the alert rules and a Grafana dashboard, all
 * written from the data below, so the queries a test runs against a real Prometheus are the ones
 * shipped (test/cluster/prometheus.test.ts).
 *
 * Every shard serves its own /metrics (src/plugins/metrics.ts) and is scraped directly (job
 * `obsim-shards`, labelled with its shard); the router's /metrics is HAProxy's own Prometheus
 * exporter (its frontends, backends and servers; job `obsim-router`).
 */
import { stringify } from 'yaml';

export interface ScrapeTargets {
  /** host:port of the router (HAProxy). */
  router: string;
  shards: readonly { name: string; address: string }[];
}

export interface AlertRule {
  alert: string;
  /** The PromQL that fires it. */
  expr: string;
  /** What the expression measures, without its threshold: it returns data whenever obsim runs. */
  measure: string;
  for: string;
  severity: 'critical' | 'warning';
  summary: string;
  description: string;
}

export const ALERTS: readonly AlertRule[] = [
  {
    alert: 'ObsimShardDown',
    expr: 'up{job="obsim-shards"} == 0',
    measure: 'up{job="obsim-shards"}',
    for: '30s',
    severity: 'critical',
    summary: 'obsim shard {{ $labels.shard }} does not answer its scrape',
    description:
      "The shard's sandboxes answer 503 through the router until it is back (obsim cluster restarts it after 2 s; Compose and Kubernetes by their own policy).",
  },
  {
    alert: 'ObsimRouterShardDown',
    expr: 'haproxy_server_status{job="obsim-router",proxy=~"shard_.+",state="DOWN"} == 1',
    measure: 'haproxy_server_status{job="obsim-router",proxy=~"shard_.+",state="DOWN"}',
    for: '30s',
    severity: 'critical',
    summary: "The router's health check finds {{ $labels.server }} down",
    description: 'HAProxy takes the shard out of rotation: requests naming its sandboxes answer 503 shard_unavailable.',
  },
  {
    alert: 'ObsimWebhookFailuresRising',
    expr: 'sum by (shard) (rate(obsim_webhook_deliveries_total{outcome="failed"}[5m])) / sum by (shard) (rate(obsim_webhook_deliveries_total[5m])) > 0.25',
    measure: 'sum by (shard) (rate(obsim_webhook_deliveries_total[5m]))',
    for: '5m',
    severity: 'warning',
    summary: 'More than a quarter of the webhook deliveries of shard {{ $labels.shard }} fail',
    description:
      "Receivers answer non-2xx, time out after 10 s or refuse the connection. Deliveries are not retried (the provider's contract): partners poll or redeliver. Chaos drops are counted apart (outcome chaos).",
  },
  {
    alert: 'ObsimClockLag',
    expr: 'max by (shard) (obsim_clock_lag_seconds) > 5',
    measure: 'max by (shard) (obsim_clock_lag_seconds)',
    for: '1m',
    severity: 'warning',
    summary: 'Timed transitions of shard {{ $labels.shard }} fire more than 5 s late',
    description:
      "A running sandbox clock's due settlements and expiries are behind: the shard's event loop cannot keep up (too many payments a second for one core, or receivers holding every delivery slot).",
  },
  {
    alert: 'ObsimJournalDropping',
    expr: 'increase(obsim_journal_dropped_total[10m]) > 0',
    measure: 'increase(obsim_journal_dropped_total[10m])',
    for: '0m',
    severity: 'warning',
    summary: 'The request journal of shard {{ $labels.shard }} drops its oldest entries',
    description:
      'A sandbox reached --journal-max-entries or --journal-max-bytes: verifications and the readiness report no longer see what it dropped. Raise the bounds or use fewer requests per sandbox.',
  },
];

export interface Panel {
  title: string;
  expr: string;
  /** Grafana's unit id. */
  unit: string;
  /** The legend of each series. */
  legend: string;
}

export const PANELS: readonly Panel[] = [
  {
    title: 'Requests per second by operation',
    expr: 'sum by (operation) (rate(obsim_http_requests_total[1m]))',
    unit: 'reqps',
    legend: '{{operation}}',
  },
  {
    title: 'Answers per second by status class',
    expr: 'sum by (status_class) (rate(obsim_http_requests_total[1m]))',
    unit: 'reqps',
    legend: '{{status_class}}',
  },
  {
    title: 'p99 answer time by operation',
    expr: 'histogram_quantile(0.99, sum by (le, operation) (rate(obsim_http_request_duration_seconds_bucket[5m])))',
    unit: 's',
    legend: '{{operation}}',
  },
  { title: 'Live sandboxes by shard', expr: 'sum by (shard) (obsim_sandboxes)', unit: 'short', legend: '{{shard}}' },
  { title: 'Payments by state', expr: 'sum by (state) (obsim_resources{resource="payment"})', unit: 'short', legend: '{{state}}' },
  { title: 'Merchants by state', expr: 'sum by (state) (obsim_resources{resource="merchant"})', unit: 'short', legend: '{{state}}' },
  {
    title: 'Webhook deliveries per second by outcome',
    expr: 'sum by (outcome) (rate(obsim_webhook_deliveries_total[5m]))',
    unit: 'reqps',
    legend: '{{outcome}}',
  },
  {
    title: 'Webhook delivery lag (p95, queued to sent)',
    expr: 'histogram_quantile(0.95, sum by (le) (rate(obsim_webhook_delivery_lag_seconds_bucket[5m])))',
    unit: 's',
    legend: 'p95',
  },
  { title: 'Timers due and not fired', expr: 'sum by (shard) (obsim_timers_due)', unit: 'short', legend: '{{shard}}' },
  { title: 'Clock lag of running clocks', expr: 'max by (shard) (obsim_clock_lag_seconds)', unit: 's', legend: '{{shard}}' },
  { title: 'Journal entries kept', expr: 'sum by (shard) (obsim_journal_entries)', unit: 'short', legend: '{{shard}}' },
  { title: 'Event loop lag (p99)', expr: 'max by (shard) (nodejs_eventloop_lag_p99_seconds)', unit: 's', legend: '{{shard}}' },
  { title: 'SQLite files', expr: 'sum by (shard, file) (obsim_sqlite_bytes)', unit: 'bytes', legend: '{{shard}} {{file}}' },
  { title: 'Shards up', expr: 'up{job="obsim-shards"}', unit: 'short', legend: '{{shard}}' },
  {
    title: 'Router: requests per second by backend',
    expr: 'sum by (proxy) (rate(haproxy_backend_http_requests_total{job="obsim-router"}[1m]))',
    unit: 'reqps',
    legend: '{{proxy}}',
  },
];

/** The scrape configuration of one layout: the router's exporter and every shard, the alert rules beside it. */
export function prometheusConfig(targets: ScrapeTargets, rulesFile: string, intervals = { scrape: '15s', evaluation: '15s' }): string {
  const config = {
    global: { scrape_interval: intervals.scrape, evaluation_interval: intervals.evaluation },
    rule_files: [rulesFile],
    scrape_configs: [
      { job_name: 'obsim-router', metrics_path: '/metrics', static_configs: [{ targets: [targets.router] }] },
      {
        job_name: 'obsim-shards',
        metrics_path: '/metrics',
        static_configs: targets.shards.map((s) => ({ targets: [s.address], labels: { shard: s.name } })),
        // each shard labels its own series with its shard already (shard="s1"): keep it
        honor_labels: true,
      },
    ],
  };
  return `# Generated by obsim (src/cluster/monitoring.ts; docs/operations.md). When obsim runs with an admin key,\n# add an authorization block (credentials: OBSIM_METRICS_TOKEN) to the obsim-shards job.\n${stringify(config)}`;
}

/** The alert rules, as Prometheus reads them. */
export function alertRules(): string {
  const rules = {
    groups: [
      {
        name: 'obsim',
        rules: ALERTS.map((a) => ({
          alert: a.alert,
          expr: a.expr,
          for: a.for,
          labels: { severity: a.severity },
          annotations: { summary: a.summary, description: a.description },
        })),
      },
    ],
  };
  return `# Generated by obsim (src/cluster/monitoring.ts; docs/operations.md, "Alerts").\n${stringify(rules, { lineWidth: 0 })}`;
}

/** A Grafana dashboard (schema 39) of the panels above, on a Prometheus data source chosen at import. */
export function grafanaDashboard(): string {
  const panels = PANELS.map((p, i) => ({
    id: i + 1,
    type: 'timeseries',
    title: p.title,
    datasource: { type: 'prometheus', uid: '${DS_PROMETHEUS}' },
    gridPos: { h: 8, w: 12, x: (i % 2) * 12, y: Math.floor(i / 2) * 8 },
    fieldConfig: { defaults: { unit: p.unit }, overrides: [] },
    options: { legend: { displayMode: 'list', placement: 'bottom', showLegend: true }, tooltip: { mode: 'multi', sort: 'none' } },
    targets: [{ refId: 'A', expr: p.expr, legendFormat: p.legend, datasource: { type: 'prometheus', uid: '${DS_PROMETHEUS}' } }],
  }));
  const dashboard = {
    __inputs: [{ name: 'DS_PROMETHEUS', label: 'Prometheus', type: 'datasource', pluginId: 'prometheus', pluginName: 'Prometheus' }],
    title: 'obsim',
    uid: 'obsim',
    tags: ['obsim'],
    schemaVersion: 39,
    version: 1,
    editable: true,
    time: { from: 'now-1h', to: 'now' },
    refresh: '30s',
    panels,
  };
  return `${JSON.stringify(dashboard, null, 2)}\n`;
}
