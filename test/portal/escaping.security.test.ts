import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient, startPath } from '../helpers/forms.js';
import { authHeaders, request } from '../helpers/http.js';

// Allowed in names (no control or bidi characters), and each one markup if left raw.
const EVIL = '<b>&"x';
const ESCAPED = '&lt;b&gt;&amp;&quot;x';

/** The page shows the text escaped, `times` times at least, and never as markup. */
function escapedIn(html: string, times: number, what: string): void {
  assert.ok(html.split(ESCAPED).length - 1 >= times, `${what}: ${ESCAPED} ${times}× in ${html.slice(0, 2000)}`);
  assert.ok(!html.includes('<b>'), `${what}: no raw <b>`);
  assert.ok(!html.includes('&"x'), `${what}: no raw & or "`);
}

suiteOnEachDatabase(`an organisation's or candidate's name with <, & and " is escaped on every page that shows it`, {}, ({ server, cliEnv, creds: tenant }) => {
  before(async () => {
    const set = await runCli(['portal', 'set', '--key', tenant.apiKeyId, '--name', EVIL, '--candidate-feedback', 'on', '--json'], cliEnv);
    assert.equal(set.code, 0, set.stderr);
  });

  test('start, questions and feedback pages name the organisation escaped (title and header)', async () => {
    const a = await newAssessment(server.url, tenant, {}, { FirstName: EVIL, LastName: `Last ${EVIL}` });
    const client = new FormClient(server.url);
    escapedIn((await client.get(startPath(a.id))).html, 2, 'start');
    const end = await completeViaForms(client, a.id);
    assert.equal(end.location, `/anonymous/analyse/${a.id}/feedback`);
    escapedIn((await client.get(end.location!)).html, 2, 'feedback');
  });

  test('the report page names the candidate escaped', async () => {
    const a = await newAssessment(server.url, tenant, {}, { FirstName: EVIL, LastName: `Last ${EVIL}` });
    await completeViaForms(new FormClient(server.url), a.id);
    const res = await fetch(`${server.url}/api/anonymous/assessment/${a.id}/report?lang=en`, { headers: authHeaders(tenant) });
    assert.equal(res.status, 200);
    const html = await res.text();
    // The title and the candidate line: first name and last name.
    escapedIn(html, 4, 'report');
    assert.ok(html.includes(`Last ${ESCAPED}`), 'the last name');
  });

  test('the withdrawn and the expired pages name the organisation escaped, in the text as well', async () => {
    const cancelled = await newAssessment(server.url, tenant);
    assert.equal((await request(`${server.url}/api/anonymous/assessment/${cancelled.id}`, { method: 'DELETE', headers: authHeaders(tenant) })).status, 200);
    const withdrawn = (await new FormClient(server.url).get(`${startPath(cancelled.id)}?lang=en`)).html;
    assert.match(withdrawn, /has withdrawn this questionnaire/);
    escapedIn(withdrawn, 3, 'cancelled');

    const expired = await newAssessment(server.url, tenant);
    const db = server.running.deps.store.db;
    await db
      .updateTable('assessments')
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('analysis_id', '=', expired.id)
      .execute();
    const page = (await new FormClient(server.url).get(`${startPath(expired.id)}?lang=en`)).html;
    assert.match(page, /The time to complete this questionnaire has passed/);
    escapedIn(page, 3, 'expired');
  });
});
