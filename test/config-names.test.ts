import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { editDistance, misspelledSettings, SETTINGS } from '../src/config-names.js';
import { ROOT } from '../src/platform/paths.js';
import { describe, test } from './helpers/deadline.js';

describe('the names of the settings', () => {
  test('SETTINGS is every variable src/config.ts reads, and every one docs/CONFIGURATION.md lists', () => {
    const source = readFileSync(join(ROOT, 'src', 'config.ts'), 'utf8');
    const read = new Set([
      ...[...source.matchAll(/\benv\??\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!),
      ...[...source.matchAll(/\b(?:int|bool)\(env, '([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1]!),
      ...[...(/dkimNames = \[([^\]]*)\]/.exec(source)?.[1] ?? '').matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]!),
    ]);
    assert.ok(read.size > 50, `found ${read.size} names in src/config.ts`);
    assert.deepEqual([...read].sort(), [...SETTINGS].sort());
    const doc = readFileSync(join(ROOT, 'docs', 'CONFIGURATION.md'), 'utf8');
    const table = doc.slice(doc.indexOf('## Configuration'));
    const listed = new Set([...table.matchAll(/^\| (.*?) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((n) => n[1]!)));
    assert.deepEqual([...listed].sort(), [...SETTINGS].sort());
  });

  test('edit distance counts inserts, deletes, substitutions and swaps, and stops past the limit', () => {
    assert.equal(editDistance('PORT', 'PORT', 2), 0);
    assert.equal(editDistance('PROT', 'PORT', 2), 1, 'a swap is one edit');
    assert.equal(editDistance('WEBHOOK_ALLOW_PRIVATE_NETWORK', 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', 2), 1);
    assert.equal(editDistance('DATABSE_URLL', 'DATABASE_URL', 2), 2);
    assert.equal(editDistance('HOME', 'HOST', 2), 2);
    assert.equal(editDistance('NODE_PATH', 'DATA_DIR', 2), 3, 'past the limit: limit + 1');
  });

  test('a variable one or two edits from a setting is named with the setting; settings, other words and other shapes are not', () => {
    const env = {
      WEBHOOK_ALLOW_PRIVATE_NETWORK: 'true',
      ENCRYPTON_KEY: 'secret',
      PROT: '3001',
      DATABSE_URLL: 'postgres://x',
      LOGLEVEL: 'debug',
      // Settings, the usual environment, and a short name two edits away (HOME, HOST).
      PORT: '3000',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      HOME: '/root',
      PATH: '/usr/bin',
      NODE_PATH: '/x',
      PGPORT: '5432',
      HOSTNAME: 'box',
      LANG: 'C.UTF-8',
      // Not the shape of a setting.
      port: '1',
      Data_Dir: '/x',
    };
    assert.deepEqual(misspelledSettings(env), [
      { variable: 'DATABSE_URLL', resembles: 'DATABASE_URL' },
      { variable: 'ENCRYPTON_KEY', resembles: 'ENCRYPTION_KEY' },
      { variable: 'LOGLEVEL', resembles: 'LOG_LEVEL' },
      { variable: 'PROT', resembles: 'PORT' },
      { variable: 'WEBHOOK_ALLOW_PRIVATE_NETWORK', resembles: 'WEBHOOK_ALLOW_PRIVATE_NETWORKS' },
    ]);
  });
});
