import { Type } from 'typebox';
import type { App, Deps } from '../app-types.js';
import { errorResponses } from '../schemas/errors.js';
import { errorBody } from '../http/errors.js';

const Health = Type.Object({ status: Type.String() }, { description: 'Up (healthz) or ready (readyz)' });

/** /healthz: the process answers. /readyz: it can serve (database reachable, not shutting down). */
export async function healthRoutes(app: App, { store, readiness }: Deps): Promise<void> {
  app.get(
    '/healthz',
    { schema: { tags: ['Operations'], summary: 'Liveness', description: 'Always 200 while the process runs, however busy.', response: { 200: Health } } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['Operations'],
        summary: 'Readiness',
        description: '200 while this instance can serve; 503 while the database is unreachable or it is shutting down.',
        response: { 200: Health, ...errorResponses(['ServiceUnavailable']) },
      },
    },
    async (request, reply) => {
      if (readiness.shuttingDown) {
        return reply.code(503).send(errorBody('ServiceUnavailable', 'Shutting down'));
      }
      try {
        await store.ping();
      } catch (err) {
        request.log.warn({ err }, 'readiness check failed');
        return reply.code(503).send(errorBody('ServiceUnavailable', 'The database is not reachable'));
      }
      return { status: 'ready' };
    },
  );
}
