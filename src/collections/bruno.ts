/**
 * A Bruno collection folder of a served document, zipped with one sandbox's environment. Bruno's
 * own converter (@usebruno/converters' openApiToBruno, what `bru import openapi` runs) makes the
 * requests, one folder per tag, with the document's examples; obsim adds what it adds to the
 * Postman collection (./plan.ts), in Bruno's script API, and writes the files with Bruno's own
 * serializer (@usebruno/filestore, the `.bru` format). The credentials go to the collection's
 * `.env` (Bruno's place for secrets, git-ignored by the `.gitignore` beside it), which the
 * environment reads as `{{process.env.…}}`.
 */
import { operationsOf, routeKey } from '../contracts/walk.js';
import type { OpenApiDocument } from '../openapi/documents.js';
import { environmentName, environmentValues, type SandboxContext } from './environment.js';
import { ENVIRONMENT_VARIABLES, SECRET_VARIABLES } from '../domain/collection-environment.js';
import { AUTHORIZE_CONSENT, flows, operationPlan, type OperationPlan, type Step } from './plan.js';
import { prepareScript, testScript, tokenScript } from './scripts.js';

interface BrunoHeader {
  name: string;
  value: string;
  enabled: boolean;
  description?: string;
}
interface BrunoParam {
  name: string;
  value: string;
  type: 'path' | 'query';
  enabled: boolean;
}
interface BrunoRequest {
  url: string;
  method: string;
  headers: BrunoHeader[];
  params: BrunoParam[];
  auth: { mode: string; bearer?: { token: string } | null };
  body: { mode: string; json?: string | null };
  script?: { req?: string | null; res?: string | null };
  tests?: string;
  docs?: string;
}
interface BrunoItem {
  name: string;
  type: string;
  seq?: number;
  items?: BrunoItem[];
  request?: BrunoRequest;
  root?: { meta?: { name: string; seq?: number }; docs?: string; request?: unknown };
  examples?: unknown[];
  tags?: string[];
}
interface BrunoCollection {
  name: string;
  items: BrunoItem[];
  root?: { request?: { script?: { req?: string } }; docs?: string };
}

/** The collection's files (path → text), without its environment: what is kept per document. */
export type BrunoFiles = Map<string, string>;

