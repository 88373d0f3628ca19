import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { sql } from 'kysely';
import { apiClient, candidate, errorCode, request } from '../helpers/http.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { otherConnection } from '../helpers/server.js';

suiteOnEachDatabase('SQLite that cannot write: a clear 503, then recovery, never a corrupted store', { on: 'sqlite' }, ({ server, creds }) => {
  async function expect503s(api: ReturnType<typeof apiClient>) {
    const replies = await Promise.all(Array.from({ length: 20 }, () => api.createCandidate(candidate({ FirstName: 'x'.repeat(100) }))));
    for (const r of replies) {
      assert.equal(r.status, 503, r.text);
      assert.equal(errorCode(r), 'ServiceUnavailable');
    }
  }

  test('a full disk (SQLITE_FULL) gives 503s; room again gives 201s', async () => {
    const api = apiClient(server.url, creds);
    assert.equal((await api.createCandidate(candidate())).status, 201);
    const store = server.running.deps.store;
    const pages = (await sql<{ page_count: number }>`PRAGMA page_count`.execute(store.db)).rows[0]!.page_count;
    await store.pragma!(`max_page_count = ${pages}`);
    try {
      // Rows fill the free space left in existing pages first (some still fit later, in pages
      // with room); every write that needs a new page gets a clear 503, never a 500.
      let refused = 0;
      for (let i = 0; i < 3_000 && refused < 50; i++) {
        const r = await api.createCandidate(candidate({ FirstName: 'x'.repeat(100), LastName: 'y'.repeat(100) }));
        if (r.status !== 201) {
          assert.equal(r.status, 503, r.text);
          assert.equal(errorCode(r), 'ServiceUnavailable');
          refused++;
        }
      }
      assert.equal(refused, 50, 'the page limit was reached');
    } finally {
      await store.pragma!('max_page_count = 1073741823');
    }
    assert.equal((await api.createCandidate(candidate())).status, 201);
  });

  test('a read-only store gives 503s; writable again gives 201s', async () => {
    const api = apiClient(server.url, creds);
    const store = server.running.deps.store;
    await store.pragma!('query_only = ON');
    try {
      await expect503s(api);
    } finally {
      await store.pragma!('query_only = OFF');
    }
    assert.equal((await api.createCandidate(candidate())).status, 201);
    assert.equal((await request(`${server.url}/readyz`)).status, 200);
  });

  test('the file is intact afterwards', async () => {
    const raw = otherConnection(server);
    try {
      assert.equal(raw.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      raw.close();
    }
  });
});
