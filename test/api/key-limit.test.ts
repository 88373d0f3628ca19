import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import type { FastifyReply } from 'fastify';
import { countAgainstKey } from '../../src/http/key-limit.js';
import { WindowLimiter } from '../../src/security/window-limiter.js';

/** The headers a request's reply was given. */
function headersOf(): { reply: FastifyReply; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  const reply = {
    header(name: string, value: unknown) {
      headers[name] = String(value);
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, headers };
}

test("a key's window: seconds to reset count down from 60, the second request is refused, and a new window starts when the old one ends", () => {
  const limiter = new WindowLimiter(1);
  const t0 = 1_700_000_000_000;
  const at = (ms: number, key = 'key-a') => {
    const { reply, headers } = headersOf();
    const refused = countAgainstKey(limiter, key, reply, t0 + ms);
    return { refused, headers };
  };
  const first = at(0);
  assert.equal(first.refused, undefined);
  assert.deepEqual(first.headers, { 'ratelimit-limit': '1', 'ratelimit-remaining': '0', 'ratelimit-reset': '60' });
  const second = at(1);
  assert.equal(second.refused?.code, 'TooManyRequests');
  assert.equal(second.refused?.details?.retryAfterSeconds, 60);
  assert.equal(second.headers['ratelimit-reset'], '60');
  const late = at(59_999);
  assert.equal(late.refused?.details?.retryAfterSeconds, 1, 'never 0 in the last millisecond');
  assert.equal(late.headers['ratelimit-reset'], '1');
  assert.equal(at(60_000).refused, undefined, 'a new window');
  assert.equal(at(1, 'key-b').refused, undefined, 'another key has its own');
});
