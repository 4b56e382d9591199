/**
 * obsim's controls of contract versions (docs/contract-versions.md):
 * - GET /_sandbox/contract/versions: the versions this obsim serves;
 * - GET /_sandbox/contract/changelog?from=A&to=B: every change between two of them, with verdicts;
 * - GET /_sandbox/contract/impact?to=B: the changes this sandbox's own traffic touched
 *   (`contractImpactRoutes`, beside the readiness report: an admin's `?sandbox=` names any sandbox).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { commonResponseHeaders, errorResponses, responses } from '../../../schemas/common.js';
import {
  ContractChangelogQuery,
  ContractImpactQuery,
  type ContractChangelogT,
  type ContractVersionListT,
} from '../../../schemas/contracts.js';
import { createChangelogs, type Changelogs } from '../../contracts/changelogs.js';
import type { ContractVersion } from '../../contracts/registry.js';
import { operationsOf, routeKey } from '../../contracts/walk.js';
import { changeCounts } from '../../domain/contract-changes.js';
import { impactReport } from '../../domain/contract-impact.js';
import { BASE_VERSION } from '../../domain/contract-switches.js';
import { ApiError } from '../../domain/errors.js';
import { changelogMarkdown, impactJunit, impactMarkdown } from '../../impact/render.js';
import { DOCUMENTS } from '../../openapi/documents.js';
import { committedProviderDocument } from '../../plugins/contract-versions.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';
import { sandboxSubject } from '../subject.js';

/** One set of changelogs per app (its registry), worked out on first need. */
const changelogsOf = new WeakMap<FastifyInstance['contracts'], Changelogs>();
function changelogs(app: FastifyInstance): Changelogs {
  let found = changelogsOf.get(app.contracts);
  if (!found) changelogsOf.set(app.contracts, (found = createChangelogs(app.contracts, committedProviderDocument)));
  return found;
}

/** A version named in the query string: a known one, else 400 unknown_contract_version listing them. */
function knownVersion(app: FastifyInstance, name: string, field: '/from' | '/to'): string {
  if (!app.contracts.has(name)) app.contracts.get(name, field, 'query');
  return name;
}

/** A 200 answer in JSON or, asked for, as text of `type`. */
const textOrJson = (reply: FastifyReply, type: string | undefined, text: () => string, json: object) =>
  type === undefined ? json : reply.type(type).send(text());

type Item = ContractVersionListT['items'][number];

function describe(version: ContractVersion): Item {
  const deprecations: Item['deprecations'] = [];
  const sunsets: Item['sunsets'] = [];
  for (const doc of operationsOf(version.document)) {
    const op = version.operation(routeKey(doc.method, doc.path));
    if (!op) continue;
    const ref = { operationId: op.id, method: doc.method, path: doc.path };
    if (op.deprecatedAt !== undefined) {
      if (op.deprecated) deprecations.push({ ...ref, deprecatedAt: op.deprecatedAt });
      for (const field of op.deprecatedBody) deprecations.push({ ...ref, field, in: 'request', deprecatedAt: op.deprecatedAt });
      for (const p of op.deprecatedParams)
        deprecations.push({ ...ref, field: p.name, in: p.in === 'header' ? 'header' : 'query', deprecatedAt: op.deprecatedAt });
      for (const field of op.deprecatedAnswer) deprecations.push({ ...ref, field, in: 'answer', deprecatedAt: op.deprecatedAt });
    }
    if (op.sunsetAt !== undefined) sunsets.push({ ...ref, sunsetAt: op.sunsetAt });
  }
  return {
    name: version.name,
    title: version.title,
    file: version.file,
    document: `${DOCUMENTS.provider.url}?version=${encodeURIComponent(version.name)}`,
    deprecations,
    sunsets,
  };
}

const TEXT = { markdown: 'text/markdown; charset=utf-8', junit: 'application/xml; charset=utf-8' } as const;
const textAnswer = (description: string, json: string, texts: readonly (keyof typeof TEXT)[]) => ({
  ...errorResponses,
  200: {
    description,
    headers: commonResponseHeaders,
    content: {
      'application/json': { schema: { $ref: `${json}#` } },
      ...Object.fromEntries(texts.map((t) => [TEXT[t].split(';')[0], { schema: { type: 'string', description: `format=${t}` } }])),
    },
  },
});

