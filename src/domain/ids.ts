/**
 * Identifiers and secrets obsim hands out. Random (not derived from state), so they are made
 * here once and passed into the pure rules as input.
 */
import { randomBytes, randomUUID } from 'node:crypto';

/** The secret part of a merchant's onboardingUrl. */
export const newOnboardingToken = (): string => `onb_${randomBytes(18).toString('base64url')}`;

/** Sub-TPP ids are allocated at creation and reported once the sub-TPP exists (see merchantViews). */
export const newSubTppId = (): string => `stpp_${randomBytes(10).toString('hex')}`;

/** A merchant's clientId (UUID, as the contract shows). */
export const newMerchantClientId = (): string => randomUUID();

/** A consent's requestId. */
export const newConsentRequestId = (): string => randomUUID();

/** The secret part of a consent's authorizationUrl (/consent/<token>). */
export const newConsentAuthToken = (): string => `ctk_${randomBytes(24).toString('base64url')}`;

/** The provider consent id, set when the user authorizes. */
export const newConsentId = (): string => `cns_${randomUUID().replace(/-/g, '')}`;

export const newWebhookId = (): string => `wh_${randomBytes(12).toString('hex')}`;

export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('hex')}`;

/**
 * An event id; sent as X-Webhook-Id with every delivery of the event. 24 hex digits: the wall
 * clock in ms, then 48 random bits. Ids in creation order are appended at the end of the events
 * table's primary-key index instead of landing on a random page of it, which a large table
 * would have to read from disk.
 */
export const newEventId = (): string => `evt_${Date.now().toString(16).padStart(12, '0')}${randomBytes(6).toString('hex')}`;

/** A created sandbox's id, which is also its partner client id. */
export const newSandboxId = (): string => `sbx_${randomBytes(10).toString('hex')}`;

/** A created sandbox's partner client secret (shown once, at creation). */
export const newSandboxSecret = (): string => `sbx_secret_${randomBytes(24).toString('base64url')}`;
