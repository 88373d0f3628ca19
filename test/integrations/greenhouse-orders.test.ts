import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { docsSendTest, greenhouseClient, greenhouseKeyFor } from '../helpers/greenhouse.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { request } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';
import { localPath } from '../helpers/report-links.js';
import { address } from '../helpers/smtp-sink.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

const stens = (metadata: Record<string, unknown>) => Object.keys(metadata).filter((k) => k.endsWith('(sten)'));

// A one-minute poll: the dispatchers look only when the test wakes them.
const env = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '60000', WEBHOOK_TIMEOUT_MS: '2000' };

suiteOnEachDatabase('Greenhouse orders: cancel, erasure, a repeated send_test, the address of each order', { smtp: true, receiver: true, env }, (ctx) => {
  let gh: ReturnType<typeof greenhouseClient>;
  let person = 0;
  // A Greenhouse person of one test alone: a candidate no other test touches.
  const nextPerson = () => `${ctx.db}-${process.pid}-${++person}`;
  const status = (id: string) => gh(`/test_status?partner_interview_id=${id}`);
  const order = async (body: unknown) => {
    const res = await gh('/send_test', { method: 'POST', body });
    assert.equal(res.status, 200, res.text);
    return res.body.partner_interview_id as string;
  };
  const externalIdOf = async (id: string) => (await ctx.api.get(`/api/anonymous/assessment/${id}`)).body.Data.ExternalId as string;
  const countAssessments = async () =>
    Number(
      (
        await ctx.server.running.deps.store.db
          .selectFrom('assessments')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('tenant_id', '=', ctx.creds.tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  before(async () => {
    gh = greenhouseClient(ctx.server.url, await greenhouseKeyFor(ctx.server, ctx.creds));
  });

  test('cancel through the caller API: test_status says cancelled with no link and no score, and no PATCH goes out while a completed control order is PATCHed once', async () => {
    const cancelled = await order(docsSendTest(ctx.receiver.url('/cancelled'), { person: nextPerson() }));
    const control = await order(docsSendTest(ctx.receiver.url('/control'), { person: nextPerson() }));
    const del = await ctx.api.delete(`/api/anonymous/assessment/${cancelled}`);
    assert.equal(del.status, 200, del.text);
    const res = await status(cancelled);
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.partner_status, res.body.partner_profile_url, res.body.partner_score], ['cancelled', null, null]);
    assert.deepEqual(stens(res.body.metadata), []);

    await completeViaForms(new FormClient(ctx.server.url), control);
    const webhooks = ctx.server.running.deps.webhooks;
    await eventually(
      async () => {
        webhooks.wake();
        return ctx.receiver.received.some((r) => r.url === '/control') ? true : undefined;
      },
      15_000,
      'the control PATCH',
    );
    await dispatcherQuiet(webhooks);
    assert.equal(ctx.receiver.received.filter((r) => r.url === '/control').length, 1);
    assert.equal(ctx.receiver.received.filter((r) => r.url === '/cancelled').length, 0);
    assert.equal((await status(control)).body.partner_status, 'complete');
  });

  test('erasure: test_status gets 404 and the profile link stops working; the same send_test afterwards creates the candidate and the test again', async () => {
    const who = nextPerson();
    const url = ctx.receiver.url('/erased');
    const id = await order(docsSendTest(url, { person: who }));
    await completeViaForms(new FormClient(ctx.server.url), id);
    const done = await status(id);
    assert.equal(done.body.partner_status, 'complete');
    const link = localPath(done.body.partner_profile_url);
    assert.equal((await request(ctx.server.url + link)).status, 200, 'before the erasure the link opens the report');

    const externalId = await externalIdOf(id);
    const erased = await ctx.api.delete(`/api/anonymous/candidate/${encodeURIComponent(externalId)}`);
    assert.equal(erased.status, 200, erased.text);
    const gone = await status(id);
    assert.equal(gone.status, 404);
    assert.equal(typeof gone.body.errors[0], 'string');
    assert.equal((await request(ctx.server.url + link)).status, 404);

    const again = await order(docsSendTest(url, { person: who }));
    assert.notEqual(again, id);
    assert.equal(await externalIdOf(again), externalId);
    assert.equal((await status(again)).body.partner_status, 'sent');
  });

  test('a repeated send_test (same person, test and url) returns the same partner_interview_id and sends no second invitation; another url or another test is a new order', async () => {
    const who = nextPerson();
    const to = address();
    const body = docsSendTest(ctx.receiver.url(`/retried-${who}`), { person: who, email: to });
    const atStart = await countAssessments();
    const first = await order(body);
    // Greenhouse retries after a timeout, one call after another.
    assert.equal(await order(body), first);
    assert.equal(await order(body), first);
    assert.equal(await countAssessments(), atStart + 1);
    await eventually(async () => (ctx.sink.to(to).length > 0 ? true : undefined), 15_000, 'the invitation');
    await dispatcherQuiet(ctx.server.running.deps.mail);
    assert.equal(ctx.sink.to(to).length, 1, 'one invitation');

    // Positive controls: another Greenhouse url, or another test on the same url, is another order, invited again.
    const otherUrl = await order({ ...body, url: ctx.receiver.url(`/retried-${who}-2`) });
    const otherTest = await order({ ...body, partner_test_id: '1' });
    assert.equal(new Set([first, otherUrl, otherTest]).size, 3);
    assert.equal(await countAssessments(), atStart + 3);
    await eventually(async () => (ctx.sink.to(to).length >= 3 ? true : undefined), 15_000, 'two more invitations');
    await dispatcherQuiet(ctx.server.running.deps.mail);
    assert.equal(ctx.sink.to(to).length, 3);
  });

  test('a later order for the same person is e-mailed to the address Greenhouse sends with it, not the one stored before', async () => {
    const who = nextPerson();
    const [earlier, later] = [address(), address()];
    await order(docsSendTest(ctx.receiver.url(`/moved-${who}`), { person: who, email: earlier }));
    // Mail is addressed when it is sent: the first invitation is out before the address changes.
    await eventually(async () => (ctx.sink.to(earlier).length > 0 ? true : undefined), 15_000, 'the first invitation');
    const second = await order(docsSendTest(ctx.receiver.url(`/moved-${who}-2`), { person: who, email: later }));
    await eventually(async () => (ctx.sink.to(later).length > 0 ? true : undefined), 15_000, 'the invitation to the new address');
    await dispatcherQuiet(ctx.server.running.deps.mail);
    assert.equal(ctx.sink.to(earlier).length, 1, 'the first order was e-mailed to the first address');
    assert.equal(ctx.sink.to(later).length, 1);
    assert.match(ctx.sink.to(later)[0]!.parsed.text ?? '', new RegExp(`/anonymous/analyse/${second}/resume/`));
  });

  test('send_test takes null where Greenhouse leaves a property without a value, properties it may add, and a one-character family name; an empty name is still refused', async () => {
    const body = docsSendTest(ctx.receiver.url('/fields'), { person: nextPerson() });
    const nulls = await gh('/send_test', {
      method: 'POST',
      body: { ...body, sent_by: null, candidate: { ...body.candidate, preferred_name: null, phone_number: null, resume_url: null } },
    });
    assert.equal(nulls.status, 200, nulls.text);
    assert.equal(typeof nulls.body.partner_interview_id, 'string');

    const later = docsSendTest(ctx.receiver.url('/fields'), { person: nextPerson() });
    const added = await gh('/send_test', { method: 'POST', body: { ...later, job_name: 'Auror', candidate: { ...later.candidate, pronouns: 'he/him' } } });
    assert.equal(added.status, 200, added.text);

    const short = docsSendTest(ctx.receiver.url('/fields'), { person: nextPerson() });
    const wang = await order({ ...short, candidate: { ...short.candidate, first_name: '秀英', last_name: '王' } });
    const stored = (await ctx.api.get(`/api/anonymous/candidate/${encodeURIComponent(await externalIdOf(wang))}`)).body.Data.Candidate;
    assert.deepEqual([stored.FirstName, stored.LastName], ['秀英', '王']);
    const empty = await gh('/send_test', { method: 'POST', body: { ...short, candidate: { ...short.candidate, last_name: '' } } });
    assert.equal(empty.status, 400);
    assert.match(empty.body.errors[0], /last_name/);
  });
});
