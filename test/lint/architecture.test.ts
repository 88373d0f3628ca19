import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';

// The lint's rules that keep the layout (eslint.config.js), each shown firing on a small breach
// and staying quiet on the allowed form beside it. The texts are linted under made-up paths in
// the tree (lintText), so the real files' imports resolve as in the lint itself.
// Made-up paths belong to no TypeScript project, so they are linted without the type-aware rule,
// which is shown on a real file's path instead.
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: {
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
});
const typeAware = new ESLint({ cwd: ROOT });

/** The rule ids ESLint reports for `code` as if it were the file at `path` (from the repository root). */
async function findings(path: string, code: string, linter = eslint): Promise<string[]> {
  const [result] = await linter.lintText(code, { filePath: join(ROOT, path) });
  assert.ok(result, `a result for ${path}`);
  // A parse error has no rule id: it would hide every rule, so it fails the test outright.
  for (const m of result.messages) assert.ok(m.ruleId, `${path}: ${m.message}`);
  return result.messages.map((m) => m.ruleId!);
}

const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const line${i} = ${i};`).join('\n') + '\n';

describe('the lint keeps the layout', () => {
  test('an import cycle fails, through type-only imports too; the same module without the import passes', async () => {
    // cycle-b imports cycle-a (type only); this text for cycle-a imports cycle-b back.
    const cyclic = "import type { B } from './cycle-b.js';\nexport interface A {\n  n: number;\n  b?: B;\n}\n";
    assert.deepEqual(await findings('test/lint/fixtures/cycle-a.ts', cyclic), ['assay/no-import-cycle']);
    assert.deepEqual(await findings('test/lint/fixtures/cycle-a.ts', 'export interface A {\n  n: number;\n}\n'), []);
  });

  test('src/domain imports nothing else of src; its own files, node built-ins and packages pass', async () => {
    assert.deepEqual(await findings('src/domain/fixture.ts', "import type { Store } from '../db/database.js';\nexport type S = Store;\n"), [
      'import-x/no-restricted-paths',
    ]);
    assert.deepEqual(await findings('src/domain/fixture.ts', "import { isOpen } from '../lifecycle/rules.js';\nexport const open = isOpen;\n"), [
      'import-x/no-restricted-paths',
    ]);
    const allowed =
      "import { join } from 'node:path';\nimport ipaddr from 'ipaddr.js';\nimport { DomainError } from './errors.js';\nexport const used = [join, ipaddr, DomainError];\n";
    assert.deepEqual(await findings('src/domain/fixture.ts', allowed), []);
  });

  test("a route importing another route fails, across the API, the portal and a capability's routes.ts; a route importing a store passes", async () => {
    assert.deepEqual(
      await findings('src/api/routes/fixture.ts', "import { assessmentCreate } from './assessment-create.js';\nexport const r = assessmentCreate;\n"),
      ['import-x/no-restricted-paths'],
    );
    assert.deepEqual(await findings('src/portal/routes/fixture.ts', "import * as feedback from './feedback.js';\nexport const r = feedback;\n"), [
      'import-x/no-restricted-paths',
    ]);
    // Across doors the layering fires as well: two findings of the one rule.
    assert.deepEqual(await findings('src/portal/routes/fixture.ts', "import * as report from '../../api/routes/report.js';\nexport const r = report;\n"), [
      'import-x/no-restricted-paths',
      'import-x/no-restricted-paths',
    ]);
    // A capability's single routes.ts is a route file too, both ways.
    assert.deepEqual(await findings('src/mail/routes.ts', "import * as report from '../api/routes/report.js';\nexport const r = report;\n"), [
      'import-x/no-restricted-paths',
      'import-x/no-restricted-paths',
    ]);
    assert.deepEqual(await findings('src/api/routes/fixture.ts', "import * as reports from '../../reports/routes.js';\nexport const r = reports;\n"), [
      'import-x/no-restricted-paths',
    ]);
    assert.deepEqual(
      await findings(
        'src/api/routes/fixture.ts',
        "import { findOwnAssessment } from '../../assessments/assessments-store.js';\nexport const r = findOwnAssessment;\n",
      ),
      [],
    );
  });

  test('the layering: a door importing another door, a room or the kernel importing a door, and the kernel importing a room each fail', async () => {
    const breach = (path: string, from: string) => findings(path, `import * as m from '${from}';\nexport const r = m;\n`);
    const R = ['import-x/no-restricted-paths'];
    // Door to door: the API, the portal, the CLI, an ATS and the console to come.
    assert.deepEqual(await breach('src/portal/fixture.ts', '../api/auth.js'), R);
    assert.deepEqual(await breach('src/cli/fixture.ts', '../integrations/greenhouse/mapping.js'), R);
    assert.deepEqual(await breach('src/integrations/greenhouse/fixture.ts', '../../portal/render.js'), R);
    assert.deepEqual(await breach('src/console/fixture.ts', '../portal/render.js'), R);
    assert.deepEqual(await breach('src/api/fixture.ts', '../cli/shared.js'), R);
    // A room or the kernel importing a door.
    assert.deepEqual(await breach('src/assessments/fixture.ts', '../portal/render.js'), R);
    assert.deepEqual(await breach('src/schemas/fixture.ts', '../cli/shared.js'), R);
    // The kernel importing a room, types included.
    assert.deepEqual(await findings('src/http/fixture.ts', "import type { ReportLinks } from '../reports/links.js';\nexport type L = ReportLinks;\n"), R);
    assert.deepEqual(await breach('src/schemas/fixture.ts', '../assessments/rules.js'), R);
    // Allowed: a door calls a room and the kernel; a room the kernel; a door its own modules.
    assert.deepEqual(await breach('src/cli/fixture.ts', '../tenancy/greenhouse-keys-store.js'), []);
    assert.deepEqual(await breach('src/integrations/greenhouse/fixture.ts', './mapping.js'), []);
    assert.deepEqual(await breach('src/portal/fixture.ts', '../assessments/rules.js'), []);
    assert.deepEqual(await breach('src/assessments/fixture.ts', '../http/errors.js'), []);
    assert.deepEqual(await breach('src/http/fixture.ts', '../domain/errors.js'), []);
  });

  test('SQL outside src/db and *-store.ts fails: query builders, the sql tag, a Kysely instance, raw statements and pragmas', async () => {
    // Through a transaction: the store's own handle (`s.db`) has a rule of its own, below.
    const trx = "import type { Kysely } from 'kysely';\nimport type { DB } from '../db/schema.js';\n";
    const breaches = {
      select: `${trx}export const f = (t: Kysely<DB>) => t.selectFrom('assessments').selectAll().execute();\n`,
      insert: `${trx}export const f = (t: Kysely<DB>) => t.insertInto('erasures').values([]).execute();\n`,
      update: `${trx}export const f = (t: Kysely<DB>) => t.updateTable('assessments').set({ status: 'Cancelled' }).execute();\n`,
      delete: `${trx}export const f = (t: Kysely<DB>) => t.deleteFrom('candidates').execute();\n`,
      rawTag:
        "import { sql, type Kysely } from 'kysely';\nimport type { DB } from '../db/schema.js';\nexport const f = (t: Kysely<DB>) => sql`select 1`.execute(t);\n",
      kysely: "import { Kysely } from 'kysely';\nexport const k = Kysely;\n",
      prepared: "export const f = (db: { prepare(q: string): { all(): unknown[] } }) => db.prepare('SELECT name FROM kysely_migration').all();\n",
      pragma: "export const f = (db: { pragma(q: string): unknown }) => db.pragma('quick_check');\n",
      rawString: 'export const q = `DELETE FROM candidates WHERE external_id = ?`;\n',
    };
    for (const [kind, code] of Object.entries(breaches)) {
      const found = await findings('src/reports/fixture.ts', code);
      assert.ok(found.length > 0 && found.every((id) => id === 'no-restricted-syntax'), `${kind}: ${found.join(', ') || 'nothing found'}`);
      // The same text is allowed in a capability's repository and in the engine.
      assert.deepEqual(await findings('src/reports/fixture-store.ts', code), [], `${kind} in a *-store.ts`);
      assert.deepEqual(await findings('src/db/fixture.ts', code), [], `${kind} in src/db`);
    }
    // Types only may pass through a module that does not query (a transaction handed on), and
    // a sentence that starts like a statement but is not upper-case SQL is not one.
    const passing =
      "import type { Kysely } from 'kysely';\nimport type { DB } from '../db/schema.js';\nexport type T = Kysely<DB>;\nexport const s = 'Select a language';\n";
    assert.deepEqual(await findings('src/reports/fixture.ts', passing), []);
  });

  test("the store's raw Kysely instance handed on fails: outside a *-store.ts at all, in one to anything but a read or the file's own builder", async () => {
    const rule = 'assay/db-handle-in-stores';
    const head = "import type { Store } from '../db/database.js';\n";
    const outside = {
      argument: `${head}import { mailSettings } from './settings-store.js';\nexport const f = (s: Store) => mailSettings(s.db, 'key');\n`,
      member: `${head}export class C {\n  readonly #store: Store;\n  constructor(s: Store) {\n    this.#store = s;\n  }\n  h = () => this.#store.db;\n}\n`,
      destructured: `${head}export const f = (s: Store) => {\n  const { db } = s;\n  return db;\n};\n`,
      parameter: `${head}export const f = ({ db }: Store) => db;\n`,
    };
    for (const [kind, code] of Object.entries(outside)) assert.deepEqual(await findings('src/mail/fixture.ts', code), [rule], kind);
    const inStore = {
      imported: `${head}import { run } from '../db/prepared.js';\nimport { q } from './q.js';\nexport const f = (s: Store) => run(s.db, q);\n`,
      exportedBuilder: `${head}import type { Kysely } from 'kysely';\nimport type { DB } from '../db/schema.js';\nexport const ids = (db: Kysely<DB>) => db.selectFrom('mail_messages').select('id').execute();\nexport const f = (s: Store) => ids(s.db);\n`,
      exportedLater: `${head}import type { Kysely } from 'kysely';\nimport type { DB } from '../db/schema.js';\nconst ids = (db: Kysely<DB>) => db.selectFrom('mail_messages').select('id').execute();\nexport const f = (s: Store) => ids(s.db);\nexport { ids };\n`,
      defaultParameter: `${head}export const f = (s: Store, db = s.db) => db.selectFrom('mail_messages').select('id').execute();\n`,
      aWrite: `${head}export const f = (s: Store) => s.db.deleteFrom('mail_messages').execute();\n`,
      raw: `${head}import { sql } from 'kysely';\nexport const f = (s: Store) => sql\`select 1\`.execute(s.db);\n`,
    };
    for (const [kind, code] of Object.entries(inStore)) assert.deepEqual(await findings('src/mail/fixture-store.ts', code), [rule], kind);
    // Allowed: a read started on the store, the file's own (prepared) builder, the store or a transaction passed on, and src/db itself.
    const store =
      `${head}import type { Kysely } from 'kysely';\nimport { prepared, read, run } from '../db/prepared.js';\nimport type { DB } from '../db/schema.js';\n` +
      "const byId = prepared((db, id: string) => db.selectFrom('mail_messages').select('id').where('id', '=', id));\n" +
      "function ids(db: Kysely<DB>) {\n  return db.selectFrom('mail_messages').select('id').execute();\n}\n" +
      'export const one = (s: Store, id: string) => read(s, byId(s.db, s.dialect, id));\nexport const all = (s: Store) => ids(s.db);\n' +
      "export const first = (s: Store) => s.db.selectFrom('mail_messages').select('id').executeTakeFirst();\n" +
      'export const inTrx = (trx: Kysely<DB>, s: Store, id: string) => run(trx, byId(trx, s.dialect, id));\n';
    assert.deepEqual(await findings('src/mail/fixture-store.ts', store), []);
    assert.deepEqual(
      await findings(
        'src/mail/fixture.ts',
        `${head}import { mailSettings } from './settings-store.js';\nexport const f = (s: Store) => mailSettings(s, 'key');\n`,
      ),
      [],
    );
    assert.deepEqual(await findings('src/db/fixture.ts', inStore.imported), []);
  });

  test('the portal prefix spelled outside src/domain/portal-paths.ts fails, as a string or a template; a call of its functions passes', async () => {
    const rule = 'assay/portal-paths-in-one-module';
    assert.deepEqual(await findings('src/mail/fixture.ts', "export const link = (id: string) => '/anonymous/analyse/start/' + id;\n"), [rule]);
    assert.deepEqual(await findings('src/portal/routes/fixture.ts', 'export const done = (id: string) => `/anonymous/analyse/${id}/done`;\n'), [rule]);
    assert.deepEqual(await findings('src/server-fixture.ts', "export const prefix = { prefix: '/anonymous/analyse' };\n"), [rule]);
    const calling =
      "import { PORTAL_PREFIX, portalPagePath } from '../domain/portal-paths.js';\nexport const done = (id: string) => portalPagePath(id, 'done');\nexport const prefix = PORTAL_PREFIX;\n";
    assert.deepEqual(await findings('src/mail/fixture.ts', calling), []);
    // The module itself spells it, and tests build their paths on their own, independent of src.
    const spelled = "export const PORTAL_PREFIX = '/anonymous/analyse';\n";
    assert.deepEqual(await findings('src/domain/portal-paths.ts', spelled), []);
    assert.deepEqual(await findings('test/portal/fixture.test.ts', spelled), []);
  });

  test('a file of 301 lines fails in src, test and bench; 300 lines pass', async () => {
    for (const path of ['src/reports/fixture.ts', 'test/api/fixture.test.ts', 'bench/fixture.ts']) {
      assert.deepEqual(await findings(path, lines(301)), ['max-lines'], path);
      assert.deepEqual(await findings(path, lines(300)), [], path);
    }
  });

  test('a promise in src that nobody awaits fails; one awaited or marked void passes', async () => {
    // src/domain/text.ts is a real file, in the TypeScript project; the text linted under its path is this one.
    const later = 'export async function later(): Promise<void> {}\n';
    assert.deepEqual(await findings('src/domain/text.ts', `${later}export function f(): void {\n  later();\n}\n`, typeAware), [
      '@typescript-eslint/no-floating-promises',
    ]);
    assert.deepEqual(
      await findings('src/domain/text.ts', `${later}export async function f(): Promise<void> {\n  await later();\n  void later();\n}\n`, typeAware),
      [],
    );
  });

  test('the TypeScript checks run: an unused variable fails, a used one passes', async () => {
    assert.deepEqual(await findings('src/reports/fixture.ts', 'const unused = 1;\nexport const used = 2;\n'), ['@typescript-eslint/no-unused-vars']);
    assert.deepEqual(await findings('src/reports/fixture.ts', 'const used = 1;\nexport const alsoUsed = used;\n'), []);
  });
});
