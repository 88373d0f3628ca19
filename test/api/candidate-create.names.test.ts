import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, csrfToken, FormClient, startPath } from '../helpers/forms.js';
import { apiClient, authHeaders, candidate, errorCode } from '../helpers/http.js';
import { readPdf } from '../helpers/pdf.js';

// Embeddings, overrides, isolates, marks: each changes how the text around it displays.
const BIDI = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'];
const hex = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
const FIELDS = ['FirstName', 'LastName', 'Preposition'] as const;
const NAMES = { FirstName: 'Zoë 李华', Preposition: 'van', LastName: 'سارة כהן' };

suiteOnEachDatabase('names refuse bidirectional controls, and keep every script', {}, ({ server, creds, cliEnv }) => {
  test('the API refuses each bidi control in each name field with a ValidationError naming the field', async () => {
    const api = apiClient(server.url, creds);
    for (const c of [...BIDI, '\u0085', '\u009B']) {
      for (const field of FIELDS) {
        const body = candidate({ [field]: `Ab${c}cd` });
        const res = await api.createCandidate(body);
        assert.equal(res.status, 400, `${hex(c)} in ${field}: ${res.text}`);
        assert.equal(errorCode(res), 'ValidationError');
        assert.equal(res.body.error.innererror.field, field);
        assert.equal(res.body.error.innererror.rule, 'pattern');
        assert.match(res.body.error.message, new RegExp(`^${field} .*bidirectional`));
        // Nothing was stored: the same ExternalId is still free.
        assert.equal((await api.get(`/api/anonymous/candidate/${encodeURIComponent(String(body.ExternalId))}`)).status, 404);
      }
    }
  });

  test('the portal details form refuses each bidi control with the field marked; a clean name is saved', async () => {
    const a = await newAssessment(server.url, creds, {}, { NeedsToUpdateData: true });
    const client = new FormClient(server.url);
    assert.equal((await client.submit(startPath(a.id), {})).status, 303);
    const details = `/anonymous/analyse/${a.id}/details`;
    const token = csrfToken((await client.get(details)).html);
    const clean = { ...NAMES, Email: 'zoe@example.com' };
    for (const c of BIDI) {
      for (const field of FIELDS) {
        const page = await client.post(details, { _csrf: token, ...clean, [field]: `Ab${c}cd` });
        assert.equal(page.status, 400, `${hex(c)} in ${field}`);
        assert.match(page.html, new RegExp(`<p class="field-error" id="f-${field}-error">[^<]*hidden formatting characters</p>`));
        assert.equal((page.html.match(/class="field-error"/g) ?? []).length, 1, 'only that field is marked');
      }
    }
    const saved = await client.post(details, { _csrf: token, ...clean });
    assert.equal(saved.status, 303, saved.html.slice(0, 300));
    const stored = await apiClient(server.url, creds).get(`/api/anonymous/candidate/${encodeURIComponent(a.externalId)}`);
    assert.equal(stored.status, 200, stored.text);
    assert.match(stored.text, /Zoë 李华/);
    assert.match(stored.text, /سارة כהן/);
  });

  test('names in Arabic, Hebrew, CJK and with accents are accepted and appear in the report and its PDF', async () => {
    const a = await newAssessment(server.url, creds, { AssessmentType: 0 }, NAMES);
    await completeViaForms(new FormClient(server.url), a.id);
    const report = await fetch(`${server.url}/api/anonymous/assessment/${a.id}/report?lang=en`, { headers: authHeaders(creds) });
    assert.equal(report.status, 200);
    assert.ok((await report.text()).includes('Zoë 李华 van سارة כהן'));
    const pdf = await fetch(`${server.url}/api/anonymous/assessment/${a.id}/report?format=pdf&lang=en`, { headers: authHeaders(creds) });
    assert.equal(pdf.status, 200);
    const text = (await readPdf(Buffer.from(await pdf.arrayBuffer()))).text.join(' ');
    for (const part of ['Zoë', '李华']) assert.ok(text.includes(part), `${part} in the PDF`);
  });

  test('the CLI refuses bidi and terminal controls in tenant and organisation names, naming the field', async () => {
    const env = cliEnv;
    const tenant = await runCli(['tenant', 'create', '--name', `Acme\u202Eevil`, '--portal-domain', 'https://acme.example.test'], env);
    assert.equal(tenant.code, 1, tenant.stdout);
    assert.match(tenant.stderr, /Tenant name contains a character that is not allowed \(U\+202E/);
    const list = await runCli(['tenant', 'list'], env);
    assert.equal(list.code, 0, list.stderr);
    assert.doesNotMatch(list.stdout, /Acme/);
    const portal = await runCli(['portal', 'set', '--portal-domain', creds.portalDomain, '--name', 'Acme\u001b]0;x\u0007'], env);
    assert.equal(portal.code, 1, portal.stdout);
    assert.match(portal.stderr, /--name contains a character that is not allowed \(U\+001B/);
    // Positive control: the same names without the controls are taken.
    assert.equal((await runCli(['tenant', 'create', '--name', 'Acme עברית', '--portal-domain', 'https://acme.example.test'], env)).code, 0);
  });
});
