/**
 * Every error leaves through here, rendered in the one documented shape (schemas/common.ts
 * ErrorBody). Bad input is always a 4xx naming the problem; only real defects are 500.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, errorBody, storageUnavailable, type ErrorCode } from '../domain/errors.js';
import { storageFault } from '../store/faults.js';
import { validationToApiError } from '../compilers/validation.js';

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
};

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'validation_failed',
  404: 'route_not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

export function toApiError(err: FastifyError | ApiError | Error): ApiError {
  if (err instanceof ApiError) return err;
  const fault = storageFault(err);
  if (fault) return storageUnavailable(fault.message);
  const e = err as FastifyError;
  if (e.validation) return validationToApiError(e.validation as never, e.validationContext ?? 'body');
  const mapped = e.code ? FASTIFY_CODES[e.code] : undefined;
  if (mapped)
    return new ApiError(mapped, { message: mapped === 'malformed_json' ? `The request body is not valid JSON: ${e.message}` : undefined });
  // JSON.parse failures and prototype-poisoning rejections arrive as plain 400s
  if (e.statusCode === 400 && (err instanceof SyntaxError || /JSON|prototype|constructor/i.test(e.message))) {
    return new ApiError('malformed_json', { message: `The request body is not valid JSON: ${e.message}` });
  }
  const status = e.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return new ApiError(BY_STATUS[status] ?? 'unprocessable', { status, message: e.message });
  }
  return new ApiError('internal_error');
}

export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err, request, reply) => {
      const apiErr = toApiError(err as FastifyError);
      if (apiErr.status >= 500 && apiErr.code === 'internal_error') request.log.error({ err }, 'unhandled error');
      else if (apiErr.code === 'storage_unavailable') request.log.warn({ err }, 'the database refused a write');
      if (apiErr.headers) void reply.headers(apiErr.headers);
      return reply.code(apiErr.status).type('application/json').send(errorBody(apiErr, request.id));
    });
    app.setNotFoundHandler((request, reply) => {
      const apiErr = new ApiError('route_not_found', { message: `No endpoint ${request.method} ${request.url.split('?')[0]}` });
      return reply.code(404).type('application/json').send(errorBody(apiErr, request.id));
    });
  },
  { name: 'obsim-errors' },
);
