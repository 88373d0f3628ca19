import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyRequest } from 'fastify';
import type { App } from '../app.js';
import type { Config } from '../../config.js';
import { DomainError } from '../../domain/errors.js';
import { BUSY_RETRY_AFTER_SECONDS } from '../../platform/threads.js';

function busy(what: string): DomainError {
  return new DomainError('ServiceUnavailable', `The server is busy (${what}); retry shortly`, { retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS });
}

/** What a request's body may hold in memory: its declared length, or the route's limit when it does not say. */
function bodyBytes(request: FastifyRequest): number {
  const length = request.headers['content-length'];
  const limit = request.routeOptions.bodyLimit ?? 0;
  if (length !== undefined) return Math.min(Number(length) || 0, limit);
  return request.headers['transfer-encoding'] ? limit : 0;
}

/**
 * Admission control for every route in `scope`: past these limits a request gets 503 with
 * Retry-After (the scope's error handler renders it as the envelope or an HTML page) before
 * anything is read or awaited, so overload costs a refusal rather than the process.
 * - requests in flight, at most `maxInFlight`;
 * - request bodies in memory, at most `bodyBytes` in all and `bodyBytesPerClient` per client
 *   address, counted from Content-Length (or the route's limit) until the response closes;
 * - event-loop delay and heap, sampled every second by @fastify/under-pressure.
 */
export async function guardAgainstOverload(scope: App, limits: Config['overload']): Promise<void> {
  let inFlight = 0;
  let heldBytes = 0;
  const perClient = new Map<string, number>();

  scope.addHook('onRequest', (request, reply, done) => {
    if (inFlight >= limits.maxInFlight) return done(busy('too many requests in flight'));
    const bytes = bodyBytes(request);
    const client = request.ip;
    const clientBytes = bytes > 0 ? (perClient.get(client) ?? 0) : 0;
    if (bytes > 0 && (heldBytes + bytes > limits.bodyBytes || clientBytes + bytes > limits.bodyBytesPerClient)) {
      return done(busy('too many request bodies in memory'));
    }
    inFlight++;
    heldBytes += bytes;
    if (bytes > 0) perClient.set(client, clientBytes + bytes);
    // 'close' comes once per response, sent or cut off: the slot cannot leak.
    reply.raw.once('close', () => {
      inFlight--;
      if (bytes === 0) return;
      heldBytes -= bytes;
      const left = (perClient.get(client) ?? bytes) - bytes;
      if (left > 0) perClient.set(client, left);
      else perClient.delete(client);
    });
    done();
  });

  await scope.register(underPressure, {
    sampleInterval: 1_000,
    maxEventLoopDelay: limits.maxEventLoopDelayMs,
    // A last line only: the limits above bound what requests hold long before this.
    maxHeapUsedBytes: Math.floor(getHeapStatistics().heap_size_limit * 0.9),
    retryAfter: BUSY_RETRY_AFTER_SECONDS,
    customError: class extends DomainError {
      constructor() {
        super('ServiceUnavailable', 'The server is busy; retry shortly', { retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS });
      }
    } as unknown as new () => Error,
  });
}
