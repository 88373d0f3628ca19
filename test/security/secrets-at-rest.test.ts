import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { provisionUser } from '../../src/tenancy/provision.js';
import { newAssessment } from '../helpers/fixtures.js';
import { scanFiles } from '../helpers/files.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';

/** Every place a secret could hide in the bytes: UTF-8, UTF-16 and base64. */
function encodings(secret: string): Buffer[] {
  return [Buffer.from(secret, 'utf8'), Buffer.from(secret, 'utf16le'), Buffer.from(Buffer.from(secret).toString('base64'))];
}

suiteOnEachDatabase('secrets at rest', { on: 'sqlite', env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', LOG_LEVEL: 'silent' } }, ({ server, creds }) => {
  test('no tenant password, API key or webhook password in the data directory, WAL included', async () => {
    const extra = await provisionUser(server.running.deps.store, creds.tenantId, 'second-user');
    const webhookPassword = 'wh-P4ssw0rd-' + 'Zx9q'.repeat(4);
    const a = await newAssessment(server.url, creds, { WebhookUrl: 'http://127.0.0.1:9/x', WebhookUsername: 'ats', WebhookPassword: webhookPassword });
    await completeViaForms(new FormClient(server.url), a.id);
    const secrets = { password: creds.password, apiKey: creds.apiKey, secondPassword: extra.password, webhookPassword };

    const names = Object.keys(secrets);
    const forms = Object.values(secrets).map(encodings);
    // Positive control: stored in the clear, so a scan that reads the bytes finds them.
    const stored = [Buffer.from(a.id), Buffer.from(creds.apiKeyId)];
    const scan = (when: string) => {
      const all = scanFiles(server.dataDir, [...forms.flat(), ...stored]).filter(({ file }) => !file.endsWith('secret.key'));
      const files = all.map(({ file, counts }) => ({ file, counts: counts.slice(0, -stored.length) }));
      stored.forEach((needle, i) =>
        assert.ok(
          all.some(({ counts }) => counts[counts.length - stored.length + i]! > 0),
          `${when}: the scan finds ${needle}`,
        ),
      );
      assert.ok(files.some(({ file }) => file.endsWith('.db-wal')) || when === 'after stop', `${when}: the WAL is among the scanned files`);
      for (const { file, counts } of files) {
        counts.forEach((n, i) => assert.equal(n, 0, `${when}: ${names[Math.floor(i / 3)]} found in ${file}`));
      }
      return files.length;
    };
    assert.ok(scan('while running') >= 2);
    await server.stop(true);
    scan('after stop');
  });
});
