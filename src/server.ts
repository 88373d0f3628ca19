import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App, Deps } from './app-types.js';
import { apiPlugin } from './api/index.js';
import { errorBody, sendError } from './api/errors.js';
import { healthRoutes } from './api/health.js';
import { ErrorEnvelope } from './schemas/envelopes.js';
import { genReqId, loggerOptions, OneLinePerRequest } from './plugins/logging.js';
import { openApiOptions } from './plugins/openapi.js';
import { BODY_LIMIT } from './limits.js';
import { portalAssets, portalPlugin } from './portal/index.js';

/** Builds the whole HTTP application from its dependencies; listening is the caller's business. */
export async function buildServer(deps: Deps): Promise<App> {
  const { config } = deps;
  const app: App = Fastify({
    logger: loggerOptions(config),
    logController: new OneLinePerRequest(),
    genReqId,
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    http: { maxHeaderSize: config.http.maxHeaderBytes },
    return503OnClosing: false,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.headersTimeout = Math.min(config.http.headersTimeoutMs, config.http.requestTimeoutMs);

  app.decorateRequest('caller', null);
  app.addSchema(ErrorEnvelope);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // During the shutdown drain, answer what is open but ask clients to reconnect elsewhere.
    if (deps.readiness.shuttingDown) reply.header('connection', 'close');
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
  });
  await app.register(swagger, openApiOptions(config));
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    transformStaticCSP: (header: string) =>
      header.replace("form-action 'none'", "form-action 'self'").replace("default-src 'none'", "default-src 'self'"),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.setErrorHandler((err, request, reply) => sendError(reply, err, request));
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody('NotFound', `No route for ${request.method} ${request.url.split('?')[0]}`)),
  );

  await app.register(healthRoutes, deps);
  await app.register(apiPlugin, deps);
  await app.register((scope: App) => portalPlugin(scope, deps), { prefix: '/anonymous/analyse' });
  await app.register(portalAssets);
  return app;
}
