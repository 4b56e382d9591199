/**
 * Pact (docs/pact.md): the verifier's state-change target, the states it knows, and the caller's
 * sandbox's traffic as a pact.
 *
 * - POST /_sandbox/pact/provider-states: `{ state, params, action }`; a state is built through
 *   the scenario runner in the caller's sandbox (src/pact/provider-states.ts) and its values answered.
 * - GET /_sandbox/pact/provider-states: the partner's states (--pact-states) and the built-in ones.
 * - GET /_sandbox/pact?consumer=&provider=: the sandbox's journal as a Pact v4 file (src/pact/export.ts).
 */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import { PactExportQuery } from '../../../schemas/pact.js';
import { ConfigError } from '../../config-parsers.js';
import { ApiError } from '../../domain/errors.js';
import type { ExportEntry } from '../../pact/export.js';
import { providerStates, type StateChange } from '../../pact/provider-states.js';
import type { ProviderStateDefinition } from '../../pact/state-definition.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { injectTransport } from '../../scenarios/transport.js';

/** Every journal entry a sandbox keeps (its cap is 10,000 by default). */
const ALL_ENTRIES = 1_000_000;

async function partnerStates(dir: string | undefined): Promise<ProviderStateDefinition[]> {
  if (dir === undefined) return [];
  const { loadStateFiles, PactStatesFileError } = await import('../../pact/state-files.js');
  try {
    return loadStateFiles(dir);
  } catch (err) {
    if (err instanceof PactStatesFileError) throw new ConfigError('--pact-states', err.message);
    throw err;
  }
}

export async function pactRoutes(app: FastifyInstance): Promise<void> {
  const common = { tags: ['sandbox'], security: partnerSecurity };
  const states = providerStates(await partnerStates(app.config.pactStates));

  app.get(
    '/pact/provider-states',
    {
      schema: {
        ...common,
        operationId: 'listPactProviderStates',
        summary: 'The Pact provider states this obsim sets up',
        description:
          "Each state's name (or pattern: `{param}` placeholders take any text), what it builds, the params it takes (type, allowed values, default) and the values it answers for `fromProviderState`. The partner's own states (--pact-states) come first and win over a built-in state of the same name.",
        response: responses({ $ref: 'SandboxPactStateList#' }),
      },
    },
    async () => ({
      items: states
        .list()
        .map((s) => ({ name: s.name, description: s.description, params: s.params, answers: s.answers, source: s.source })),
    }),
  );

  app.post<{ Body: StateChange }>(
    '/pact/provider-states',
    {
      schema: {
        ...common,
        operationId: 'changePactProviderState',
        summary: "A Pact verifier's state change: set a provider state up in the caller's sandbox, or tear it down",
        description:
          "The target of the verifier's provider-state URL. setup: the state's steps run in the caller's sandbox (the partner API and the sandbox controls, as a scenario would: journal, events, webhooks and transitions included, on the sandbox's clock), and the values it made are answered, for `fromProviderState`. teardown: the state's own teardown steps, or POST /_sandbox/reset (the whole sandbox's data is emptied, not only what the setup made, and its default merchant made again). An empty state name (an interaction without a state) builds and resets nothing; after its teardown, the next setup resets the sandbox first, so what that interaction made is not in the next interaction's state. An unknown state is a 400 unknown_provider_state naming it and the known ones; a param of the wrong type a 400 naming /params/<name>; a state whose steps fail a 409 provider_state_failed naming the step.",
        body: { $ref: 'SandboxPactStateChange#' },
        response: responses({ $ref: 'SandboxPactStateValues#' }),
      },
    },
    async (request) => {
      const partner = { clientId: request.partner.clientId, clientSecret: String(request.headers['x-partner-client-secret']) };
      return states.change(request.body, { transport: injectTransport(app), partner, sandbox: request.sandbox });
    },
  );

  /** The document of the contract version an entry was served under, from the registry (undefined: the base). */
  const versionDocument = (version: string | undefined) => (version === undefined ? undefined : app.contracts.find(version)?.document);

  app.get<{ Querystring: { consumer?: string; provider?: string } }>(
    '/pact',
    {
      schema: {
        ...common,
        operationId: 'exportPact',
        summary: "The caller's sandbox's traffic as a Pact v4 file",
        description:
          "One synchronous HTTP interaction per distinct operation and answer the sandbox's journal holds (provider operations only): the request as sent, with the ids earlier answers handed out taken from a provider state (fromProviderState); the answer matched by equality where it identifies the answer (statuses and other enum values, error codes, flags, nulls) and by regex (documented id patterns, instants) or type everywhere else; and the built-in provider state that rebuilds what it read. Credentials, tokens and secret-named values are written as REDACTED: obsim pact verify sends a sandbox's own credentials instead. 409 journal_off when the journal is off.",
        querystring: PactExportQuery,
        response: responses({ $ref: 'SandboxPact#' }),
      },
    },
    async (request) => {
      if (!app.journal) throw new ApiError('journal_off');
      const partnerId = request.partner.clientId;
      app.journal.flush();
      const entries = app.journal.list(partnerId, {}, ALL_ENTRIES).reverse() as ExportEntry[];
      const { consumer = 'partner', provider = 'provider' } = request.query;
      // the exporter and the documents it reads are loaded with the first export, not at start-up
      const { exportPact } = await import('../../pact/export.js');
      return exportPact({ entries, versionDocument, consumer, provider, sandboxId: request.partner.sandboxId }).pact;
    },
  );
}
