/**
 * Contract versions (docs/contract-versions.md): which version answers a request, and serving it
 * by that version. One rule: the request's `Obsim-Contract-Version` header, else its sandbox's pin,
 * else the base. The base is served by the routes as they are (nothing here runs for it but a
 * header check); a version's request is validated, its answer shaped, given its status and
 * serialized, by the version's document and switches (src/contracts/registry.ts), and answers
 * `Deprecation`, `Sunset` and `Link` for what the version deprecates, 410 once a sunset passed on
 * the sandbox's clock. Only the provider's operations (/v1) and hosted pages are versioned: the
 * controls are obsim's own API.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createRegistry,
  type ContractRegistry,
  type ContractVersion,
  type RequestPart,
  type VersionOperation,
} from '../contracts/registry.js';
import {
  BASE_VERSION,
  CONTRACT_VERSION_HEADER,
  deprecationHeader,
  madeHeaders,
  pointerTokens,
  shapeAnswer,
  sunsetHeader,
  versionedStatus,
} from '../domain/contract-switches.js';
import { ConfigError } from '../config-parsers.js';
import { ApiError } from '../domain/errors.js';
import type { OpenApiDocument } from '../openapi/documents.js';
import { packageRoot } from '../package-root.js';
import { validationToApiError } from '../compilers/validation.js';

declare module 'fastify' {
  interface FastifyInstance {
    contracts: ContractRegistry;
  }
  interface FastifyRequest {
    /** The contract version serving this request; null: the base. */
    contractVersion: string | null;
    /** The version's operation serving this request (null: the base). */
    contractOperation: VersionOperation | null;
  }
}

/** A request a version serves is validated by that version's validators: the routes' own (the base's) let it through. */
export const servedByVersion = (request: unknown): boolean =>
  (request as { contractOperation?: VersionOperation | null } | undefined)?.contractOperation != null;

/** The provider's document as committed beside the code (test/contract/openapi-drift.test.ts keeps it equal to the served one). */
export function committedProviderDocument(): OpenApiDocument {
  return JSON.parse(readFileSync(join(packageRoot(), 'openapi.json'), 'utf8')) as OpenApiDocument;
}

const isProviderRoute = (url: string) => url.startsWith('/v1/');
/** Where an unknown version in the request's header is: the error's `field`. */
const HEADER_FIELD = `/${CONTRACT_VERSION_HEADER}` as const;
const isHostedPage = (url: string) => /^\/(pay|consent|onboarding)\/:token$/.test(url);
const PARTS: RequestPart[] = ['params', 'querystring', 'headers', 'body'];
/** Where each part is on the request (Fastify names the query string `querystring` in schemas, `query` on the request). */
const PROPERTY: Record<RequestPart, 'params' | 'query' | 'headers' | 'body'> = {
  params: 'params',
  querystring: 'query',
  headers: 'headers',
  body: 'body',
};

function present(body: unknown, pointer: string): boolean {
  const walk = (node: unknown, tokens: string[]): boolean => {
    if (tokens.length === 0) return node !== undefined;
    if (node === null || typeof node !== 'object') return false;
    const [head, ...rest] = tokens;
    if (head === '*' && Array.isArray(node)) return node.some((item) => walk(item, rest));
    return walk((node as Record<string, unknown>)[head], rest);
  };
  return walk(body, pointerTokens(pointer));
}

