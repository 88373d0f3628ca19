import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, test } from '../../helpers/deadline.js';
import { loggerOptions, redactUrl } from '../../../src/http/plugins/logging.js';
import { completeViaForms, FormClient } from '../../helpers/forms.js';
import { newAssessment } from '../../helpers/fixtures.js';
import { suiteOnEachDatabase } from '../../helpers/harness.js';
import { apiClient, authHeaders, candidate, request } from '../../helpers/http.js';

describe('logs', () => {
  test('redactUrl keeps six characters of a token', () => {
    assert.equal(redactUrl('/anonymous/analyse/start/AbCdEfGhIjKlMnOpQrStUvWx'), '/anonymous/analyse/start/AbCdEf...');
    assert.equal(redactUrl('/anonymous/analyse/AbCdEfGhIjKlMnOpQrStUvWx/questions/3'), '/anonymous/analyse/AbCdEf.../questions/3');
    assert.equal(redactUrl('/api/anonymous/assessment/AbCdEfGhIjKlMnOpQrStUvWx?x=1'), '/api/anonymous/assessment/AbCdEf...?x=1');
    assert.equal(redactUrl('/api/candidateanalysisresult/AbCdEfGhIjKlMnOpQrStUvWx/en-GB'), '/api/candidateanalysisresult/AbCdEf.../en-GB');
    assert.equal(
      redactUrl('/reports/AbCdEfGhIjKlMnOpQrStUvWx/pdf?expires=1790000000&sig=Zm9vYmFy-_x&lang=en'),
      '/reports/AbCdEf.../pdf?expires=1790000000&sig=...&lang=en',
    );
    assert.equal(redactUrl('/reports/AbCdEfGhIjKlMnOpQrStUvWx?sig=Zm9vYmFy'), '/reports/AbCdEf...?sig=...');
    assert.equal(redactUrl('/anonymous/analyse/start/'), '/anonymous/analyse/.../');
    // An ExternalId goes whole, with whatever follows it (an id with a raw '/' or '?' runs on).
    assert.equal(redactUrl('/api/anonymous/candidate/cand-1'), '/api/anonymous/candidate/...');
    assert.equal(redactUrl('/api/anonymous/candidate/a/b?c#d'), '/api/anonymous/candidate/...');
    assert.equal(redactUrl('/api/anonymous/candidate'), '/api/anonymous/candidate');
    assert.equal(redactUrl('/healthz'), '/healthz');
    // A console set-password link's token is a secret too.
    assert.equal(redactUrl('/console/set-password/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde'), '/console/set-password/AbCdEf...');
    // Percent-encoded letters reach the same routes, so they are found the same way.
    assert.equal(redactUrl('/api/anonymous/%61ssessment/AbCdEfGhIjKlMnOpQrStUvWx'), '/api/anonymous/assessment/AbCdEf...');
    assert.equal(redactUrl('/anonymous/analyse/start/%41bCdEfGhIjKlMnOpQrStUvWx'), '/anonymous/analyse/start/AbCdEf...');
    assert.equal(redactUrl('/reports/AbCdEfGhIjKlMnOpQrStUvWx?%73ig=Zm9vYmFy'), '/reports/AbCdEf...?sig=...');
    assert.equal(redactUrl('/api/anonymous/%63andidate/cand-1'), '/api/anonymous/candidate/...');
    assert.equal(redactUrl('/search?q=a%2Fb'), '/search?q=a%2Fb', 'reserved characters stay encoded');
    // Greenhouse's poll carries the AnalysisId in its query; a resume link a token of its own, cut whole.
    assert.equal(
      redactUrl('/integrations/greenhouse/test_status?partner_interview_id=AbCdEfGhIjKlMnOpQrStUvWx'),
      '/integrations/greenhouse/test_status?partner_interview_id=AbCdEf...',
    );
    assert.equal(
      redactUrl('/x?a=1&partner_interview_%69d=AbCdEfGhIj&partner_interview_id=ZyXwVuTsRq'),
      '/x?a=1&partner_interview_id=AbCdEf...&partner_interview_id=ZyXwVu...',
    );
    assert.equal(redactUrl('/anonymous/analyse/AbCdEfGhIjKlMnOpQrStUvWx/resume/Zm9v-YmFy/x?lang=en'), '/anonymous/analyse/AbCdEf.../resume/...?lang=en');
    assert.equal(redactUrl('/reports/AbCdEfGhIjKlMnOpQrStUvWx?sig=a&sig=b'), '/reports/AbCdEf...?sig=...&sig=...');
  });

  test("a PostgreSQL error's detail, which quotes key values, is not logged", () => {
    let out = '';
    const sink = new Writable({ write: (chunk, _enc, done) => ((out += chunk), done()) });
    const { stream: _, ...options } = loggerOptions({ logLevel: 'info' }, sink) as pino.LoggerOptions & { stream: unknown };
    const err = Object.assign(new Error('insert or update on table "assessments" violates foreign key constraint'), {
      detail: 'Key (external_id)=(ext-detail-7q) is not present',
    });
    pino(options, sink).error({ err }, 'request failed');
    assert.match(out, /violates foreign key constraint/, 'the error is logged');
    assert.ok(!out.includes('ext-detail-7q'));
  });
});

