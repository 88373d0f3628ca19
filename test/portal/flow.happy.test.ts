import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { findCandidate } from '../../src/assessments/candidates-store.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, csrfToken, FormClient, itemNames, startPath } from '../helpers/forms.js';

suiteOnEachDatabase('candidate portal without JavaScript', {}, ({ server, creds }) => {
  test('TMA170 from start to ReturnUrl; status, timestamps and scores are stored', async () => {
    const a = await newAssessment(server.url, creds, { AssessmentType: 0, ReturnUrl: 'https://ats.example.com/back?x=1' });
    const client = new FormClient(server.url);
    const start = await client.get(startPath(a.id));
    assert.equal(start.status, 200);
    assert.match(start.html, /170/);
    const end = await completeViaForms(client, a.id);
    assert.equal(end.status, 303);
    assert.equal(end.location, 'https://ats.example.com/back?x=1');

    const status = await a.api.get(`/api/anonymous/assessment/${a.id}`);
    assert.equal(status.status, 200, status.text);
    const d = status.body.Data;
    assert.equal(d.Status, 'Completed');
    assert.ok(d.StartedAt && d.CompletedAt && d.CreatedAt);
    assert.ok(Date.parse(d.CreatedAt) <= Date.parse(d.StartedAt) && Date.parse(d.StartedAt) <= Date.parse(d.CompletedAt));
    assert.equal(d.Webhook, null);
    assert.equal(d.Scores.length, 26);
    for (const s of d.Scores) {
      assert.ok(s.Mean >= 1 && s.Mean <= 5, JSON.stringify(s));
      assert.ok(s.Items === 6 || s.Items === 7);
    }
  });

  test('TMA312 without ReturnUrl ends on the close-tab page', async () => {
    const a = await newAssessment(server.url, creds, { AssessmentType: 1 });
    const client = new FormClient(server.url, { 'accept-language': 'nl-NL,nl;q=0.9,en;q=0.5' });
    const end = await completeViaForms(client, a.id);
    assert.equal(end.location, `/anonymous/analyse/${a.id}/done`);
    const done = await client.get(end.location!);
    assert.equal(done.status, 200);
    assert.match(done.html, /tabblad of venster nu sluiten/);
    assert.match(done.html, /<html lang="nl">/);
    const status = await a.api.get(`/api/anonymous/assessment/${a.id}`);
    assert.equal(status.body.Data.Scores.length, 26);
    assert.ok(status.body.Data.Scores.every((s: { Items: number }) => s.Items === 12));
  });

  test('NeedsToUpdateData: the form is shown empty, validated, and saved to the candidate', async () => {
    const a = await newAssessment(server.url, creds, {}, { NeedsToUpdateData: true, Gender: 0, FirstName: 'Secret', Email: 'hidden@example.com' });
    const client = new FormClient(server.url);
    const go = await client.submit(startPath(a.id), {});
    assert.equal(go.location, `/anonymous/analyse/${a.id}/details`);
    const form = await client.get(go.location!);
    assert.doesNotMatch(form.html, /Secret|hidden@example\.com|Lovelace/, 'stored data is not shown');
    for (const name of ['FirstName', 'Preposition', 'LastName', 'Email']) assert.match(form.html, new RegExp(`<label for="f-${name}">`));

    const bad = await client.post(go.location!, { _csrf: csrfToken(form.html), FirstName: 'N', Preposition: '', LastName: 'Dijk', Email: 'a@bc' });
    assert.equal(bad.status, 400);
    assert.match(bad.html, /class="error-summary"/);
    assert.match(bad.html, /id="f-FirstName"[^>]*aria-invalid="true"/);
    assert.match(bad.html, /id="f-Email"[^>]*aria-invalid="true"/);
    assert.doesNotMatch(bad.html, /id="f-LastName"[^>]*aria-invalid/);

    const ok = await client.post(go.location!, { _csrf: csrfToken(bad.html), FirstName: ' Noor ', Preposition: 'van', LastName: 'Dijk', Email: 'a@b.c' });
    assert.equal(ok.location, `/anonymous/analyse/${a.id}/gender`, 'Gender 0 asks next');
    const row = await findCandidate(server.running.deps.store, a.externalId);
    assert.deepEqual([row?.first_name, row?.preposition, row?.last_name, row?.email, row?.needs_to_update_data], ['Noor', 'van', 'Dijk', 'a@b.c', 0]);

    const genderForm = await client.get(ok.location!);
    const noChoice = await client.post(ok.location!, { _csrf: csrfToken(genderForm.html) });
    assert.equal(noChoice.status, 400);
    const chose = await client.post(ok.location!, { _csrf: csrfToken(noChoice.html), Gender: '3' });
    assert.equal(chose.location, `/anonymous/analyse/${a.id}/questions/1`);
    assert.equal((await findCandidate(server.running.deps.store, a.externalId))?.gender, 3);
  });

  test('progress, back navigation and resuming in another browser', async () => {
    const a = await newAssessment(server.url, creds, { AssessmentType: 0 });
    const client = new FormClient(server.url);
    await client.submit(startPath(a.id), {});
    const p1 = await client.get(`/anonymous/analyse/${a.id}/questions/1`);
    assert.match(p1.html, /0 of 170 statements answered/);
    assert.match(p1.html, /Page 1 of 17/);
    const names = itemNames(p1.html);
    assert.equal(names.length, 10);
    const fields: Record<string, string> = { _csrf: csrfToken(p1.html), nav: 'next' };
    names.forEach((n, i) => (fields[n] = String((i % 5) + 1)));
    assert.equal((await client.post(`/anonymous/analyse/${a.id}/questions/1`, fields)).location, `/anonymous/analyse/${a.id}/questions/2`);

    const p2 = await client.get(`/anonymous/analyse/${a.id}/questions/2`);
    assert.match(p2.html, /10 of 170 statements answered/);
    const first2 = itemNames(p2.html)[0]!;
    const back = await client.post(`/anonymous/analyse/${a.id}/questions/2`, { _csrf: csrfToken(p2.html), nav: 'back', [first2]: '5' });
    assert.equal(back.location, `/anonymous/analyse/${a.id}/questions/1`);
    const again1 = await client.get(back.location!);
    assert.match(again1.html, new RegExp(`name="${names[2]}" value="3" checked`), 'earlier answers are shown');
    assert.match(again1.html, /11 of 170/, 'the partial answer from page 2 was saved');

    // Another browser needs the personal code, which the candidate's own pages show.
    const code = /<strong class="code">([0-9A-Z-]{14})<\/strong>/.exec(again1.html)?.[1];
    assert.ok(code, "the candidate's page shows the personal code");
    const other = new FormClient(server.url);
    const asked = await other.get(startPath(a.id));
    assert.equal(asked.status, 403);
    assert.match(asked.html, /started on another device/);
    assert.doesNotMatch(asked.html, /checked/);
    const entered = await other.post(`/anonymous/analyse/${a.id}/code`, { _csrf: csrfToken(asked.html), code });
    assert.equal(entered.location, `/anonymous/analyse/${a.id}/questions/2`);
    const resume = await other.get(startPath(a.id));
    assert.match(resume.html, /Welcome back/);
    const cont = await other.post(startPath(a.id), { _csrf: csrfToken(resume.html) });
    assert.equal(cont.location, `/anonymous/analyse/${a.id}/questions/2`);
    const p2b = await other.get(cont.location!);
    assert.match(p2b.html, new RegExp(`name="${first2}" value="5" checked`));
  });

  test('an unanswered statement is refused with an error summary, keeping what was answered', async () => {
    const a = await newAssessment(server.url, creds, { AssessmentType: 0 });
    const client = new FormClient(server.url);
    await client.submit(startPath(a.id), {});
    const path = `/anonymous/analyse/${a.id}/questions/1`;
    const page = await client.get(path);
    const names = itemNames(page.html);
    const fields: Record<string, string> = { _csrf: csrfToken(page.html), nav: 'next' };
    names.slice(1).forEach((n) => (fields[n] = '4'));
    fields[names[2]!] = '9';
    const res = await client.post(path, fields);
    assert.equal(res.status, 400);
    assert.match(res.html, /Please answer the 2 statements marked below/);
    assert.match(res.html, new RegExp(`name="${names[3]}" value="4" checked`));
    assert.equal((res.html.match(/aria-describedby="err-/g) ?? []).length, 2);
  });

  test('pages cannot be skipped: a later page redirects to the first unanswered one', async () => {
    const a = await newAssessment(server.url, creds, { AssessmentType: 0 });
    const client = new FormClient(server.url);
    await client.submit(startPath(a.id), {});
    const skip = await client.get(`/anonymous/analyse/${a.id}/questions/5`);
    assert.equal(skip.status, 303);
    assert.equal(skip.location, `/anonymous/analyse/${a.id}/questions/1`);
    for (const bad of ['0', '99', 'x', '-1']) assert.equal((await client.get(`/anonymous/analyse/${a.id}/questions/${bad}`)).status, 303);
  });
});
