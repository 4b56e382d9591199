/**
 * The request journal of the caller (docs/journal.md): list with filters and a cursor, read one,
 * clear, count and verify with a matcher, and a live Server-Sent Events stream of new entries and
 * finished webhook deliveries (what `obsim logs tail` reads). These routes are not journaled.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { commonResponseHeaders, errorResponses, responses } from '../../../schemas/common.js';
import {
  JournalIdParams,
  JournalQuery,
  type JournalCountRequestT,
  type JournalIdParamsT,
  type JournalQueryT,
  type JournalVerifyRequestT,
} from '../../../schemas/journal.js';
import { ApiError, invalidInput } from '../../domain/errors.js';
import { matcherProblem, type RequestMatcher } from '../../domain/journal.js';
import { journalHar } from '../../journal/har.js';
import type { Journal, LiveEvent } from '../../journal/index.js';
import { packageVersion } from '../../package-root.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';

/** A comment line keeps idle streams open through proxies that close silent connections. */
const HEARTBEAT_MS = 15_000;

const encodeCursor = (id: number): string => Buffer.from(`j:${id}`, 'utf8').toString('base64url');

function decodeCursor(cursor: string): number {
  const m = Buffer.from(cursor, 'base64url')
    .toString('utf8')
    .match(/^j:(\d{1,15})$/);
  if (!m) throw invalidInput('/cursor', 'cursor is not a nextCursor this server handed out', 'query');
  return Number(m[1]);
}

function checkedMatcher(m: RequestMatcher | undefined): RequestMatcher {
  const matcher = m ?? {};
  const problem = matcherProblem(matcher);
  if (problem) throw invalidInput(`/request${problem.field}`, problem.message);
  return matcher;
}

