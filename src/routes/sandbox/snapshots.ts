/**
 * Snapshots of the caller's sandbox: POST /_sandbox/snapshots (capture), GET (list),
 * POST /_sandbox/snapshots/{name}/restore (rewind data and clock), DELETE. A new sandbox starts
 * from one with POST /_sandbox/sandboxes { snapshot }.
 */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import type { SnapshotCreateBody } from '../../../schemas/sandboxes.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';

const NAME_PARAMS = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,64}$', maxLength: 64 } },
} as const;

export async function snapshotRoutes(app: FastifyInstance): Promise<void> {
  const common = { tags: ['sandbox'], security: partnerSecurity };

  app.post<{ Body: SnapshotCreateBody }>(
    '/snapshots',
    {
      schema: {
        ...common,
        operationId: 'createSnapshot',
        summary: "Capture the caller's data and its sandbox's clock under a name",
        description:
          "Every row the caller owns (merchants, stores, payments, consents, webhooks, events, deliveries, timers) and the clock's instant, kept in the database (it survives a restart, and the deletion of its sandbox). Names are unique in the simulator (409 snapshot_exists).",
        body: { $ref: 'SnapshotCreateRequest#' },
        response: responses({ $ref: 'Snapshot#' }),
      },
    },
    async (request) => app.sandboxes.snapshot(request.partner.clientId, request.partner.sandboxId, request.body.name),
  );

  app.get(
    '/snapshots',
    {
      schema: {
        ...common,
        operationId: 'listSnapshots',
        summary: "The caller's snapshots, oldest first",
        description: 'Each snapshot the caller captured, with what it holds; restore one with POST /_sandbox/snapshots/{name}/restore.',
        response: responses({ $ref: 'SnapshotList#' }),
      },
    },
    async (request) => ({ items: app.sandboxes.snapshots(request.partner.clientId) }),
  );

  app.post<{ Params: { name: string } }>(
    '/snapshots/:name/restore',
    {
      schema: {
        ...common,
        operationId: 'restoreSnapshot',
        summary: "Rewind the caller's data and its sandbox's clock to one of its snapshots",
        description:
          "In one transaction: the caller's rows are replaced by the snapshot's (same ids) and the clock is put back at the snapshot's instant (frozen or running, as it was). Pending timers are those of the snapshot.",
        params: NAME_PARAMS,
        body: { $ref: 'SandboxEmptyBody#' },
        response: responses({ $ref: 'Snapshot#' }),
      },
    },
    async (request) => app.sandboxes.restore(request.partner.clientId, request.partner.sandboxId, request.params.name),
  );

  app.delete<{ Params: { name: string } }>(
    '/snapshots/:name',
    {
      schema: {
        ...common,
        operationId: 'deleteSnapshot',
        summary: 'Delete one of the caller’s snapshots',
        description:
          "Deletes the snapshot only; the caller's current data and clock are unchanged. 404 snapshot_not_found for a name the caller has not captured.",
        params: NAME_PARAMS,
        response: responses({
          type: 'object',
          required: ['name', 'deleted'],
          properties: { name: { type: 'string' }, deleted: { type: 'boolean' } },
        }),
      },
    },
    async (request) => {
      app.sandboxes.deleteSnapshot(request.partner.clientId, request.params.name);
      return { name: request.params.name, deleted: true };
    },
  );
}
