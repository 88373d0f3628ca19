import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import type { Store } from '../../src/db/database.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, candidate, errorCode, uniqueId } from '../helpers/http.js';
import { address } from '../helpers/smtp-sink.js';

const ASSESSMENT = '/api/anonymous/assessment';

// One invitation an hour per address: the second is the mail cap's 429, a passing state of the server.
suiteOnEachDatabase('Idempotency-Key: a 429 keeps nothing', { smtp: true, env: { MAIL_PER_RECIPIENT_PER_HOUR: '1' } }, ({ server, creds }) => {
  let store: Store;
  let api: ReturnType<typeof apiClient>;
  before(() => {
    store = server.running.deps.store;
    api = apiClient(server.url, creds);
  });

  const keyRowsOf = async (externalId: string) =>
    (await store.db.selectFrom('idempotency_keys').select('key_hash').where('external_id', '=', externalId).execute()).length;
  const invite = async (email: string, key: string) => {
    const body = candidate({ Email: email });
    assert.equal((await api.createCandidate(body)).status, 201);
    const request = { ExternalId: body.ExternalId, AssessmentType: 0, SendInvitation: true };
    return { externalId: String(body.ExternalId), request, reply: await api.post(ASSESSMENT, request, { 'idempotency-key': key }) };
  };

  test('the 201 is kept; the capped 429 releases its key, so the retry runs again instead of replaying it', async () => {
    const to = address();
    const first = await invite(to, uniqueId('idem'));
    assert.equal(first.reply.status, 201, first.reply.text);
    assert.equal(await keyRowsOf(first.externalId), 1);

    const key = uniqueId('idem');
    const capped = await invite(to, key);
    assert.equal(capped.reply.status, 429, capped.reply.text);
    assert.equal(errorCode(capped.reply), 'TooManyRequests');
    assert.equal(await keyRowsOf(capped.externalId), 0);
    const retry = await api.post(ASSESSMENT, capped.request, { 'idempotency-key': key });
    assert.equal(retry.status, 429);
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    assert.equal(await keyRowsOf(capped.externalId), 0);
  });
});
