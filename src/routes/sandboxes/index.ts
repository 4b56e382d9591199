/**
 * /_sandbox/sandboxes: create, list, read and delete sandboxes (obsim's own API, tag `sandbox`).
 *
 * Who may: without OBSIM_ADMIN_KEY, anyone who can reach obsim (offline, CI); with it, callers
 * sending it as X-Obsim-Admin-Key. A sandbox's own credentials may also read and delete it. In the
 * production environment, nobody (404 not_available_in_production).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { responses } from '../../../schemas/common.js';
import type { SandboxCreateBody } from '../../../schemas/sandboxes.js';
import { bankProfileToApply, type BankProfileInput } from '../../domain/bank-profiles.js';
import { knownBank } from '../sandbox/banks.js';
import { profileToApply, type FaultProfileInput } from '../../domain/chaos-profiles.js';
import { durationMs } from '../../domain/durations.js';
import { ApiError, invalidInput, pointer, type JsonPointer } from '../../domain/errors.js';
import { MAX_SANDBOX_TTL_MS, MIN_SANDBOX_TTL_MS, sandboxSettings, type SandboxSettingsOverrides } from '../../domain/sandbox.js';
import type { Persona } from '../../../schemas/persona.js';
import { applyPersona } from '../../personas/apply.js';
import { loadPersona, PersonaError, validatePersona } from '../../personas/load.js';
import type { SandboxRow } from '../../store/sandboxes.js';
import { ADMIN_KEY_HEADER, adminCheck } from '../../plugins/admin-key.js';
import { faultTargets, faultView } from '../sandbox/faults.js';

export async function sandboxesRoutes(app: FastifyInstance): Promise<void> {
  const adminKey = app.config.adminKey;
  const noAuth: Record<string, string[]> = {};
  const common = { tags: ['sandbox'], security: [noAuth, { adminKey: [] }] };

  app.addHook('onRequest', async () => {
    if (app.config.environment === 'production') throw new ApiError('not_available_in_production');
  });

  const isAdmin = adminCheck(adminKey);
  const requireAdmin = (request: FastifyRequest) => {
    if (!isAdmin(request)) throw new ApiError('admin_key_required');
  };
  /** An admin, or the sandbox's own partner credentials. */
  function requireAdminOrOwner(request: FastifyRequest, sandboxId: string): void {
    if (isAdmin(request)) return;
    const partner = app.partners.authenticate(request.headers['x-partner-client-id'], request.headers['x-partner-client-secret']);
    if (partner.sandboxId !== sandboxId) throw new ApiError('sandbox_not_found');
  }

  const view = (row: SandboxRow) => {
    const world = app.engine.world(row.id);
    const { settleDelayMs, approvalDelayMs, paymentExpiryMs } = world.settings;
    return {
      sandboxId: row.id,
      ...(app.config.shard === undefined ? {} : { shard: app.config.shard }),
      name: row.name,
      createdAt: row.created_at,
      expiresAt: app.sandboxes.expiresAt(row),
      ttlMs: row.ttl_ms,
      clock: { now: world.clock.iso(), frozen: world.clock.frozen, offsetMs: Math.round(world.clock.state().offsetMs) },
      ...(world.contractVersion === undefined ? {} : { contractVersion: world.contractVersion }),
      settings: { settleDelayMs, approvalDelayMs, paymentExpiryMs },
    };
  };

  app.post<{ Body: SandboxCreateBody }>(
    '/',
    {
      prefixTrailingSlash: 'no-slash',
      // who may create is told before what is wrong with the body
      onRequest: async (request) => requireAdmin(request),
      schema: {
        ...common,
        operationId: 'createSandbox',
        summary: 'Create a sandbox: an isolated world with its own credentials, clock and settings',
        description:
          "Answers the sandbox and its partner credentials (the secret is shown only here). Every /v1/partner/*, /_sandbox/* and hosted-page flow works with them unchanged and sees only this sandbox's data, on this sandbox's clock. Idle for its ttl (default 24h), it is removed. Needs X-Obsim-Admin-Key when the server runs with OBSIM_ADMIN_KEY.",
        body: { $ref: 'SandboxCreateRequest#' },
        response: responses({ $ref: 'SandboxCreated#' }),
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const duration = (raw: string | number | undefined, at: JsonPointer, bounds?: { min?: number; max?: number }) =>
        raw === undefined ? undefined : durationMs(raw, at, bounds);
      const ttlMs = duration(body.ttl, '/ttl', { min: MIN_SANDBOX_TTL_MS, max: MAX_SANDBOX_TTL_MS });
      const settings: SandboxSettingsOverrides = {};
      const settle = duration(body.settleDelay, '/settleDelay');
      const approval = duration(body.approvalDelay, '/approvalDelay');
      const expiry = duration(body.paymentExpiry, '/paymentExpiry', { min: 1_000 });
      if (settle !== undefined) settings.settleDelayMs = settle;
      if (approval !== undefined) settings.approvalDelayMs = approval;
      if (expiry !== undefined) settings.paymentExpiryMs = expiry;
      sandboxSettings(app.settings, settings); // the same merge its world makes
      // the persona is read and checked before anything is created
      let persona: Persona | undefined;
      try {
        if (typeof body.persona === 'string') persona = loadPersona(body.persona);
        else if (body.persona !== undefined) persona = validatePersona(body.persona, 'persona');
      } catch (err) {
        if (!(err instanceof PersonaError)) throw err;
        throw invalidInput(`/persona${err.at}`, err.message);
      }
      // the version it is pinned to: the body's, else the persona's; an unknown one creates nothing
      const pinned = body.contractVersion ?? persona?.contractVersion;
      if (pinned !== undefined) {
        const at = body.contractVersion !== undefined ? '/contractVersion' : '/persona/contractVersion';
        if (app.contracts.get(pinned, at, 'body') !== undefined) settings.contractVersion = pinned;
      }
      // checked before anything is created (a window of a named profile is placed again on the new clock below)
      const faultsAsked = (body as { faults?: FaultProfileInput }).faults;
      const faults = faultsAsked && profileToApply(faultsAsked, faultTargets(app.routeTable), Date.now(), '/faults');
      const banksAsked = (body as { banks?: Record<string, BankProfileInput> }).banks ?? {};
      for (const [bankId, input] of Object.entries(banksAsked)) {
        knownBank(bankId, pointer('banks', bankId));
        bankProfileToApply(input, Date.now(), pointer('banks', bankId));
      }
      const created = app.sandboxes.create({ name: body.name, ttlMs, clock: body.clock, settings, snapshot: body.snapshot });
      if (Object.keys(banksAsked).length > 0) {
        // a window or forSeconds is placed on the new sandbox's clock
        const world = app.engine.world(created.row.id);
        const profiles = Object.fromEntries(
          Object.entries(banksAsked).map(([bankId, input]) => [
            bankId,
            bankProfileToApply(input, world.clock.nowMs(), pointer('banks', bankId)),
          ]),
        );
        app.engine.banks.set(created.row.id, profiles, world.clock.iso());
      }
      if (faultsAsked && faults) {
        const { clock } = app.engine.world(created.row.id);
        const placed = profileToApply({ ...faultsAsked, seed: faults.seed }, faultTargets(app.routeTable), clock.nowMs());
        app.chaos.set(created.row.id, placed, clock.iso());
      }
      // the profiles are in force once stored, before a persona is built in them
      await app.store.committed();
      const credentials = { clientId: created.row.id, clientSecret: created.clientSecret };
      let built: Awaited<ReturnType<typeof applyPersona>> | undefined;
      if (persona) {
        try {
          built = await applyPersona(app, persona, credentials);
        } catch (err) {
          app.sandboxes.delete(created.row.id); // nothing half-built stays
          if (!(err instanceof PersonaError)) throw err;
          throw invalidInput(`/persona${err.at}`, err.message);
        }
      }
      return {
        ...view(created.row),
        credentials,
        defaultMerchant: created.defaultMerchant,
        ...(built && persona ? { persona: { name: persona.name, ...built } } : {}),
        ...(faults ? { faults: faultView(app.chaos, created.row.id) } : {}),
      };
    },
  );

  app.get(
    '/',
    {
      prefixTrailingSlash: 'no-slash',
      schema: {
        ...common,
        operationId: 'listSandboxes',
        summary: 'List the sandboxes',
        description:
          "Every live sandbox, oldest first (not the default one of the configured partners). Secrets are never listed. In a cluster, every shard's sandboxes (the shard that answers asks the others; `unreachable` names those that did not answer); `scope=shard` lists only the answering shard's.",
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { scope: { type: 'string', enum: ['cluster', 'shard'], default: 'cluster' } },
        },
        response: responses({ $ref: 'SandboxList#' }),
      },
    },
    async (request) => {
      requireAdmin(request);
      const items = app.sandboxes.list().map(view);
      const shards = app.acrossShards;
      if ((request.query as { scope?: string }).scope === 'shard' || shards === undefined) return { items, total: items.length };
      const key = request.headers[ADMIN_KEY_HEADER];
      const all = await shards.listSandboxes(items, typeof key === 'string' ? { [ADMIN_KEY_HEADER]: key } : {});
      return { items: all.items, total: all.items.length, ...(all.unreachable.length ? { unreachable: all.unreachable } : {}) };
    },
  );

  app.get<{ Params: { sandboxId: string } }>(
    '/:sandboxId',
    {
      schema: {
        ...common,
        operationId: 'getSandbox',
        summary: 'Read one sandbox',
        description: 'An admin, or the sandbox itself (its partner credentials).',
        params: { type: 'object', required: ['sandboxId'], properties: { sandboxId: { type: 'string', maxLength: 100 } } },
        response: responses({ $ref: 'Sandbox#' }),
      },
    },
    async (request) => {
      requireAdminOrOwner(request, request.params.sandboxId);
      const row = app.sandboxes.get(request.params.sandboxId);
      if (!row) throw new ApiError('sandbox_not_found');
      return view(row);
    },
  );

  app.delete<{ Params: { sandboxId: string } }>(
    '/:sandboxId',
    {
      schema: {
        ...common,
        operationId: 'deleteSandbox',
        summary: 'Delete a sandbox and all its data',
        description:
          'Its merchants, payments, consents, webhooks, events, deliveries and timers are deleted in one transaction; its credentials then answer 401 sandbox_gone. An admin, or the sandbox itself.',
        params: { type: 'object', required: ['sandboxId'], properties: { sandboxId: { type: 'string', maxLength: 100 } } },
        response: responses({ $ref: 'SandboxDeleted#' }),
      },
    },
    async (request) => {
      requireAdminOrOwner(request, request.params.sandboxId);
      const deleted = app.sandboxes.delete(request.params.sandboxId);
      if (!deleted) throw new ApiError('sandbox_not_found');
      return { sandboxId: request.params.sandboxId, deleted };
    },
  );
}
