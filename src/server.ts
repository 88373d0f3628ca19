import type { Duplex } from 'node:stream';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App, Deps } from './app-types.js';
import { apiPlugin } from './api/index.js';
import { GREENHOUSE_PREFIX, greenhouseRoutes } from './integrations/greenhouse/routes.js';
import { errorsBody } from './integrations/greenhouse/mapping.js';
import { errorBody, sendError } from './http/errors.js';
import { healthRoutes } from './api/health.js';
import { ErrorEnvelope } from './schemas/envelopes.js';
import { genReqId, logDestination, loggerOptions, OneLinePerRequest } from './http/plugins/logging.js';
import { openApiOptions } from './http/plugins/openapi.js';
import { guardAgainstOverload } from './http/plugins/overload.js';
import { API_SECURITY_HEADERS, DEFAULT_SECURITY_HEADERS } from './http/plugins/security-headers.js';
import { BODY_LIMIT, MAX_PARAM_LENGTH, UNSCHEMED_PARAM_LENGTH } from './platform/limits.js';
import type { Metrics } from './ops/metrics.js';
import { DOCS_CSP, docsLook } from './http/plugins/docs-look.js';
import { portalAssets, portalPlugin } from './portal/index.js';
import { siteRoutes } from './portal/front-door.js';
import { reportAssets, reportRoutes } from './reports/routes.js';
import { PORTAL_PREFIX } from './domain/portal-paths.js';
import { CONSOLE_PREFIX } from './domain/console-paths.js';
import { consolePlugin } from './console/index.js';

function badUrl(err: Pick<FastifyError, 'code'>, request: FastifyRequest, reply: FastifyReply): void {
  // Before routing, so no door's error handler sees it: Greenhouse's paths get Greenhouse's shape here.
  if (request.url.startsWith(`${GREENHOUSE_PREFIX}/`)) return void reply.code(400).send(errorsBody('The request URL is not valid'));
  void reply.code(400).send(errorBody('ValidationError', 'The request URL is not valid', { rule: String(err.code) }));
}

/** The router's bound on each param, for the routes with no params schema to bound them (portal, reports). */
function boundParams(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  for (const value of Object.values(request.params as Record<string, string>)) {
    if (value.length > UNSCHEMED_PARAM_LENGTH) return badUrl({ code: 'FST_ERR_MAX_PARAM_LENGTH' }, request, reply);
  }
  done();
}

/** Requests too broken for Fastify to see (bad request line, oversized headers) still get the envelope. */
const clientErrorHandler =
  (metrics: Metrics | undefined) =>
  (err: NodeJS.ErrnoException, socket: Duplex): void => {
    if (err.code === 'ECONNRESET' || !socket.writable) return;
    const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
    const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const [status, text] = tooLarge ? [431, 'Request Header Fields Too Large'] : timedOut ? [408, 'Request Timeout'] : [400, 'Bad Request'];
    metrics?.unparsedRequest(status);
    const body = JSON.stringify(
      errorBody(
        tooLarge ? 'PayloadTooLarge' : 'ValidationError',
        tooLarge ? 'The request headers are too large' : timedOut ? 'The request took too long to arrive' : 'The request could not be read',
      ),
    );
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };

/** Builds the whole HTTP application from its dependencies; listening is the caller's business. */
export async function buildServer(deps: Deps): Promise<App> {
  const { config } = deps;
  const logs = logDestination();
  const app: App = Fastify({
    logger: loggerOptions(config, logs.stream),
    logController: new OneLinePerRequest(),
    genReqId,
    bodyLimit: BODY_LIMIT,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    // Node checks header and request timeouts only every connectionsCheckingInterval (30 s by default).
    http: { maxHeaderSize: config.http.maxHeaderBytes, connectionsCheckingInterval: 1_000 },
    return503OnClosing: false,
    frameworkErrors: badUrl,
    clientErrorHandler: clientErrorHandler(deps.metrics),
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.headersTimeout = Math.min(config.http.headersTimeoutMs, config.http.requestTimeoutMs);

  app.addHook('onClose', async () => logs.flush());
  const metrics = deps.metrics;
  if (metrics) {
    // The route pattern, not the URL: tokens and ids stay out of the labels, and their number stays bounded.
    app.addHook('onResponse', (request, reply, done) => {
      metrics.request(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
  // maxParamLength is one number for every route; a param no schema bounds keeps Fastify's default.
  app.addHook('onRoute', (route) => {
    if (!route.url.includes(':') || route.schema?.params) return;
    route.onRequest = [...(route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]), boundParams];
  });
  app.decorateRequest('caller', null);
  app.addSchema(ErrorEnvelope);

  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? API_SECURITY_HEADERS : DEFAULT_SECURITY_HEADERS);
    reply.header('x-request-id', request.id);
    // During the shutdown drain, answer what is open but ask clients to reconnect elsewhere.
    if (deps.readiness.shuttingDown) reply.header('connection', 'close');
    done();
  });

  await app.register(swagger, openApiOptions());
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    ...docsLook(),
    staticCSP: DOCS_CSP,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.setErrorHandler((err, request, reply) => sendError(reply, err, request));
  await app.register((scope: App) => siteRoutes(scope, deps.instruments));

  // Health answers whatever the load: an orchestrator must see a busy process as alive.
  await app.register(healthRoutes, deps);
  await app.register(async (guarded: App) => {
    await guardAgainstOverload(guarded, config.overload);
    await guarded.register(apiPlugin, deps);
    await guarded.register((scope: App) => portalPlugin(scope, deps), { prefix: PORTAL_PREFIX });
    await guarded.register(portalAssets);
    await guarded.register((scope: App) => consolePlugin(scope, deps), { prefix: CONSOLE_PREFIX });
    await guarded.register((scope: App) => reportRoutes(scope, deps), { prefix: '/reports' });
    await guarded.register((scope: App) => greenhouseRoutes(scope, deps), { prefix: GREENHOUSE_PREFIX });
    await guarded.register(reportAssets);
  });
  return app;
}
