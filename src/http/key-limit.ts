import type { FastifyReply } from 'fastify';
import { DomainError } from '../domain/errors.js';
import type { WindowLimiter } from '../security/window-limiter.js';

const seconds = (n: number) => `${n} second${n === 1 ? '' : 's'}`;

/**
 * Counts a request against its API key's budget for the minute and sets the RateLimit headers
 * (the IETF draft's: limit, remaining, seconds to reset). Past the budget: the 429 to answer with.
 */
export function countAgainstKey(limiter: WindowLimiter, apiKeyId: string, reply: FastifyReply, now = Date.now()): DomainError | undefined {
  const window = limiter.count(apiKeyId, now);
  const reset = Math.ceil((window.resetAt - now) / 1000);
  rateLimitHeaders(reply, limiter.max, limiter.max - window.count, reset);
  if (window.count <= limiter.max) return undefined;
  return new DomainError('TooManyRequests', `Rate limit of ${limiter.max} requests a minute for this API key exceeded; retry in ${seconds(reset)}`, {
    retryAfterSeconds: reset,
  });
}

/** The IETF draft's RateLimit headers for the limit a response is about: its size, what is left, seconds to reset. */
export function rateLimitHeaders(reply: FastifyReply, limit: number, remaining: number, resetSeconds: number): void {
  reply.header('ratelimit-limit', limit).header('ratelimit-remaining', Math.max(0, remaining)).header('ratelimit-reset', resetSeconds);
}
