/**
 * `routeTable`: every route as registered, HEAD copies included. The published OpenAPI documents
 * are built from it (plugins/swagger.ts), and so are the fault profiles' targets and the readiness
 * report's operations; the reliability fuzzer and isolation tests walk it, so a new route is
 * fuzzed for free.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface RouteEntry {
  method: string;
  url: string;
  schema: Record<string, unknown> | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

export const routeTablePlugin = fp(
  async (app: FastifyInstance) => {
    const table: RouteEntry[] = [];
    app.decorate('routeTable', table);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat())
        table.push({ method, url: route.url, schema: route.schema as Record<string, unknown> | undefined });
    });
  },
  { name: 'obsim-route-table' },
);
