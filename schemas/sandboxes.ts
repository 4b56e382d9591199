/**
 * Schemas of created sandboxes and their snapshots (/_sandbox/sandboxes, /_sandbox/snapshots):
 * obsim's own control API, not the provider's.
 */
import { BANKS_FIELD } from './banks.js';
import type { FromSchema } from 'json-schema-to-ts';
import { MAX_DURATION_MS } from '../src/domain/durations.js';
import { Timestamp } from './common.js';
import { DELETED_COUNTS } from './sandbox.js';

const DURATION = {
  type: ['string', 'integer'],
  maxLength: 20,
  minimum: 0,
  maximum: MAX_DURATION_MS,
  description: 'A duration: "500ms", "5s", "2m", "1h", "7d", or whole milliseconds (at most ten years)',
} as const;

export const SandboxCreateRequest = {
  $id: 'SandboxCreateRequest',
  title: 'SandboxCreateRequest',
  description:
    "Everything is optional. `ttl`: idle time after which the sandbox is removed (default 24h, at most 30d). `clock`: where its virtual clock starts and whether it runs. `settleDelay`, `approvalDelay`, `paymentExpiry`: this sandbox's delays instead of the server's.",
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100 },
    ttl: DURATION,
    clock: {
      type: 'object',
      additionalProperties: false,
      properties: { start: { type: 'string', format: 'date-time', maxLength: 40 }, frozen: { type: 'boolean' } },
    },
    settleDelay: DURATION,
    approvalDelay: DURATION,
    paymentExpiry: DURATION,
    snapshot: {
      type: 'string',
      pattern: '^[A-Za-z0-9._-]{1,64}$',
      maxLength: 64,
      description: 'Start from this snapshot (POST /_sandbox/snapshots): its data with new ids, and its clock unless `clock` is given',
    },
    faults: {
      $ref: 'FaultProfileRequest#',
      description:
        'A fault profile in force from the start (docs/chaos.md; PUT /_sandbox/faults changes it): a problem is a 400 whose `field` is a JSON pointer (`/faults/rules/1/rate`), and no sandbox is created',
    },
    banks: BANKS_FIELD,
    contractVersion: {
      type: 'string',
      pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$',
      maxLength: 64,
      description:
        "The contract version the sandbox is pinned to (docs/contract-versions.md; GET /_sandbox/contract/versions lists them): its requests are served by that version unless one names another with Obsim-Contract-Version. Default: base, the provider's document",
    },
    persona: {
      description:
        'Build this starting world in it: the name of a shipped persona (personas/), or a persona object (personas/persona.schema.json)',
      type: ['string', 'object'],
      pattern: '^[a-z0-9][a-z0-9-]*$',
      maxLength: 100,
    },
  },
} as const;
export type SandboxCreateBody = FromSchema<typeof SandboxCreateRequest>;

const SANDBOX_FIELDS = {
  sandboxId: { type: 'string', description: 'Also the client id of its partner credential' },
  shard: { type: 'string', description: 'The shard that holds it, in a cluster (docs/cluster.md); absent on a single process' },
  name: { type: 'string' },
  createdAt: Timestamp,
  expiresAt: { ...Timestamp, description: 'When it is removed unless used before (wall clock: last use + ttl)' },
  ttlMs: { type: 'integer' },
  clock: { $ref: 'SandboxClock#' },
  contractVersion: { type: 'string', description: 'The contract version it is pinned to; absent: the base (docs/contract-versions.md)' },
  settings: {
    type: 'object',
    required: ['settleDelayMs', 'approvalDelayMs', 'paymentExpiryMs'],
    additionalProperties: false,
    properties: { settleDelayMs: { type: 'integer' }, approvalDelayMs: { type: 'integer' }, paymentExpiryMs: { type: 'integer' } },
  },
} as const;

export const SandboxView = {
  $id: 'Sandbox',
  title: 'Sandbox',
  description: 'A created sandbox (its secret is shown only once, at creation).',
  type: 'object',
  required: ['sandboxId', 'name', 'createdAt', 'expiresAt', 'ttlMs', 'clock', 'settings'],
  additionalProperties: false,
  properties: SANDBOX_FIELDS,
} as const;

