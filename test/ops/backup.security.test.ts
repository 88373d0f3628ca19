import assert from 'node:assert/strict';
import { copyFileSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { Database } from '../../src/db/sqlite-driver.js';
import { runCli } from '../helpers/cli.js';
import { apiClient, candidate } from '../helpers/http.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { tempDir } from '../helpers/server.js';

const sqliteEnv = (dir: string) => ({ DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'assay.db')}` });

suiteOnEachDatabase('backup and restore refuse what is not theirs (SQLite)', { on: 'sqlite', tenant: false }, ({ server }) => {
  let genuine: string;
  const work = tempDir('assay-backup-security-');

  before(async () => {
    const api = apiClient(server.url, await server.tenant());
    const r = await api.createCandidate(candidate());
    assert.equal(r.status, 201, r.text);
  });

  /** Runs bin/assay backup into `file`, asserting it is refused as an existing path. */
  async function refused(file: string): Promise<void> {
    const r = await runCli(['backup', file], sqliteEnv(server.dataDir));
    assert.equal(r.code, 1, `${file}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /exists; a backup never overwrites/);
  }

  test('a fresh path gets the backup, owner-only, and no temporary file is left beside it', async () => {
    const dir = tempDir('assay-backup-fresh-');
    genuine = join(dir, 'genuine.db');
    const r = await runCli(['backup', genuine], sqliteEnv(server.dataDir));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(statSync(genuine).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir), ['genuine.db']);
  });

  test('an existing file is refused and keeps its content, an empty one too', async () => {
    const dir = tempDir('assay-backup-existing-');
    const kept = join(dir, 'kept.db');
    writeFileSync(kept, 'keep', { mode: 0o644 });
    await refused(kept);
    assert.equal(readFileSync(kept, 'utf8'), 'keep');
    // Planted empty beforehand by someone else: their file, their mode, our data in it.
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '', { mode: 0o644 });
    await refused(empty);
    assert.equal(statSync(empty).size, 0);
    assert.equal(statSync(empty).mode & 0o777, 0o644);
    assert.deepEqual(readdirSync(dir).sort(), ['empty.db', 'kept.db']);
  });

  test('a symlink is refused and nothing is written where it points, whether to a file, an empty file or nowhere', async () => {
    const dir = tempDir('assay-backup-link-');
    const elsewhere = tempDir('assay-backup-elsewhere-');
    const target = join(elsewhere, 'target');
    writeFileSync(target, 'keep');
    symlinkSync(target, join(dir, 'to-file.db'));
    await refused(join(dir, 'to-file.db'));
    assert.equal(readFileSync(target, 'utf8'), 'keep');

    const emptyTarget = join(elsewhere, 'empty-target');
    writeFileSync(emptyTarget, '');
    symlinkSync(emptyTarget, join(dir, 'to-empty.db'));
    await refused(join(dir, 'to-empty.db'));
    assert.equal(statSync(emptyTarget).size, 0);

    const nowhere = join(elsewhere, 'not-yet');
    symlinkSync(nowhere, join(dir, 'dangling.db'));
    await refused(join(dir, 'dangling.db'));
    assert.equal(existsSync(nowhere), false, 'the link was not followed to create its target');
    assert.ok(lstatSync(join(dir, 'dangling.db')).isSymbolicLink());
    assert.deepEqual(readdirSync(dir).sort(), ['dangling.db', 'to-empty.db', 'to-file.db']);
  });

  test('a backup that fails part way leaves no file behind', async () => {
    // Not an Assay database: the copy is made, then refused by its check.
    const other = tempDir('assay-backup-other-');
    const db = new Database(join(other, 'assay.db'));
    db.exec('CREATE TABLE t (x)');
    db.close();
    const dir = tempDir('assay-backup-failed-');
    const r = await runCli(['backup', join(dir, 'out.db')], sqliteEnv(other));
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /not an Assay database/);
    assert.deepEqual(readdirSync(dir), []);
  });

  /** A copy of the genuine backup with `sql` run on it, restored into a fresh data directory. */
  async function restoreTampered(name: string, sql: string) {
    assert.ok(genuine, 'the genuine backup above ran');
    const tampered = join(work, name);
    copyFileSync(genuine, tampered);
    const db = new Database(tampered);
    db.exec(sql);
    db.close();
    const dir = join(tempDir('assay-restore-'), 'data');
    const r = await runCli(['restore', tampered, '--key', join(server.dataDir, 'secret.key')], sqliteEnv(dir));
    return { r, target: join(dir, 'assay.db') };
  }

  test('restore refuses a backup with an extra table and a BEFORE DELETE trigger, and restores nothing', async () => {
    const { r, target } = await restoreTampered(
      'trigger.db',
      `CREATE TABLE erased_copies (external_id TEXT);
       CREATE TRIGGER keep_erased BEFORE DELETE ON candidates BEGIN INSERT INTO erased_copies VALUES (OLD.external_id); END;`,
    );
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /does not have the schema Assay's migrations make/);
    assert.match(r.stderr, /unexpected trigger keep_erased on candidates/);
    assert.match(r.stderr, /unexpected table erased_copies/);
    if (existsSync(target)) {
      const live = new Database(target, { readonly: true });
      try {
        assert.equal(live.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'keep_erased'").pluck().get(), 0);
      } finally {
        live.close();
      }
    }
    assert.equal(existsSync(target), false, 'nothing was restored');
  });

  test('restore refuses a backup with an extra view, and one with a changed index', async () => {
    const view = await restoreTampered('view.db', 'CREATE VIEW candidate_ids AS SELECT external_id FROM candidates;');
    assert.equal(view.r.code, 1, view.r.stdout);
    assert.match(view.r.stderr, /unexpected view candidate_ids on candidate_ids/);
    assert.equal(existsSync(view.target), false);

    // Same name, a different statement (here partial): refused too.
    const genuineDb = new Database(genuine, { readonly: true });
    const index = genuineDb
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE '%where%' LIMIT 1")
      .get() as { name: string; sql: string };
    genuineDb.close();
    const changed = await restoreTampered('index.db', `DROP INDEX "${index.name}"; ${index.sql} WHERE 1 = 1;`);
    assert.equal(changed.r.code, 1, changed.r.stdout);
    assert.match(changed.r.stderr, new RegExp(`changed index ${index.name}`));
  });

  test('restore takes the genuine backup', async () => {
    const { r, target } = await restoreTampered('untouched.db', 'SELECT 1;');
    assert.equal(r.code, 0, r.stderr);
    const live = new Database(target, { readonly: true });
    try {
      assert.equal(live.prepare('SELECT count(*) FROM candidates').pluck().get(), 1);
    } finally {
      live.close();
    }
  });
});
