import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { authHeaders } from '../helpers/http.js';
import { readXmp } from '../helpers/pdf.js';
import { localPath, pdfHref } from '../helpers/report-links.js';
import { instruments } from '../helpers/results.js';

// Closes pdfkit's dc:title and opens an element of its own: what a raw Title would let through.
const INJECTED = 'A</rdf:li></rdf:Alt></dc:title><dc:rights>Approved by HR</dc:rights><dc:title><rdf:Alt><rdf:li>';
const tma170 = instruments.get(0)!;

suiteOnEachDatabase("report PDFs: the candidate's name stays out of the metadata", {}, ({ server, creds }) => {
  let id: string;
  before(async () => {
    const a = await newAssessment(server.url, creds, { AssessmentType: 0 }, { FirstName: INJECTED, Preposition: '', LastName: 'Lovelace' });
    await completeViaForms(new FormClient(server.url), a.id);
    id = a.id;
  });

  /** The PDF from the API's report route and from the share link's page. */
  async function pdfs(): Promise<Array<[string, Buffer]>> {
    const api = await fetch(`${server.url}/api/anonymous/assessment/${id}/report?format=pdf&lang=en`, { headers: authHeaders(creds) });
    assert.equal(api.status, 200);
    const status = await fetch(`${server.url}/api/anonymous/assessment/${id}`, { headers: authHeaders(creds) });
    const link = ((await status.json()) as { Data: { ReportUrl: string } }).Data.ReportUrl;
    const page = await fetch(server.url + localPath(link), { headers: { 'accept-language': 'en' } });
    assert.equal(page.status, 200);
    const shared = await fetch(server.url + pdfHref(await page.text()));
    assert.equal(shared.status, 200);
    assert.equal(shared.headers.get('content-type'), 'application/pdf');
    return [
      ['API', Buffer.from(await api.arrayBuffer())],
      ['share link', Buffer.from(await shared.arrayBuffer())],
    ];
  }

  test('the XMP packet parses with the title the report sets and no element the name brought in', async () => {
    for (const [route, bytes] of await pdfs()) {
      const { packet, fields } = await readXmp(bytes);
      assert.equal(fields['dc:rights'], undefined, `${route}: ${packet}`);
      // Positive control: the packet is found, parses, and has the report's own title.
      assert.equal(fields['dc:title'], `Assessment report: ${tma170.name.en} (${tma170.code})`, `${route}: ${packet}`);
      assert.deepEqual(fields['dc:creator'], ['Assay']);
      assert.doesNotMatch(packet, /dc:rights|Approved by HR|Lovelace/, route);
      // Nor in the Info dictionary or anywhere else stored uncompressed.
      assert.ok(!bytes.includes('Approved by HR'), `${route}: the PDF's bytes hold the injected text`);
      assert.ok(!bytes.includes('Lovelace'), `${route}: the PDF's bytes hold the candidate's name`);
    }
  });
});
