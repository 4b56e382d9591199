/**
 * Configuration: CLI flags + environment variables -> one typed, validated Config.
 *
 * Every setting is declared once in SETTINGS (flag, env var, default, parser, help text). The CLI
 * builds its options from this table and the configuration table in docs/configuration.md is
 * generated from it (test/config.test.ts checks it), so the three never drift apart.
 */
import {
  bool,
  port,
  nonNegativeInt,
  byteSize,
  positiveInt,
  environment,
  instant,
  logLevel,
  str,
  optStr,
  parseDuration,
  shardName,
  shardPeers,
  type Parser,
} from './config-parsers.js';
import { checkDatabasePath, checkShardPeers, type PartnerCredential } from './config-files.js';
import type { Config } from './config-types.js';
import type { Environment } from './domain/settings.js';

/**
 * Default database file of each environment: two servers started without --db never share one
 * (a database also records the environment that created it and refuses the other: src/app.ts).
 */
export const DEFAULT_DATABASE: Readonly<Record<Environment, string>> = {
  sandbox: './data/obsim.sqlite',
  production: './data/obsim-production.sqlite',
};

export type { Config } from './config-types.js';

/** The well-known default partner of the sandbox (unless configured). */
export const SANDBOX_PARTNER: Readonly<PartnerCredential> = { clientId: 'sandbox-partner', clientSecret: 'sandbox-secret' };

export interface Setting<K extends keyof Config = keyof Config> {
  key: K;
  flag: string;
  env: string;
  /** Default value; `undefined` means "unset" (documented in `defaultText`). */
  default: Config[K];
  defaultText?: string;
  parse: Parser<Config[K]>;
  help: string;
  /** Flags that take no value (booleans). */
  boolean?: boolean;
}

function s<K extends keyof Config>(setting: Setting<K>): Setting<K> {
  return setting;
}