export const contractVersionsPlugin = fp(
  async (app: FastifyInstance) => {
    const dir = app.config.contracts;
    const base = dir === undefined ? undefined : committedProviderDocument();
    const loaded = dir === undefined ? [] : await (await import('../contracts/load.js')).loadVersions(dir, base!);
    const registry = createRegistry(loaded, app.config.strict);
    const pinned = app.config.contractVersion;
    if (pinned !== undefined && !registry.has(pinned))
      throw new ConfigError(
        '--contract-version',
        `no contract version ${JSON.stringify(pinned)}: the versions are ${registry.names().join(', ')}`,
      );
    app.decorate('contracts', registry);
    app.decorateRequest('contractVersion', null);
    app.decorateRequest('contractOperation', null);

    const docsLink = (version: ContractVersion) =>
      version.switches.docs ?? `${app.publicUrl}/docs/?urls.primaryName=${encodeURIComponent(version.name)}`;

    function announceDeprecation(reply: FastifyReply, version: ContractVersion, op: VersionOperation): void {
      if (op.deprecatedAt !== undefined) void reply.header('deprecation', deprecationHeader(op.deprecatedAt));
      if (op.sunsetAt !== undefined) void reply.header('sunset', sunsetHeader(op.sunsetAt));
      void reply.header('link', `<${docsLink(version)}>; rel="deprecation"; type="text/html"`);
    }

    /** Serve `request` by `version`: sunset, deprecation, validation by its document, its serializer. */
    function enter(request: FastifyRequest, reply: FastifyReply, version: ContractVersion, route: { key: string; url: string }): void {
      const { url } = route;
      const op = version.operation(route.key);
      if (!op) {
        throw new ApiError('operation_not_in_version', {
          message: `${request.method} ${url} is not an operation of contract version ${version.name}`,
        });
      }
      request.contractVersion = version.name;
      request.contractOperation = op;
      const nowMs = request.sandbox?.clock.nowMs() ?? Date.now();
      if (op.sunsetAt !== undefined && nowMs >= Date.parse(op.sunsetAt)) {
        announceDeprecation(reply, version, op);
        throw new ApiError('operation_sunset', {
          message: `${request.method} ${url} (${op.id}) reached its sunset at ${op.sunsetAt} in contract version ${version.name}`,
        });
      }
      if (op.deprecated) announceDeprecation(reply, version, op);
      const validators = op.validators();
      for (const part of PARTS) {
        const validate = validators[part];
        if (!validate) continue;
        const property = PROPERTY[part];
        const data = (request as unknown as Record<string, unknown>)[property] ?? null;
        if (!(validate as (d: unknown, c: unknown) => boolean)(data, { parentData: request, parentDataProperty: property }))
          throw validationToApiError((validate.errors ?? []) as never, part);
      }
      const sentDeprecated =
        op.deprecatedBody.some((p) => present(request.body, p)) ||
        op.deprecatedParams.some((p) =>
          p.in === 'header'
            ? request.headers[p.name.toLowerCase()] !== undefined
            : (p.in === 'query' ? (request.query as Record<string, unknown>) : {})[p.name] !== undefined,
        );
      if (sentDeprecated && op.deprecatedAt !== undefined) announceDeprecation(reply, version, op);
      reply.serializer((payload: unknown) => {
        // Fastify labels what its own serializers write; a reply serializer's answer is labelled here
        if (!reply.hasHeader('content-type')) void reply.header('content-type', 'application/json; charset=utf-8');
        const serialize = op.serializer(reply.statusCode);
        return serialize ? serialize(payload) : JSON.stringify(payload);
      });
    }

    /**
     * The hook of one provider route: its key in the registry worked out once (the route's url is
     * Fastify's template already, `:paymentId`; a HEAD is its GET's).
     */
    const versionOf = (method: string, url: string): preValidationHookHandler => {
      const route = { key: `${method === 'HEAD' ? 'GET' : method} ${url}`, url };
      return function (request, reply, done) {
        const asked = request.headers[CONTRACT_VERSION_HEADER];
        if (asked === undefined && !registry.versioned) return done();
        try {
          const name =
            typeof asked === 'string' ? asked : Array.isArray(asked) ? asked[0] : (request.sandbox?.contractVersion ?? BASE_VERSION);
          const version = registry.get(name, HEADER_FIELD, 'header');
          if (registry.versioned) void reply.header(CONTRACT_VERSION_HEADER, name);
          if (version) enter(request, reply, version, route);
        } catch (err) {
          return done(err as Error);
        }
        done();
      };
    };

    // a hosted page is written by its sandbox's version: named on the answer and in the journal
    const hostedVersion = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, p: unknown) => void) => {
      const owner = request.journalOwner;
      const pinned = owner === undefined || owner === null ? undefined : app.engine.worldOf(owner).contractVersion;
      const name = pinned !== undefined && registry.has(pinned) ? pinned : BASE_VERSION;
      if (name !== BASE_VERSION) request.contractVersion = name;
      void reply.header(CONTRACT_VERSION_HEADER, name);
      done(null, payload);
    };

    // an answer refused before its version was worked out (credentials, a bearer token) still names
    // the one it would have had: the header's when known, else the sandbox's, else the base
    const namedOnRefusal = (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, p: unknown) => void) => {
      if (!reply.hasHeader(CONTRACT_VERSION_HEADER)) {
        const asked = request.headers[CONTRACT_VERSION_HEADER];
        const pinned = request.sandbox?.contractVersion;
        const name =
          typeof asked === 'string' && registry.has(asked) ? asked : pinned !== undefined && registry.has(pinned) ? pinned : BASE_VERSION;
        void reply.header(CONTRACT_VERSION_HEADER, request.contractVersion ?? name);
      }
      done(null, payload);
    };

    app.addHook('onRoute', (route: RouteOptions) => {
      if (isProviderRoute(route.url)) {
        const methods = [route.method].flat();
        route.preValidation = [
          versionOf(methods.includes('HEAD') && methods.length === 1 ? 'HEAD' : methods[0], route.url),
          ...[route.preValidation ?? []].flat(),
        ];
        if (registry.versioned) route.onSend = [...[route.onSend ?? []].flat(), namedOnRefusal];
      } else if (registry.versioned && isHostedPage(route.url)) route.onSend = [...[route.onSend ?? []].flat(), hostedVersion];
    });

    if (!registry.versioned) return;
    // a webhook keeps the version it was registered under: its deliveries carry that version's body
    app.store.outbox.setShaper((name, envelope) => {
      const rules = registry.find(name)?.eventRules(envelope.event) ?? [];
      return rules.length === 0 ? null : JSON.stringify(shapeAnswer(rules, envelope, { version: name, now: () => envelope.timestamp }));
    });

    // answers of a version: its switches (new fields, values now sent, fields no longer sent, the
    // headers it makes), its status codes and the deprecation of answer fields it sends; before
    // --validate-responses reads them
    app.addHook('preSerialization', (request, reply, payload, done) => {
      const op = request.contractOperation;
      if (op === null || reply.statusCode >= 300) return done(null, payload);
      let shaped = payload;
      // the answer is this request's own object: shaped where it is
      if (op.rules.length > 0)
        shaped = shapeAnswer(
          op.rules,
          payload,
          { version: request.contractVersion!, now: () => request.sandbox?.clock.iso() ?? new Date().toISOString() },
          true,
        );
      if (op.headers !== undefined)
        for (const [name, value] of madeHeaders(op.headers, shaped, {
          version: request.contractVersion!,
          now: () => request.sandbox?.clock.iso() ?? new Date().toISOString(),
        }))
          void reply.header(name, value);
      const status = versionedStatus(op.switches, reply.statusCode);
      if (status !== reply.statusCode) void reply.code(status);
      if (op.deprecatedAt !== undefined && op.deprecatedAnswer.some((p) => present(shaped, p))) {
        const version = registry.get(request.contractVersion!, HEADER_FIELD, 'header')!;
        announceDeprecation(reply, version, op);
      }
      done(null, shaped);
    });
  },
  { name: 'obsim-contract-versions', dependencies: ['obsim-store', 'obsim-partner-request', 'obsim-engine'] },
);
