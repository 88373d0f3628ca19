import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import type { Store } from '../../src/db/database.js';
import { checkUsername, demoBanner, ProvisionError, provisionKey, provisionTenant, usernameFor } from '../../src/tenancy/provision.js';

const refusedWith = (pattern: RegExp) => (e: unknown) => e instanceof ProvisionError && pattern.test(e.message);

describe('user names and the demo banner', () => {
  test('3 to 64 letters, digits or . _ @ -; nothing else', () => {
    for (const ok of ['abc', 'a'.repeat(64), 'A.b_c@d-e', '0-9']) assert.equal(checkUsername(ok), ok);
    for (const bad of ['ab', 'a'.repeat(65), 'a:b', 'a b', 'ä-ok', 'abc\n', ''])
      assert.throws(() => checkUsername(bad), refusedWith(/3 to 64/), JSON.stringify(bad));
  });

  test("a tenant's user name: its name in lower case, runs of other characters one dash, none at the ends, at most 50", () => {
    assert.equal(usernameFor('Acme Corp!'), 'acme-corp');
    assert.equal(usernameFor('  --Big   Co.--  '), 'big-co');
    assert.equal(usernameFor('Ünïcode AG'), 'n-code-ag');
    assert.equal(usernameFor('x'.repeat(60)), 'x'.repeat(50));
  });

  test('a name whose slug is under 3 characters gets -api, without a dash in front', () => {
    assert.equal(usernameFor('AB'), 'ab-api');
    assert.equal(usernameFor('ABC'), 'abc', 'three characters are enough');
    assert.equal(usernameFor('Q'), 'q-api');
    assert.equal(usernameFor('!!'), 'api');
    for (const name of ['AB', 'Q', '!!', 'Acme Corp!', '  --Big   Co.--  ']) assert.equal(checkUsername(usernameFor(name)), usernameFor(name));
  });

  test('the demo banner shows each secret once and a curl that creates a candidate on the server', async () => {
    const c = {
      tenantId: 't',
      tenant: 'demo',
      username: 'demo',
      password: 'pw-1',
      apiKey: 'ak_2',
      apiKeyId: 'k',
      apiKeyPrefix: 'ak',
      portalDomain: 'https://p.test',
    };
    const banner = demoBanner(c, 'http://127.0.0.1:8080');
    for (const line of ['  username:      demo', '  password:      pw-1', '  api key:       ak_2', '  portal domain: https://p.test'])
      assert.ok(banner.split('\n').includes(line), line);
    assert.match(banner, /export AUTH='demo:pw-1' KEY='ak_2' BASE=http:\/\/127\.0\.0\.1:8080\n/);
    assert.match(banner, /\$BASE\/api\/anonymous\/candidate\n/);
    assert.deepEqual(JSON.parse(/-d '(\{.*\})'/.exec(banner)![1]!).ExternalId, 'cand-1');
    assert.ok(banner.startsWith('\n') && banner.endsWith('\n'));
  });

  test("the banner's curl sends a candidate with what the spec requires, and says how to skip the demo tenant", () => {
    const c = {
      tenantId: 't',
      tenant: 'demo',
      username: 'demo',
      password: 'pw',
      apiKey: 'ak',
      apiKeyId: 'k',
      apiKeyPrefix: 'ak',
      portalDomain: 'https://p.test',
    };
    const banner = demoBanner(c, 'http://127.0.0.1:8080');
    const body = JSON.parse(/-d '(\{.*\})'/.exec(banner)![1]!) as Record<string, string>;
    for (const field of ['ExternalId', 'Email', 'FirstName', 'LastName']) assert.ok(body[field]?.trim(), field);
    assert.match(body.Email!, /^[^@\s]+@[^@\s]+\.[a-z]+$/);
    assert.match(banner, /shown this once \(set DEMO_TENANT=false to skip this\)/);
    assert.match(banner, /curl -sS -u "\$AUTH" -H "api-key: \$KEY" -H 'Content-Type: application\/json'/);
  });

  test('a portal domain that is no bare origin is refused naming the option, before the database is reached', async () => {
    const store = {} as Store;
    await assert.rejects(provisionTenant(store, 'Co', 'https://x.example/path'), /^.*--portal-domain must be a bare origin/);
    await assert.rejects(provisionKey(store, 't1', 'ftp://x.example'), /--portal-domain must use http or https/);
  });
});