export async function contractRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Querystring: { from: string; to: string; format?: 'json' | 'markdown' } }>(
    '/contract/changelog',
    {
      schema: {
        tags: ['sandbox'],
        security: partnerSecurity,
        operationId: 'getContractChangelog',
        summary: 'Every change between two contract versions, each with its verdict',
        description:
          "The documents of `from` and `to` compared operation by operation, status by status, field by field and webhook by webhook, and their x-obsim switches (what obsim sends) rule by rule. Each change has its kind, a JSON pointer into each side and a verdict: breaking for a client or not, by the rules of docs/contract-versions.md (oasdiff's checks where they apply). `base` is the provider's document. An unknown version is a 400 listing the versions. format=markdown answers a table (text/markdown).",
        querystring: ContractChangelogQuery,
        produces: ['application/json', 'text/markdown'],
        response: textAnswer('The changelog (JSON), or it as a Markdown table (format=markdown)', 'ContractChangelog', ['markdown']),
      },
    },
    async (request, reply) => {
      const from = knownVersion(app, request.query.from, '/from');
      const to = knownVersion(app, request.query.to, '/to');
      const changes = [...(changelogs(app).between(from, to) ?? [])];
      const view: ContractChangelogT = { from, to, summary: changeCounts(changes), changes: changes };
      return textOrJson(reply, request.query.format === 'markdown' ? TEXT.markdown : undefined, () => changelogMarkdown(view), view);
    },
  );

  app.get(
    '/contract/versions',
    {
      schema: {
        tags: ['sandbox'],
        security: partnerSecurity,
        operationId: 'listContractVersions',
        summary: 'The contract versions this obsim serves, the base first',
        description:
          "The provider's document (base) and the versions of --contracts (OBSIM_CONTRACTS): each with its name, the file it came from, where its document is served, and what it deprecates and sunsets. A request names its version with the Obsim-Contract-Version header; a sandbox is pinned to one at creation (contractVersion). The controls are not versioned (docs/contract-versions.md).",
        response: responses({ $ref: 'ContractVersionList#' }),
      },
    },
    async (): Promise<ContractVersionListT> => {
      const base: Item = {
        name: BASE_VERSION,
        title: 'The provider’s document',
        document: DOCUMENTS.provider.url,
        deprecations: [],
        sunsets: [],
      };
      return { items: [base, ...app.contracts.list().map(describe)] };
    },
  );
}

export async function contractImpactRoutes(app: FastifyInstance): Promise<void> {
  const subject = sandboxSubject(app);
  app.get<{ Querystring: { to: string; sandbox?: string; format?: 'json' | 'markdown' | 'junit' } }>(
    '/contract/impact',
    {
      schema: {
        tags: ['sandbox'],
        security: [...partnerSecurity, { adminKey: [] }],
        operationId: 'getContractImpact',
        summary: "What upgrading to a contract version changes for this sandbox's own traffic",
        description:
          "The changelog from each version the sandbox's traffic ran under to `to`, joined with its journal and webhook deliveries: only the changes its traffic touched are listed (the operations it called, the request fields and values it sent, the answer fields and values it received, the events and payload fields delivered to it), each with the first journal entries (or deliveries) that touched it, their count and its verdict; the others are counted. Read off the request path (the readiness report's worker). With partner credentials: the caller's sandbox; an admin names any with `sandbox`. format=markdown: a table; format=junit: one failing test case per touched breaking change. 409 journal_off when the journal is off. Not recorded in the journal.",
        querystring: ContractImpactQuery,
        produces: ['application/json', 'text/markdown', 'application/xml'],
        response: textAnswer('The impact report (JSON), or it as Markdown or JUnit XML', 'ContractImpact', ['markdown', 'junit']),
      },
    },
    async (request, reply) => {
      const { partnerId, sandboxId } = subject(request);
      const to = knownVersion(app, request.query.to, '/to');
      if (!app.reports) throw new ApiError('journal_off');
      const logs = changelogs(app);
      const { facts, truncated } = await app.reports.traffic(partnerId, logs.templates());
      const report = {
        sandboxId,
        generatedAt: new Date().toISOString(),
        ...impactReport(to, facts, (from) => logs.between(from, to), truncated),
      };
      const format = request.query.format;
      if (format === 'markdown') return reply.type(TEXT.markdown).send(impactMarkdown(report));
      if (format === 'junit') return reply.type(TEXT.junit).send(impactJunit(report));
      return report;
    },
  );
}
