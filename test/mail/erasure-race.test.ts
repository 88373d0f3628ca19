import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { onlyOn } from '../helpers/databases.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { apiClient } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';
import { address, type SmtpSink } from '../helpers/smtp-sink.js';
import type { TestServer } from '../helpers/server.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

const GREETING_DELAY_MS = 4_000;

/**
 * Invites a candidate while the relay is slow to greet, waits until the sender has connected, and
 * erases the candidate (through `eraseOn`) while the greeting is still on its way. Then, with the
 * relay quick again, a control invitation to someone else; once it has arrived and the sender is
 * quiet, the erased candidate's address has reached neither a message nor the envelope.
 */
async function eraseWhileRelayGreets(sender: TestServer, eraseOn: TestServer, creds: Parameters<typeof newAssessment>[1], sink: SmtpSink): Promise<void> {
  sink.greetingDelayMs = GREETING_DELAY_MS;
  const erased = address();
  const connected = sink.connections;
  const a = await newAssessment(sender.url, creds, { SendInvitation: true }, { Email: erased });
  await eventually(async () => (sink.connections > connected ? true : undefined), 10_000, 'the sender connecting to the relay');
  const deleted = await apiClient(eraseOn.url, creds).delete(`/api/anonymous/candidate/${encodeURIComponent(a.externalId)}`);
  assert.equal(deleted.status, 200, deleted.text);
  sink.greetingDelayMs = 0;
  const control = address();
  await newAssessment(sender.url, creds, { SendInvitation: true }, { Email: control });
  const [m] = await eventually(async () => (sink.to(control).length > 0 ? sink.to(control) : undefined), 20_000, 'the control invitation');
  assert.deepEqual(m!.rcptTo, [control]);
  await dispatcherQuiet(sender.running.deps.mail, 20_000);
  assert.equal(sink.to(erased).length, 0, 'no message to the erased candidate after the DELETE returned');
  assert.ok(!sink.rcptTo.includes(erased), 'the erased address never reached the envelope');
}

suiteOnEachDatabase('mail and erasure racing a slow relay', { smtp: true, tenant: false }, ({ db, server, sink, another }) => {
  let two: TestServer;
  before(async () => {
    // PostgreSQL: a second instance without mail, on the same database, that only erases.
    if (db === 'postgres') two = await another({}, { reuse: { dataDir: server.dataDir, databaseUrl: server.databaseUrl } });
  });

  test(`an erasure while the relay takes ${GREETING_DELAY_MS / 1000} s to greet: nothing reaches the erased address after the DELETE`, async () => {
    await eraseWhileRelayGreets(server, server, await server.tenant(), sink);
  });

  test('the same with the DELETE answered by another instance: the sender finds the row gone before the envelope', onlyOn('postgres', db), async () => {
    await eraseWhileRelayGreets(server, two, await server.tenant(), sink);
  });
});