export async function requestRoutes(app: FastifyInstance): Promise<void> {
  const common = { tags: ['sandbox'], security: partnerSecurity };
  const journalOf = (): Journal => {
    if (!app.journal) throw new ApiError('journal_off');
    return app.journal;
  };
  const owner = (request: FastifyRequest) => request.partner.clientId;
  // open streams end when the server closes (a hijacked response would hold close() open)
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });

  app.get<{ Querystring: JournalQueryT }>(
    '/requests',
    {
      schema: {
        ...common,
        operationId: 'listRequests',
        summary: "The caller's request journal, newest first",
        description:
          'Every request obsim answered for the caller on /v1/*, the hosted pages and /_sandbox/* (not these journal routes, not /_sandbox/sandboxes). Filters combine with AND; since/until are virtual-clock instants. Pages of `limit` (default 50, at most 500); pass `nextCursor` as `cursor` for the next, older page. The journal keeps the newest --journal-max-entries entries (10,000) within --journal-max-bytes (50 MB) per sandbox.',
        querystring: JournalQuery,
        produces: ['application/json', 'application/har+json'],
        response: {
          ...errorResponses,
          200: {
            description: 'The entries (format=json), or the same page as HAR 1.2 (format=har)',
            headers: commonResponseHeaders,
            content: {
              'application/json': { schema: { $ref: 'JournalList#' } },
              'application/har+json': { schema: { $ref: 'JournalHar#' } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { cursor, limit = 50, format, ...filter } = request.query;
      const items = journalOf().list(
        owner(request),
        {
          ...filter,
          method: filter.method?.toUpperCase(),
          beforeId: cursor === undefined ? undefined : decodeCursor(cursor),
        },
        limit + 1,
      );
      const page = items.slice(0, limit);
      const nextCursor = items.length > limit ? encodeCursor(page[page.length - 1].id) : undefined;
      if (format === 'har') {
        const har = journalHar(page, app.publicUrl, packageVersion());
        return reply.type('application/har+json').send(nextCursor ? { log: { ...har.log, _nextCursor: nextCursor } } : har);
      }
      return reply.type('application/json; charset=utf-8').send(nextCursor ? { items: page, nextCursor } : { items: page });
    },
  );

  app.get(
    '/requests/stream',
    {
      schema: {
        ...common,
        operationId: 'streamRequests',
        summary: 'Live stream of new journal entries and webhook deliveries (Server-Sent Events)',
        description:
          'text/event-stream. `event: request` with a JournalEntry as data for each request answered from now on; `event: delivery` with { id, eventId, event, url, state, statusCode, outcome, durationMs } for each finished webhook delivery attempt; a `: heartbeat` comment every 15 s. The first line is `: connected`. `obsim logs tail` reads it.',
        produces: ['text/event-stream'],
        response: {
          ...errorResponses,
          200: {
            description: 'The stream (never ends by itself)',
            headers: commonResponseHeaders,
            content: { 'text/event-stream': { schema: { type: 'string', description: 'Server-Sent Events: event, id, data lines' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const journal = journalOf();
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      res.write(': connected\n\n');
      const send = (event: LiveEvent) => {
        const id = event.type === 'request' ? `id: ${event.entry.id}\n` : '';
        res.write(`event: ${event.type}\n${id}data: ${JSON.stringify(event.type === 'request' ? event.entry : event.delivery)}\n\n`);
      };
      const unsubscribe = journal.subscribe(owner(request), send);
      const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), HEARTBEAT_MS).unref();
      const end = () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(end);
        if (!res.writableEnded) res.end();
      };
      streams.add(end);
      request.raw.on('close', end);
      res.on('error', end);
    },
  );

  app.get<{ Params: JournalIdParamsT }>(
    '/requests/:requestId',
    {
      schema: {
        ...common,
        operationId: 'getRequest',
        summary: 'One journal entry',
        description:
          "One entry of the caller's journal by its id (the `id` of a listed entry): method, path, query, redacted headers, the bodies as sent and answered (capped), status, error code, duration and the resources it touched. 404 journal_entry_not_found for an id the journal no longer holds or that belongs to another partner.",
        params: JournalIdParams,
        response: responses({ $ref: 'JournalEntry#' }),
      },
    },
    async (request) => {
      const entry = journalOf().get(owner(request), request.params.requestId);
      if (!entry) throw new ApiError('journal_entry_not_found', { message: `No journal entry ${request.params.requestId}` });
      const bank = app.store.transitions
        .ofRequest(owner(request), entry.requestId)
        .filter((t) => t.bank_rule !== null)
        .map((t) => ({ resource: t.resource, resourceId: t.resource_id, bankId: t.bank_id ?? '', rule: t.bank_rule! }));
      return bank.length > 0 ? { ...entry, bank } : entry;
    },
  );

  app.delete(
    '/requests',
    {
      schema: {
        ...common,
        operationId: 'clearRequests',
        summary: "Clear the caller's journal",
        description:
          "Deletes every entry of the caller's journal and answers how many were deleted. Other partners' journals, the caller's data and its clock are untouched; a verify or count after it sees only later requests.",
        response: responses({ $ref: 'JournalCleared#' }),
      },
    },
    async (request) => ({ deleted: journalOf().clear(owner(request)) }),
  );

  app.post<{ Body: JournalCountRequestT }>(
    '/requests/count',
    {
      schema: {
        ...common,
        operationId: 'countRequests',
        summary: 'Count the journal entries a matcher matches',
        description:
          "The same matcher as verify (method, path or pathPattern, query, headers, body as a partial match, status, code), counted over the caller's whole journal; 400 validation_failed for a malformed matcher.",
        body: { $ref: 'JournalCountRequest#' },
        response: responses({ $ref: 'JournalCount#' }),
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const matcher = checkedMatcher(body.request);
      return { count: journalOf().count(owner(request), matcher, body.after) };
    },
  );

  app.post<{ Body: JournalVerifyRequestT }>(
    '/requests/verify',
    {
      schema: {
        ...common,
        operationId: 'verifyRequests',
        summary: 'Verify how many journal entries a matcher matches, with near misses when it does not hold',
        description:
          'Always 200 for a well-formed body: `{ verified: true, actual }`, or `{ verified: false, expected, actual, nearMisses | matched }` — the message a failing test prints. A malformed matcher is a 400 naming the field.',
        body: { $ref: 'JournalVerifyRequest#' },
        response: responses({ $ref: 'JournalVerifyResult#' }),
      },
    },
    async (request) => {
      const { request: m, after, ...expected } = request.body ?? {};
      const matcher = checkedMatcher(m);
      return journalOf().verify(owner(request), matcher, expected, after);
    },
  );
}