export const SETTINGS = [
  s({ key: 'port', flag: '--port', env: 'PORT', default: 4010, parse: port, help: 'TCP port to listen on' }),
  s({ key: 'host', flag: '--host', env: 'HOST', default: '127.0.0.1', parse: str, help: 'Interface to bind (the container uses 0.0.0.0)' }),
  s({
    key: 'db',
    flag: '--db',
    env: 'OBSIM_DB',
    default: DEFAULT_DATABASE.sandbox,
    defaultText: `\`${DEFAULT_DATABASE.sandbox}\` (sandbox); \`${DEFAULT_DATABASE.production}\` (production)`,
    parse: str,
    help: 'SQLite database file, created on first start; `:memory:` for a throw-away database. A file database belongs to the environment that created it; the other one refuses to open it',
  }),
  s({
    key: 'environment',
    flag: '--environment',
    env: 'OBSIM_ENVIRONMENT',
    default: 'sandbox',
    parse: environment,
    help: '`sandbox` or `production` (see "Environments")',
  }),
  s({
    key: 'partnerClientId',
    flag: '--partner-client-id',
    env: 'OBSIM_PARTNER_CLIENT_ID',
    default: undefined,
    defaultText: '`sandbox-partner` (sandbox); generated (production)',
    parse: optStr,
    help: 'Client id of the default partner',
  }),
  s({
    key: 'partnerClientSecret',
    flag: '--partner-client-secret',
    env: 'OBSIM_PARTNER_CLIENT_SECRET',
    default: undefined,
    defaultText: '`sandbox-secret` (sandbox); generated (production)',
    parse: optStr,
    help: 'Client secret of the default partner',
  }),
  s({
    key: 'partnersFile',
    flag: '--partners-file',
    env: 'OBSIM_PARTNERS_FILE',
    default: undefined,
    defaultText: 'none',
    parse: optStr,
    help: 'JSON file listing more partners: `[{"clientId":"…","clientSecret":"…","name":"…"}]`',
  }),
  s({
    key: 'publicUrl',
    flag: '--public-url',
    env: 'OBSIM_PUBLIC_URL',
    default: undefined,
    defaultText: '`http://HOST:PORT`',
    parse: optStr,
    help: 'Base URL put into onboardingUrl, paymentUrl and authorizationUrl',
  }),
  s({
    key: 'jwtSecret',
    flag: '--jwt-secret',
    env: 'OBSIM_JWT_SECRET',
    default: undefined,
    defaultText: 'random, persisted in the database',
    parse: optStr,
    help: 'HS256 secret that signs AIS bearer tokens',
  }),
  s({
    key: 'tokenTtlMs',
    flag: '--token-ttl',
    env: 'OBSIM_TOKEN_TTL',
    default: 3_600_000,
    defaultText: '`1h`',
    parse: parseDuration,
    help: 'Lifetime of generated tokens',
  }),
  s({
    key: 'settleDelayMs',
    flag: '--settle-delay',
    env: 'OBSIM_SETTLE_DELAY',
    default: 5_000,
    defaultText: '`5s`',
    parse: parseDuration,
    help: 'Sandbox: an untouched payment settles to paid after this delay',
  }),
  s({
    key: 'approvalDelayMs',
    flag: '--approval-delay',
    env: 'OBSIM_APPROVAL_DELAY',
    default: 30_000,
    defaultText: '`30s`',
    parse: parseDuration,
    help: 'Sandbox: a merchant awaiting approval is approved after this delay',
  }),
  s({
    key: 'paymentExpiryMs',
    flag: '--payment-expiry',
    env: 'OBSIM_PAYMENT_EXPIRY',
    default: 1_800_000,
    defaultText: '`30m`',
    parse: parseDuration,
    help: 'A payment the payer never finishes fails with reason `expired` after this',
  }),
  s({
    key: 'strict',
    flag: '--strict',
    env: 'OBSIM_STRICT',
    default: false,
    parse: bool,
    boolean: true,
    help: 'Reject unknown request body properties with 400 (default: ignore them)',
  }),
  s({
    key: 'contracts',
    flag: '--contracts',
    env: 'OBSIM_CONTRACTS',
    default: undefined,
    defaultText: 'none: the base only',
    parse: optStr,
    help: "Folder of contract versions (OpenAPI Overlay 1.0 files, docs/contract-versions.md) served beside the provider's document",
  }),
  s({
    key: 'contractVersion',
    flag: '--contract-version',
    env: 'OBSIM_CONTRACT_VERSION',
    default: undefined,
    defaultText: '`base`',
    parse: optStr,
    help: 'The contract version the default sandbox (the configured partners) is pinned to: one of --contracts (docs/contract-versions.md)',
  }),
  s({
    key: 'pactStates',
    flag: '--pact-states',
    env: 'OBSIM_PACT_STATES',
    default: undefined,
    defaultText: 'none: the built-in states only',
    parse: optStr,
    help: "Folder of the partner's own Pact provider states (YAML files: a state name or pattern mapped to scenario steps and the values it answers, docs/pact.md)",
  }),
  s({
    key: 'validateResponses',
    flag: '--validate-responses',
    env: 'OBSIM_VALIDATE_RESPONSES',
    default: false,
    parse: bool,
    boolean: true,
    help: 'Validate every response against its schema; a violation answers 500 naming it',
  }),
  s({ key: 'logLevel', flag: '--log-level', env: 'OBSIM_LOG_LEVEL', default: 'info', parse: logLevel, help: 'pino log level' }),
  s({
    key: 'requestLog',
    flag: '--request-log',
    env: 'OBSIM_REQUEST_LOG',
    default: false,
    parse: bool,
    boolean: true,
    help: 'Log one line per request',
  }),
  s({
    key: 'rateLimit',
    flag: '--rate-limit',
    env: 'OBSIM_RATE_LIMIT',
    default: 0,
    defaultText: '`0` (off)',
    parse: nonNegativeInt,
    help: 'Requests per minute per partner; over it: 429 with Retry-After',
  }),
  s({
    key: 'clockStart',
    flag: '--clock-start',
    env: 'OBSIM_CLOCK_START',
    default: undefined,
    defaultText: 'wall clock',
    parse: instant,
    help: 'Start the virtual clock at this ISO 8601 instant',
  }),
  s({
    key: 'clockFrozen',
    flag: '--clock-frozen',
    env: 'OBSIM_CLOCK_FROZEN',
    default: false,
    parse: bool,
    boolean: true,
    help: 'Freeze the virtual clock; it moves only when advanced',
  }),
  s({
    key: 'adminKey',
    flag: '--admin-key',
    env: 'OBSIM_ADMIN_KEY',
    default: undefined,
    defaultText: 'unset (anyone who can reach obsim may create sandboxes)',
    parse: optStr,
    help: 'Creating, listing and deleting sandboxes (/_sandbox/sandboxes) needs header X-Obsim-Admin-Key with this value',
  }),
  s({
    key: 'metrics',
    flag: '--metrics',
    env: 'OBSIM_METRICS',
    default: true,
    defaultText: '`on`',
    parse: bool,
    help: 'Serve GET /metrics in Prometheus text format (`on` or `off`; docs/operations.md)',
  }),
  s({
    key: 'metricsToken',
    flag: '--metrics-token',
    env: 'OBSIM_METRICS_TOKEN',
    default: undefined,
    defaultText: 'unset',
    parse: optStr,
    help: 'Guards GET /metrics: a scrape sends Authorization: Bearer <this token> (or the admin key, when one is set)',
  }),
  s({
    key: 'metricsSandboxLabel',
    flag: '--metrics-sandbox-label',
    env: 'OBSIM_METRICS_SANDBOX_LABEL',
    default: false,
    parse: bool,
    boolean: true,
    help: 'Label request and delivery metrics by sandbox (a series per sandbox: only for a few long-lived ones)',
  }),
  s({
    key: 'persona',
    flag: '--persona',
    env: 'OBSIM_PERSONA',
    default: undefined,
    defaultText: 'unset',
    parse: optStr,
    help: 'Build this persona (a YAML/JSON file, or a shipped name such as shop-with-history) for the default partner, once per database (sandbox only)',
  }),
  s({
    key: 'journal',
    flag: '--journal',
    env: 'OBSIM_JOURNAL',
    default: true,
    defaultText: '`on`',
    parse: bool,
    help: "Record every answered request in its sandbox's journal (`on` or `off`; docs/journal.md)",
  }),
  s({
    key: 'journalMaxEntries',
    flag: '--journal-max-entries',
    env: 'OBSIM_JOURNAL_MAX_ENTRIES',
    default: 10_000,
    defaultText: '`10000`',
    parse: positiveInt,
    help: 'Entries the journal keeps per sandbox; the oldest are dropped first',
  }),
  s({
    key: 'journalMaxBytes',
    flag: '--journal-max-bytes',
    env: 'OBSIM_JOURNAL_MAX_BYTES',
    default: 50 * 1024 * 1024,
    defaultText: '`50mb`',
    parse: byteSize(64 * 1024),
    help: 'Bytes the journal keeps per sandbox (bodies included); the oldest entries are dropped first',
  }),
  s({
    key: 'journalBodyLimit',
    flag: '--journal-body-limit',
    env: 'OBSIM_JOURNAL_BODY_LIMIT',
    default: 4 * 1024,
    defaultText: '`4kb`',
    parse: byteSize(256),
    help: 'A request or response body longer than this is kept cut to it, flagged `truncated`',
  }),
  s({
    key: 'shard',
    flag: '--shard',
    env: 'OBSIM_SHARD',
    default: undefined,
    defaultText: 'unset (one process)',
    parse: shardName,
    help: 'Run as this shard of a cluster behind a router: every id, token and cookie it hands out carries the name, and every answer says X-Obsim-Shard (docs/cluster.md)',
  }),
  s({
    key: 'shardPeers',
    flag: '--shard-peers',
    env: 'OBSIM_SHARD_PEERS',
    default: undefined,
    defaultText: 'unset',
    parse: shardPeers,
    help: 'Every shard of the cluster as name=url,… (this one included): the admin sandbox list covers them all',
  }),
] as const satisfies readonly Setting[];

