import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { findDelivery } from '../../src/store/outbox.js';
import { testDatabases } from '../helpers/databases.js';
import { newAssessment } from '../helpers/fixtures.js';
import { apiClient } from '../helpers/http.js';
import { Receiver, eventually } from '../helpers/receiver.js';
import { startServer, type TestServer } from '../helpers/server.js';

for (const db of testDatabases()) {
  describe(`a delivery claimed before a crash is never sent again [${db}]`, () => {
    const receivers: Receiver[] = [];
    let server: TestServer | undefined;
    after(async () => {
      await server?.stop();
      for (const r of receivers) await r.close();
    });

    test('after a restart it is marked Unknown and the receiver gets nothing', async () => {
      const receiver = await Receiver.start();
      receivers.push(receiver);
      const env = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '100' };
      const first = await startServer(db, env);
      const creds = await first.tenant();
      const a = await newAssessment(first.url, creds, { WebhookUrl: receiver.url() });
      // What a crash mid-attempt leaves behind: Completed, and the row claimed by a dead process.
      const claimedAt = new Date(Date.now() - 5 * 60_000).toISOString();
      await first.running.deps.store.write(async (trx) => {
        await trx.updateTable('assessments').set({ status: 'Completed', completed_at: claimedAt }).where('analysis_id', '=', a.id).execute();
        await trx
          .insertInto('webhook_deliveries')
          .values({ analysis_id: a.id, status: 'sending', created_at: claimedAt, claimed_at: claimedAt, claimed_by: 'crashed-process', attempted_at: null, duration_ms: null, response_status: null, error: null })
          .execute();
      });
      await first.stop(true);

      server = await startServer(db, env, { reuse: first });
      const row = await eventually(async () => {
        const d = await findDelivery(server!.running.deps.store, a.id);
        return d?.status === 'unknown' ? d : undefined;
      });
      assert.match(row.error ?? '', /outcome is unknown/);
      const api = apiClient(server.url, creds);
      const status = await api.get(`/api/anonymous/assessment/${a.id}`);
      assert.equal(status.body.Data.Webhook.Status, 'Unknown');
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(receiver.received.length, 0);
    });
  });
}
