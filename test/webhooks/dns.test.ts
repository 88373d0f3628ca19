import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { after, before } from 'node:test';
import { describe, test } from '../helpers/deadline.js';
import { HOST_NOT_USABLE, WebhookClient } from '../../src/webhooks/client.js';
import { dnsResolver, HostNotFound } from '../../src/webhooks/dns.js';
import { startDnsServer } from '../helpers/dns-server.js';
import { Receiver } from '../helpers/receiver.js';

describe('webhook host names, resolved by DNS queries of their own', () => {
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  before(async () => {
    dns = await startDnsServer({ 'ats.test': '127.0.0.1' }, ['silent.test']);
  });
  after(() => dns.close());

  test('a name resolves to its address, an unknown name is not found, localhost is loopback without a query', async () => {
    const resolve = dnsResolver({ servers: [dns.server] });
    assert.deepEqual(await resolve('ats.test'), [{ address: '127.0.0.1', family: 4 }]);
    await assert.rejects(resolve('nobody.test'), (e: unknown) => e instanceof HostNotFound && e.code === 'ENOTFOUND');
    const asked = dns.questions.length;
    assert.deepEqual(
      (await resolve('api.localhost')).map((a) => a.address),
      ['127.0.0.1', '::1'],
    );
    assert.equal(dns.questions.length, asked);
  });

  test('names whose server never answers hold up no other name, and each fails at its own deadline', async () => {
    const resolve = dnsResolver({ servers: [dns.server], timeoutMs: 1_000, tries: 1 });
    let unanswered = 0;
    const started = Date.now();
    const hung = Array.from({ length: 64 }, (_, i) =>
      resolve(`h${i}.silent.test`).then(
        () => assert.fail('a silent name resolved'),
        (e: unknown) => {
          unanswered++;
          return e;
        },
      ),
    );
    assert.deepEqual(await resolve('ats.test'), [{ address: '127.0.0.1', family: 4 }]);
    assert.equal(unanswered, 0, 'the answered name came back while the 64 others were still waiting');
    for (const e of await Promise.all(hung)) assert.ok(e instanceof HostNotFound && e.code === 'ETIMEOUT', String(e));
    // One after another they would take 64 s; a busy machine's slowness is far less than that.
    assert.ok(Date.now() - started < 20_000, `the 64 ended at their deadline, not one after another: ${Date.now() - started} ms`);
  });

  test('a webhook to a name the resolver finds is delivered; to a silent one it is one failed attempt naming the host as not found', async () => {
    const receiver = await Receiver.start();
    const client = new WebhookClient({
      allowPrivateNetworks: true,
      timeoutMs: 5_000,
      maxResponseBytes: 1024,
      resolver: dnsResolver({ servers: [dns.server], timeoutMs: 500, tries: 1 }),
    });
    try {
      const delivered = await client.post(`http://ats.test:${receiver.port}/hook`, '{}', undefined);
      assert.equal(delivered.status, 204, delivered.error ?? '');
      assert.deepEqual(
        receiver.received.map((r) => r.url),
        ['/hook'],
      );
      const silent = await client.post(`http://x.silent.test:${receiver.port}/hook`, '{}', undefined);
      assert.equal(silent.status, null);
      assert.equal(silent.error, HOST_NOT_USABLE);
      assert.equal(silent.detail, 'host not found (ETIMEOUT)');
    } finally {
      await client.close();
      await receiver.close();
    }
  });
  test('a name whose DNS server cannot be reached reads as a name not found, not as a refused connection', async () => {
    // A UDP port nobody listens on: the query meets ICMP port unreachable, which c-ares reports as ECONNREFUSED.
    const probe = createSocket('udp4');
    await new Promise<void>((resolve) => probe.bind(0, '127.0.0.1', resolve));
    const port = probe.address().port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const client = new WebhookClient({
      allowPrivateNetworks: true,
      timeoutMs: 5_000,
      maxResponseBytes: 1024,
      resolver: dnsResolver({ servers: [`127.0.0.1:${port}`], timeoutMs: 500, tries: 1 }),
    });
    try {
      const attempt = await client.post('http://ats.test/hook', '{}', undefined);
      assert.equal(attempt.status, null);
      assert.equal(attempt.error, HOST_NOT_USABLE);
      assert.equal(attempt.detail, 'host not found (ECONNREFUSED)');
    } finally {
      await client.close();
    }
  });
});
