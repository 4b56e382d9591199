/**
 * The lifecycle engine (src/engine) and the webhook delivery worker (src/webhooks): decorated as
 * `engine` and `webhooks`, started when the app is ready (fire what fell due while obsim was
 * down; resume pending and interrupted deliveries), stopped when it closes.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { lifecycleSettings, type LifecycleSettings } from '../domain/settings.js';
import { createChaos, type Chaos } from '../engine/chaos.js';
import { createEngine, type Engine } from '../engine/index.js';
import { createSandboxes, SWEEP_INTERVAL_MS, type Sandboxes } from '../engine/sandboxes.js';
import { createTraffic } from '../engine/traffic.js';
import type { VirtualClock } from '../clock.js';
import type { ClaimedDelivery } from '../store/deliveries.js';
import { createWebhookWorker, type WebhookWorker } from '../webhooks/worker.js';

/** How often a delivery held on a sandbox clock looks at it (a running clock moves without telling). */
const CLOCK_LOOK_MS = 250;

/** Resolves once `clock` reaches `atMs`: told by an advance at once, else seen within CLOCK_LOOK_MS. */
function untilClock(clock: VirtualClock, atMs: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearInterval(look);
      off();
      signal.removeEventListener('abort', aborted);
    };
    const check = (): void => {
      if (clock.nowMs() < atMs) return;
      done();
      resolve();
    };
    const aborted = (): void => {
      done();
      reject(signal.reason as Error);
    };
    const look = setInterval(check, CLOCK_LOOK_MS).unref();
    const off = clock.onAdvance(check);
    signal.addEventListener('abort', aborted, { once: true });
    check();
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What the lifecycle rules read: environment and the sandbox's delays. */
    settings: LifecycleSettings;
    /** Apply triggers, schedule and fire timers, move the clock. */
    engine: Engine;
    /** Webhook delivery worker. */
    webhooks: WebhookWorker;
    /** Created sandboxes: create, authenticate, delete, sweep idle ones. */
    sandboxes: Sandboxes;
    /** The fault profiles in force (docs/chaos.md). */
    chaos: Chaos;
    /** Requests and background work sharing the event loop (engine/traffic.ts). */
    traffic: ReturnType<typeof createTraffic>;
  }
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const enginePlugin = fp(
  async (app: FastifyInstance) => {
    const settings = lifecycleSettings(app.config);
    app.decorate('settings', settings);
    // requests first: the timer runtime gives way to a client waiting on each answer
    const traffic = createTraffic();
    app.decorate('traffic', traffic);
    app.addHook('onRequest', (request, _reply, done) => {
      traffic.arrived();
      // a write waits while settlements or deliveries are behind (engine/traffic.ts)
      if (READS.has(request.method) || !traffic.behind) return done();
      void traffic.admit().then(() => done());
    });
    app.addHook('onResponse', (_request, _reply, done) => {
      traffic.answered();
      done();
    });
    app.addHook('onRequestAbort', (_request, done) => {
      traffic.answered();
      done();
    });
    app.decorate(
      'engine',
      createEngine({
        store: app.store,
        meta: app.meta,
        clock: app.clock,
        settings,
        traffic,
        log: app.log,
        contractVersion: app.config.contractVersion,
      }),
    );
    // a span for every transition, in the trace of what caused it (only while spans are exported)
    const { telemetry } = app;
    if (telemetry.exporting) {
      app.engine.onTransition((t) =>
        telemetry.transition({
          resource: t.resource,
          resourceId: String(t.resourceId),
          from: t.from,
          to: t.to,
          reason: t.reason,
          causeKind: t.cause.kind,
          causeName: t.cause.name,
          parent: t.cause.trace,
          at: t.at,
        }),
      );
    }
    app.decorate(
      'sandboxes',
      createSandboxes({ store: app.store, engine: app.engine, seedMerchant: app.config.environment === 'sandbox' }),
    );
    app.partners.created = app.sandboxes;
    app.decorate('chaos', createChaos(app.store));
    app.sandboxes.onRemoved((id) => {
      app.chaos.forget(id);
      app.engine.banks.forget(id);
    });
    let sweeper: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      app.engine.start();
      sweeper = setInterval(() => {
        try {
          app.sandboxes.sweep();
        } catch (err) {
          app.log.error({ err }, 'sandbox sweep failed; retrying at the next one');
        }
      }, SWEEP_INTERVAL_MS).unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(sweeper);
      if (app.store.open) app.sandboxes.sweep();
      app.engine.close();
    });
  },
  { name: 'obsim-engine', dependencies: ['obsim-store', 'obsim-clock', 'obsim-partners', 'obsim-tracing'] },
);

export const webhookWorkerPlugin = fp(
  async (app: FastifyInstance, opts: { timeoutMs?: number }) => {
    const nowIsoFor = (partnerId: string) => app.engine.worldOf(partnerId).clock.iso();
    const nowMsFor = (partnerId: string) => app.engine.worldOf(partnerId).clock.nowMs();
    const faults = (row: ClaimedDelivery) => {
      if (!app.chaos.active) return undefined;
      const world = app.engine.worldOf(row.partner_id);
      return app.chaos.webhook(world.id, row.event, world.clock.nowMs());
    };
    const clockReaches = (partnerId: string, atMs: number, signal: AbortSignal) =>
      untilClock(app.engine.worldOf(partnerId).clock, atMs, signal);
    app.decorate(
      'webhooks',
      createWebhookWorker({
        store: app.store,
        nowIsoFor,
        nowMsFor,
        faults,
        clockReaches,
        log: app.log,
        timeoutMs: opts.timeoutMs,
        telemetry: app.telemetry,
      }),
    );
    app.traffic.countDeliveryBacklog(() => app.webhooks.backlog);
    app.addHook('onReady', async () => app.webhooks.start());
    app.addHook('onClose', async () => app.webhooks.stop());
  },
  { name: 'obsim-webhooks', dependencies: ['obsim-store', 'obsim-engine', 'obsim-tracing'] },
);
