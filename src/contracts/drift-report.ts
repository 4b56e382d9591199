/**
 * A shadow's drift report (docs/drift.md, "The report") read back from a file for
 * `obsim drift adopt`: parsed and checked against the parts adopting reads, so that a file that is
 * not one (truncated, another document) is one line naming what is wrong.
 */
import type { ErrorObject } from 'ajv';
import { DRIFT_KINDS } from '../domain/drift.js';
import { lazyRequire } from '../lazy.js';
import type { DriftReportInput } from './adopt.js';

const DRIFT = {
  type: 'object',
  required: ['kind', 'pointer'],
  properties: { kind: { enum: DRIFT_KINDS }, pointer: { type: 'string' }, detail: { enum: DRIFT_KINDS } },
} as const;
const VERDICT = { enum: ['match', 'drift', 'uncomparable'] } as const;

export const DRIFT_REPORT_SCHEMA = {
  type: 'object',
  required: ['upstream', 'generatedAt', 'summary', 'exchanges', 'webhooks'],
  properties: {
    upstream: { type: 'string' },
    generatedAt: { type: 'string' },
    summary: { type: 'object', required: ['exchanges', 'webhooks'] },
    exchanges: {
      type: 'array',
      items: {
        type: 'object',
        required: ['index', 'method', 'path', 'operationId', 'upstreamStatus', 'obsimStatus', 'verdict', 'drifts'],
        properties: {
          index: { type: 'integer' },
          method: { type: 'string' },
          path: { type: 'string' },
          operationId: { type: ['string', 'null'] },
          upstreamStatus: { type: 'integer' },
          obsimStatus: { type: ['integer', 'null'] },
          verdict: VERDICT,
          drifts: { type: 'array', items: DRIFT },
        },
      },
    },
    webhooks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['event', 'exchange', 'verdict', 'drifts'],
        properties: {
          event: { type: 'string' },
          exchange: { type: ['integer', 'null'] },
          verdict: VERDICT,
          drifts: { type: 'array', items: DRIFT },
        },
      },
    },
  },
} as const;

const ajvModule = lazyRequire<typeof import('ajv')>('ajv');

const where = (e: ErrorObject) =>
  e.keyword === 'required'
    ? `${e.instancePath}/${String(e.params.missingProperty)} is missing`
    : `${e.instancePath || '(the document)'} ${e.message ?? 'is not valid'}`;

/** The report in `text` (from `source`, named in the message); throws an Error of one line when it is not one. */
export function readDriftReport(text: string, source: string): DriftReportInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(
      `${source} is not JSON (${text.trim() === '' ? 'it is empty' : `truncated? ${(err as Error).message.split('\n')[0]}`})`,
      { cause: err },
    );
  }
  const validate = new (ajvModule().Ajv)({ allErrors: false, strict: false, allowUnionTypes: true }).compile(DRIFT_REPORT_SCHEMA);
  if (!validate(value)) throw new Error(`${source} is not a drift report (GET /_shadow/report): ${where(validate.errors![0])}`);
  return value;
}
