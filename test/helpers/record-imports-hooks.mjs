// The resolve hook of record-imports.mjs.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.OBSIM_TEST_IMPORTS_FILE, `${resolved.url}\n`);
  return resolved;
}
