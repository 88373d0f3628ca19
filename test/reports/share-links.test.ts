import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { ReportLinks } from '../../src/reports/links.js';
import { runCli } from '../helpers/cli.js';
import { onlyOn } from '../helpers/databases.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { apiClient, request } from '../helpers/http.js';
import { readPdf } from '../helpers/pdf.js';
import { localPath, pdfHref } from '../helpers/report-links.js';
import { tempDir } from '../helpers/server.js';

suiteOnEachDatabase(
  'share links to a report',
  { env: { PORTAL_UNKNOWN_TOKEN_PER_MINUTE: '1000' }, tenant: { portalDomain: 'https://assess.example.test' } },
  ({ server, creds, cliEnv }) => {
    let id: string;
    let link: string;
    before(async () => {
      const a = await newAssessment(server.url, creds, {}, { FirstName: 'Noor', Preposition: 'van', LastName: 'Dijk' });
      await completeViaForms(new FormClient(server.url), a.id);
      id = a.id;
      link = (await a.api.get(`/api/anonymous/assessment/${id}`)).body.Data.ReportUrl;
    });

    test('the status lookup and the results endpoint give a link on the portal domain that expires in about 30 days', async () => {
      const api = apiClient(server.url, creds);
      assert.match(link, new RegExp(`^https://assess\\.example\\.test/reports/${id}\\?expires=\\d+&sig=[A-Za-z0-9_-]+$`));
      assert.equal((await api.get(`/api/candidateanalysisresult/${id}/nl-NL`)).body.ReportUrl, link);
      const days = (Number(new URL(link).searchParams.get('expires')) * 1000 - Date.now()) / 86_400_000;
      assert.ok(days > 30 && days <= 31, `${days} days`);
      const open = await newAssessment(server.url, creds);
      assert.equal((await api.get(`/api/anonymous/assessment/${open.id}`)).body.Data.ReportUrl, null, 'none before completion');
    });

    test('a valid link opens the report without credentials, with its PDF, and the privacy headers', async () => {
      const page = await request(server.url + localPath(link), { headers: { 'accept-language': 'nl' } });
      assert.equal(page.status, 200);
      assert.match(page.text, /<html lang="nl">/);
      assert.match(page.text, /Noor van Dijk/);
      assert.equal(page.headers.get('cache-control'), 'no-store');
      assert.match(page.headers.get('x-robots-tag') ?? '', /noindex/);
      assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
      assert.match(page.headers.get('content-security-policy') ?? '', /^default-src 'none'; style-src 'self'/);
      const pdf = await fetch(server.url + pdfHref(page.text));
      assert.equal(pdf.status, 200);
      assert.equal(pdf.headers.get('content-type'), 'application/pdf');
      assert.ok((await readPdf(Buffer.from(await pdf.arrayBuffer()))).text.join(' ').includes('Noor van Dijk'));
    });

    test('a tampered or expired link gets the HTML 404 page', async () => {
      const url = new URL(link);
      const sig = url.searchParams.get('sig')!;
      const flip = (s: string) => `${s.slice(0, -1)}${s.endsWith('A') ? 'B' : 'A'}`;
      const tampered = [
        localPath(link).replace(`sig=${sig}`, `sig=${flip(sig)}`),
        localPath(link).replace(/expires=\d+/, `expires=${Number(url.searchParams.get('expires')) + 86_400}`),
        localPath(link).replace(id, flip(id)),
        `/reports/${id}`,
        `/reports/${id}/pdf?expires=abc&sig=${sig}`,
      ];
      // Signed correctly with the server's own key, but 40 days ago: expired.
      const row = await server.running.deps.store.db.selectFrom('assessments').select('report_nonce').where('analysis_id', '=', id).executeTakeFirstOrThrow();
      const old = new ReportLinks(server.running.deps.secretBox.derive('report-links'), 30).path(id, row.report_nonce!, Date.now() - 40 * 86_400_000);
      for (const path of [...tampered, old]) {
        const res = await request(server.url + path);
        assert.equal(res.status, 404, path);
        assert.match(res.headers.get('content-type') ?? '', /text\/html/);
        assert.match(res.text, /Report not found/);
        assert.doesNotMatch(res.text, /Noor/);
      }
    });

    test('a revoked link gets the 404; a new link from the status lookup works', async () => {
      const a = await newAssessment(server.url, creds);
      await completeViaForms(new FormClient(server.url), a.id);
      const before = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ReportUrl;
      assert.equal((await request(server.url + localPath(before))).status, 200);
      // Read before the revoke, so the server has the results body made and kept.
      const resultsLink = async () => (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body.ReportUrl;
      assert.equal(await resultsLink(), before);
      // The CLI is another process: nothing tells the server, which must see the changed row itself.
      const r = await runCli(['report', 'revoke', a.id], cliEnv);
      assert.equal(r.code, 0, r.stderr);
      assert.equal((await request(server.url + localPath(before))).status, 404);
      const after = (await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ReportUrl;
      assert.notEqual(after, before);
      assert.equal(await resultsLink(), after, 'the results endpoint gives the new link, not the body kept from before');
      const page = await request(server.url + localPath(after));
      assert.equal(page.status, 200);
      const sig = new URL(after).searchParams.get('sig')!;
      assert.ok(page.text.includes(`sig=${sig}`), 'the page links its PDF with the new signature');
    });
  },
);

// Several instances share PostgreSQL; on SQLite one instance restarts on its file.
suiteOnEachDatabase('share links across instances and restarts', { start: false }, ({ db, another }) => {
  /** A server on a fresh database with `key`, and a share link it made for a completed assessment. */
  async function linkMade(key: string) {
    const first = await another({ ENCRYPTION_KEY: key });
    const a = await newAssessment(first.url, await first.tenant());
    await completeViaForms(new FormClient(first.url), a.id);
    const link = localPath((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ReportUrl);
    assert.equal((await request(first.url + link)).status, 200);
    return { first, link, dataDir: first.dataDir, databaseUrl: first.databaseUrl };
  }

  test('a link made on one instance opens on another with the same server key', onlyOn('postgres', db), async () => {
    const key = randomBytes(32).toString('base64');
    const { first, link, databaseUrl } = await linkMade(key);
    try {
      const second = await another({ ENCRYPTION_KEY: key }, { reuse: { dataDir: tempDir(), databaseUrl } });
      try {
        assert.equal((await request(second.url + link)).status, 200, 'another instance, the same server key');
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop();
    }
  });

  test('a link opens after a restart with the same server key; not with another key', async () => {
    const key = randomBytes(32).toString('base64');
    const { first, link, dataDir, databaseUrl } = await linkMade(key);
    await first.stop(true);
    const restarted = await another({ ENCRYPTION_KEY: key }, { reuse: { dataDir, databaseUrl } });
    try {
      assert.equal((await request(restarted.url + link)).status, 200, 'after a restart');
    } finally {
      await restarted.stop(true);
    }
    const otherKey = await another({ ENCRYPTION_KEY: randomBytes(32).toString('base64') }, { reuse: { dataDir, databaseUrl } });
    try {
      assert.equal((await request(otherKey.url + link)).status, 404, 'links are signed with the server key');
    } finally {
      await otherKey.stop();
    }
  });
});
