/**
 * Step kind -> handler. A new step kind = a schema entry in schemas/scenario.ts (STEP_KINDS) +
 * a handler here; the `satisfies` below fails the typecheck when one is missing.
 */
import type { StepKind } from '../../../schemas/scenario.js';
import type { StepMap } from '../types.js';
import { advanceClock } from './clock.js';
import { control } from './control.js';
import { bank } from './bank.js';
import { faults } from './faults.js';
import { include } from './include.js';
import { expectNoRequest, expectRequest } from './journal.js';
import { set, wait } from './misc.js';
import { expectReport } from './report.js';
import { request } from './request.js';
import type { StepHandler } from './types.js';
import { expectNoWebhook, expectWebhook, registerWebhook } from './webhooks.js';

export const STEP_HANDLERS = {
  request,
  control,
  advanceClock,
  registerWebhook,
  expectWebhook,
  expectNoWebhook,
  expectRequest,
  expectNoRequest,
  expectReport,
  faults,
  bank,
  wait,
  set,
  include,
} satisfies { [K in StepKind]: StepHandler<StepMap[K]> };
