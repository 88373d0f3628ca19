import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { provisionKey, provisionUser } from '../../src/tenancy/provision.js';
import { hashPassword } from '../../src/security/passwords.js';
import { disableUser, revokeKey, setPassword } from '../../src/tenancy/credentials-store.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, basic, candidate, errorCode, request, type Credentials } from '../helpers/http.js';

const PATHS = ['/api/anonymous/candidate', '/api/anonymous/assessment'];
const BAD_KEY = 'The provided API key is not valid';
const BAD_CREDS = 'Invalid username or password';

// This suite fails on purpose many times from one address; the limiter has its own suite.
suiteOnEachDatabase('authentication matrix', { env: { AUTH_FAILURES_PER_MINUTE: '100000' } }, ({ db, server, creds: a }) => {
  let b: Credentials & { tenantId: string };
  before(async () => {
    b = await server.tenant();
  });

  async function expect401(headers: Record<string, string>, message: string, label: string) {
    for (const path of PATHS) {
      const res = await request(server.url + path, { body: candidate(), headers });
      assert.equal(res.status, 401, `${label} ${path}: ${res.text}`);
      assert.equal(errorCode(res), message === BAD_KEY ? 'InvalidApiKey' : 'InvalidCredentials', label);
      assert.equal(res.body.error.message, message, label);
    }
  }

  test('api-key is checked first', async () => {
    await expect401({}, BAD_KEY, 'no headers');
    await expect401({ authorization: basic(a.username, a.password) }, BAD_KEY, 'no api-key');
    await expect401({ authorization: basic(a.username, a.password), 'api-key': 'ak_wrong' }, BAD_KEY, 'wrong api-key');
    await expect401({ authorization: basic(a.username, 'wrong'), 'api-key': '' }, BAD_KEY, 'empty api-key, bad basic');
  });

  test('then Basic credentials', async () => {
    await expect401({ 'api-key': a.apiKey }, BAD_CREDS, 'no authorization');
    await expect401({ 'api-key': a.apiKey, authorization: 'Bearer abc' }, BAD_CREDS, 'other scheme');
    await expect401({ 'api-key': a.apiKey, authorization: 'Basic !!!' }, BAD_CREDS, 'garbage');
    await expect401({ 'api-key': a.apiKey, authorization: `Basic ${Buffer.from('nocolon').toString('base64')}` }, BAD_CREDS, 'no colon');
    await expect401({ 'api-key': a.apiKey, authorization: basic(a.username, 'wrong') }, BAD_CREDS, 'wrong password');
    await expect401({ 'api-key': a.apiKey, authorization: basic('nobody', a.password) }, BAD_CREDS, 'unknown user');
    await expect401({ 'api-key': a.apiKey, authorization: basic(a.username.toUpperCase(), a.password) }, BAD_CREDS, 'username case');
  });

  test('user and key must belong to one tenant', async () => {
    await expect401({ 'api-key': a.apiKey, authorization: basic(b.username, b.password) }, BAD_CREDS, 'key A, user B');
    await expect401({ 'api-key': b.apiKey, authorization: basic(a.username, a.password) }, BAD_CREDS, 'key B, user A');
  });

  test('each tenant with its own pair succeeds', async () => {
    for (const c of [a, b]) assert.equal((await apiClient(server.url, c).createCandidate(candidate())).status, 201);
  });

  test('the auth scheme name is case-insensitive', async () => {
    const header = basic(a.username, a.password).replace('Basic', 'basic');
    const res = await request(server.url + PATHS[0], { body: candidate(), headers: { 'api-key': a.apiKey, authorization: header } });
    assert.equal(res.status, 201, res.text);
  });

  test('a revoked key stops working at once', async () => {
    const extra = await provisionKey(server.running.deps.store, a.tenantId, 'https://second.example.test');
    const creds = { ...a, apiKey: extra.apiKey };
    assert.equal((await apiClient(server.url, creds).createCandidate(candidate())).status, 201);
    assert.equal(await revokeKey(server.running.deps.store, extra.apiKeyId), 'revoked');
    const res = await apiClient(server.url, creds).createCandidate(candidate());
    assert.equal(res.status, 401);
    assert.equal(res.body.error.message, BAD_KEY);
  });

  test('a changed password stops working at once, though it was cached', async () => {
    const u = await provisionUser(server.running.deps.store, a.tenantId, `reset-${db}-${process.pid}`);
    const creds = { ...a, username: u.username, password: u.password };
    assert.equal((await apiClient(server.url, creds).createCandidate(candidate())).status, 201);
    assert.equal(await setPassword(server.running.deps.store, u.username, await hashPassword('a-new-password-123')), true);
    assert.equal((await apiClient(server.url, creds).createCandidate(candidate())).status, 401);
    assert.equal((await apiClient(server.url, { ...creds, password: 'a-new-password-123' }).createCandidate(candidate())).status, 201);
  });

  test('a disabled user stops working at once', async () => {
    const u = await provisionUser(server.running.deps.store, a.tenantId, `disable-${db}-${process.pid}`);
    const creds = { ...a, username: u.username, password: u.password };
    assert.equal((await apiClient(server.url, creds).createCandidate(candidate())).status, 201);
    await disableUser(server.running.deps.store, u.username);
    const res = await apiClient(server.url, creds).createCandidate(candidate());
    assert.equal(res.status, 401);
    assert.equal(res.body.error.message, BAD_CREDS);
  });

  test('no KDF per request: successes are cached, failures are not', async () => {
    const auth = server.running.deps.authenticator;
    const api = apiClient(server.url, a);
    await api.createCandidate(candidate());
    const before = auth.kdfRuns;
    for (let i = 0; i < 20; i++) assert.equal((await api.createCandidate(candidate())).status, 201);
    assert.equal(auth.kdfRuns, before, 'cached successes run no KDF');
    const wrong = apiClient(server.url, { ...a, password: 'wrong' });
    for (let i = 0; i < 3; i++) assert.equal((await wrong.createCandidate(candidate())).status, 401);
    assert.equal(auth.kdfRuns, before + 3, 'every failure runs the KDF');
  });
});
