/**
 * The virtual clock, the only source of "now": the one given to buildApp (tests pass a frozen
 * one), or the persisted one (engine/clock-state.ts), or a new one from --clock-start /
 * --clock-frozen.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { VirtualClock } from '../clock.js';
import { restoreClock } from '../engine/clock-state.js';

declare module 'fastify' {
  interface FastifyInstance {
    clock: VirtualClock;
  }
}

export const clockPlugin = fp(
  async (app: FastifyInstance, opts: { clock?: VirtualClock }) => {
    app.decorate('clock', opts.clock ?? restoreClock(app.config, app.meta));
  },
  { name: 'obsim-clock', dependencies: ['obsim-store'] },
);
