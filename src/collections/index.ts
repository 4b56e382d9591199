/**
 * Collections of a served document for partners' own tools (docs/partner-tools.md): a Postman
 * Collection v2.1 with its environment, and a Bruno collection folder zipped with its own. Built
 * on the first request for a document and kept for it (a document is one object per contract
 * version for the life of the process), so a collection costs the converters once; the
 * environment is made per request, from the caller's sandbox. The converters are loaded then, not
 * at start: nothing here is paid by `obsim serve` until someone asks.
 */
import type { OpenApiDocument } from '../openapi/documents.js';
import { brunoEnvironment, brunoFiles, type BrunoFiles } from './bruno.js';
import { environmentName, postmanEnvironment, type SandboxContext } from './environment.js';
import { postmanCollection } from './postman.js';

export type { SandboxContext } from './environment.js';

interface Built {
  postman?: Promise<string>;
  bruno?: Promise<BrunoFiles>;
}
const built = new WeakMap<OpenApiDocument, Built>();
const kept = (doc: OpenApiDocument): Built => {
  let entry = built.get(doc);
  if (!entry) built.set(doc, (entry = {}));
  return entry;
};

/** The Postman collection of `doc` (contract version `version`; `base`: the provider's document, for a version), as JSON text. */
export function postmanCollectionText(doc: OpenApiDocument, version: string, base: OpenApiDocument | undefined): Promise<string> {
  const entry = kept(doc);
  entry.postman ??= postmanCollection(doc, version, base).then((c) => JSON.stringify(c, null, 2));
  // a failed build is not kept: the next request tries again
  entry.postman.catch(() => (entry.postman = undefined));
  return entry.postman;
}

export const postmanEnvironmentText = (ctx: SandboxContext): string => JSON.stringify(postmanEnvironment(ctx), null, 2);

/** A file name for a download: letters, digits, `.`, `_` and `-`. */
export const downloadName = (ctx: Pick<SandboxContext, 'sandboxId' | 'contractVersion'>, suffix: string): string =>
  `${environmentName(ctx)
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-+$/, '')}${suffix}`;

/** The Bruno collection of `doc` with the environment of `ctx`: a zip holding one folder. */
export async function brunoZip(
  doc: OpenApiDocument,
  version: string,
  base: OpenApiDocument | undefined,
  ctx: SandboxContext,
): Promise<Buffer> {
  const entry = kept(doc);
  entry.bruno ??= brunoFiles(doc, version, base);
  entry.bruno.catch(() => (entry.bruno = undefined));
  const [files, env, { zipSync, strToU8 }] = await Promise.all([entry.bruno, brunoEnvironment(ctx), import('fflate')]);
  const top = downloadName(ctx, '');
  const tree: Record<string, Uint8Array> = {};
  for (const [path, text] of files) tree[`${top}/${path}`] = strToU8(text);
  tree[`${top}/environments/${env.name}.bru`] = strToU8(env.environment);
  tree[`${top}/.env`] = strToU8(env.dotEnv);
  return Buffer.from(zipSync(tree, { level: 6, mtime: ctx.now }));
}
