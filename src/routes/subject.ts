/**
 * Whose sandbox a read of a whole sandbox is of (the readiness report, a recording): an admin's
 * `?sandbox=` (the X-Obsim-Admin-Key, or anyone on a server without one, as for
 * /_sandbox/sandboxes), else the caller's own with its partner credentials. An admin's
 * `?sandbox=` is what HAProxy routes by in a cluster (docs/cluster.md).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import { DEFAULT_SANDBOX } from '../domain/sandbox.js';
import { adminCheck } from '../plugins/admin-key.js';

export function sandboxSubject(app: FastifyInstance) {
  const isAdmin = adminCheck(app.config.adminKey);
  /**
   * The partner and sandbox the read is of: an admin's `?sandbox=`, else the caller's own
   * (with `?sandbox=`, only when it names the caller's own sandbox).
   */
  return function subject(request: FastifyRequest<{ Querystring: { sandbox?: string } }>): { partnerId: string; sandboxId: string } {
    const wanted = request.query.sandbox;
    const headers = request.headers;
    if (wanted !== undefined && app.config.environment !== 'production' && isAdmin(request)) {
      if (app.sandboxes.get(wanted)) return { partnerId: wanted, sandboxId: wanted };
      const configured = app.partners
        .list()
        .find((p) => p.clientId === wanted || (wanted === DEFAULT_SANDBOX && app.partners.isDefault(p.clientId)));
      if (configured) return { partnerId: configured.clientId, sandboxId: configured.clientId };
      throw new ApiError('sandbox_not_found');
    }
    if (wanted !== undefined && headers['x-partner-client-id'] === undefined) {
      if (app.config.environment === 'production') throw new ApiError('not_available_in_production');
      throw new ApiError('admin_key_required');
    }
    const partner = app.partners.authenticate(headers['x-partner-client-id'], headers['x-partner-client-secret']);
    const own = partner.sandboxId === DEFAULT_SANDBOX ? partner.clientId : partner.sandboxId;
    if (wanted !== undefined && wanted !== own) throw new ApiError('sandbox_not_found');
    return { partnerId: partner.clientId, sandboxId: own };
  };
}
