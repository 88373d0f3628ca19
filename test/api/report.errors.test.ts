import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { apiClient, candidate, errorCode, request, type Credentials } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';
import { wordLayouts } from '../../src/reports/fonts.js';

// The event-loop guard at its default: that another tenant is not shed while PDFs render is one of the checks.
suiteOnEachDatabase('the report refuses what it cannot show', { env: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '500' } }, ({ server, creds: owner }) => {
  let other: Credentials;
  let done: string;
  before(async () => {
    other = await server.tenant();
    const a = await newAssessment(server.url, owner);
    await completeViaForms(new FormClient(server.url), a.id);
    done = a.id;
  });

  test("an unfinished, an unknown and another tenant's assessment are all the same 404 envelope", async () => {
    const open = await newAssessment(server.url, owner);
    const own = apiClient(server.url, owner);
    const replies = [
      await own.get(`/api/anonymous/assessment/${open.id}/report`),
      await own.get('/api/anonymous/assessment/AAAAAAAAAAAAAAAAAAAAAAAA/report'),
      await apiClient(server.url, other).get(`/api/anonymous/assessment/${done}/report`),
      await apiClient(server.url, other).get(`/api/anonymous/assessment/${done}/report?format=pdf`),
    ];
    for (const res of replies) {
      assert.equal(res.status, 404);
      assert.equal(errorCode(res), 'NotFound');
      assert.deepEqual(res.body, replies[0]!.body);
    }
    assert.equal((await own.get(`/api/anonymous/assessment/${done}/report`)).status, 200);
  });

  test('a bad language or format is a 400 in the envelope; no credentials a 401', async () => {
    const own = apiClient(server.url, owner);
    for (const q of ['?lang=de', '?format=docx', '?lang=<script>']) {
      const res = await own.get(`/api/anonymous/assessment/${done}/report${q}`);
      assert.equal(res.status, 400, q);
      assert.equal(errorCode(res), 'ValidationError');
    }
    const anonymous = await request(`${server.url}/api/anonymous/assessment/${done}/report`);
    assert.equal(anonymous.status, 401);
  });

  test('a burst of 80 PDF requests: each is a PDF or a 503 with Retry-After, and another caller is served meanwhile', async () => {
    const own = apiClient(server.url, owner);
    const burst = Promise.all(Array.from({ length: 80 }, () => own.get(`/api/anonymous/assessment/${done}/report?format=pdf`)));
    // The other caller asks once PDFs are waiting for a thread (or, on a fast machine, the burst is over).
    let over = false;
    burst.then(
      () => (over = true),
      () => (over = true),
    );
    await eventually(async () => (server.running.deps.pdfs.queued > 0 || over ? true : undefined), 10_000, 'PDFs waiting for a thread');
    const created = await apiClient(server.url, other).createCandidate(candidate());
    const replies = await burst;
    assert.equal(created.status, 201, 'another tenant is not shed while PDFs render');
    const refused = replies.filter((r) => r.status === 503);
    const rendered = replies.filter((r) => r.status === 200);
    assert.equal(refused.length + rendered.length, 80, `only 200 and 503: ${replies.map((r) => r.status).join(',')}`);
    assert.ok(rendered.length >= 33, `at least one rendering and 32 waiting are served (${rendered.length})`);
    for (const r of refused) {
      assert.equal(errorCode(r), 'ServiceUnavailable');
      assert.ok(Number(r.headers.get('retry-after')) > 0);
    }
    for (const r of rendered) assert.ok(r.text.startsWith('%PDF-'));
  });
});

// One PDF thread and no line: every PDF asked for while another renders is refused.
suiteOnEachDatabase("PDFs past their threads' line", { env: { PDF_THREADS: '1', PDF_QUEUE: '0' } }, ({ server, creds: owner }) => {
  const done: string[] = [];
  before(async () => {
    for (let i = 0; i < 4; i++) {
      const a = await newAssessment(server.url, owner);
      await completeViaForms(new FormClient(server.url), a.id);
      done.push(a.id);
    }
  });

  test('PDFs of four assessments at once: one renders, the others get 503 with Retry-After, and each renders when asked again', async () => {
    const own = apiClient(server.url, owner);
    const pdf = (id: string) => own.get(`/api/anonymous/assessment/${id}/report?format=pdf`);
    const replies = await Promise.all(done.map(pdf));
    assert.deepEqual(replies.map((r) => r.status).sort(), [200, 503, 503, 503], replies.map((r) => r.status).join(','));
    for (const r of replies.filter((x) => x.status === 503)) {
      assert.equal(errorCode(r), 'ServiceUnavailable');
      assert.match(r.body.error.message, /reports are being rendered/, 'refused by the PDF line');
      assert.ok(Number(r.headers.get('retry-after')) > 0);
    }
    for (const id of done) {
      const again = await pdf(id);
      assert.equal(again.status, 200, again.status === 200 ? '' : again.text.slice(0, 300));
      assert.ok(again.text.startsWith('%PDF-'));
    }
  });

  test('the server lays out no word of a PDF on its own thread: the layouts it would share stay empty', async () => {
    const res = await apiClient(server.url, owner).get(`/api/anonymous/assessment/${done[0]}/report?format=pdf&lang=nl`);
    assert.equal(res.status, 200, res.status === 200 ? '' : res.text.slice(0, 300));
    assert.ok(res.text.startsWith('%PDF-'));
    assert.equal(wordLayouts('regular').size + wordLayouts('bold').size, 0);
  });
});
