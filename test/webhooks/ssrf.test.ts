import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { after, before } from 'node:test';
import { describe, test } from '../helpers/deadline.js';
import { HOST_NOT_USABLE, WebhookClient } from '../../src/webhooks/client.js';
import type { Resolver } from '../../src/webhooks/dns.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { eventually, Receiver } from '../helpers/receiver.js';

const RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1', '127.8.9.10', '::1'],
  'RFC 1918': ['10.0.0.1', '172.16.0.1', '192.168.1.1'],
  'link-local and cloud metadata': ['169.254.169.254', '169.254.0.1', 'fe80::1'],
  CGNAT: ['100.64.0.1'],
  multicast: ['224.0.0.251', 'ff02::fb'],
  reserved: ['0.0.0.0', '240.0.0.1', '255.255.255.255', '192.0.2.10', '2001:db8::1'],
  'IPv6 ULA': ['fd00::1', 'fc00::1'],
  'IPv4-mapped IPv6': ['::ffff:127.0.0.1', '::ffff:10.0.0.1'],
  NAT64: ['64:ff9b::7f00:1', '64:ff9b::a00:1'],
  'IPv4-compatible IPv6': ['::127.0.0.1', '::7f00:1', '::a9fe:a9fe'],
};

const fixed =
  (addresses: string[]): Resolver =>
  async () =>
    addresses.map((address): LookupAddress => ({ address, family: isIP(address) }));

describe('the guarded webhook client', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await Receiver.start();
  });
  after(() => receiver.close());

  const client = (resolver: Resolver, allowPrivateNetworks = false) =>
    new WebhookClient({ allowPrivateNetworks, timeoutMs: 2_000, maxResponseBytes: 1024, resolver });
  /** Requests that reached the receiver's /hook; the positive controls go to /control. */
  const hooked = () => receiver.received.filter((r) => r.url === '/hook').length;
  /** Positive control: the same post with private networks allowed reaches the receiver, and the receiver counts it. */
  const controlReaches = async (resolver: Resolver, host: string) => {
    const before = receiver.received.length;
    const c = client(resolver, true);
    const attempt = await c.post(`http://${host}:${receiver.port}/control`, '{}', undefined);
    await c.close();
    assert.equal(attempt.status, 204, `positive control: ${JSON.stringify(attempt)}`);
    assert.equal(receiver.received.length, before + 1, 'positive control: the receiver counted the request');
  };

  test('refuses a name that resolves into any special-purpose range, without connecting', async () => {
    for (const [range, addresses] of Object.entries(RANGES)) {
      for (const address of addresses) {
        const c = client(fixed([address]));
        const attempt = await c.post(`http://victim.test:${receiver.port}/hook`, '{}', undefined);
        await c.close();
        assert.equal(attempt.status, null, `${range} ${address}`);
        assert.equal(attempt.error, HOST_NOT_USABLE, `${range} ${address}`);
        assert.match(attempt.detail ?? '', /^refused: victim\.test resolves to a non-public address/, `${range} ${address}`);
        assert.ok(!`${attempt.error} ${attempt.detail}`.includes(address), `the reason leaves out the internal address ${address}`);
      }
    }
    assert.equal(hooked(), 0);
    await controlReaches(fixed(['127.0.0.1']), 'victim.test');
  });

  test('refuses when any one of several resolved addresses is private', async () => {
    const c = client(fixed(['93.184.215.14', '127.0.0.1']));
    const attempt = await c.post(`http://mixed.test:${receiver.port}/hook`, '{}', undefined);
    await c.close();
    assert.equal(attempt.error, HOST_NOT_USABLE);
    assert.match(attempt.detail ?? '', /^refused/);
    assert.equal(hooked(), 0);
    await controlReaches(fixed(['127.0.0.1']), 'mixed.test');
  });

  test('refuses literal addresses in every range', async () => {
    const c = client(fixed([]));
    for (const addresses of Object.values(RANGES)) {
      for (const address of addresses) {
        const host = address.includes(':') ? `[${address}]` : address;
        const attempt = await c.post(`http://${host}:${receiver.port}/hook`, '{}', undefined);
        assert.match(attempt.error ?? '', /^refused/, address);
      }
    }
    await c.close();
    assert.equal(hooked(), 0);
    await controlReaches(fixed([]), '127.0.0.1');
  });

  test('connects to the address it vetted: one resolution, pinned, whatever the system DNS says', async () => {
    let lookups = 0;
    const c = client(async () => {
      lookups++;
      return [{ address: '127.0.0.1', family: 4 }];
    }, true);
    const attempt = await c.post(`http://pinned.test:${receiver.port}/pinned`, '{"a":1}', undefined);
    await c.close();
    assert.equal(attempt.status, 204, attempt.error ?? '');
    assert.equal(lookups, 1);
    const hit = receiver.received.find((r) => r.url === '/pinned');
    assert.equal(hit?.headers.host, `pinned.test:${receiver.port}`);
  });

  test('deliveries over one kept connection add nothing to it each time', async () => {
    const c = client(fixed(['127.0.0.1']), true);
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const before = receiver.connections;
      for (let i = 0; i < 20; i++) assert.equal((await c.post(receiver.url('/kept'), '{}', undefined)).status, 204);
      // Warnings are emitted on a later tick.
      await new Promise((r) => setImmediate(r));
      assert.equal(receiver.connections - before, 1, 'the twenty went over one connection');
      assert.deepEqual(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map(String), []);
    } finally {
      process.off('warning', onWarning);
      await c.close();
    }
  });

  test('an unresolvable name is one failed attempt', async () => {
    const c = client(async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    });
    const attempt = await c.post('http://nowhere.test/hook', '{}', undefined);
    await c.close();
    assert.equal(attempt.error, HOST_NOT_USABLE, 'for the tenant, as a name that resolves inside the network');
    assert.equal(attempt.detail, 'host not found (ENOTFOUND)');
  });
});

