import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { tempDir } from '../helpers/server.js';

const CAMEL = /^[a-z][a-zA-Z0-9]*$/;

/** Every property name in `value`, at any depth. */
function keys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keys);
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...keys(v)]);
  return [];
}

// The illustrative examples, active: `norms list` then has rows to print.
suiteOnEachDatabase(
  'the CLI speaks one dialect: camelCase --json everywhere, yes/no in tables',
  { on: 'first', env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', EXAMPLE_NORMS: 'true' }, tenant: false },
  ({ server }) => {
    let env: Record<string, string>;
    before(async () => {
      env = { DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
    });

    const run = async (...args: string[]) => {
      const r = await runCli(args, env);
      assert.equal(r.code, 0, `assay ${args.join(' ')}: ${r.stderr}`);
      return r.stdout;
    };

    test('every command group, with --json: only camelCase names, booleans as true/false', async () => {
      const tenant = JSON.parse(await run('tenant', 'create', '--name', 'Dialect', '--portal-domain', 'https://d.test', '--json'));
      const user = JSON.parse(await run('user', 'create', '--tenant', tenant.tenantId, '--username', 'dialect-2', '--json'));
      const key = JSON.parse(await run('key', 'create', '--tenant', tenant.tenantId, '--portal-domain', 'https://d2.test', '--json'));
      const a = await newAssessment(server.url, tenant, { WebhookUrl: 'http://127.0.0.1:9/x' });
      await completeViaForms(new FormClient(server.url), a.id);
      const outputs: Record<string, string> = {
        'tenant create': JSON.stringify(tenant),
        'tenant list': await run('tenant', 'list', '--json'),
        'tenant set': await run('tenant', 'set', '--tenant', tenant.tenantId, '--retention-days', '30', '--json'),
        'user create': JSON.stringify(user),
        'user reset-password': await run('user', 'reset-password', 'dialect-2', '--json'),
        'user disable': await run('user', 'disable', 'dialect-2', '--json'),
        'user list': await run('user', 'list', '--json'),
        'key create': JSON.stringify(key),
        'key webhook-secret rotate': await run('key', 'webhook-secret', 'rotate', key.apiKeyId, '--json'),
        'key revoke': await run('key', 'revoke', key.apiKeyId, '--json'),
        'key list': await run('key', 'list', '--json'),
        'portal set': await run('portal', 'set', '--key', tenant.apiKeyId, '--name', 'Dialect BV', '--signed-webhooks', 'on', '--json'),
        'portal show': await run('portal', 'show', '--key', tenant.apiKeyId, '--json'),
        'norms list': await run('norms', 'list', '--json'),
        'webhook list': await run('webhook', 'list', '--json'),
        'report revoke': await run('report', 'revoke', a.id, '--json'),
        'candidate erase': await run('candidate', 'erase', '--external-id', a.externalId, '--json'),
        'candidate erasures': await run('candidate', 'erasures', '--json'),
        'candidate sweep': await run('candidate', 'sweep', '--json'),
        backup: await run('backup', join(tempDir('assay-json-'), 'b.db'), '--json'),
      };
      for (const [command, text] of Object.entries(outputs)) {
        const value = JSON.parse(text);
        const names = keys(value);
        assert.ok(names.length > 0, `${command} printed an object or rows`);
        assert.deepEqual(
          names.filter((k) => !CAMEL.test(k)),
          [],
          `${command}: not camelCase`,
        );
      }
      const users = JSON.parse(outputs['user list']!) as Array<{ username: string; disabled: unknown }>;
      assert.equal(users.find((u) => u.username === 'dialect-2')?.disabled, true);
      const keysListed = JSON.parse(outputs['key list']!) as Array<{ id: string; revoked: unknown }>;
      assert.equal(keysListed.find((k) => k.id === key.apiKeyId)?.revoked, true);
      assert.ok(keysListed.every((k) => typeof k.revoked === 'boolean'));
    });

    test('tables say yes and no', async () => {
      const column = (text: string, name: string) => {
        const [header, ...lines] = text.trim().split('\n');
        // Column starts come from the header: cells are padded to the header's positions.
        const start = header!.search(new RegExp(`\\b${name}\\b`));
        assert.ok(start >= 0, `${name} column in ${header}`);
        return lines.map((line) =>
          line
            .slice(start)
            .split(/\s{2,}|\s+$/)[0]!
            .trim(),
        );
      };
      const disabled = column(await run('user', 'list'), 'disabled');
      assert.ok(disabled.length >= 2);
      assert.ok(
        disabled.every((c) => c === 'yes' || c === 'no'),
        disabled.join(','),
      );
      assert.ok(disabled.includes('yes') && disabled.includes('no'));
      const revoked = column(await run('key', 'list'), 'revoked');
      assert.ok(
        revoked.every((c) => c === 'yes' || c === 'no'),
        revoked.join(','),
      );
      assert.ok(revoked.includes('yes') && revoked.includes('no'));
    });
  },
);
