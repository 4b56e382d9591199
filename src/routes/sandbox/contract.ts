/** GET /_sandbox/contract/versions: the contract versions this obsim serves (docs/contract-versions.md). */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import type { ContractVersionListT } from '../../../schemas/contracts.js';
import type { ContractVersion } from '../../contracts/registry.js';
import { operationsOf, routeKey } from '../../contracts/walk.js';
import { BASE_VERSION } from '../../domain/contract-switches.js';
import { DOCUMENTS } from '../../openapi/documents.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';

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

export async function contractRoutes(app: FastifyInstance): Promise<void> {
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
