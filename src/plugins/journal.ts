/**
 * Records every answered request on /v1/*, the hosted pages and /_sandbox/* in the journal of
 * the partner it belongs to (docs/journal.md):
 * - partner routes: the authenticated partner; refused credentials: the partner the client id
 *   names, when it names one (so "why was I refused?" has an answer); AIS: the token's merchant's
 *   partner; hosted pages and generate-token: the partner of the row they act on (`journalAs`);
 * - not recorded: the journal's own routes, and the readiness report and scenario draft read from it (reading it
 *   must not change what it counts; the contract impact report likewise), the collections (made from the document; an environment holds the caller's credentials), sandbox management (/_sandbox/sandboxes: no sandbox yet), system routes, and requests no
 *   partner can be named for.
 * What the entry needs is read in onSend, after the store's hook has waited for the request's own
 * commit; the entry is made in a microtask, after the answer was written, so a client waiting on
 * each answer never waits for it; it is written in a batch soon after (src/journal/index.ts). A
 * JSON body is kept as the text that arrived (the parser below hands it over before parsing it);
 * any other body (a form) as it was parsed, before validation can change it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createJournal, type Journal, type StoredBody } from '../journal/index.js';
import type { FaultMark } from '../domain/chaos.js';
import { journalStatus } from './chaos.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The request journal (undefined with --journal off). */
    journal: Journal | undefined;
  }
  interface FastifyRequest {
    /** The partner whose journal this request goes to (null: none known yet). */
    journalOwner: string | null;
    /** The body as sent, taken before validation (which drops unknown properties in lenient mode). */
    journalBody: StoredBody | null;
    /** A JSON body's text as it arrived. */
    journalText: string | null;
    /** `journalText` parsed (it is whole JSON). */
    journalJson: boolean;
  }
}

const JOURNALED = /^\/(?:v1\/|pay\/|consent\/|onboarding\/|_sandbox\/)/;
const NOT_JOURNALED = /^\/_sandbox\/(?:requests|sandboxes|report|scenario-draft|collections|scenarios\/import|contract\/impact)(?:[/?]|$)/;
const isJsonType = (type: unknown): boolean => typeof type === 'string' && type.startsWith('application/json');
const journaled = (path: string): boolean => JOURNALED.test(path) && !NOT_JOURNALED.test(path);

/** Put this request in `partnerId`'s journal (hosted pages, generate-token: the row's partner). */
export function journalAs(request: FastifyRequest, partnerId: string): void {
  request.journalOwner = partnerId;
}

export const journalPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('journalOwner', null);
    app.decorateRequest('journalBody', null);
    app.decorateRequest('journalText', null);
    app.decorateRequest('journalJson', false);
    const { config } = app;
    if (!config.journal) {
      app.decorate('journal', undefined);
      return;
    }
    const journal = createJournal(
      app.store,
      { maxEntries: config.journalMaxEntries, maxBytes: config.journalMaxBytes, bodyLimit: config.journalBodyLimit },
      (err) => app.log.error({ err }, 'journal: cannot write entries'),
      app.traffic,
    );
    app.decorate('journal', journal);
    // Fastify's own JSON parser, handed the text it parses: keeping that text costs nothing, where
    // serializing the parsed body again for the journal cost a tenth of its work per request
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      // Fastify's parser skips a leading byte order mark; JSON.parse does not, and the journal
      // writes a JSON body into its page as it is, so the mark must not reach the page
      if (typeof body === 'string') request.journalText = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
      void parseJson(request, body as string, (err, parsed) => {
        if (!err) request.journalJson = true;
        done(err, parsed);
      });
    });
    app.sandboxes.onRemoved((id) => journal.forget(id));
    // what is pending is written before the store commits its last group and closes
    app.addHook('onClose', async () => journal.flush());

    app.webhooks.onAttempt(({ delivery, result }) => {
      if (!journal.watched(delivery.partner_id)) return;
      let event: string | null = null;
      try {
        event = (JSON.parse(delivery.body) as { event?: string }).event ?? null;
      } catch {
        /* a body that is not JSON has no event name */
      }
      journal.delivered(delivery.partner_id, {
        id: delivery.id,
        eventId: delivery.event_id,
        event,
        url: delivery.url,
        state: result.state,
        statusCode: result.status_code,
        outcome: result.outcome,
        durationMs: result.duration_ms,
        ...(result.fault !== undefined || delivery.fault !== null
          ? { fault: JSON.parse(result.fault ?? delivery.fault!) as FaultMark }
          : {}),
      });
    });

    // callback style, like the store's hook: no promise per request
    app.addHook('preValidation', (request, reply, done) => {
      try {
        const hasBody = request.body !== undefined && request.body !== null;
        if (hasBody && request.journalText === null && journaled(request.url.split('?', 1)[0]))
          request.journalBody = journal.requestBody(request.body);
      } catch (err) {
        // the journal is a record of the request, never a reason to refuse it
        request.log.error({ err }, 'journal: cannot keep the request body');
      }
      done();
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      const path = request.url.split('?', 1)[0];
      // the web console's reads (routes/console/api.ts) are not the partner's integration talking
      if (!journaled(path) || (request.method === 'GET' && request.headers['x-obsim-console'] === 'read')) return done(null, payload);
      let owner = request.journalOwner ?? request.partner?.clientId ?? undefined;
      // refused before a partner was set (credentials, unknown route): the partner the client id names
      if (owner === undefined) {
        const claimed = request.headers['x-partner-client-id'];
        if (app.partners.knows(claimed)) owner = claimed;
      }
      if (owner === undefined || (typeof payload === 'object' && payload !== null && !Buffer.isBuffer(payload))) return done(null, payload);
      // what the entry needs that can still change is read now; the entry itself is made once the
      // answer is written (a microtask runs after this turn's write, before any other request's):
      // a client waiting on each answer does not wait for its entry too
      const partnerId = owner;
      const atMs = (request.sandbox ?? app.engine.worldOf(owner)).clock.nowMs();
      const status = journalStatus(request, reply);
      const payloadIsJson = isJsonType(reply.getHeader('content-type'));
      const durationMs = reply.elapsedTime;
      queueMicrotask(() => {
        try {
          journal.record({
            partnerId,
            atMs,
            method: request.method,
            path,
            query: request.query,
            params: request.params,
            headers: request.headers,
            body:
              request.journalBody ??
              (request.journalText !== null
                ? journal.requestBody(request.journalText, request.journalJson)
                : journal.requestBody(request.body)),
            status,
            fault: request.fault,
            payload,
            payloadIsJson,
            durationMs,
            requestId: request.id,
            traceId: request.trace?.traceId,
            contractVersion: request.contractVersion ?? undefined,
          });
        } catch (err) {
          // the journal is a record of the answer, never a reason to change it
          request.log.error({ err }, 'journal: cannot record the request');
        }
      });
      done(null, payload);
    });
  },
  { name: 'obsim-journal', dependencies: ['obsim-store', 'obsim-engine', 'obsim-webhooks', 'obsim-partners', 'obsim-chaos'] },
);
