/**
 * Endpoints the contract calls with "no body" (resend-onboarding, webhook test). In their scope:
 * - an absent or empty body is fine, also with `Content-Type: application/json` (many HTTP
 *   clients send that header on every POST; Fastify's default parser would answer 400);
 * - malformed JSON is 400 malformed_json, as everywhere;
 * - JSON other than an object or null (`123`, `"x"`, `[]`) is 400 validation_failed naming `body`;
 * - an object is accepted and ignored;
 * - an empty body without a Content-Type (an empty chunked body) is no body;
 * - a non-empty body of any other Content-Type (text/plain, a form, none, …) is 415
 *   unsupported_media_type: Fastify's text and form parsers would otherwise hand the handler a
 *   string or an object nobody checks (found by the long fuzz run: `1e999` as text/plain and
 *   `-1e999` as a form were accepted by POST /v1/partner/webhooks/{id}/test).
 * No body schema is declared, so the OpenAPI document shows these operations without a body.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';

export function tolerateEmptyJsonBody(scope: FastifyInstance): void {
  const json = scope.getDefaultJsonParser('error', 'error');
  /** Requests whose body went through the JSON parser below. */
  const parsedAsJson = new WeakSet<object>();
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parsedAsJson.add(request);
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    void json(request, text, (err, parsed) => {
      if (err) return done(err);
      if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) {
        return done(
          new ApiError('validation_failed', {
            field: '',
            message: 'This endpoint takes no body: send none, or a JSON object (ignored)',
          }),
        );
      }
      done(null, parsed ?? undefined);
    });
  });
  // a body sent without a Content-Type (Pact's verifier proxies a body-less POST as an empty
  // chunked one): empty is no body, anything else is refused below like any other type
  scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    done(null, text === '' ? undefined : text);
  });
  scope.addHook('preValidation', (request, _reply, done) => {
    const body = request.body;
    const empty =
      body === undefined ||
      body === null ||
      (typeof body === 'string' && body.trim() === '') ||
      (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
    if (empty || parsedAsJson.has(request)) return done();
    done(
      new ApiError('unsupported_media_type', {
        message: 'This endpoint takes no body: send none, or a JSON object (ignored) with Content-Type: application/json',
      }),
    );
  });
}
