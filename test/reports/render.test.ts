import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CompiledQuery } from 'kysely';
import type { Store } from '../../src/store/database.js';
import { eraseCandidate } from '../../src/store/erasure.js';
import { renderCache } from '../../src/store/render-cache.js';
import { testDatabases } from '../helpers/databases.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { errorCode, type Credentials } from '../helpers/http.js';
import { startServer, type TestServer } from '../helpers/server.js';

type Kind = 'head' | 'row' | 'candidate';

/** Which read a statement is: the assessment's head, its whole row, or its candidate's row. */
function kindOf(sql: string): Kind | undefined {
  if (sql.includes('"candidate_updated_at"')) return 'head';
  if (/^select \* from "assessments" where/.test(sql)) return 'row';
  if (/^select \* from "candidates" where/.test(sql)) return 'candidate';
  return undefined;
}

for (const db of testDatabases()) {
  describe(`reads of results and reports, kept and made [${db}]`, { timeout: 60_000 }, () => {
    let server: TestServer;
    let store: Store;
    let creds: Credentials;
    before(async () => {
      server = await startServer(db);
      store = server.running.deps.store;
      creds = await server.tenant();
    });
    after(() => server.stop());

    async function completed() {
      const a = await newAssessment(server.url, creds);
      await completeViaForms(new FormClient(server.url), a.id);
      return a;
    }

    /** Runs `fn`, counting the reads it made; `afterHead` runs once, right after the first head read. */
    async function reads<T>(fn: () => Promise<T>, afterHead?: () => Promise<unknown>): Promise<{ result: T; counts: Record<Kind, number> }> {
      const executeQuery = store.db.executeQuery.bind(store.db);
      const counts: Record<Kind, number> = { head: 0, row: 0, candidate: 0 };
      let hook = afterHead;
      store.db.executeQuery = (async <R>(query: CompiledQuery<R>) => {
        const kind = kindOf(query.sql);
        if (kind) counts[kind]++;
        const result = await executeQuery(query);
        if (kind === 'head' && hook) {
          const run = hook;
          hook = undefined;
          await run();
        }
        return result;
      }) as typeof store.db.executeQuery;
      try {
        return { result: await fn(), counts };
      } finally {
        delete (store.db as { executeQuery?: unknown }).executeQuery;
      }
    }

    test('a repeated results read is served after a read of the head alone: the whole row is read only to make it', async () => {
      const a = await completed();
      const path = `/api/candidateanalysisresult/${a.id}/en-GB`;
      const first = await reads(() => a.api.get(path));
      assert.equal(first.result.status, 200);
      assert.equal(first.result.body.Done, true);
      assert.deepEqual(first.counts, { head: 1, row: 1, candidate: 0 });
      const again = await reads(() => a.api.get(path));
      assert.equal(again.result.text, first.result.text);
      assert.deepEqual(again.counts, { head: 1, row: 0, candidate: 0 });
    });

    test('a repeated report read is served after a read of the head alone: neither the row nor the candidate is read again', async () => {
      const a = await completed();
      const path = `/api/anonymous/assessment/${a.id}/report?lang=en`;
      const first = await reads(() => a.api.get(path));
      assert.equal(first.result.status, 200);
      assert.match(first.result.text, /<svg/);
      assert.deepEqual(first.counts, { head: 1, row: 1, candidate: 1 });
      const again = await reads(() => a.api.get(path));
      assert.equal(again.result.text, first.result.text);
      assert.deepEqual(again.counts, { head: 1, row: 0, candidate: 0 });
    });

    test('an assessment erased between its head read and its render is a 404 for results and report, and nothing is kept', async () => {
      for (const route of ['results', 'report'] as const) {
        const a = await completed();
        const path = route === 'results' ? `/api/candidateanalysisresult/${a.id}/en-GB` : `/api/anonymous/assessment/${a.id}/report?lang=en`;
        const kept = renderCache(store).size;
        const { result, counts } = await reads(
          () => a.api.get(path),
          () => eraseCandidate(store, a.externalId, { erasedBy: 'test', reason: 'request' }),
        );
        assert.equal(result.status, 404, `${route}: ${result.text}`);
        assert.equal(errorCode(result), 'NotFound', route);
        assert.equal(counts.head, 1, route);
        assert.equal(renderCache(store).size, kept, `${route}: nothing kept`);
      }
    });
  });
}
