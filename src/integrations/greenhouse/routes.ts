import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, Deps } from '../../app-types.js';
import { toErrorResponse } from '../../http/errors.js';
import { GreenhouseAuth } from './auth.js';
import { errorsBody, listTests } from './mapping.js';
import { orderTest, testStatus } from './orders.js';
import { ResponseErrorBody, SendTestBody, TestStatusQuery } from './schemas.js';
import type { GreenhouseCaller } from './types.js';

export const GREENHOUSE_PREFIX = '/integrations/greenhouse';

/** The calls and their methods: a known call with another method is 405, anything else 404. */
const CALLS: Record<string, 'GET' | 'POST'> = { list_tests: 'GET', send_test: 'POST', test_status: 'GET', response_error: 'POST' };
const CALL_LIST = Object.entries(CALLS)
  .map(([call, method]) => `${method} ${call}`)
  .join(', ');

/** Paths with no Greenhouse route, answered in Greenhouse's shape so a partner reads what went wrong. */
function noSuchCall(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0]!;
  const call = path.slice(GREENHOUSE_PREFIX.length + 1);
  const method = Object.hasOwn(CALLS, call) ? CALLS[call] : undefined;
  if (method) {
    reply.header('allow', method === 'GET' ? 'GET, HEAD' : 'POST');
    return reply.code(405).send(errorsBody(`${call} is called with ${method}, not ${request.method}`));
  }
  return reply.code(404).send(errorsBody(`No Greenhouse call at ${request.method} ${path}; the calls are ${CALL_LIST}`));
}

/**
 * Greenhouse's Assessment Partner API, a door beside the caller API: registered under
 * /integrations/greenhouse, so a customer gives Greenhouse `https://<host>/integrations/greenhouse/`
 * and the calls are list_tests, send_test, test_status and response_error under it. Errors go out
 * in Greenhouse's shape, `{"errors": [message]}`, with the status the caller API would use,
 * also for paths and methods it has no route for.
 * Hidden from the caller API's OpenAPI document: this contract is Greenhouse's.
 */
export async function greenhouseRoutes(app: App, deps: Deps): Promise<void> {
  app.removeContentTypeParser('text/plain');
  const auth = new GreenhouseAuth(deps.store, deps.config.auth.failuresPerMinute, deps.config.rateLimit.perKeyPerMinute);
  const callers = new WeakMap<FastifyRequest, GreenhouseCaller>();
  const callerOf = (request: FastifyRequest) => callers.get(request)!;

  app.setErrorHandler((err, request, reply) => {
    const { status, body } = toErrorResponse(err);
    const retryAfter = body.error.innererror.retryAfterSeconds;
    if ((status === 429 || status === 503) && typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
    if (status >= 500) request.log.error({ err }, 'greenhouse request failed');
    return reply.code(status).type('application/json; charset=utf-8').send(errorsBody(body.error.message));
  });

  app.addHook('onRequest', async (request, reply) => {
    callers.set(request, await auth.authenticate(request, reply));
  });
  app.setNotFoundHandler(noSuchCall);

  app.get('/list_tests', { schema: { hide: true } }, async () => listTests(deps.instruments.values()));

  app.post('/send_test', { schema: { hide: true, body: SendTestBody } }, async (request) => {
    const analysisId = await orderTest(deps, callerOf(request), request.body);
    return { partner_interview_id: analysisId };
  });

  app.get('/test_status', { schema: { hide: true, querystring: TestStatusQuery } }, async (request, reply) => {
    const status = await testStatus(deps, callerOf(request), request.query.partner_interview_id);
    if (!status) return reply.code(404).send(errorsBody('No test with this partner_interview_id'));
    return status;
  });

  // Greenhouse reports a response of ours it could not read. The operator sees it in the log;
  // candidate_email and other personal data stay out.
  app.post('/response_error', { schema: { hide: true, body: ResponseErrorBody } }, async (request) => {
    const b = request.body;
    request.log.warn(
      {
        greenhouse: {
          apiCall: b.api_call,
          errors: b.errors.map((e) => e.slice(0, 300)),
          partnerTestId: b.partner_test_id ?? null,
          interview: b.partner_interview_id?.slice(0, 6) ?? null,
        },
      },
      'Greenhouse could not read a response',
    );
    return { status: 200 };
  });
}
