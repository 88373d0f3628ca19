import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { test } from '../helpers/deadline.js';
import { sql } from 'kysely';
import { newAssessment } from '../helpers/fixtures.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';

/** This process's TCP connections to `port`, with the timer /proc/net/tcp shows for each (02: keepalive). */
function connectionsTo(port: number): Array<{ localPort: number; timer: string }> {
  const inodes = new Set(
    readdirSync('/proc/self/fd')
      .map((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`);
        } catch {
          return '';
        }
      })
      .filter((link) => link.startsWith('socket:['))
      .map((link) => link.slice('socket:['.length, -1)),
  );
  const found = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local address, remote address, state (01 established), queues, timer:when, retransmits, uid, timeout, inode
      if (f.length < 10 || f[3] !== '01' || !inodes.has(f[9]!)) continue;
      if (parseInt(f[2]!.split(':').at(-1)!, 16) !== port) continue;
      found.push({ localPort: parseInt(f[1]!.split(':').at(-1)!, 16), timer: f[5]!.split(':')[0]! });
    }
  }
  return found;
}

suiteOnEachDatabase(
  'connections to PostgreSQL, with DATABASE_POOL_SIZE=1',
  { on: 'postgres', env: { DATABASE_POOL_SIZE: '1' }, tenant: false, timeout: 60_000 },
  ({ server }) => {
    test('with a size of 1 the server starts and serves, on one connection for queries and one that listens', async () => {
      const a = await newAssessment(server.url, await server.tenant());
      assert.match(a.id, /\S/);
      const backends = (
        await sql<{ query: string }>`select query from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`.execute(
          server.running.deps.store.db,
        )
      ).rows.map((r) => r.query);
      assert.equal(backends.length, 2, backends.join('\n'));
      assert.equal(backends.filter((q) => q.startsWith('LISTEN ')).length, 1, backends.join('\n'));
    });

    test('every connection, the listener included, has TCP keepalive on: the kernel shows its keepalive timer', async () => {
      await newAssessment(server.url, await server.tenant());
      const connections = connectionsTo(Number(new URL(server.databaseUrl).port));
      assert.equal(connections.length, 2, JSON.stringify(connections));
      for (const c of connections) assert.equal(c.timer, '02', `connection from port ${c.localPort} has no keepalive timer: ${JSON.stringify(connections)}`);
    });
  },
);
