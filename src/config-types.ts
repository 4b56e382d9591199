/**
 * The one typed configuration obsim runs with (src/config.ts builds it from SETTINGS: flags,
 * environment variables and defaults). Its own module so that the table of settings and the
 * shape they fill stay each a page to read.
 */
import type { Environment } from './domain/settings.js';

export interface Config {
  port: number;
  host: string;
  /** SQLite file path, or ':memory:'. */
  db: string;
  environment: Environment;
  partnerClientId: string | undefined;
  partnerClientSecret: string | undefined;
  /** JSON file with extra partners: [{ "clientId": "...", "clientSecret": "...", "name": "..." }]. */
  partnersFile: string | undefined;
  /** Base URL used in onboardingUrl / paymentUrl / authorizationUrl. Defaults to http://host:port. */
  publicUrl: string | undefined;
  /** HS256 signing secret for AIS tokens; random and persisted in the database when unset. */
  jwtSecret: string | undefined;
  tokenTtlMs: number;
  /** Sandbox: delay after which an untouched payment settles to paid by itself. */
  settleDelayMs: number;
  /** Delay after which a merchant awaiting approval is approved by itself (sandbox). */
  approvalDelayMs: number;
  /** How long a payment link stays open before it expires (payment.failed, reason expired). */
  paymentExpiryMs: number;
  /** Reject unknown request body properties with 400 instead of ignoring them. */
  strict: boolean;
  /** Folder of contract versions (OpenAPI Overlay 1.0 files) served beside the base (docs/contract-versions.md). */
  contracts: string | undefined;
  /** The contract version the default sandbox (the configured partners) is pinned to; undefined: the base. */
  contractVersion: string | undefined;
  /** Folder of the partner's Pact provider states (YAML files of scenario steps, docs/pact.md). */
  pactStates: string | undefined;
  /** Validate every response against its documented schema; a violation is a loud 500. */
  validateResponses: boolean;
  logLevel: string;
  /** Log one line per request (off by default: it costs throughput and CI rarely wants it). */
  requestLog: boolean;
  /** Per-partner request limit per minute; 0 = off. */
  rateLimit: number;
  /** Start the virtual clock at this instant (ISO 8601) instead of the wall clock. */
  clockStart: string | undefined;
  /** Freeze the virtual clock: it moves only when advanced through the control API. */
  clockFrozen: boolean;
  /** When set, creating, listing and deleting sandboxes needs this key (X-Obsim-Admin-Key). */
  adminKey: string | undefined;
  /** GET /metrics (Prometheus). */
  metrics: boolean;
  /** Guards GET /metrics (alone or beside an admin key): the bearer token a scraper sends. */
  metricsToken: string | undefined;
  /** Metrics carry a sandbox label on requests and deliveries (a series per sandbox). */
  metricsSandboxLabel: boolean;
  /** A persona (file or shipped name) built for the default partner at the first start of a database. */
  persona: string | undefined;
  /** Record every answered request in its sandbox's journal (docs/journal.md). */
  journal: boolean;
  /** Entries a journal keeps per sandbox; the oldest are dropped first. */
  journalMaxEntries: number;
  /** Bytes a journal keeps per sandbox (entries' sizes added up); the oldest are dropped first. */
  journalMaxBytes: number;
  /** A request or response body longer than this is stored cut, flagged as truncated. */
  journalBodyLimit: number;
  /** This process's shard name in a cluster (docs/cluster.md); unset: one process, as always. */
  shard: string | undefined;
  /** Every shard of the cluster, name -> base URL, for the views across shards (admin sandbox list). */
  shardPeers: Record<string, string> | undefined;
}
