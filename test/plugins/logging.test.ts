import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after } from 'node:test';
import { describe, test } from '../helpers/deadline.js';
import { redactUrl } from '../../src/plugins/logging.js';
import { runCli } from '../helpers/cli.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { newAssessment } from '../helpers/fixtures.js';
import { apiClient, candidate, request } from '../helpers/http.js';
import { spawnServer, type ServerProcess } from '../helpers/process.js';
import { tempDir } from '../helpers/server.js';

describe('logs', () => {
  const dirs: string[] = [];
  let server: ServerProcess | undefined;
  after(async () => {
    await server?.stop('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test('redactUrl keeps six characters of a token', () => {
    assert.equal(redactUrl('/anonymous/analyse/start/AbCdEfGhIjKlMnOpQrStUvWx'), '/anonymous/analyse/start/AbCdEf...');
    assert.equal(redactUrl('/anonymous/analyse/AbCdEfGhIjKlMnOpQrStUvWx/questions/3'), '/anonymous/analyse/AbCdEf.../questions/3');
    assert.equal(redactUrl('/api/anonymous/assessment/AbCdEfGhIjKlMnOpQrStUvWx?x=1'), '/api/anonymous/assessment/AbCdEf...?x=1');
    assert.equal(redactUrl('/api/candidateanalysisresult/AbCdEfGhIjKlMnOpQrStUvWx/en-GB'), '/api/candidateanalysisresult/AbCdEf.../en-GB');
    assert.equal(redactUrl('/reports/AbCdEfGhIjKlMnOpQrStUvWx/pdf?expires=1790000000&sig=Zm9vYmFy-_x&lang=en'), '/reports/AbCdEf.../pdf?expires=1790000000&sig=...&lang=en');
    assert.equal(redactUrl('/reports/AbCdEfGhIjKlMnOpQrStUvWx?sig=Zm9vYmFy'), '/reports/AbCdEf...?sig=...');
    assert.equal(redactUrl('/anonymous/analyse/start/'), '/anonymous/analyse/.../');
    assert.equal(redactUrl('/api/anonymous/candidate/cand-1'), '/api/anonymous/candidate/cand-1');
    assert.equal(redactUrl('/healthz'), '/healthz');
  });

  test('JSON lines with a request id; no password, API key, webhook password, whole token or share link signature', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, DEMO_TENANT: 'false', LOG_LEVEL: 'debug', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', SHUTDOWN_DRAIN_MS: '0' };
    const creds = JSON.parse((await runCli(['tenant', 'create', '--name', 'logs', '--portal-domain', 'https://p.test', '--json'], env)).stdout);
    server = await spawnServer(env);
    const webhookPassword = 'hook-secret-9f8e7d';
    const a = await newAssessment(server.url, creds, { WebhookUrl: 'http://127.0.0.1:9/hook', WebhookUsername: 'u', WebhookPassword: webhookPassword });
    await completeViaForms(new FormClient(server.url), a.id);
    // An ATS polling results, and a recruiter opening the report's share link: both carry capabilities in the URL.
    const results = await apiClient(server.url, creds).get(`/api/candidateanalysisresult/${a.id}/en-GB`);
    assert.equal(results.status, 200);
    const shareLink = new URL((results.body as { ReportUrl: string }).ReportUrl);
    const sig = shareLink.searchParams.get('sig')!;
    assert.ok(sig.length > 20);
    assert.equal((await request(`${server.url}${shareLink.pathname}${shareLink.search}`)).status, 200);
    await apiClient(server.url, { ...creds, password: 'wrong-password-x' }).createCandidate(candidate());
    await apiClient(server.url, creds).post('/api/anonymous/candidate', candidate(), { 'x-request-id': 'trace-42' });
    assert.equal(await server.stop('SIGTERM'), 0);

    const lines = server.output().split('\n').filter((l) => l.startsWith('{'));
    assert.ok(lines.length > 20);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = parsed.filter((l) => l.msg === 'request');
    assert.ok(requests.every((l) => typeof l.reqId === 'string' && typeof l.method === 'string' && typeof l.url === 'string' && typeof l.statusCode === 'number'));
    assert.ok(requests.some((l) => l.method === 'POST' && l.url === '/api/anonymous/candidate' && l.statusCode === 201 && l.ip === '127.0.0.1'));
    assert.ok(requests.some((l) => l.reqId === 'trace-42'));
    assert.ok(parsed.some((l) => l.msg === 'webhook attempt'), 'webhook attempts are logged');
    const all = server.output();
    for (const secret of [creds.password, creds.apiKey, webhookPassword, 'wrong-password-x', a.id, sig]) {
      assert.ok(!all.includes(secret), `a secret reached the log: ${secret.slice(0, 4)}...`);
    }
    assert.ok(!/authorization|api-key/i.test(all), 'no credential headers are logged');
  });
});
