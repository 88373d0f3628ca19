import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import type { Store } from '../../src/db/database.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, candidate, errorCode, uniqueId, type Reply } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';

const ASSESSMENT = '/api/anonymous/assessment';
const CANDIDATE = '/api/anonymous/candidate';
const HOUR = 3600_000;

// The retention sweep, which also removes expired keys, runs every second here.
suiteOnEachDatabase('Idempotency-Key on the creates', { env: { RETENTION_SWEEP_INTERVAL_MS: '1000' } }, ({ server, creds }) => {
  let store: Store;
  let api: ReturnType<typeof apiClient>;
  before(() => {
    store = server.running.deps.store;
    api = apiClient(server.url, creds);
  });

  const post = (path: string, body: unknown, key?: string): Promise<Reply> => api.post(path, body, key === undefined ? {} : { 'idempotency-key': key });
  const assessmentsOf = async (externalId: string) =>
    (await store.db.selectFrom('assessments').select('analysis_id').where('external_id', '=', externalId).execute()).length;
  /** A candidate of the suite's tenant, made without a key, and an assessment request for them. */
  const newCandidate = async () => {
    const body = candidate();
    assert.equal((await api.createCandidate(body)).status, 201);
    return { externalId: String(body.ExternalId), assessment: { ExternalId: body.ExternalId, AssessmentType: 0 } };
  };
  /** Moves the stored key's times, as a stopped clock or a crashed instance would leave them. */
  const setKeyRow = (externalId: string, values: { created_at?: string; lease_until?: string; response_status?: null; response_body?: null }) =>
    store.write((trx) => trx.updateTable('idempotency_keys').set(values).where('external_id', '=', externalId).execute());

  test('a repeat with the same key and body returns the first 201 and body and creates nothing; a create without the key still does', async () => {
    const { externalId, assessment } = await newCandidate();
    const key = uniqueId('idem');
    const first = await post(ASSESSMENT, assessment, key);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    for (let i = 0; i < 2; i++) {
      const again = await post(ASSESSMENT, assessment, key);
      assert.equal(again.status, 201);
      assert.equal(again.text, first.text);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.match(again.headers.get('content-type') ?? '', /^application\/json/);
    }
    assert.equal(await assessmentsOf(externalId), 1);
    // Positive control: the count sees a second assessment when one is made.
    assert.equal((await post(ASSESSMENT, assessment)).status, 201);
    assert.equal(await assessmentsOf(externalId), 2);
  });

  test('without the header two identical creates make two assessments', async () => {
    const { externalId, assessment } = await newCandidate();
    const [a, b] = [await post(ASSESSMENT, assessment), await post(ASSESSMENT, assessment)];
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.notEqual(a.body.Data.AnalysisId, b.body.Data.AnalysisId);
    assert.equal(await assessmentsOf(externalId), 2);
  });

  test('a candidate create repeated with its key gets the first 201, not ExternalIdAlreadyExists; without the key it gets the 400', async () => {
    const body = candidate();
    const key = uniqueId('idem');
    const first = await post(CANDIDATE, body, key);
    assert.equal(first.status, 201, first.text);
    const again = await post(CANDIDATE, body, key);
    assert.equal(again.status, 201);
    assert.equal(again.text, first.text);
    const bare = await post(CANDIDATE, body);
    assert.equal(bare.status, 400);
    assert.equal(errorCode(bare), 'ExternalIdAlreadyExists');
  });

  test('the same key with another body, or on the other create, is 422 IdempotencyKeyReused and creates nothing', async () => {
    const { externalId, assessment } = await newCandidate();
    const key = uniqueId('idem');
    assert.equal((await post(ASSESSMENT, assessment, key)).status, 201);
    for (const [path, body] of [
      [ASSESSMENT, { ...assessment, AssessmentType: 1 }],
      [ASSESSMENT, { ...assessment, ReturnUrl: 'https://ats.example.com/back' }],
      [CANDIDATE, candidate()],
    ] as const) {
      const res = await post(path, body, key);
      assert.equal(res.status, 422, res.text);
      assert.equal(errorCode(res), 'IdempotencyKeyReused');
      assert.equal(res.body.error.innererror.field, 'Idempotency-Key');
    }
    assert.equal(await assessmentsOf(externalId), 1);
    // The same bytes are still the first request: replayed.
    assert.equal((await post(ASSESSMENT, assessment, key)).headers.get('idempotent-replayed'), 'true');
  });

  test("a rule's 400 is replayed as it was; a body that fails validation claims nothing", async () => {
    const key = uniqueId('idem');
    const missing = { ExternalId: uniqueId('nobody'), AssessmentType: 0 };
    const first = await post(ASSESSMENT, missing, key);
    assert.equal(first.status, 400);
    assert.equal(errorCode(first), 'NoCandidateFound');
    const again = await post(ASSESSMENT, missing, key);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');

    const other = uniqueId('idem');
    const invalid = await post(CANDIDATE, candidate({ FirstName: 'A' }), other);
    assert.equal(errorCode(invalid), 'ValidationError');
    const valid = await post(CANDIDATE, candidate(), other);
    assert.equal(valid.status, 201, valid.text);
  });

  test('a key that is empty, longer than 255 characters or not printable ASCII is a 400 naming the header; 255 printable characters pass', async () => {
    const { assessment } = await newCandidate();
    for (const key of ['', 'k'.repeat(256), 'clé-1', 'tab\there']) {
      const res = await post(ASSESSMENT, assessment, key);
      assert.equal(res.status, 400, `${JSON.stringify(key)}: ${res.text}`);
      assert.equal(errorCode(res), 'ValidationError');
      assert.equal(res.body.error.innererror.field, 'Idempotency-Key');
      assert.match(res.body.error.message, /^Idempotency-Key must be 1 to 255 printable ASCII characters/);
    }
    const longest = ' !~' + 'x'.repeat(250) + '#z';
    assert.equal(longest.length, 255);
    assert.equal((await post(ASSESSMENT, assessment, longest)).status, 201);
  });

  test('a key in flight answers 409 with Retry-After; once its lease lapses (a crashed instance) the next request takes it over', async () => {
    const { externalId, assessment } = await newCandidate();
    const key = uniqueId('idem');
    assert.equal((await post(ASSESSMENT, assessment, key)).status, 201);
    // Back in flight, as an instance leaves it between its claim and its response.
    await setKeyRow(externalId, { response_status: null, response_body: null, lease_until: new Date(Date.now() + 60_000).toISOString() });
    const busy = await post(ASSESSMENT, assessment, key);
    assert.equal(busy.status, 409, busy.text);
    assert.equal(errorCode(busy), 'IdempotencyKeyInUse');
    assert.equal(busy.headers.get('retry-after'), '1');
    assert.equal(await assessmentsOf(externalId), 1);

    await setKeyRow(externalId, { lease_until: new Date(Date.now() - 1000).toISOString() });
    const taken = await post(ASSESSMENT, assessment, key);
    assert.equal(taken.status, 201, taken.text);
    assert.equal(taken.headers.get('idempotent-replayed'), null);
    assert.equal(await assessmentsOf(externalId), 2);
    assert.equal((await post(ASSESSMENT, assessment, key)).text, taken.text);
  });

  test('a key is replayed for 24 hours: at 23 hours it is, past 24 the same request creates again', async () => {
    const { externalId, assessment } = await newCandidate();
    const key = uniqueId('idem');
    const first = await post(ASSESSMENT, assessment, key);
    await setKeyRow(externalId, { created_at: new Date(Date.now() - 23 * HOUR).toISOString() });
    assert.equal((await post(ASSESSMENT, assessment, key)).text, first.text);
    assert.equal(await assessmentsOf(externalId), 1);
    await setKeyRow(externalId, { created_at: new Date(Date.now() - 24 * HOUR - 60_000).toISOString() });
    const later = await post(ASSESSMENT, assessment, key);
    assert.equal(later.status, 201);
    assert.notEqual(later.text, first.text);
    assert.equal(await assessmentsOf(externalId), 2);
  });

  test('the retention sweep removes keys past 24 hours and keeps younger ones', async () => {
    const old = await newCandidate();
    const young = await newCandidate();
    assert.equal((await post(ASSESSMENT, old.assessment, uniqueId('idem'))).status, 201);
    assert.equal((await post(ASSESSMENT, young.assessment, uniqueId('idem'))).status, 201);
    await setKeyRow(old.externalId, { created_at: new Date(Date.now() - 25 * HOUR).toISOString() });
    await setKeyRow(young.externalId, { created_at: new Date(Date.now() - 23 * HOUR).toISOString() });
    const keyRows = async (externalId: string) =>
      (await store.db.selectFrom('idempotency_keys').select('key_hash').where('external_id', '=', externalId).execute()).length;
    await eventually(async () => ((await keyRows(old.externalId)) === 0 ? true : undefined), 20_000, 'the expired key to be swept');
    assert.equal(await keyRows(young.externalId), 1);
  });

  test('concurrent repeats: one create, the others get the replay or 409 with Retry-After', async () => {
    for (let round = 0; round < 5; round++) {
      const { externalId, assessment } = await newCandidate();
      const key = uniqueId('idem');
      const replies = await Promise.all(Array.from({ length: 4 }, () => post(ASSESSMENT, assessment, key)));
      const created = replies.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
      assert.equal(created.length, 1, replies.map((r) => `${r.status} ${r.text}`).join('\n'));
      for (const r of replies) {
        if (r.status === 201) assert.equal(r.text, created[0]!.text);
        else {
          assert.equal(r.status, 409, r.text);
          assert.equal(r.headers.get('retry-after'), '1');
        }
      }
      assert.equal(await assessmentsOf(externalId), 1);
    }
  });
});
