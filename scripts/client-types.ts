/**
 * Writes src/client/api.ts, the types of the typed client (`obsim/client`), from the committed
 * documents with openapi-typescript: openapi.json (the provider API) and openapi-controls.json
 * (obsim's controls), read as one, since the client drives both. Run by `npm run openapi` after
 * the documents are written; test/client/drift.test.ts fails when they are out of step.
 *
 *   npx tsx scripts/client-types.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

export const CLIENT_TYPES = fileURLToPath(new URL('../src/client/api.ts', import.meta.url));
type Document = { paths: object; components: { schemas: object; securitySchemes: object } } & Record<string, unknown>;
const read = (file: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../${file}`, import.meta.url)), 'utf8')) as Document;

/** The generated module for the documents as committed. */
export async function clientTypes(): Promise<string> {
  const provider = read('openapi.json');
  const controls = read('openapi-controls.json');
  // the component schemas the two share are the same schemas (both are cut from one document)
  const both = {
    ...provider,
    paths: { ...provider.paths, ...controls.paths },
    components: {
      schemas: { ...provider.components.schemas, ...controls.components.schemas },
      securitySchemes: { ...provider.components.securitySchemes, ...controls.components.securitySchemes },
    },
  };
  const ast = await openapiTS(both as Parameters<typeof openapiTS>[0]);
  return `/* Generated from openapi.json and openapi-controls.json by scripts/client-types.ts (npm run openapi). Do not edit. */\n${astToString(ast)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(CLIENT_TYPES, await clientTypes());
  console.log('src/client/api.ts written');
}
