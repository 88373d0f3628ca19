import { createHash, type Hash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler, preParsingHookHandler, onSendHookHandler } from 'fastify';
import type { Store } from '../db/database.js';
import { DomainError } from '../domain/errors.js';
import { claimKey, keepResponse, releaseClaim, type Claim } from './keys-store.js';
import { IN_FLIGHT_RETRY_AFTER_S, keepsResponse, keyHash } from './rules.js';

export const REPLAYED_HEADER = 'idempotent-replayed';

interface Held {
  hash: Hash;
  claim?: Claim;
}

/**
 * The three hooks that make a create route honour `Idempotency-Key` (docs/API.md, "Retrying a
 * create"), for any door whose requests carry an authenticated caller. Without the header they do
 * nothing. `subject` names the candidate a request concerns (an erasure removes their responses).
 * The route's schema validates the header (schemas/idempotency.ts) before the key is claimed: a
 * request that fails validation claims nothing.
 */
export function idempotentCreate(store: Store, subject: (body: unknown) => string | undefined) {
  const held = new WeakMap<FastifyRequest, Held>();

  /** Hashes method, path and the body's bytes as they arrive, before parsing changes anything. */
  const preParsing: preParsingHookHandler = (request, _reply, payload, done) => {
    if (request.headers['idempotency-key'] === undefined) return done(null, payload);
    const hash = createHash('sha256').update(`${request.method} ${request.url.split('?')[0]}\n`);
    held.set(request, { hash });
    const tee = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        hash.update(chunk);
        next(null, chunk);
      },
    });
    payload.on('error', (err) => tee.destroy(err));
    done(null, payload.pipe(tee));
  };

  const preHandler: preHandlerAsyncHookHandler = async (request, reply) => {
    const h = held.get(request);
    const key = request.headers['idempotency-key'];
    if (!h || typeof key !== 'string' || !request.caller) return;
    const outcome = await claimKey(store, {
      apiKeyId: request.caller.apiKeyId,
      tenantId: request.caller.tenantId,
      keyHash: keyHash(key),
      requestHash: h.hash.digest('hex'),
      externalId: subject(request.body),
    });
    switch (outcome.kind) {
      case 'claimed':
        h.claim = outcome.claim;
        return;
      case 'replay':
        return replay(reply, outcome.status, outcome.body);
      case 'reused':
        throw new DomainError('IdempotencyKeyReused', 'This Idempotency-Key was used with another request; use a new key for a new request', {
          field: 'Idempotency-Key',
        });
      case 'in-flight':
        throw new DomainError('IdempotencyKeyInUse', 'A request with this Idempotency-Key is still in progress; retry shortly', {
          field: 'Idempotency-Key',
          retryAfterSeconds: IN_FLIGHT_RETRY_AFTER_S,
        });
    }
  };

  /** The claimed request's response is kept for replay, or its claim released (rules.keepsResponse). */
  const onSend: onSendHookHandler = async (request, reply, payload) => {
    const claim = held.get(request)?.claim;
    if (!claim) return payload;
    try {
      if (keepsResponse(reply.statusCode) && typeof payload === 'string') await keepResponse(store, claim, reply.statusCode, payload);
      else await releaseClaim(store, claim);
    } catch (err) {
      // The create happened: its response goes out. The claim stays in flight until its lease lapses.
      request.log.warn({ err }, 'idempotency: the response could not be kept');
    }
    return payload;
  };

  return { preParsing, preHandler, onSend };
}

function replay(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).header(REPLAYED_HEADER, 'true').type('application/json; charset=utf-8').send(body);
}

/** The usual subject: the candidate a create names by its ExternalId. */
export function bodyExternalId(body: unknown): string | undefined {
  const id = (body as { ExternalId?: unknown } | null)?.ExternalId;
  return typeof id === 'string' ? id : undefined;
}
