import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { apiClient, candidate } from '../helpers/http.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { tempDir } from '../helpers/server.js';

const mode = (path: string) => statSync(path).mode & 0o777;

suiteOnEachDatabase('files in the data directory are owner-only', { on: 'sqlite', start: false }, ({ another }) => {
  test('a fresh data directory, its database, WAL, SHM and key are created 0700 and 0600', async () => {
    const parent = tempDir();
    const dataDir = join(parent, 'data');
    const server = await another({ DATA_DIR: dataDir, DATABASE_URL: `sqlite:${join(dataDir, 'assay.db')}` });
    try {
      assert.equal((await apiClient(server.url, await server.tenant()).createCandidate(candidate())).status, 201);
      assert.equal(mode(dataDir), 0o700);
      for (const f of ['assay.db', 'assay.db-wal', 'assay.db-shm', 'secret.key']) assert.equal(mode(join(dataDir, f)), 0o600, f);
    } finally {
      await server.stop();
    }
  });

  test('readable ones left by an earlier version are tightened at start', async () => {
    const dataDir = tempDir();
    chmodSync(dataDir, 0o755);
    const db = join(dataDir, 'assay.db');
    const first = await another({ DATA_DIR: dataDir, DATABASE_URL: `sqlite:${db}` });
    await first.stop(true);
    for (const f of ['assay.db', 'secret.key']) chmodSync(join(dataDir, f), 0o644);
    writeFileSync(`${db}-wal`, '');
    chmodSync(`${db}-wal`, 0o644);
    chmodSync(dataDir, 0o755);
    const again = await another({}, { reuse: { dataDir, databaseUrl: `sqlite:${db}` } });
    try {
      assert.equal(mode(dataDir), 0o700);
      for (const f of ['assay.db', 'assay.db-wal', 'secret.key']) assert.equal(mode(join(dataDir, f)), 0o600, f);
    } finally {
      await again.stop();
    }
  });

  test('a shared sticky directory is left alone', async () => {
    const shared = join(tempDir(), 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const server = await another({ DATA_DIR: shared, DATABASE_URL: `sqlite:${join(shared, 'assay.db')}` });
    try {
      assert.equal(statSync(shared).mode & 0o7777, 0o1777);
      assert.equal(mode(join(shared, 'assay.db')), 0o600);
    } finally {
      await server.stop();
    }
  });
});
