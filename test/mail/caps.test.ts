import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { onlyOn } from '../helpers/databases.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { apiClient, candidate, errorCode, type Credentials, type Reply } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';
import { address, mailEnv } from '../helpers/smtp-sink.js';
import { dispatcherQuiet } from '../helpers/ticks.js';
import type { TestServer } from '../helpers/server.js';

const PER_RECIPIENT = 3;
const PER_TENANT = 6;
const env = { MAIL_PER_RECIPIENT_PER_HOUR: String(PER_RECIPIENT), MAIL_PER_TENANT_PER_MINUTE: String(PER_TENANT) };

/** A 429 in the spec's envelope, with Retry-After within the cap's window and the same in innererror. */
function assertCapped(r: Reply, limit: string, windowSeconds: number): void {
  assert.equal(r.status, 429, r.text);
  assert.equal(errorCode(r), 'TooManyRequests');
  assert.equal(r.body.error.innererror.limit, limit);
  const retry = Number(r.headers.get('retry-after'));
  assert.ok(retry >= 1 && retry <= windowSeconds, `Retry-After ${retry}`);
  assert.equal(r.body.error.innererror.retryAfterSeconds, retry);
}

/** Creates a candidate, then asks for an assessment with an invitation: the second reply. */
async function invite(url: string, creds: Credentials, email: string): Promise<{ reply: Reply; externalId: string }> {
  const api = apiClient(url, creds);
  const body = candidate({ Email: email });
  assert.equal((await api.createCandidate(body)).status, 201);
  return { reply: await api.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 0, SendInvitation: true }), externalId: String(body.ExternalId) };
}

suiteOnEachDatabase('mail caps: per recipient an hour, per tenant a minute', { smtp: true, tenant: false, env }, ({ db, server, sink, another }) => {
  let two: TestServer;
  before(async () => {
    // PostgreSQL: a second instance on the same database, for the caps across instances.
    if (db === 'postgres') two = await another(mailEnv(sink, env), { reuse: { dataDir: server.dataDir, databaseUrl: server.databaseUrl } });
  });

  test(`${PER_RECIPIENT} invitations to one address (in any case) are 201, the next 429 and creates nothing; the resend is capped too`, async () => {
    const creds = await server.tenant();
    const to = address();
    const first = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: to });
    for (const email of [to, to.toUpperCase()]) assert.equal((await invite(server.url, creds, email)).reply.status, 201);
    const over = await invite(server.url, creds, to);
    assertCapped(over.reply, 'mailPerRecipient', 3600);
    const api = apiClient(server.url, creds);
    const refused = await api.get(`/api/anonymous/candidate/${encodeURIComponent(over.externalId)}`);
    assert.equal(refused.status, 200);
    assert.deepEqual(refused.body.Data.Assessments, [], 'no assessment was created for the refused request');
    // A positive control: another address of the same tenant still gets its invitation.
    const other = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: address() });
    await eventually(async () => ((await first.api.get(`/api/anonymous/assessment/${first.id}/emails`)).body.Data[0]?.Status === 'Sent' ? true : undefined));
    await eventually(async () => ((await other.api.get(`/api/anonymous/assessment/${other.id}/emails`)).body.Data[0]?.Status === 'Sent' ? true : undefined));
    assertCapped(await api.post(`/api/anonymous/assessment/${first.id}/invitation`, undefined), 'mailPerRecipient', 3600);
    assert.equal((await api.post(`/api/anonymous/assessment/${other.id}/invitation`, undefined)).status, 202);
    const toAddress = () => sink.caught.filter((c) => c.rcptTo.some((r) => r.toLowerCase() === to)).length;
    await eventually(async () => (toAddress() >= PER_RECIPIENT ? true : undefined), 15_000, 'the messages the 201s queued');
    await dispatcherQuiet(server.running.deps.mail);
    assert.equal(toAddress(), PER_RECIPIENT, 'the messages the 201s queued, and no more');
  });

  test(`${PER_TENANT} invitations of one tenant in a minute are 201, the next 429; another tenant's at the same time is 201`, async () => {
    const creds = await server.tenant();
    for (let i = 0; i < PER_TENANT; i++) assert.equal((await invite(server.url, creds, address())).reply.status, 201, `invitation ${i + 1}`);
    assertCapped((await invite(server.url, creds, address())).reply, 'mailPerTenant', 60);
    assert.equal((await invite(server.url, await server.tenant(), address())).reply.status, 201, "another tenant's is not counted");
    // Without an invitation, creation is not capped.
    const api = apiClient(server.url, creds);
    const plain = candidate({ Email: address() });
    assert.equal((await api.createCandidate(plain)).status, 201);
    assert.equal((await api.createAssessment({ ExternalId: plain.ExternalId, AssessmentType: 0, SendInvitation: false })).status, 201);
  });

  test(`10 invitations to one address at once${db === 'postgres' ? ' over two instances' : ''}: exactly ${PER_RECIPIENT} are 201`, async () => {
    const creds = await server.tenant();
    const to = address();
    const urls = db === 'postgres' ? [server.url, two.url] : [server.url];
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => invite(urls[i % urls.length]!, creds, to)));
    const statuses = replies.map((r) => r.reply.status).sort();
    assert.deepEqual(statuses, [...Array(PER_RECIPIENT).fill(201), ...Array(10 - PER_RECIPIENT).fill(429)]);
    for (const r of replies.filter((x) => x.reply.status === 429)) assertCapped(r.reply, 'mailPerRecipient', 3600);
  });

  test('a second instance on the same database answers with the same caps', onlyOn('postgres', db), async () => {
    const creds = await server.tenant();
    const to = address();
    for (let i = 0; i < PER_RECIPIENT; i++) assert.equal((await invite(server.url, creds, to)).reply.status, 201);
    assertCapped((await invite(two.url, creds, to)).reply, 'mailPerRecipient', 3600);
  });
});