/** A file or folder name Bruno can write on every system (what its CLI's import does, kept short). */
const fileName = (name: string) =>
  [...name]
    .filter((c) => c >= ' ')
    .join('')
    .replace(/[<>:"/\\|?*]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120);

const OPTIONAL_HEADERS = new Set(['prefer', 'x-request-id']);
const CREDENTIAL_HEADERS = new Set(['x-partner-client-id', 'x-partner-client-secret']);

const partnerHeaders = (): BrunoHeader[] => [
  { name: 'X-Partner-Client-Id', value: '{{partnerClientId}}', enabled: true },
  { name: 'X-Partner-Client-Secret', value: '{{partnerClientSecret}}', enabled: true },
];
const versionHeader = (): BrunoHeader => ({ name: 'Obsim-Contract-Version', value: '{{contractVersion}}', enabled: true });

function applyPlan(item: BrunoItem, plan: OperationPlan): void {
  const request = item.request!;
  const partner = plan.op.path.startsWith('/v1/partner/') || plan.op.id === 'generateToken';
  for (const p of request.params ?? []) if (plan.params[p.name]) p.value = `{{${plan.params[p.name]}}}`;
  // Bruno sends the URL as written: the converter lists query parameters without putting them in it
  const query = (request.params ?? []).filter((p) => p.type === 'query' && p.enabled);
  if (query.length > 0 && !request.url.includes('?')) request.url += `?${query.map((p) => `${p.name}=${p.value}`).join('&')}`;
  request.headers = [
    ...(request.headers ?? [])
      .filter((h) => !CREDENTIAL_HEADERS.has(h.name.toLowerCase()))
      .map((h) => (OPTIONAL_HEADERS.has(h.name.toLowerCase()) ? { ...h, enabled: false } : h)),
    versionHeader(),
    ...(partner ? partnerHeaders() : []),
  ];
  request.auth = partner ? { mode: 'none' } : { mode: 'bearer', bearer: { token: '{{bearerToken}}' } };
  if (plan.body !== undefined) request.body = { mode: 'json', json: plan.body };
  request.script = { req: preRequest(!partner, prepareScript('bruno', plan.prepare)), res: null };
  request.tests = testScript('bruno', plan.checks);
}

/**
 * A request's pre-request script: the token script first on a bearer request. On those only, not
 * on the collection: Bruno's CLI starts a script sandbox for every request that has a script to
 * run (its own or its collection's), and most requests need none.
 */
function preRequest(bearer: boolean, own: string | undefined): string | null {
  const parts = [bearer ? tokenScript('bruno') : undefined, own].filter((s) => s !== undefined);
  return parts.length > 0 ? parts.join('\n\n') : null;
}

function stepItem(step: Step, seq: number): BrunoItem {
  return {
    name: step.name,
    type: 'http-request',
    seq,
    request: {
      method: step.method,
      url: `{{baseUrl}}${step.path}`,
      headers: [...(step.path.startsWith('/v1/') ? [versionHeader()] : []), ...(step.auth === 'partner' ? partnerHeaders() : [])],
      params: [],
      auth: step.auth === 'bearer' ? { mode: 'bearer', bearer: { token: '{{bearerToken}}' } } : { mode: 'none' },
      body: step.body === undefined ? { mode: 'none' } : { mode: 'json', json: step.body },
      script: { req: preRequest(step.auth === 'bearer', prepareScript('bruno', step.prepare)), res: null },
      tests: testScript('bruno', step.checks),
      docs: step.description,
    },
  };
}

const folder = (name: string, seq: number, items: BrunoItem[], docs = ''): BrunoItem => ({
  name,
  type: 'folder',
  seq,
  items,
  root: { meta: { name, seq }, docs },
});

/** The collection of `doc` as Bruno files (`.bru`), its environment left out. */
export async function brunoFiles(doc: OpenApiDocument, version: string, base: OpenApiDocument | undefined): Promise<BrunoFiles> {
  const [{ openApiToBruno }, filestore] = await Promise.all([import('@usebruno/converters'), import('@usebruno/filestore')]);
  const collection = openApiToBruno(structuredClone(doc), { groupBy: 'tags' }) as BrunoCollection;
  const byRoute = new Map<string, BrunoItem>();
  for (const f of collection.items)
    for (const item of f.items ?? [])
      if (item.request)
        byRoute.set(routeKey(item.request.method, new URL(item.request.url.replace('{{baseUrl}}', 'http://x')).pathname), item);
  for (const op of operationsOf(doc)) {
    const item = byRoute.get(routeKey(op.method, op.path));
    if (item) applyPlan(item, operationPlan(doc, op, version, base));
  }
  const consent = byRoute.get('POST /v1/ais/consents');
  const folders = collection.items.filter((f) => (f.items ?? []).length > 0);
  folders.forEach((f, i) => {
    f.seq = i + 1;
    f.root = { ...f.root, meta: { name: f.name, seq: i + 1 } };
    const at = f.items!.indexOf(consent!);
    if (at >= 0) f.items!.splice(at + 1, 0, stepItem(AUTHORIZE_CONSENT, 0));
    f.items!.forEach((item, n) => (item.seq = n + 1));
  });
  const flowFolders = flows(doc, version, base).map((flow, i) =>
    folder(
      flow.name,
      i + 1,
      flow.steps.map((s, n) => stepItem(s, n + 1)),
    ),
  );
  folders.push(
    folder(
      'Flows',
      folders.length + 1,
      flowFolders,
      'The main stories, in order: run this folder (bru run Flows -r) against a fresh sandbox.',
    ),
  );

  const files: BrunoFiles = new Map();
  const name = `${collection.name} — contract ${version}`;
  files.set('bruno.json', `${JSON.stringify({ version: '1', name, type: 'collection', ignore: ['node_modules', '.git'] }, null, 2)}\n`);
  const root = {
    request: { headers: [], auth: { mode: 'none' }, script: { req: '', res: '' }, vars: { req: [], res: [] }, tests: '' },
    docs: `${collection.root?.docs ?? ''}\n\nMade by obsim for contract version ${version}: converted by @usebruno/converters (folders by tag, requests, example bodies), then made runnable against a sandbox by obsim (docs/partner-tools.md).`,
  };
  files.set('collection.bru', filestore.stringifyCollection(root, {}, { format: 'bru' }));
  files.set('.gitignore', '.env\n');
  const write = (items: BrunoItem[], dir: string) => {
    for (const item of items) {
      if (item.type === 'folder') {
        const path = `${dir}${fileName(item.name)}/`;
        files.set(
          `${path}folder.bru`,
          filestore.stringifyFolder({ meta: { name: item.name, seq: item.seq }, docs: item.root?.docs ?? '' }, { format: 'bru' }),
        );
        write(item.items ?? [], path);
        continue;
      }
      const request = item.request!;
      const bru = {
        type: 'http-request',
        name: item.name,
        seq: item.seq ?? 1,
        tags: [],
        settings: {},
        request: {
          method: request.method,
          url: request.url,
          headers: request.headers ?? [],
          params: request.params ?? [],
          auth: request.auth ?? { mode: 'none' },
          body: request.body ?? { mode: 'none' },
          script: request.script ?? {},
          vars: { req: [], res: [] },
          assertions: [],
          tests: request.tests ?? '',
          docs: request.docs ?? '',
        },
        examples: item.examples ?? [],
      };
      files.set(`${dir}${fileName(item.name)}.bru`, filestore.stringifyRequest(bru, { format: 'bru' }));
    }
  };
  write(folders, '');
  return files;
}

const ENV_KEYS: Record<string, string> = { partnerClientId: 'OBSIM_PARTNER_CLIENT_ID', partnerClientSecret: 'OBSIM_PARTNER_CLIENT_SECRET' };

/** The environment file and the `.env` holding its credentials, for one sandbox. */
export async function brunoEnvironment(ctx: SandboxContext): Promise<{ environment: string; dotEnv: string; name: string }> {
  const filestore = await import('@usebruno/filestore');
  const values = environmentValues(ctx);
  const name = fileName(environmentName(ctx));
  const variables = [
    ...ENVIRONMENT_VARIABLES.map((key) => ({
      name: key,
      value: SECRET_VARIABLES.includes(key) ? `{{process.env.${ENV_KEYS[key]}}}` : values[key],
      enabled: true,
      secret: false,
      type: 'text',
    })),
    // a token typed here is kept by Bruno as a secret (never written to this file)
    { name: 'bearerToken', value: '', enabled: true, secret: true, type: 'text' },
  ];
  const environment = filestore.stringifyEnvironment({ name, variables }, { format: 'bru' });
  const dotEnv = SECRET_VARIABLES.map((key) => `${ENV_KEYS[key]}=${values[key]}`).join('\n') + '\n';
  return { environment, dotEnv, name };
}
