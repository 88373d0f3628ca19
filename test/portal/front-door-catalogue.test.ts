import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before } from 'node:test';
import { ROOT } from '../../src/platform/paths.js';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { plain } from '../helpers/html.js';
import { request } from '../helpers/http.js';

const BROWSER = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

interface Entry {
  AssessmentType: number;
  Code: string;
  Name: { nl: string; en: string };
}

suiteOnEachDatabase('the front door and the README name what the catalogue lists', { on: 'first' }, ({ server, api }) => {
  let catalogue: Entry[];
  before(async () => {
    const res = await api.get('/api/anonymous/assessmenttypes');
    assert.equal(res.status, 200, res.text);
    catalogue = res.body.Data;
    assert.ok(catalogue.length >= 3, 'TMA170, TMA312 and the SPI at least');
  });

  test('GET / as JSON: one instruments entry per catalogue entry (type, code, English name), and every code in the description', async () => {
    const res = await request(`${server.url}/`, { headers: { accept: 'application/json' } });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.instruments,
      catalogue.map((c) => ({ assessmentType: c.AssessmentType, code: c.Code, name: c.Name.en })),
    );
    assert.equal(res.body.description, `Candidate assessments (${catalogue.map((c) => c.Code).join(', ')}) for applicant-tracking systems`);
  });

  test('GET / as HTML, in English and Dutch: every catalogue entry by its name in that language and its code, the codes in the introduction', async () => {
    for (const lang of ['en', 'nl'] as const) {
      const res = await request(`${server.url}/?lang=${lang}`, { headers: { accept: BROWSER } });
      assert.equal(res.status, 200);
      const items = [...res.text.matchAll(/<li>([^<]*)<\/li>/g)].map((m) => plain(m[1]!).trim());
      for (const c of catalogue) assert.ok(items.includes(`${c.Name[lang]} (${c.Code})`), `${lang}: ${c.Code} listed, in ${items.join(' | ')}`);
      const lead = plain(/<p class="lead">([\s\S]*?)<\/p>/.exec(res.text)?.[1] ?? '');
      for (const c of catalogue) assert.ok(lead.includes(c.Code), `${lang}: ${c.Code} in the introduction: ${lead}`);
    }
  });

  test("the README's first paragraph names every catalogue code, and Try it's comment gives each with its AssessmentType", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const first = readme.split('\n\n')[1]!;
    for (const c of catalogue) assert.match(first, new RegExp(`\\b${c.Code}\\b`), `${c.Code} in: ${first}`);
    const comment = /^# Create an? .* assessment for it.*$/m.exec(readme)?.[0];
    assert.ok(comment, "Try it's comment on creating an assessment");
    for (const c of catalogue) assert.ok(comment.includes(`${c.Code} (${c.AssessmentType})`), `${c.Code} (${c.AssessmentType}) in: ${comment}`);
  });
});
