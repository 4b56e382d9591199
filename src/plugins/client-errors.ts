/**
 * Requests rejected before a route runs still leave in the one error shape (ErrorBody):
 * - `frameworkErrors`: router rejections (a path parameter over maxParamLength, a malformed
 *   %-escape), which Fastify would answer in its own body;
 * - `clientErrorHandler`: requests Node's HTTP parser refuses (bad header bytes such as a bare
 *   CR/LF, headers over 16 KiB, a request not received within requestTimeout). There is no
 *   reply object yet, so the response is written to the socket by hand.
 */
import type { FastifyReply, FastifyServerOptions } from 'fastify';
import { ApiError, errorBody } from '../domain/errors.js';
import { newRequestId } from './request-id.js';

/** Longest path parameter the router passes on (past it: 400 naming the path); more than a request line can hold. */
export const MAX_PARAM_LENGTH = 16_384;

export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (error, request, reply) => {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? `A path parameter is longer than ${MAX_PARAM_LENGTH} characters`
      : 'The URL is not valid (bad percent-encoding?)';
  void (reply as unknown as FastifyReply)
    .code(400)
    .type('application/json')
    .send(errorBody(new ApiError('validation_failed', { message, field: '', in: 'path' }), request.id));
};

const REASON: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

export const clientErrorHandler: NonNullable<FastifyServerOptions['clientErrorHandler']> = (err: NodeJS.ErrnoException, socket) => {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const apiErr =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new ApiError('request_timeout')
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? new ApiError('headers_too_large')
        : new ApiError('validation_failed', { message: 'The HTTP request is malformed (invalid header or request line)' });
  const body = JSON.stringify(errorBody(apiErr, newRequestId()));
  // like Node's own handler: never write into a response that has started (it would corrupt it)
  const inFlight = (socket as unknown as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (socket.writable && (!inFlight || !inFlight.headersSent)) {
    socket.write(
      `HTTP/1.1 ${apiErr.status} ${REASON[apiErr.status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
};
