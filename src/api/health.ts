import { Type } from 'typebox';
import type { App, Deps } from '../app-types.js';
import { errorBody } from './errors.js';

const Health = Type.Object({ status: Type.String() });

/** /healthz: the process answers. /readyz: it can serve (database reachable, not shutting down). */
export async function healthRoutes(app: App, { store, readiness }: Deps): Promise<void> {
  app.get('/healthz', { schema: { tags: ['Operations'], summary: 'Liveness', response: { 200: Health } } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { tags: ['Operations'], summary: 'Readiness' } }, async (request, reply) => {
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
  });
}
