import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { describe, test } from '../helpers/deadline.js';
import { PdfThreads } from '../../src/reports/pdf-threads.js';
import type { ReportModel } from '../../src/reports/model.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { request } from '../helpers/http.js';
import { readPdf } from '../helpers/pdf.js';
import { eventually } from '../helpers/receiver.js';
import { localPath, pdfHref } from '../helpers/report-links.js';
import { within } from '../helpers/ticks.js';

// Every callback of a settled promise has run by the next macrotask.
const settle = () => new Promise((r) => setImmediate(r));

suiteOnEachDatabase('a report page makes its PDF ahead while no PDF thread runs', { tenant: false }, ({ server }) => {
  // The names of the candidates whose PDFs were rendered, in order.
  const rendered: string[] = [];
  // What each page's call to make its PDF ahead started, if anything: a check waits for these.
  const made: Array<Promise<unknown>> = [];
  const completedLink = async (firstName: string) => {
    const creds = await server.tenant();
    const a = await newAssessment(server.url, creds, {}, { FirstName: firstName, LastName: 'Tester' });
    await completeViaForms(new FormClient(server.url), a.id);
    return localPath((await a.api.get(`/api/anonymous/assessment/${a.id}`)).body.Data.ReportUrl as string);
  };
  before(async () => {
    const pdfs = server.running.deps.pdfs;
    const render = pdfs.render.bind(pdfs);
    pdfs.render = (model: ReportModel, generatedAt: string, tenantId: string) => {
      rendered.push(model.candidateName);
      return render(model, generatedAt, tenantId);
    };
    const ahead = pdfs.ahead.bind(pdfs);
    pdfs.ahead = (make) =>
      ahead(() => {
        const making = make();
        made.push(making);
        return making;
      });
  });

  test('opening the page renders its PDF once, the link then gets it, and pages opened while a thread runs make none ahead', async () => {
    const first = await completedLink('Ahead');
    assert.equal(server.running.deps.pdfs.threads, 0, 'no PDF thread before');
    const page = await request(server.url + first);
    assert.equal(page.status, 200);
    await eventually(async () => (rendered.length > 0 ? true : undefined), 20_000, 'the PDF made ahead');
    assert.deepEqual(rendered, ['Ahead Tester']);
    const pdf = await fetch(server.url + pdfHref(page.text), { signal: AbortSignal.timeout(20_000) });
    assert.equal(pdf.status, 200);
    assert.ok((await readPdf(Buffer.from(await pdf.arrayBuffer()))).text.join(' ').includes('Ahead Tester'));
    assert.deepEqual(rendered, ['Ahead Tester'], 'the link got the PDF made ahead, not a second one');

    const second = await completedLink('Later');
    assert.equal((await request(server.url + second)).status, 200);
    // The page asks for its PDF ahead before it answers: anything that started has ended here.
    await within(Promise.allSettled(made), 20_000, 'the PDFs made ahead');
    assert.deepEqual(rendered, ['Ahead Tester'], 'a thread runs: nothing made ahead for the second page');
    assert.equal(made.length, 1, 'only the first page started a PDF ahead');
  });
});

describe('PdfThreads.ahead', () => {
  let pdfs: PdfThreads;
  before(() => {
    pdfs = new PdfThreads({ threads: 1, queue: 4 });
  });
  after(() => pdfs.close());

  test('runs one making at a time, none while another is under way, and a failed one leaves the next free to run', async () => {
    let release!: () => void;
    let runs = 0;
    pdfs.ahead(() => {
      runs++;
      return new Promise<void>((r) => (release = r));
    });
    pdfs.ahead(async () => {
      runs++;
    });
    assert.equal(runs, 1, 'the second is dropped while the first is under way');
    release();
    await settle();
    pdfs.ahead(async () => {
      runs++;
      throw new Error('the render failed');
    });
    await settle();
    pdfs.ahead(async () => {
      runs++;
    });
    assert.equal(runs, 3, 'a failure neither escapes nor blocks the next');
  });
});
