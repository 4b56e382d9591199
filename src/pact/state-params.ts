/** The params of the built-in provider states (src/pact/states.ts) that are lists or shared by several states. */
import { TOKEN_PERMISSIONS } from '../domain/consent.js';
import { EVENT_NAMES } from '../domain/machine.js';
import type { StateParam } from '../domain/pact.js';

export const userParam: StateParam = {
  type: 'string',
  default: 'user-typical',
  description: 'The sandbox bank user (user-typical, user-no-accounts, user-multi-currency, user-100k, or any other id)',
};

export const tokenParam: StateParam = {
  type: 'string',
  enum: ['valid', 'expired'],
  default: 'valid',
  description: "expired: the sandbox's clock is moved past the bearer token's expiry (its exp claim) after it was made",
};

export const permissionsParam: StateParam = {
  type: 'array',
  items: { type: 'string', enum: TOKEN_PERMISSIONS },
  default: [...TOKEN_PERMISSIONS],
  description: "The bearer token's permissions",
};

export const eventsParam: StateParam = {
  type: 'array',
  items: { type: 'string', enum: EVENT_NAMES },
  default: ['payment.completed', 'payment.failed'],
  description: 'The event names it is registered for',
};
