import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { ReportModel } from '../../src/reports/model.js';
import type { IssuedCredentials } from '../../src/tenancy/provision.js';
import { test } from '../helpers/deadline.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, errorCode, type Reply } from '../helpers/http.js';
import { GATED_PDF_WORKER, PdfGate } from '../helpers/pdf-gate.js';
import { eventually } from '../helpers/receiver.js';
import { within } from '../helpers/ticks.js';

const WAIT_MS = 30_000;

// One PDF thread, held at a gate until the test opens it, and four places in the line. The
// database is not the subject: one is enough.
suiteOnEachDatabase(
  'PDF threads shared out by tenant',
  { on: 'first', tenant: false, env: { PDF_THREADS: '1', PDF_QUEUE: '4' }, serverOptions: { pdfWorker: GATED_PDF_WORKER } },
  ({ server }) => {
    let a: IssuedCredentials;
    let b: IssuedCredentials;
    const aIds: string[] = [];
    let bId: string;
    // The tenant of each PDF rendered, in the order the one thread finished them.
    const rendered: string[] = [];
    let gate: PdfGate;

    before(async () => {
      gate = new PdfGate();
      a = await server.tenant('tenant-a');
      b = await server.tenant('tenant-b');
      const completed = async (creds: IssuedCredentials) => {
        const made = await newAssessment(server.url, creds);
        await completeViaForms(new FormClient(server.url), made.id);
        return made.id;
      };
      for (let i = 0; i < 4; i++) aIds.push(await completed(a));
      bId = await completed(b);
      const pdfs = server.running.deps.pdfs;
      const render = pdfs.render.bind(pdfs);
      pdfs.render = async (model: ReportModel, generatedAt: string, tenantId: string) => {
        const pdf = await render(model, generatedAt, tenantId);
        rendered.push(tenantId === a.tenantId ? 'A' : tenantId === b.tenantId ? 'B' : tenantId);
        return pdf;
      };
    });
    after(() => gate.close());

    test("tenant A's burst of 8 PDFs fills its share of the line; B's one PDF gets the next free thread, before A's waiting PDFs", async () => {
      const pdfs = server.running.deps.pdfs;
      const pdfOf = (creds: IssuedCredentials, id: string, lang: string) =>
        apiClient(server.url, creds).get(`/api/anonymous/assessment/${id}/report?format=pdf&lang=${lang}`);
      // Eight different PDFs (four assessments, two languages): the render cache joins none of them.
      let answered = 0;
      const burst = Promise.all(
        aIds.flatMap((id) =>
          ['nl', 'en'].map((lang) =>
            pdfOf(a, id, lang).then((r) => {
              answered++;
              return r;
            }),
          ),
        ),
      );
      await within(gate.held, WAIT_MS, "A's first PDF held on the thread");
      // Each of A's other PDFs is waiting in the line or has been answered.
      await eventually(async () => (answered + pdfs.queued + 1 === 8 ? true : undefined), WAIT_MS, "A's burst in the line or answered");
      const waitingOfA = pdfs.queued;
      let bAnswered = false;
      const single = pdfOf(b, bId, 'en').then((r) => {
        bAnswered = true;
        return r;
      });
      await eventually(async () => (pdfs.queued > waitingOfA || bAnswered ? true : undefined), WAIT_MS, "B's PDF in the line or answered");
      gate.open();
      const [replies, bReply] = await within(Promise.all([burst, single]), WAIT_MS, 'every PDF answered');

      assert.equal(bReply.status, 200, `B's PDF: ${bReply.status} ${bReply.text.slice(0, 200)}`);
      assert.ok(bReply.text.startsWith('%PDF-'));
      assert.equal(waitingOfA, 2, "A's share: half of the 4 places");
      // The control: A's burst really was more than the line takes from one tenant.
      const refused = replies.filter((r: Reply) => r.status !== 200);
      assert.ok(refused.length > 0, `some of A's PDFs refused: ${replies.map((r) => r.status).join(',')}`);
      for (const r of refused) {
        assert.equal(r.status, 429, r.text.slice(0, 200));
        assert.equal(errorCode(r), 'TooManyRequests');
        assert.ok(Number(r.headers.get('retry-after')) > 0);
      }
      for (const r of replies.filter((x) => x.status === 200)) assert.ok(r.text.startsWith('%PDF-'));
      // The held PDF first, then B's, then A's that were waiting before B asked.
      assert.equal(rendered[0], 'A');
      assert.equal(rendered[1], 'B', `order of renders: ${rendered.join(',')}`);
      assert.deepEqual(rendered.slice(2), ['A', 'A'], `order of renders: ${rendered.join(',')}`);
    });
  },
);
