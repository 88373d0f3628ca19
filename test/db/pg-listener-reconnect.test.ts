import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';

const CHANNEL = 'assay_credentials';

// A flush far off, so that nothing but the listener keeps the credentials cache fresh.
suiteOnEachDatabase('the PostgreSQL listener', { on: 'postgres', env: { AUTH_CACHE_FLUSH_MS: '3600000' }, tenant: false }, ({ server }) => {
  let seen = 0;
  const notify = () => sql`select pg_notify(${CHANNEL}, '')`.execute(server.running.deps.store.db);

  /** Sends a notification every ~200 ms until the handler has seen one more than `from`, within `ms`. */
  async function seenAfter(from: number, what: string, ms = 20_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (seen <= from) {
      if (Date.now() > deadline) throw new Error(`no notification seen within ${ms} ms ${what}`);
      await notify();
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  test('LISTENs again after its connection is killed: a NOTIFY sent afterwards reaches a handler registered before', async () => {
    const store = server.running.deps.store;
    store.listen(CHANNEL, () => void (seen += 1));

    // Positive control: a NOTIFY reaches the handler while the connection lives.
    await seenAfter(seen, 'before the kill');

    const killed = await sql<{ killed: boolean }>`
      select pg_terminate_backend(pid) as killed from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen%'`.execute(store.db);
    assert.ok(killed.rows.filter((r) => r.killed).length >= 1, `the listening backend was terminated: ${JSON.stringify(killed.rows)}`);

    // The listener calls every handler once when it is back; a NOTIFY after that shows the LISTEN is too.
    await seenAfter(seen, 'after the kill (the reconnect)');
    await seenAfter(seen, 'after the reconnect (a NOTIFY on the new connection)');
  });
});
