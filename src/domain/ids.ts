/**
 * Identifiers and secrets obsim hands out. Random (not derived from state), so they are made
 * here once and passed into the pure rules as input.
 */
import { randomBytes, randomUUID } from 'node:crypto';

/**
 * In a cluster every string id and token a shard hands out carries its name after the kind
 * (`sbx_s2_…`, `onb_s2_…`), so the router sends each request to the process that owns it without
 * asking anyone (docs/cluster.md). Empty in a single process: ids look exactly as they always
 * did. Set once when the app starts; a process is one shard.
 */
let shardTag = '';

export function useShardTag(shard: string | undefined): void {
  shardTag = shard === undefined ? '' : `${shard}_`;
}

/** `<shard>_` in a cluster, '' otherwise: what follows an id's kind prefix. */
export const currentShardTag = (): string => shardTag;

/** The secret part of a merchant's onboardingUrl. */
export const newOnboardingToken = (): string => `onb_${shardTag}${randomBytes(18).toString('base64url')}`;

/** Sub-TPP ids are allocated at creation and reported once the sub-TPP exists (see merchantViews). */
export const newSubTppId = (): string => `stpp_${shardTag}${randomBytes(10).toString('hex')}`;

/** A merchant's clientId (UUID, as the contract shows). */
export const newMerchantClientId = (): string => randomUUID();

/** A consent's requestId. */
export const newConsentRequestId = (): string => randomUUID();

/** The secret part of a consent's authorizationUrl (/consent/<token>). */
export const newConsentAuthToken = (): string => `ctk_${shardTag}${randomBytes(24).toString('base64url')}`;

/** The provider consent id, set when the user authorizes. */
export const newConsentId = (): string => `cns_${shardTag}${randomUUID().replace(/-/g, '')}`;

export const newWebhookId = (): string => `wh_${shardTag}${randomBytes(12).toString('hex')}`;

export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('hex')}`;

/**
 * An event id; sent as X-Webhook-Id with every delivery of the event. 24 hex digits: the wall
 * clock in ms, then 48 random bits. Ids in creation order are appended at the end of the events
 * table's primary-key index instead of landing on a random page of it, which a large table
 * would have to read from disk.
 */
export const newEventId = (): string => `evt_${shardTag}${Date.now().toString(16).padStart(12, '0')}${randomBytes(6).toString('hex')}`;

/** A created sandbox's id, which is also its partner client id. */
export const newSandboxId = (): string => `sbx_${shardTag}${randomBytes(10).toString('hex')}`;

/** A created sandbox's partner client secret (shown once, at creation). */
export const newSandboxSecret = (): string => `sbx_secret_${randomBytes(24).toString('base64url')}`;
