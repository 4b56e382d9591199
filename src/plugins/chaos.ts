/**
 * Seeded chaos on the partner API (docs/chaos.md): a request of a sandbox with a fault profile
 * is given the fault its profile decides (src/engine/chaos.ts), after authentication (the
 * sandbox is known; a token request by its headers or merchant) and validation, before the
 * handler:
 * - latency: the handler runs that many real milliseconds later;
 * - an error `instead`: answered without running the handler (nothing changed); `after`: the
 *   handler runs, its change stands, and its answer is replaced by the error;
 * - a dropped connection `instead`: the socket is closed without an answer and the handler never
 *   runs (the journal records status 0); `after`: the handler runs and the socket is closed
 *   instead of its answer being sent (the journal records the status it would have had).
 * Every injected fault is on the request (`request.fault`) for the journal to record.
 * Registered before the journal, so the journal's onSend sees an `after` error's status.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { injectedError, ROUTER_PAGES, type ApiFault, type OperationName } from '../domain/chaos.js';
import { errorBody } from '../domain/errors.js';
import type { World } from '../engine/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The fault the sandbox's profile injected into this request (null: none). */
    fault: ApiFault | null;
  }
}

/** The status the journal records: 0 for a connection dropped instead of any answer. */
export const journalStatus = (request: FastifyRequest, reply: FastifyReply): number =>
  request.fault?.kind === 'drop' && request.fault.when === 'instead' ? 0 : reply.statusCode;

export const chaosPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('fault', null);
    const { chaos } = app;
    function answer(request: FastifyRequest, reply: FastifyReply, fault: Extract<ApiFault, { kind: 'error' }>): void {
      if (fault.status === 502 || fault.status === 504) {
        void reply.code(fault.status).type('text/html').send(ROUTER_PAGES[fault.status]);
        return;
      }
      const err = injectedError(fault);
      if (err.headers) void reply.headers(err.headers);
      void reply
        .code(err.status)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(errorBody(err, request.id)));
    }

    /**
     * The sandbox of a request its route authenticates itself (POST /v1/auth/generate-token, which
     * needs no credentials in the sandbox): the partner its headers name, else its merchant's.
     */
    function placed(request: FastifyRequest): World | undefined {
      if (request.sandbox) return request.sandbox;
      const claimed = request.headers['x-partner-client-id'];
      if (app.partners.knows(claimed)) return app.engine.worldOf(claimed);
      const merchantId = (request.body as { merchantId?: unknown } | null | undefined)?.merchantId;
      const merchant = typeof merchantId === 'number' ? app.store.merchants.getAny(merchantId) : undefined;
      return merchant && app.engine.worldOf(merchant.partner_id);
    }

    /** The hook a partner operation's route runs: it knows its operation (no lookup per request). */
    const injectInto =
      (op: OperationName) =>
      (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
        if (!chaos.active) return done();
        decide(request, reply, op, done);
      };

    // only the provider's operations get the hook: every other route pays nothing
    app.addHook('onRoute', (route) => {
      const operationId = route.schema?.operationId;
      if (!route.url.startsWith('/v1/') || typeof operationId !== 'string') return;
      const method = [route.method].flat()[0];
      const hook = injectInto({ operationId, route: `${method} ${route.url.replace(/:([A-Za-z]+)/g, '{$1}')}` });
      route.preHandler = [...[route.preHandler ?? []].flat(), hook];
    });

    function decide(request: FastifyRequest, reply: FastifyReply, op: OperationName, done: (err?: Error) => void): void {
      const sandbox = placed(request);
      if (sandbox === undefined) return done();
      const fault = chaos.api(sandbox.id, op, sandbox.clock.nowMs());
      if (fault === undefined) return done();
      request.fault = fault;
      if (fault.kind === 'latency') {
        setTimeout(done, fault.delayMs);
        return;
      }
      if (fault.when === 'after') return done();
      if (fault.kind === 'error') return answer(request, reply, fault);
      // dropped instead of any answer: the journal still records the request (onSend), then the socket closes
      void reply.code(502).type('text/plain').send('');
    }

    app.addHook('onSend', (request, reply, payload, done) => {
      const fault = request.fault;
      if (fault === null || fault.kind === 'latency') return done(null, payload);
      if (fault.kind === 'drop') {
        request.raw.socket?.destroy();
        return done(null, payload);
      }
      if (fault.when !== 'after' || reply.statusCode === fault.status) return done(null, payload);
      // the handler ran and its change stands; the partner is told otherwise
      if (fault.status === 502 || fault.status === 504) {
        void reply.code(fault.status).type('text/html');
        return done(null, ROUTER_PAGES[fault.status]);
      }
      const err = injectedError(fault);
      if (err.headers) void reply.headers(err.headers);
      void reply.code(err.status).type('application/json; charset=utf-8');
      done(null, JSON.stringify(errorBody(err, request.id)));
    });
  },
  { name: 'obsim-chaos', dependencies: ['obsim-engine'] },
);