export const SandboxCreated = {
  $id: 'SandboxCreated',
  title: 'SandboxCreated',
  description:
    'The new sandbox and its partner credentials: send them as X-Partner-Client-Id / X-Partner-Client-Secret to every /v1/partner/* and /_sandbox/* call. The secret is not shown again.',
  type: 'object',
  required: ['sandboxId', 'name', 'createdAt', 'expiresAt', 'ttlMs', 'clock', 'settings', 'credentials', 'defaultMerchant'],
  additionalProperties: false,
  properties: {
    ...SANDBOX_FIELDS,
    credentials: {
      type: 'object',
      required: ['clientId', 'clientSecret'],
      additionalProperties: false,
      properties: { clientId: { type: 'string' }, clientSecret: { type: 'string' } },
    },
    persona: {
      type: 'object',
      description: 'What the persona built (when one was given)',
      required: ['name', 'merchants', 'payments', 'consents', 'webhooks'],
      additionalProperties: false,
      properties: {
        name: { type: 'string' },
        merchants: {
          type: 'array',
          items: {
            type: 'object',
            required: ['companyName', 'merchantId', 'clientId', 'state'],
            additionalProperties: false,
            properties: {
              companyName: { type: 'string' },
              merchantId: { type: 'integer' },
              clientId: { type: 'string' },
              state: { type: 'string' },
            },
          },
        },
        payments: { type: 'integer' },
        consents: { type: 'integer' },
        webhooks: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id', 'url', 'secret'],
            additionalProperties: false,
            properties: { id: { type: 'string' }, url: { type: 'string' }, secret: { type: 'string' } },
          },
        },
      },
    },
    faults: { $ref: 'FaultProfile#', description: 'The fault profile in force (when `faults` was given): its seed, chosen when none was' },
    defaultMerchant: {
      type: 'object',
      description: 'The activated merchant every sandbox starts with (as the default partner has)',
      required: ['merchantId', 'clientId'],
      additionalProperties: false,
      properties: { merchantId: { type: 'integer' }, clientId: { type: 'string' } },
    },
  },
} as const;

export const SandboxList = {
  $id: 'SandboxList',
  title: 'SandboxList',
  type: 'object',
  required: ['items', 'total'],
  additionalProperties: false,
  properties: {
    items: { type: 'array', items: { $ref: 'Sandbox#' } },
    total: { type: 'integer' },
    unreachable: {
      type: 'array',
      items: { type: 'string' },
      description: 'In a cluster: the shards that did not answer, whose sandboxes are missing from items',
    },
  },
} as const;

export const SandboxDeleted = {
  $id: 'SandboxDeleted',
  title: 'SandboxDeleted',
  type: 'object',
  required: ['sandboxId', 'deleted'],
  additionalProperties: false,
  properties: {
    sandboxId: { type: 'string' },
    deleted: DELETED_COUNTS,
  },
} as const;

const SNAPSHOT_NAME = {
  type: 'string',
  pattern: '^[A-Za-z0-9._-]{1,64}$',
  maxLength: 64,
  description: 'Letters, digits, . _ -; unique in the simulator',
} as const;

export const SnapshotCreateRequest = {
  $id: 'SnapshotCreateRequest',
  title: 'SnapshotCreateRequest',
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: SNAPSHOT_NAME },
} as const;
export type SnapshotCreateBody = FromSchema<typeof SnapshotCreateRequest>;

export const SnapshotView = {
  $id: 'Snapshot',
  title: 'Snapshot',
  description: "A snapshot of the caller's data and its sandbox's clock.",
  type: 'object',
  required: ['name', 'createdAt', 'clock', 'counts'],
  additionalProperties: false,
  properties: {
    name: { type: 'string' },
    createdAt: Timestamp,
    clock: {
      type: 'object',
      required: ['now', 'frozen'],
      additionalProperties: false,
      properties: {
        now: { ...Timestamp, description: 'The virtual instant it was taken at (restored with it)' },
        frozen: { type: 'boolean' },
      },
    },
    counts: { type: 'object', additionalProperties: { type: 'integer' }, description: 'Rows it holds, by kind' },
  },
} as const;

export const SnapshotList = {
  $id: 'SnapshotList',
  title: 'SnapshotList',
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  properties: { items: { type: 'array', items: { $ref: 'Snapshot#' } } },
} as const;

export const sandboxesSchemas = [
  SnapshotCreateRequest,
  SnapshotView,
  SnapshotList,
  SandboxCreateRequest,
  SandboxView,
  SandboxCreated,
  SandboxList,
  SandboxDeleted,
] as const;
