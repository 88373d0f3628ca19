import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { findAssessment } from '../../src/assessments/assessments-store.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, csrfToken, FormClient, itemNames, startPath } from '../helpers/forms.js';

suiteOnEachDatabase('candidate portal: headers, CSRF, completed links', { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } }, ({ server, creds }) => {
  test('every page carries a strict CSP, no-referrer, no framing and no-store', async () => {
    const a = await newAssessment(server.url, creds, { ReturnUrl: 'https://ats.example.com/r' });
    const client = new FormClient(server.url);
    const pages = [await client.get(startPath(a.id)), await client.get(startPath('unknown-token-aaaaaaaaaaaa'))];
    await client.submit(startPath(a.id), {});
    pages.push(await client.get(`/anonymous/analyse/${a.id}/questions/1`));
    for (const page of pages) {
      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, /frame-ancestors 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /default-src 'none'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
      assert.equal(page.headers.get('cache-control'), 'no-store');
      assert.doesNotMatch(page.html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
      assert.doesNotMatch(page.html, /\son[a-z]+=/i, 'no inline event handlers');
    }
    assert.match(pages[2]!.headers.get('content-security-policy') ?? '', /form-action 'self' https:\/\/ats\.example\.com/);
  });

  test('a ReturnUrl stored with a host no header may carry leaves form-action at self', async () => {
    const a = await newAssessment(server.url, creds, { ReturnUrl: 'https://ats.example.com/r' });
    // As a row written before host names were checked could hold it.
    await server.running.deps.store.db
      .updateTable('assessments')
      .set({ return_url: 'https://ats.example.com,sandbox;sandbox;x/' })
      .where('analysis_id', '=', a.id)
      .execute();
    const client = new FormClient(server.url);
    await client.get(startPath(a.id));
    await client.submit(startPath(a.id), {});
    const page = await client.get(`/anonymous/analyse/${a.id}/questions/1`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /form-action 'self'; frame-ancestors 'none'/);
    assert.doesNotMatch(page.headers.get('content-security-policy') ?? '', /sandbox|,/);
  });

  test('an unknown token gets the friendly 404 page', async () => {
    const client = new FormClient(server.url);
    for (const path of [
      startPath('AAAAAAAAAAAAAAAAAAAAAAAA'),
      startPath('x'),
      '/anonymous/analyse/AAAAAAAAAAAAAAAAAAAAAAAA/questions/1',
      '/anonymous/analyse/nothing/here',
    ]) {
      const res = await client.get(path);
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/);
      assert.match(res.html, /Link not found/);
    }
  });

  test('form posts without a valid CSRF token are refused and change nothing', async () => {
    const a = await newAssessment(server.url, creds);
    const b = await newAssessment(server.url, creds);
    const client = new FormClient(server.url);
    await client.get(startPath(a.id));
    assert.equal((await client.post(startPath(a.id), {})).status, 403, 'missing token');
    assert.equal((await client.post(startPath(a.id), { _csrf: 'forged' })).status, 403, 'forged token');
    const tokenForB = csrfToken((await client.get(startPath(b.id))).html);
    const replay = await client.post(startPath(a.id), { _csrf: tokenForB });
    assert.equal(replay.status, 403, "another assessment's token");
    const cookieless = new FormClient(server.url);
    assert.equal((await cookieless.post(startPath(a.id), { _csrf: tokenForB })).status, 403, 'no cookie');
    assert.equal((await findAssessment(server.running.deps.store, a.id))?.status, 'Created');
    assert.match(replay.html, /Please try again/);
  });

  test('a completed link shows that it is done, links to the ReturnUrl, and never completes twice', async () => {
    const a = await newAssessment(server.url, creds, { ReturnUrl: 'https://ats.example.com/r' });
    const client = new FormClient(server.url);
    const token = csrfToken((await client.get(startPath(a.id))).html);
    await completeViaForms(client, a.id);
    const first = await findAssessment(server.running.deps.store, a.id);

    const again = await new FormClient(server.url).get(startPath(a.id));
    assert.equal(again.status, 200);
    assert.match(again.html, /has been completed/);
    assert.match(again.html, /<a class="button-link" href="https:\/\/ats\.example\.com\/r" rel="noreferrer">/);

    const lastPage = `/anonymous/analyse/${a.id}/questions/17`;
    const replay = await client.post(lastPage, { _csrf: token, nav: 'finish' });
    const confirmAgain = await client.post(`/anonymous/analyse/${a.id}/confirm`, { _csrf: token, nav: 'finish' });
    assert.equal((await client.post(startPath(a.id), { _csrf: token })).status, 303);
    assert.equal(replay.status, 303);
    assert.equal(confirmAgain.status, 303);
    const after = await findAssessment(server.running.deps.store, a.id);
    assert.equal(after?.completed_at, first?.completed_at, 'completion time unchanged');
    assert.equal(after?.scores, first?.scores);
  });

  test('every redirect stays on this site, except the one to the ReturnUrl at the end', async () => {
    const returnUrl = 'https://ats.example.com/after?c=9';
    const a = await newAssessment(server.url, creds, { ReturnUrl: returnUrl }, { NeedsToUpdateData: true, Gender: 0 });
    const locations: string[] = [];
    const client = new FormClient(server.url);
    const originalPost = client.post.bind(client);
    client.post = async (path, fields) => {
      const res = await originalPost(path, fields);
      if (res.location) locations.push(res.location);
      return res;
    };
    const end = await completeViaForms(client, a.id);
    assert.equal(end.location, returnUrl);
    for (const location of locations.slice(0, -1)) assert.match(location, /^\/anonymous\/analyse\//, location);
    assert.equal(locations.at(-1), returnUrl);
  });

  test('racing finishes complete once and queue one webhook', async () => {
    const a = await newAssessment(server.url, creds, { WebhookUrl: 'http://127.0.0.1:9/never' });
    const client = new FormClient(server.url);
    await client.submit(startPath(a.id), {});
    for (let page = 1; page < 17; page++) {
      const path = `/anonymous/analyse/${a.id}/questions/${page}`;
      const html = (await client.get(path)).html;
      const fields: Record<string, string> = { _csrf: csrfToken(html), nav: 'next' };
      for (const n of itemNames(html)) fields[n] = '3';
      assert.equal((await client.post(path, fields)).status, 303);
    }
    const last = `/anonymous/analyse/${a.id}/questions/17`;
    const html = (await client.get(last)).html;
    const fields: Record<string, string> = { _csrf: csrfToken(html), nav: 'finish' };
    for (const n of itemNames(html)) fields[n] = '3';
    assert.equal((await client.post(last, fields)).location, `/anonymous/analyse/${a.id}/confirm`);
    const confirm = `/anonymous/analyse/${a.id}/confirm`;
    const token = csrfToken((await client.get(confirm)).html);
    const replies = await Promise.all(Array.from({ length: 8 }, () => client.post(confirm, { _csrf: token, nav: 'finish' })));
    assert.ok(replies.every((r) => r.status === 303));
    const deliveries = await server.running.deps.store.db.selectFrom('webhook_attempts').selectAll().where('analysis_id', '=', a.id).execute();
    assert.equal(deliveries.length, 1);
  });

  test('language: Accept-Language picks Dutch, the switcher changes it and is remembered', async () => {
    const a = await newAssessment(server.url, creds);
    const client = new FormClient(server.url, { 'accept-language': 'nl-BE,nl;q=0.9' });
    const nl = await client.get(startPath(a.id));
    assert.match(nl.html, /<html lang="nl">/);
    assert.match(nl.html, /Start de vragenlijst/);
    assert.match(nl.html, new RegExp(`href="${startPath(a.id)}\\?lang=en"`));
    const en = await client.get(`${startPath(a.id)}?lang=en`);
    assert.match(en.html, /<html lang="en">/);
    assert.match(en.html, /Start the questionnaire/);
    const still = await client.get(startPath(a.id));
    assert.match(still.html, /<html lang="en">/, 'the choice is remembered');
    const fr = await new FormClient(server.url, { 'accept-language': 'fr-FR' }).get(startPath(a.id));
    assert.match(fr.html, /<html lang="en">/);
  });

  test('the portal reads only urlencoded forms within its limits; its largest real form fits', async () => {
    const a = await newAssessment(server.url, creds, {}, { NeedsToUpdateData: true });
    const client = new FormClient(server.url);
    assert.equal((await client.submit(startPath(a.id), {})).status, 303);
    const details = `/anonymous/analyse/${a.id}/details`;
    const token = csrfToken((await client.get(details)).html);
    const tooMany: Record<string, string> = { _csrf: token };
    for (let i = 0; i < 100; i++) tooMany[`x${i}`] = '1';
    const refused = await client.post(details, tooMany);
    assert.equal(refused.status, 413);
    assert.match(refused.headers.get('content-type') ?? '', /text\/html/);
    const json = await fetch(new URL(details, server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: client.cookieHeader() },
      body: JSON.stringify({ _csrf: token, FirstName: 'Noor' }),
      redirect: 'manual',
    });
    assert.equal(json.status, 415);
    // Every field at its longest; each name character three UTF-8 bytes, percent-encoded: nine bytes apiece.
    const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(50)}.nl`;
    const longest = { FirstName: 'Ẑ'.repeat(100), LastName: 'Ẑ'.repeat(100), Preposition: 'ẞ'.repeat(50), Email: email };
    const saved = await client.post(details, { _csrf: token, ...longest });
    assert.equal(saved.status, 303, saved.html.slice(0, 300));
  });

  test('static assets are served from this origin', async () => {
    const client = new FormClient(server.url);
    const css = await client.get('/assets/portal.css');
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /text\/css/);
    const js = await client.get('/assets/portal.js');
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /javascript/);
  });
});

suiteOnEachDatabase("candidate portal: a form's token is dated", { env: { PORTAL_FORM_TTL_MS: '3000' } }, ({ server, creds }) => {
  const answersOf = async (id: string) =>
    (
      await server.running.deps.store.db
        .selectFrom('assessment_answers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('analysis_id', '=', id)
        .executeTakeFirstOrThrow()
    ).n;

  test('a page posted within PORTAL_FORM_TTL_MS is taken; one posted after it gets "Please try again", saves nothing, and a fresh page is taken', async () => {
    const a = await newAssessment(server.url, creds);
    const client = new FormClient(server.url);
    const started = await client.post(startPath(a.id), { _csrf: csrfToken((await client.get(startPath(a.id))).html) });
    assert.equal(started.status, 303, 'a token used at once is taken');
    const location = started.location!;
    assert.match(location, /\/questions\/1$/);

    const post = (html: string) => {
      const fields: Record<string, string> = { _csrf: csrfToken(html), nav: 'next' };
      for (const name of itemNames(html)) fields[name] = '3';
      return client.post(location, fields);
    };
    const stale = (await client.get(location)).html;
    await new Promise((r) => setTimeout(r, 3_500));
    const late = await post(stale);
    assert.equal(late.status, 403);
    assert.match(late.html, /Please try again/);
    assert.equal(Number(await answersOf(a.id)), 0, 'nothing saved from the late post');

    const fresh = await post((await client.get(location)).html);
    assert.equal(fresh.status, 303);
    assert.match(fresh.location!, /\/questions\/2$/);
    assert.ok(Number(await answersOf(a.id)) > 0, 'the fresh page was saved');
  });
});
