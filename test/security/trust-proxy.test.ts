import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { request } from '../helpers/http.js';

describe('TRUST_PROXY', () => {
  const parse = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;

  test('true and hop counts are refused with the form that works', () => {
    for (const value of ['true', 'TRUE', 'yes', '1', '2']) {
      assert.throws(
        () => parse(value),
        (e: unknown) => e instanceof ConfigError && /TRUST_PROXY/.test(e.message) && /e\.g\. TRUST_PROXY=10\.0\.0\.5/.test(e.message),
        value,
      );
    }
  });

  test('a list of addresses and CIDRs is taken; anything else names the bad entry', () => {
    assert.deepEqual(parse('10.0.0.5, 10.1.0.0/16,::1,fd00::/8'), ['10.0.0.5', '10.1.0.0/16', '::1', 'fd00::/8']);
    assert.deepEqual(parse(''), []);
    assert.deepEqual(parse('false'), []);
    for (const bad of ['10.0.0.5,proxy.local', '10.0.0.0/99', '1.2.3']) {
      assert.throws(
        () => parse(bad),
        (e: unknown) => e instanceof ConfigError && /is not an IP address or CIDR/.test(e.message),
        bad,
      );
    }
  });
});

// The proxy is 127.0.0.1; the portal's guess limiter counts per client address.
suiteOnEachDatabase(
  'client addresses behind a trusted proxy',
  { env: { TRUST_PROXY: '127.0.0.1', PORTAL_UNKNOWN_TOKEN_PER_MINUTE: '3' }, tenant: false },
  ({ server }) => {
    const guess = (headers: Record<string, string>, from = '127.0.0.1') =>
      request(`${server.url}/anonymous/analyse/start/guessxxxxxxxxxxxxxxxxxxx`, { headers, from });

    test('a forged address prepended to X-Forwarded-For is ignored: the proxy-appended one counts', async () => {
      // The client at 10.9.9.9 sends "X-Forwarded-For: 6.6.6.N"; the proxy appends what it saw.
      for (let i = 0; i < 3; i++) assert.equal((await guess({ 'x-forwarded-for': `6.6.6.${i}, 10.9.9.9` })).status, 404);
      assert.equal((await guess({ 'x-forwarded-for': '6.6.6.99, 10.9.9.9' })).status, 429, 'rotating the forged part does not escape the limit');
      assert.equal((await guess({ 'x-forwarded-for': '10.9.9.9' })).status, 429);
      assert.equal((await guess({ 'x-forwarded-for': '6.6.6.0' })).status, 404, 'the forged address was never charged');
      assert.equal((await guess({ 'x-forwarded-for': '10.9.9.8' })).status, 404, 'another client behind the proxy is unaffected');
    });

    test('X-Forwarded-For from a peer that is not a listed proxy is ignored', async () => {
      for (let i = 0; i < 3; i++) assert.equal((await guess({ 'x-forwarded-for': `10.7.7.${i}` }, '127.0.30.1')).status, 404);
      assert.equal((await guess({ 'x-forwarded-for': '10.7.7.200' }, '127.0.30.1')).status, 429, 'counted against the peer itself');
      assert.equal((await guess({ 'x-forwarded-for': '10.7.7.0' })).status, 404, 'nothing was charged to the forged address');
    });
  },
);
