// ESLint: the usual TypeScript checks, and the rules that keep the layout (docs/decisions/lint-keeps-the-layout.md).
// Formatting is Prettier's (.prettierrc.json); eslint-config-prettier switches off every rule that would clash with it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import prettier from 'eslint-config-prettier';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import noImportCycle from './eslint-rules/no-import-cycle.js';
import portalPathsInOneModule from './eslint-rules/portal-paths-in-one-module.js';
import dbHandleInStores from './eslint-rules/db-handle-in-stores.js';

/** Kysely query building and raw SQL: only in the database engine (src/db) and in a capability's `*-store.ts`. */
const SQL_OUTSIDE_A_STORE = "SQL belongs in src/db or in the capability's *-store.ts repository, not here";
const sqlSyntax = [
  {
    selector: 'CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)$/]',
    message: SQL_OUTSIDE_A_STORE,
  },
  // Types may pass through (a transaction handed on); values build or run queries.
  {
    selector:
      'ImportDeclaration[source.value=/^kysely/][importKind!="type"] > ImportSpecifier[importKind!="type"][imported.name=/^(sql|Kysely|CompiledQuery)$/]',
    message: SQL_OUTSIDE_A_STORE,
  },
  {
    selector: 'TaggedTemplateExpression[tag.name="sql"], MemberExpression[object.name="sql"][property.name=/^(raw|ref|id|lit|val|join|table)$/]',
    message: SQL_OUTSIDE_A_STORE,
  },
  // better-sqlite3 and pg directly: prepared statements, pragmas, plain query strings.
  { selector: 'CallExpression[callee.property.name=/^(prepare|pragma)$/]', message: SQL_OUTSIDE_A_STORE },
  {
    selector:
      'Literal[value=/^\\s*(SELECT|INSERT|UPDATE|DELETE|PRAGMA|CREATE|ALTER|DROP|VACUUM|BEGIN|WITH)\\s/], TemplateLiteral[quasis.0.value.raw=/^\\s*(SELECT|INSERT|UPDATE|DELETE|PRAGMA|CREATE|ALTER|DROP|VACUUM|BEGIN|WITH)\\s/]',
    message: SQL_OUTSIDE_A_STORE,
  },
];

/** Route files: a capability's routes/ folder, or its one routes.ts. */
const routes = ['./src/*/routes/**', './src/*/routes.ts'];

/**
 * The layering (docs/ARCHITECTURE.md): doors take requests in and call capability rooms; rooms hold the rules
 * and their queries; the shared kernel serves both and knows neither. Each ATS under integrations/ is a door.
 */
const atsDoors = readdirSync(fileURLToPath(new globalThis.URL('./src/integrations', import.meta.url)), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => `./src/integrations/${d.name}`);
const doors = ['./src/api', './src/portal', './src/console', './src/cli', ...atsDoors];
const rooms = ['assessments', 'measurement', 'reports', 'mail', 'webhooks', 'tenancy', 'lifecycle', 'idempotency', 'ops'].map((r) => `./src/${r}`);
const kernel = ['platform', 'security', 'schemas', 'db', 'http'].map((k) => `./src/${k}`);
const layering = [
  ...doors.map((door) => ({
    target: door,
    from: doors.filter((d) => d !== door),
    message: 'A door does not import another door: move what both need into a capability room',
  })),
  { target: [...rooms, ...kernel], from: doors, message: 'Capability rooms and the shared kernel never import a door' },
  { target: kernel, from: rooms, message: "The shared kernel imports no capability room: the app's dependency bag lives with its wiring (src/app-types.ts)" },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/generated/**', 'src/portal/static/**', 'content/**', 'docs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: {
      'import-x': importX,
      assay: {
        rules: { 'no-import-cycle': noImportCycle, 'portal-paths-in-one-module': portalPathsInOneModule, 'db-handle-in-stores': dbHandleInStores },
      },
    },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json', '.node'], extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: {
      // Not import-x/no-cycle: it leaves type-only imports out, and a cycle through types counts here.
      'assay/no-import-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/domain',
              from: './src',
              except: ['./domain'],
              message: 'src/domain is the shared pure vocabulary: it imports nothing else of src',
            },
            { target: routes, from: routes, message: 'A route does not import another route: move what they share into the capability' },
            ...layering,
          ],
        },
      ],
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      // `let x; ... x = ...` where a closure above the assignment reads x.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Errors are rethrown with the cause's message in their own text on purpose.
      'preserve-caught-error': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests and benchmarks read loosely typed bodies and documents.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // A promise nobody awaits loses its error. Type-aware, so src only: the lint's slowest part (about 13 s of
    // its 23 s of CPU), and node:test's describe and test, which return promises on purpose, are all over test/.
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/db/**', 'src/**/*-store.ts'],
    rules: { 'no-restricted-syntax': ['error', ...sqlSyntax] },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/domain/portal-paths.ts'],
    rules: { 'assay/portal-paths-in-one-module': 'error' },
  },
  {
    // Store functions take the store or a transaction from it; the raw Kysely instance stays in the engine and the *-store.ts files.
    files: ['src/**/*.ts'],
    ignores: ['src/db/**'],
    rules: { 'assay/db-handle-in-stores': 'error' },
  },
  prettier,
);
