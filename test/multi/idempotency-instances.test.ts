import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import pg from 'pg';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, candidate, uniqueId, type Reply } from '../helpers/http.js';
import type { ServerProcess } from '../helpers/process.js';

const ASSESSMENT = '/api/anonymous/assessment';

// Several instances only exist on PostgreSQL; a run without it shows this skipped.
suiteOnEachDatabase(
  'Idempotency-Key across two instances on one PostgreSQL',
  { on: 'postgres', process: true, start: false, env: { ENCRYPTION_KEY: randomBytes(32).toString('base64') } },
  ({ spawn, freshDir, creds, cliEnv }) => {
    const instances: ServerProcess[] = [];
    let client: pg.Client;
    before(async () => {
      // Each on a data folder of its own, as on two machines.
      for (let i = 0; i < 2; i++) instances.push(await spawn({ DATA_DIR: freshDir() }));
      client = new pg.Client({ connectionString: cliEnv.DATABASE_URL });
      await client.connect();
    });
    after(async () => {
      await client?.end();
    });

    const post = (i: number, body: unknown, key?: string): Promise<Reply> =>
      apiClient(instances[i]!.url, creds).post(ASSESSMENT, body, key === undefined ? {} : { 'idempotency-key': key });
    const assessmentsOf = async (externalId: string) =>
      Number((await client.query<{ n: string }>('select count(*) as n from assessments where external_id = $1', [externalId])).rows[0]!.n);
    const newCandidate = async () => {
      const body = candidate();
      assert.equal((await apiClient(instances[0]!.url, creds).createCandidate(body)).status, 201);
      return { externalId: String(body.ExternalId), request: { ExternalId: body.ExternalId, AssessmentType: 0 } };
    };

    test("one instance's response is replayed by the other", async () => {
      const { externalId, request } = await newCandidate();
      const key = uniqueId('multi');
      const first = await post(0, request, key);
      assert.equal(first.status, 201, first.text);
      const second = await post(1, request, key);
      assert.equal(second.text, first.text);
      assert.equal(second.headers.get('idempotent-replayed'), 'true');
      assert.equal(await assessmentsOf(externalId), 1);
    });

    test('a repeat racing to the other instance: one create, and the other request gets the replay or 409 with Retry-After', async () => {
      for (let round = 0; round < 10; round++) {
        const { externalId, request } = await newCandidate();
        const key = uniqueId('multi');
        const replies = await Promise.all([post(0, request, key), post(1, request, key)]);
        const created = replies.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
        assert.equal(created.length, 1, replies.map((r) => `${r.status} ${r.text}`).join('\n'));
        const other = replies.find((r) => r !== created[0])!;
        if (other.status === 201) assert.equal(other.text, created[0]!.text);
        else {
          assert.equal(other.status, 409, other.text);
          assert.equal(other.headers.get('retry-after'), '1');
        }
        assert.equal(await assessmentsOf(externalId), 1);
        // Positive control, once: the count sees a second assessment when one is made.
        if (round === 0) {
          assert.equal((await post(1, request)).status, 201);
          assert.equal(await assessmentsOf(externalId), 2);
        }
      }
    });
  },
);
