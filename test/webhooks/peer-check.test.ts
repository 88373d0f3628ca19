import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createConnection, type LookupFunction, type NetConnectOpts, type Socket } from 'node:net';
import { after, before } from 'node:test';
import { describe, test } from '../helpers/deadline.js';
import { WebhookClient } from '../../src/webhooks/client.js';
import { Receiver } from '../helpers/receiver.js';

// DNS rebinding at the socket: the name resolves to a public address, the client's lookup vets it,
// and the connection still ends up at a private one. The client checks the connected peer itself;
// these tests make the peer differ from the vetted address through the client's `connect` seam.
const PUBLIC = '93.184.215.14';

describe("the webhook client's connected-peer check", () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await Receiver.start();
  });
  after(() => receiver.close());

  /** What the client's own lookup vetted, connection by connection. */
  const vetted: string[] = [];
  /**
   * Runs the client's lookup (which vets the name's address), then connects to the loopback receiver
   * instead of the vetted address. `reportedPeer` stands in for the peer the socket reports, for the
   * positive control: a peer that is the vetted public address.
   */
  const rebound =
    (reportedPeer?: string) =>
    (options: NetConnectOpts): Socket => {
      const vet = (options as { lookup: LookupFunction }).lookup;
      const lookup: LookupFunction = (hostname, lookupOptions, callback) =>
        vet(hostname, lookupOptions, (err, address) => {
          if (err) return callback(err, '', 0);
          vetted.push(typeof address === 'string' ? address : (address as LookupAddress[])[0]!.address);
          callback(null, lookupOptions.all ? [{ address: '127.0.0.1', family: 4 }] : '127.0.0.1', 4);
        });
      const socket = createConnection({ ...options, lookup } as NetConnectOpts);
      if (reportedPeer) Object.defineProperty(socket, 'remoteAddress', { get: () => reportedPeer });
      return socket;
    };
  const client = (connect: (options: NetConnectOpts) => Socket) =>
    new WebhookClient({
      allowPrivateNetworks: false,
      timeoutMs: 2_000,
      maxResponseBytes: 1024,
      resolver: async () => [{ address: PUBLIC, family: 4 }],
      connect,
    });
  const arrived = (path: string) => receiver.received.filter((r) => r.url === path).length;

  test('a connection whose peer is private, though the name vetted public, is refused before the request is sent', async () => {
    const connectionsBefore = receiver.connections;
    vetted.length = 0;
    const c = client(rebound());
    const attempt = await c.post(`http://rebound.test:${receiver.port}/rebound`, '{}', undefined);
    await c.close();
    assert.deepEqual(vetted, [PUBLIC], 'the lookup vetted the public address');
    assert.equal(attempt.status, null, JSON.stringify(attempt));
    assert.equal(attempt.error, 'refused: the connected peer is not a public address');
    assert.equal(receiver.connections - connectionsBefore, 1, 'the socket reached the receiver: the refusal is the peer check, not a failed connect');

    // Positive control, the same seam: the peer reports the vetted public address, and the request goes through.
    vetted.length = 0;
    const agreeing = client(rebound(PUBLIC));
    const control = await agreeing.post(`http://rebound.test:${receiver.port}/agreeing`, '{}', undefined);
    await agreeing.close();
    assert.deepEqual(vetted, [PUBLIC]);
    assert.equal(control.status, 204, JSON.stringify(control));
    // The control's request has arrived, after the refused connection closed: that one sent none.
    assert.equal(arrived('/agreeing'), 1);
    assert.equal(arrived('/rebound'), 0);
  });
});
