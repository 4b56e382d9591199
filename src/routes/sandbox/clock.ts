/** GET /_sandbox/clock, POST /_sandbox/clock/advance (+ freeze / resume): the caller's sandbox's clock. */
import type { FastifyInstance } from 'fastify';
import { responses } from '../../../schemas/common.js';
import type { ClockAdvanceBody } from '../../../schemas/sandbox.js';
import { durationMs } from '../../domain/durations.js';
import { invalidInput } from '../../domain/errors.js';
import type { World } from '../../engine/index.js';
import { partnerSecurity } from '../../plugins/partner-auth.js';

/** Same bound as the schema's `ms` maximum (10 years), applied to duration and `to` too. */
const MAX_ADVANCE_MS = 315_360_000_000;

/** A sandbox's clock as SandboxClock (also in GET /_sandbox/overview). */
export const clockView = ({ clock }: World) => ({ now: clock.iso(), frozen: clock.frozen, offsetMs: Math.round(clock.state().offsetMs) });

export async function clockRoutes(app: FastifyInstance): Promise<void> {
  const view = clockView;
  const common = { tags: ['sandbox'], security: partnerSecurity };

  app.get(
    '/clock',
    {
      schema: {
        ...common,
        operationId: 'getClock',
        summary: 'Read the virtual clock',
        description:
          "The caller's sandbox clock: its current instant, whether it is frozen, and its offset from the wall clock. Every timestamp obsim writes for this sandbox (payments, consents, journal entries, webhook bodies) comes from this clock.",
        response: responses({ $ref: 'SandboxClock#' }),
      },
    },
    async (request) => view(request.sandbox),
  );

  app.post<{ Body: ClockAdvanceBody }>(
    '/clock/advance',
    {
      schema: {
        ...common,
        operationId: 'advanceClock',
        summary: 'Move the virtual clock forward; due transitions fire in time order',
        description:
          "Give exactly one of ms, duration or to. The clock never moves backwards (a `to` in the past is a 400). Every settlement, expiry, approval and consent expiry that falls due fires, earliest first, and its webhooks are queued. Each sandbox has its own clock: this moves the caller's sandbox only (the configured partners share the default sandbox's). The clock moves with what it fires: a firing that fails leaves it at the last instant whose firings committed.",
        body: { $ref: 'SandboxClockAdvanceRequest#' },
        response: responses({ $ref: 'SandboxClockAdvanceResponse#' }),
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const given = (['ms', 'duration', 'to'] as const).filter((k) => body[k] !== undefined);
      if (given.length !== 1) {
        throw invalidInput(`/${given[1] ?? 'ms'}`, 'Give exactly one of ms, duration ("5s", "2m", "1h", "7d") or to (ISO 8601 instant)');
      }
      let ms: number;
      if (body.ms !== undefined) ms = body.ms;
      else if (body.duration !== undefined) ms = durationMs(body.duration, '/duration');
      else {
        const target = Date.parse(body.to!);
        ms = target - request.sandbox.clock.nowMs();
        if (ms < 0)
          throw invalidInput(
            '/to',
            `to (${body.to}) is before the current simulated time ${request.sandbox.clock.iso()}; the clock only moves forward`,
          );
      }
      // at most 10 years per call, whichever way it was given (a "99999999d" duration used to
      // overflow the Date range and answer 500; found by the fuzz suite)
      if (!Number.isFinite(ms) || ms > MAX_ADVANCE_MS) {
        throw invalidInput(`/${given[0]}`, `The clock moves at most ${MAX_ADVANCE_MS} ms (10 years) per call`);
      }
      // due transitions fire in slices: other requests are answered while a burst settles
      const fired = await request.sandbox.advance(ms);
      return { now: request.sandbox.clock.iso(), fired };
    },
  );

  app.post(
    '/clock/freeze',
    {
      schema: {
        ...common,
        operationId: 'freezeClock',
        summary: 'Freeze the virtual clock at the current instant',
        description:
          'Stops the sandbox clock where it is: time moves only through POST /_sandbox/clock/advance from then on, so tests can assert exact timestamps and expiry. Idempotent: freezing a frozen clock changes nothing.',
        body: { $ref: 'SandboxEmptyBody#' },
        response: responses({ $ref: 'SandboxClock#' }),
      },
    },
    async (request) => {
      request.sandbox.freeze();
      return view(request.sandbox);
    },
  );

  app.post(
    '/clock/resume',
    {
      schema: {
        ...common,
        operationId: 'resumeClock',
        summary: 'Let the virtual clock run again (from the current simulated instant)',
        description:
          'The clock runs at wall-clock speed again from the instant it was frozen at (it does not jump to the wall clock). Idempotent.',
        body: { $ref: 'SandboxEmptyBody#' },
        response: responses({ $ref: 'SandboxClock#' }),
      },
    },
    async (request) => {
      request.sandbox.resume();
      return view(request.sandbox);
    },
  );
}