export function defaultConfig(): Config {
  const c = {} as Record<string, unknown>;
  for (const setting of SETTINGS) c[setting.key] = setting.default;
  return c as unknown as Config;
}

/**
 * Merge, lowest precedence first: defaults, environment variables, CLI flags (already parsed to
 * strings or booleans by the CLI). Validates the result; throws ConfigError naming the setting.
 */
export function loadConfig(flags: Partial<Record<keyof Config, string | boolean>> = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const config = defaultConfig() as unknown as Record<string, unknown>;
  // the name each setting was given by (flag or env var), for errors found after parsing
  const givenAs: Partial<Record<keyof Config, string>> = {};
  for (const setting of SETTINGS as readonly Setting[]) {
    const fromEnv = env[setting.env];
    if (fromEnv !== undefined) {
      config[setting.key] = setting.parse(fromEnv, setting.env);
      givenAs[setting.key] = setting.env;
    }
    const fromFlag = flags[setting.key];
    if (fromFlag !== undefined) {
      config[setting.key] = typeof fromFlag === 'boolean' ? fromFlag : setting.parse(fromFlag, setting.flag);
      givenAs[setting.key] = setting.flag;
    }
  }
  const result = config as unknown as Config;
  if (givenAs.db === undefined) result.db = DEFAULT_DATABASE[result.environment];
  checkDatabasePath(result.db, givenAs.db ?? 'OBSIM_DB');
  if (result.shardPeers !== undefined) checkShardPeers(result.shard, result.shardPeers, givenAs.shard, givenAs.shardPeers);
  return result;
}