const dns: Record<string, string> = { 'internal.test': '10.1.2.3', 'loopback.test': '127.0.0.1', 'metadata.test': '169.254.169.254' };
const resolver: Resolver = async (host) => (dns[host] ? [{ address: dns[host]!, family: 4 }] : []);
suiteOnEachDatabase(
  'SSRF through the whole flow',
  { env: { WEBHOOK_POLL_INTERVAL_MS: '100' }, serverOptions: { resolver }, tenant: false, receiver: true },
  ({ server, receiver, another }) => {
    test('a webhook name resolving to a private address is refused at delivery, recorded as an unknown name would be', async () => {
      const creds = await server.tenant();
      for (const host of ['internal.test', 'loopback.test', 'metadata.test', 'unknown.test']) {
        const a = await newAssessment(server.url, creds, { WebhookUrl: `http://${host}:${receiver.port}/hook` });
        await completeViaForms(new FormClient(server.url), a.id);
        const w = await eventually(async () => {
          const hook = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.Webhook;
          return hook.Status === 'Failed' ? hook : undefined;
        });
        assert.equal(w.Error, HOST_NOT_USABLE, host);
        assert.ok(!/\d+\.\d+\.\d+\.\d+/.test(w.Error), `the recorded reason leaves out the resolved address: ${w.Error}`);
      }
      assert.equal(receiver.received.length, 0);
      // Positive control: with private networks allowed, the same flow reaches the receiver, and it counts the POST.
      const open = await another({ WEBHOOK_POLL_INTERVAL_MS: '100', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { resolver });
      const control = await newAssessment(open.url, await open.tenant(), { WebhookUrl: `http://loopback.test:${receiver.port}/hook` });
      await completeViaForms(new FormClient(open.url), control.id);
      assert.equal((await receiver.waitFor(1)).length, 1);
    });
  },
);