// Processes of their own: what the log holds is read from the process's output.
suiteOnEachDatabase(
  'logs of a running server',
  { on: 'first', process: true, tenant: { name: 'logs' }, env: { LOG_LEVEL: 'debug', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', SHUTDOWN_DRAIN_MS: '0' } },
  ({ serverProcess: server, creds }) => {
    test('JSON lines with a request id; no password, API key, webhook password, whole token or share link signature', async () => {
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

      const lines = server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'));
      assert.ok(lines.length > 20);
      const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const requests = parsed.filter((l) => l.msg === 'request');
      assert.ok(
        requests.every((l) => typeof l.reqId === 'string' && typeof l.method === 'string' && typeof l.url === 'string' && typeof l.statusCode === 'number'),
      );
      assert.ok(requests.some((l) => l.method === 'POST' && l.url === '/api/anonymous/candidate' && l.statusCode === 201 && l.ip === '127.0.0.1'));
      assert.ok(requests.some((l) => l.reqId === 'trace-42'));
      assert.ok(
        parsed.some((l) => l.msg === 'webhook attempt'),
        'webhook attempts are logged',
      );
      const all = server.output();
      for (const secret of [creds.password, creds.apiKey, webhookPassword, 'wrong-password-x', a.id, sig]) {
        assert.ok(!all.includes(secret), `a secret reached the log: ${secret.slice(0, 4)}...`);
      }
      assert.ok(!/authorization|api-key/i.test(all), 'no credential headers are logged');
    });
  },
);

suiteOnEachDatabase('logs keep no ExternalId', { process: true, env: { LOG_LEVEL: 'debug', SHUTDOWN_DRAIN_MS: '0' } }, ({ serverProcess: server, creds }) => {
  test('not in any line, raw or percent-encoded, through create, access, assessment, erasure and 404s', async () => {
    const marker = randomBytes(8).toString('hex');
    const id = `Zoë ${marker}/?#`;
    const encoded = encodeURIComponent(id);
    const trace = `ids-trace-${marker.slice(0, 4)}`;
    const api = apiClient(server.url, creds);
    const del = (path: string) => request(server.url + path, { method: 'DELETE', headers: authHeaders(creds) });

    assert.equal((await api.createCandidate(candidate({ ExternalId: id }))).status, 201);
    assert.equal((await api.get(`/api/anonymous/candidate/${encoded}`, { 'x-request-id': trace })).status, 200);
    const analysisId = (await api.createAssessment({ ExternalId: id, AssessmentType: 0 })).body.Data.AnalysisId as string;
    assert.equal((await api.get(`/api/anonymous/assessment/${analysisId}`)).status, 200);
    assert.equal((await del(`/api/anonymous/candidate/${encoded}`)).status, 200);
    assert.equal((await api.get(`/api/anonymous/candidate/${encoded}`)).status, 404);
    assert.equal((await del(`/api/anonymous/candidate/${encoded}`)).status, 404);
    // The router decodes %63 to "c"; a raw "/" and "?" leave the id's end in another segment and the query.
    assert.equal((await api.get(`/api/anonymous/%63andidate/${encoded}`)).status, 404);
    assert.equal((await api.get(`/api/anonymous/candidate/${encodeURIComponent('Zoë ')}${marker}/?%23`)).status, 404);
    // Stopped to flush every line; a server that does not exit in time is killed, and the exit code says so.
    const killer = setTimeout(() => server.child.kill('SIGKILL'), 60_000);
    const code = await server.stop('SIGTERM');
    clearTimeout(killer);
    assert.equal(code, 0, 'a clean exit within 60 s');

    const all = server.output();
    // Positive controls: the scan reads the lines these requests wrote.
    assert.ok(all.includes(trace), "the access call's request id is logged");
    assert.ok(all.includes(`${analysisId.slice(0, 6)}...`), "the AnalysisId's kept prefix is logged");
    for (const form of [marker, id, encoded, encoded.toLowerCase(), encodeURI(id), JSON.stringify(id).slice(1, -1)]) {
      assert.equal(all.split(form).length - 1, 0, `the ExternalId reached the log as ${form}`);
    }
    // Every such request was logged, with the id cut whole.
    const lines = all
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const candidateLines = lines.filter((l) => l.msg === 'request' && String(l.url).includes('andidate/'));
    assert.deepEqual(
      candidateLines.map((l) => [l.method, l.url, l.statusCode]),
      [
        ['GET', '/api/anonymous/candidate/...', 200],
        ['DELETE', '/api/anonymous/candidate/...', 200],
        ['GET', '/api/anonymous/candidate/...', 404],
        ['DELETE', '/api/anonymous/candidate/...', 404],
        ['GET', '/api/anonymous/candidate/...', 404],
        ['GET', '/api/anonymous/candidate/...', 404],
      ],
    );
  });
});
