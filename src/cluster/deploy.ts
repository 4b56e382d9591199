/**
 * The router configurations shipped under deploy/ (docs/cluster.md): three shards s1..s3 behind
 * HAProxy, for Compose (services shard1..shard3) and for Kubernetes (a StatefulSet's pods
 * obsim-shard-0..2 behind a headless Service). Host names resolve only once the shards run, so
 * HAProxy re-resolves them (`dns`).
 */
import { haproxyConfig } from './haproxy.js';
import { alertRules, grafanaDashboard, prometheusConfig } from './monitoring.js';

export const DEPLOY_SHARDS = ['s1', 's2', 's3'] as const;
/** Every shard listens on this port in its own container. */
export const SHARD_PORT = 4010;

export function composeRouter(): string {
  return haproxyConfig({
    bind: `:${SHARD_PORT}`,
    shards: DEPLOY_SHARDS.map((name, i) => ({ name, address: `shard${i + 1}:${SHARD_PORT}` })),
    designated: 's1',
    dns: true,
  });
}

export function kubernetesRouter(): string {
  return haproxyConfig({
    bind: `:${SHARD_PORT}`,
    shards: DEPLOY_SHARDS.map((name, i) => ({ name, address: `obsim-shard-${i}.obsim-shard:${SHARD_PORT}` })),
    designated: 's1',
    dns: true,
  });
}

/** Prometheus in the Compose project (its `monitoring` profile): the router and the three shard services. */
export function composePrometheus(): string {
  return prometheusConfig(
    { router: `router:${SHARD_PORT}`, shards: DEPLOY_SHARDS.map((name, i) => ({ name, address: `shard${i + 1}:${SHARD_PORT}` })) },
    'alerts.yml',
  );
}

/** A scrape configuration for a Prometheus in the same namespace: the router's Service and the StatefulSet's pods. */
export function kubernetesPrometheus(): string {
  return prometheusConfig(
    { router: 'obsim:80', shards: DEPLOY_SHARDS.map((name, i) => ({ name, address: `obsim-shard-${i}.obsim-shard:${SHARD_PORT}` })) },
    'alerts.yml',
  );
}

/** What `npm run deploy:configs` writes: path (from the repository's root) -> text. */
export function deployConfigs(): Record<string, string> {
  return {
    'deploy/compose/haproxy.cfg': composeRouter(),
    'deploy/kubernetes/haproxy.cfg': kubernetesRouter(),
    'deploy/compose/prometheus.yml': composePrometheus(),
    'deploy/kubernetes/prometheus.yml': kubernetesPrometheus(),
    'deploy/prometheus/alerts.yml': alertRules(),
    'deploy/grafana/obsim.json': grafanaDashboard(),
  };
}
