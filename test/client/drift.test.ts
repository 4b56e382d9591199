/**
 * The typed client's types (src/client/api.ts) are what openapi-typescript generates from the
 * committed openapi.json: regenerate both with `npm run openapi`.
 */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { CLIENT_TYPES, clientTypes } from '../../scripts/client-types.js';

t.test('src/client/api.ts is generated from the committed openapi.json', async (t) => {
  t.equal(readFileSync(CLIENT_TYPES, 'utf8'), await clientTypes(), 'regenerate with: npm run openapi');
});
