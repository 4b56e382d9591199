/**
 * GET /_sandbox/collections/postman, …/postman/environment and …/bruno: the provider's API as a
 * Postman or Bruno collection of the document a contract version serves, with the caller's
 * sandbox as its environment (docs/partner-tools.md). The collections are made in
 * src/collections/; this translates HTTP.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { commonResponseHeaders, errorResponses, responses } from '../../../schemas/common.js';
import { CollectionQuery } from '../../../schemas/collections.js';
import { brunoZip, downloadName, postmanCollectionText, postmanEnvironmentText, type SandboxContext } from '../../collections/index.js';
import { BASE_VERSION } from '../../domain/contract-switches.js';
import { packageVersion } from '../../package-root.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { defaultMerchantOf } from '../../store/seed.js';

type Request = FastifyRequest<{ Querystring: { version?: string } }>;

const VERSION_NOTE =
  "`version` names the contract version (default: the sandbox's pin, else base); an unknown one is 400 unknown_contract_version at /version.";

export async function collectionRoutes(app: FastifyInstance): Promise<void> {
  /** The document of the version asked for (else the sandbox's pin), its name, and the base for a version. */
  async function documentOf(request: Request) {
    const name = request.query.version ?? request.sandbox.contractVersion ?? BASE_VERSION;
    const version = app.contracts.get(name, '/version', 'query');
    const base = await app.openapiDocument('provider');
    return version ? { name, doc: version.document, base } : { name, doc: base, base: undefined };
  }

  function contextOf(request: Request, version: string): SandboxContext {
    const merchant = defaultMerchantOf(app.store, request.partner.clientId);
    return {
      sandboxId: request.partner.sandboxId,
      baseUrl: app.publicUrl,
      // the credentials this request proved (obsim keeps only a digest of a sandbox's secret)
      clientId: String(request.headers['x-partner-client-id']),
      clientSecret: String(request.headers['x-partner-client-secret']),
      merchant: merchant ? { merchantId: merchant.id, clientId: merchant.client_id } : undefined,
      contractVersion: version,
      settleDelayMs: request.sandbox.settings.settleDelayMs,
      now: request.sandbox.clock.iso(),
      obsimVersion: packageVersion(),
    };
  }

  const common = { tags: ['sandbox'], security: partnerSecurity, querystring: CollectionQuery };

  app.get<{ Querystring: { version?: string } }>(
    '/collections/postman',
    {
      schema: {
        ...common,
        operationId: 'getPostmanCollection',
        summary: "The provider's API as a Postman Collection v2.1, runnable against this sandbox",
        description: `Made from the served document by openapi-to-postmanv2 (a folder per tag, the document's example bodies), then by obsim: partner headers and bearer auth from variables, Obsim-Contract-Version on every provider request, ids chained from answer to request by test scripts that check every answer, a pre-request script that fetches a bearer token when there is none, and a Flows folder (consent to transactions; test merchant to a paid payment). Use it with GET /_sandbox/collections/postman/environment. ${VERSION_NOTE} Built on the first request for a version, then kept; not recorded in the journal.`,
        response: responses({ $ref: 'PostmanCollection#' }, { 'content-disposition': { type: 'string' } }),
      },
    },
    async (request, reply) => {
      const { name, doc, base } = await documentOf(request);
      const text = await postmanCollectionText(doc, name, base);
      const file = downloadName(contextOf(request, name), '.postman_collection.json');
      return reply.type('application/json; charset=utf-8').header('content-disposition', `attachment; filename="${file}"`).send(text);
    },
  );

  app.get<{ Querystring: { version?: string } }>(
    '/collections/postman/environment',
    {
      schema: {
        ...common,
        operationId: 'getPostmanEnvironment',
        summary: "A Postman environment for the caller's sandbox",
        description: `Where obsim answers (baseUrl), the credentials this request was made with as secret values (obsim keeps only a digest of a sandbox's secret, so it echoes what the caller sent), the sandbox's default merchant (merchantId, merchantClientId), the sandbox bank user of the AIS requests, the contract version and the settlement delay the Flows folder advances the clock by. ${VERSION_NOTE} Answered with Cache-Control: no-store; not recorded in the journal.`,
        response: responses(
          { $ref: 'PostmanEnvironment#' },
          { 'content-disposition': { type: 'string' }, 'cache-control': { type: 'string', enum: ['no-store'] } },
        ),
      },
    },
    async (request, reply) => {
      const { name } = await documentOf(request);
      const ctx = contextOf(request, name);
      return reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${downloadName(ctx, '.postman_environment.json')}"`)
        .send(postmanEnvironmentText(ctx));
    },
  );

  app.get<{ Querystring: { version?: string } }>(
    '/collections/bruno',
    {
      schema: {
        ...common,
        operationId: 'getBrunoCollection',
        summary: "The provider's API as a Bruno collection folder (zip) with this sandbox's environment",
        description: `A zip holding one folder: the collection as Bruno's own converter (@usebruno/converters) makes it from the served document, with what obsim adds to the Postman collection in Bruno's script API, written in Bruno's .bru format; environments/ holds this sandbox's environment, whose credentials are read from the folder's .env (git-ignored). Run it with bru run -r --env NAME. ${VERSION_NOTE} Answered with Cache-Control: no-store; not recorded in the journal.`,
        produces: ['application/zip'],
        response: {
          ...errorResponses,
          200: {
            description: 'A zip of the collection folder',
            headers: { ...commonResponseHeaders, 'content-disposition': { type: 'string' }, 'cache-control': { type: 'string' } },
            content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const { name, doc, base } = await documentOf(request);
      const ctx = contextOf(request, name);
      const zip = await brunoZip(doc, name, base, ctx);
      return reply
        .type('application/zip')
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${downloadName(ctx, '.bruno.zip')}"`)
        .send(zip);
    },
  );
}
