/**
 * Integer path and query parameters are written in decimal digits (an optional leading `-`),
 * nothing else. Path and query strings are validated with Ajv's type coercion, which turns any
 * string JavaScript reads as a number into one: `/_sandbox/deliveries/1e3` was delivery 1000,
 * `0x3e8` and ` 1000` too (found by the long fuzz run, once a delivery 1000 existed). A
 * preValidation hook, added only to routes that declare integer parameters, answers those with
 * 400 validation_failed naming the parameter — the answer `abc` gets from the schema. It runs
 * after authentication (onRequest), like the schema validation it completes.
 */
import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { invalidInput, pointer } from '../domain/errors.js';

const DIGITS = /^-?\d+$/;

interface ObjectSchema {
  properties?: Record<string, { type?: string | string[] }>;
}

function integerKeys(schema: unknown): string[] {
  const props = (schema as ObjectSchema | undefined)?.properties ?? {};
  return Object.keys(props).filter((k) => [props[k]?.type].flat().includes('integer'));
}

export const integerParamsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const checks = [
        ...integerKeys(route.schema?.params).map((key) => ({ part: 'params' as const, place: 'path' as const, key })),
        ...integerKeys(route.schema?.querystring).map((key) => ({ part: 'query' as const, place: 'query' as const, key })),
      ];
      if (checks.length === 0) return;
      const hook: preValidationHookHandler = (request, _reply, done) => {
        for (const { part, place, key } of checks) {
          const raw = (request[part] as Record<string, unknown> | undefined)?.[key];
          if (typeof raw === 'string' && !DIGITS.test(raw)) {
            done(invalidInput(pointer(key), `${key} must be of type integer`, place));
            return;
          }
        }
        done();
      };
      route.preValidation = route.preValidation ? [...[route.preValidation].flat(), hook] : [hook];
    });
  },
  { name: 'obsim-integer-params' },
);
