import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { plain } from '../helpers/html.js';
import { candidateListPage } from '../../src/console/list-page.js';

const INSTRUMENTS = [{ assessmentType: 0, code: 'TMA170' }];

suiteOnEachDatabase("the console list's page, read and rendered", { tenant: false }, ({ server }) => {
  let tenantId: string;
  let other: { id: string };
  before(async () => {
    const a = await server.tenant('page-a');
    const b = await server.tenant('page-b');
    tenantId = a.tenantId;
    await newAssessment(server.url, a, {}, { FirstName: 'Wim', LastName: 'Wouters' });
    await newAssessment(server.url, a, {}, { FirstName: 'Xandra', LastName: 'Xu' });
    other = await newAssessment(server.url, b, {}, { FirstName: 'Yara', LastName: 'Yilmaz' });
  });
  const page = async (qs: string) =>
    (await candidateListPage(server.running.deps.store, tenantId, new URLSearchParams(qs), { instruments: INSTRUMENTS, lang: 'en', canExport: true })).value;

  test("the tenant's own candidates and counts; another tenant's candidate never", async () => {
    const text = plain(await page(''));
    assert.ok(text.includes('Wim Wouters') && text.includes('Xandra Xu'));
    assert.ok(!text.includes('Yilmaz'));
    assert.ok(text.includes('All 2') && text.includes('Invited 2'));
  });

  test('a search narrows the rows and the counts', async () => {
    const text = plain(await page('q=xan'));
    assert.ok(text.includes('Xandra Xu') && !text.includes('Wim Wouters'));
    assert.ok(text.includes('All 1'));
  });

  test("a cursor naming another tenant's assessment gives the first page and says so", async () => {
    const cursor = Buffer.from(`a:${other.id}`).toString('base64url');
    const text = plain(await page(`cursor=${cursor}`));
    assert.ok(text.includes('The page link is not valid; this is the first page.'));
    assert.ok(text.includes('Wim Wouters') && !text.includes('Yilmaz'));
  });
});
