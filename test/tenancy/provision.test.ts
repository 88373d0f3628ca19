import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before } from 'node:test';
import { sql } from 'kysely';
import { test } from '../helpers/deadline.js';
import type { Store } from '../../src/db/database.js';
import { deactivateNormDefault, normGroupInForce } from '../../src/measurement/norms-store.js';
import {
  ensureDemoTenant,
  ensureExampleNorms,
  giveDemoExampleNorms,
  ProvisionError,
  provisionKey,
  provisionTenant,
  provisionUser,
} from '../../src/tenancy/provision.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { authHeaders, request, type Credentials } from '../helpers/http.js';

/** Whether the caller API takes these credentials: the catalogue, 200 or 401. */
async function accepted(url: string, c: Credentials): Promise<boolean> {
  const res = await request(`${url}/api/anonymous/assessmenttypes`, { headers: authHeaders(c) });
  assert.ok(res.status === 200 || res.status === 401, `status ${res.status}`);
  return res.status === 200;
}

const refusedWith = (pattern: RegExp) => (e: unknown) => e instanceof ProvisionError && pattern.test(e.message);

suiteOnEachDatabase('provisioning tenants, users and keys', { tenant: false, timeout: 120_000 }, ({ server }) => {
  let store: Store;
  before(() => {
    store = server.running.deps.store;
  });

  test('on an empty database a demo tenant, user demo, whose credentials the API takes; once there is any tenant, none', async () => {
    const demo = await ensureDemoTenant(store, 'https://demo.example.test');
    assert.ok(demo);
    assert.deepEqual([demo.tenant, demo.username, demo.portalDomain], ['demo', 'demo', 'https://demo.example.test']);
    assert.ok(await accepted(server.url, demo));
    assert.equal(await ensureDemoTenant(store, 'https://demo.example.test'), undefined);
    // Tenants, none of them the demo one: still none.
    await sql`update tenants set name = 'was-demo'`.execute(store.db);
    await sql`update api_users set username = 'was-demo'`.execute(store.db);
    assert.equal(await ensureDemoTenant(store, 'https://other.example.test'), undefined);
  });

  test('a tenant: its user named from the tenant, its key, its portal as a bare origin; the API takes them', async () => {
    const t = await provisionTenant(store, 'Acme Hiring B.V.', 'https://Portal.Acme.example:8443/');
    assert.deepEqual([t.tenant, t.username, t.portalDomain], ['Acme Hiring B.V.', 'acme-hiring-b-v', 'https://portal.acme.example:8443']);
    assert.ok(t.apiKey.startsWith(t.apiKeyPrefix));
    assert.ok(await accepted(server.url, t));
    assert.equal(await accepted(server.url, { ...t, password: `${t.password}x` }), false, 'positive control: a wrong password is refused');
    const named = await provisionTenant(store, 'Named', 'https://named.example.test', 'chosen.user@named');
    assert.equal(named.username, 'chosen.user@named');
  });

  test("a tenant's name: 1 to 100 characters, not blank, no control characters, not taken; nor its user's name", async () => {
    const domain = 'https://x.example.test';
    await assert.rejects(provisionTenant(store, '', domain), refusedWith(/1 to 100/));
    await assert.rejects(provisionTenant(store, '   ', domain), refusedWith(/1 to 100/));
    await assert.rejects(provisionTenant(store, 'x'.repeat(101), domain), refusedWith(/1 to 100/));
    await assert.rejects(provisionTenant(store, 'Tab\tCo', domain), refusedWith(/^Tenant name contains a character/));
    assert.equal((await provisionTenant(store, 'y'.repeat(100), domain)).tenant.length, 100);
    await assert.rejects(
      provisionTenant(store, 'Acme Hiring B.V.', domain, 'another-user'),
      refusedWith(/"Acme Hiring B\.V\." or a user named "another-user" already exists/),
    );
    await assert.rejects(provisionTenant(store, 'Another Co', domain, 'acme-hiring-b-v'), refusedWith(/already exists/));
    await assert.rejects(provisionTenant(store, 'Bad Domain Co', 'ftp://x.example.test'), /http or https/);
  });

  test('another key and another user for a tenant, which the API takes together; a taken or malformed user name is refused', async () => {
    const t = await provisionTenant(store, 'Keys Co', 'https://keys.example.test');
    const key = await provisionKey(store, t.tenantId, 'https://Second.keys.example.test/');
    assert.equal(key.portalDomain, 'https://second.keys.example.test');
    assert.notEqual(key.apiKey, t.apiKey);
    assert.ok(await accepted(server.url, { ...t, apiKey: key.apiKey }));
    const user = await provisionUser(store, t.tenantId, 'second_user');
    assert.equal(user.username, 'second_user');
    assert.ok(await accepted(server.url, { ...user, apiKey: key.apiKey }));
    await assert.rejects(provisionUser(store, t.tenantId, 'second_user'), refusedWith(/^A user named "second_user" already exists$/));
    await assert.rejects(provisionUser(store, t.tenantId, 'no:colon'), refusedWith(/3 to 64/));
    // A failure other than a taken name is not reported as one.
    await assert.rejects(provisionUser(store, 'no-such-tenant', 'orphan_user'), (e: unknown) => e instanceof Error && !(e instanceof ProvisionError));
    await assert.rejects(provisionKey(store, t.tenantId, 'https://keys.example.test/path'), /bare origin/);
  });

  test("the illustrative example norms: stored and active where an instrument has no norm group, then never again; the demo portal's own choice", async () => {
    const { instruments, competences } = server.running.deps;
    const nothing = mkdtempSync(join(tmpdir(), 'assay-no-norms-'));
    try {
      assert.deepEqual(await ensureExampleNorms(store, instruments, competences, nothing), [], 'no example files: none stored, none activated');
    } finally {
      rmSync(nothing, { recursive: true, force: true });
    }
    const added = await ensureExampleNorms(store, instruments, competences);
    // The TMAs ship an illustrative example; the SPI ships real norms, so it has a group already.
    assert.deepEqual(
      added.map((id) => id.replace(/-[^-]+$/, '')),
      ['example-tma170', 'example-tma312'],
    );
    assert.deepEqual(await ensureExampleNorms(store, instruments, competences), []);
    const t = await provisionTenant(store, 'Demo Norms', 'https://norms.example.test');
    // Without the defaults, the portal's own choice is all that puts a norm group in force.
    for (const type of [0, 1]) await deactivateNormDefault(store, type);
    assert.equal(await normGroupInForce(store, t.apiKeyId, 0), null, 'positive control: none in force');
    await giveDemoExampleNorms(store, t.apiKeyId, instruments, competences);
    assert.equal(await normGroupInForce(store, t.apiKeyId, 0), added[0]);
    assert.equal(await normGroupInForce(store, t.apiKeyId, 1), added[1]);
  });
});
