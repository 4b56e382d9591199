/**
 * obsim's controls take no query parameter they do not name (docs/errors.md): a control route that
 * declares no query string gets an empty one, which the validator compiler closes like the others
 * (src/compilers/validation.ts), so `DELETE /_sandbox/sandboxes/{id}?dryRun=1` is a 400 naming
 * `dryRun`, not a deletion.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isControlRoute } from '../compilers/validation.js';

const NO_QUERY = { type: 'object', properties: {} } as const;

export const closedControlsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const urls = [route.url, route.path].filter((u): u is string => typeof u === 'string');
      if (!urls.some(isControlRoute)) return;
      if (route.schema?.querystring === undefined) route.schema = { ...route.schema, querystring: NO_QUERY };
    });
  },
  { name: 'obsim-closed-controls' },
);
