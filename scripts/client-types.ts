/**
 * Writes src/client/api.ts, the types of the typed client (`obsim/client`), from the committed
 * openapi.json with openapi-typescript. Run by `npm run openapi` after the document is written;
 * test/client/drift.test.ts fails when the two are out of step.
 *
 *   npx tsx scripts/client-types.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

export const CLIENT_TYPES = fileURLToPath(new URL('../src/client/api.ts', import.meta.url));
const DOCUMENT = fileURLToPath(new URL('../openapi.json', import.meta.url));

/** The generated module for the document as committed. */
export async function clientTypes(): Promise<string> {
  const ast = await openapiTS(JSON.parse(readFileSync(DOCUMENT, 'utf8')) as Parameters<typeof openapiTS>[0]);
  return `/* Generated from openapi.json by scripts/client-types.ts (npm run openapi). Do not edit. */\n${astToString(ast)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(CLIENT_TYPES, await clientTypes());
  console.log('src/client/api.ts written');
}
