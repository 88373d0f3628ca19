import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';
import { WebhookClient } from '../../src/webhooks/client.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { eventually } from '../helpers/receiver.js';

// A self-signed certificate for localhost and 127.0.0.1, valid until 2126, made for these tests only.
const TLS_DIR = join(ROOT, 'test', 'webhooks', 'tls');
const CERT = join(TLS_DIR, 'localhost-cert.pem');

// The client is the same on either database; the server's process needs one, so the first.
// A process of its own: Node reads NODE_EXTRA_CA_CERTS, how an operator trusts a private CA, at start.
suiteOnEachDatabase(
  'webhooks over HTTPS',
  { on: 'first', process: true, env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', NODE_EXTRA_CA_CERTS: CERT } },
  ({ serverProcess: server, creds }) => {
    let receiver: Server;
    let port: number;
    const received: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];
    before(async () => {
      receiver = createServer({ key: readFileSync(join(TLS_DIR, 'localhost-key.pem')), cert: readFileSync(CERT) }, (req, res) => {
        let body = '';
        req.on('data', (d: Buffer) => (body += d));
        req.on('end', () => {
          received.push({ url: req.url ?? '', headers: req.headers, body });
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      port = (receiver.address() as AddressInfo).port;
    });
    after(async () => {
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    });

    test('a receiver whose certificate the server trusts gets the POST, and the attempt is recorded delivered', async () => {
      const a = await newAssessment(server.url, creds, {
        WebhookUrl: `https://localhost:${port}/hooks/tls`,
        WebhookUsername: 'ats',
        WebhookPassword: 'secret',
      });
      await completeViaForms(new FormClient(server.url), a.id);
      const status = await eventually(async () => {
        const res = await a.api.get(`/api/anonymous/assessment/${a.id}`);
        return res.body.Data.Webhook?.Status === 'Delivered' || res.body.Data.Webhook?.Status === 'Failed' ? res.body.Data.Webhook : undefined;
      });
      assert.equal(status.Status, 'Delivered', JSON.stringify(status));
      assert.equal(status.ResponseStatus, 204);
      const hit = received.find((r) => r.url === '/hooks/tls');
      assert.ok(hit, 'the receiver got the POST');
      assert.equal(hit.body, JSON.stringify({ Analysis_Id: a.id, External_Id: a.externalId }));
      assert.equal(hit.headers.authorization, `Basic ${Buffer.from('ats:secret').toString('base64')}`);
    });

    test('a receiver whose certificate is not trusted gets nothing: one failed attempt naming the certificate', async () => {
      const before = received.length;
      const client = new WebhookClient({ allowPrivateNetworks: true, timeoutMs: 5_000, maxResponseBytes: 1024 });
      try {
        const attempt = await client.post(`https://localhost:${port}/untrusted`, '{}', undefined);
        assert.equal(attempt.status, null);
        assert.match(attempt.error ?? '', /self-signed certificate/);
      } finally {
        await client.close();
      }
      assert.equal(received.length, before, 'no request reached the receiver');
    });
  },
);
