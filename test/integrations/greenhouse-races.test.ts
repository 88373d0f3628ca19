import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { docsSendTest, greenhouseClient, greenhouseKeyFor } from '../helpers/greenhouse.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { eventually } from '../helpers/receiver.js';
import { address } from '../helpers/smtp-sink.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

const env = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '60000' };
// Greenhouse retries a send_test it got no answer to; ten at once is what the review saw make several orders.
const CALLS = 10;
// Each round is a fresh chance for the race: one round can pass by luck.
const ROUNDS = 3;

suiteOnEachDatabase('Greenhouse send_test called concurrently', { smtp: true, receiver: true, env }, (ctx) => {
  let gh: ReturnType<typeof greenhouseClient>;
  let person = 0;
  const nextPerson = () => `race-${ctx.db}-${process.pid}-${++person}`;

  before(async () => {
    gh = greenhouseClient(ctx.server.url, await greenhouseKeyFor(ctx.server, ctx.creds));
  });

  /** The same send_test CALLS times at once: each answer's status and partner_interview_id. */
  const sendAtOnce = async (body: unknown) => {
    const answers = await Promise.all(Array.from({ length: CALLS }, () => gh('/send_test', { method: 'POST', body })));
    return answers.map((a) => ({ status: a.status, id: a.body?.partner_interview_id as string | undefined, text: a.text }));
  };
  /** The person's assessments as the caller API's access call lists them: each one's WebhookUrl. */
  const ordersOf = async (id: string) => {
    const externalId = (await ctx.api.get(`/api/anonymous/assessment/${id}`)).body.Data.ExternalId as string;
    const res = await ctx.api.get(`/api/anonymous/candidate/${encodeURIComponent(externalId)}`);
    assert.equal(res.status, 200, res.text);
    return (res.body.Data.Assessments as Array<{ WebhookUrl: string }>).map((a) => a.WebhookUrl);
  };
  const invitationsTo = async (to: string, atLeast: number) => {
    await eventually(async () => (ctx.sink.to(to).length >= atLeast ? true : undefined), 15_000, `${atLeast} invitation(s) to ${to}`);
    await dispatcherQuiet(ctx.server.running.deps.mail);
    return ctx.sink.to(to).length;
  };

  /** Every call answered 200 with one and the same id: that id. */
  const oneId = (answers: Awaited<ReturnType<typeof sendAtOnce>>, round: number): string => {
    assert.deepEqual(
      answers.map((a) => a.status),
      Array<number>(CALLS).fill(200),
      answers.map((a) => a.text).join('\n'),
    );
    const ids = new Set(answers.map((a) => a.id));
    assert.equal(ids.size, 1, `round ${round}: ${ids.size} different ids`);
    return answers[0]!.id!;
  };

  test(`${CALLS} identical calls at once for a new person make one order, answered to all with its id, and one invitation`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const to = address();
      const url = ctx.receiver.url(`/new-${round}-${person + 1}`);
      const answers = await sendAtOnce(docsSendTest(url, { person: nextPerson(), email: to }));
      const id = oneId(answers, round);
      assert.deepEqual(await ordersOf(id), [url], `round ${round}`);
      assert.equal(await invitationsTo(to, 1), 1, `round ${round}: invitations`);
      assert.equal((await gh(`/test_status?partner_interview_id=${id}`)).body.partner_status, 'sent');
    }
  });

  test(`${CALLS} identical calls at once for a person Greenhouse ordered for before, with a new url, make one more order and one more invitation`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const to = address();
      const who = nextPerson();
      const first = ctx.receiver.url(`/first-${who}`);
      const firstAnswer = await gh('/send_test', { method: 'POST', body: docsSendTest(first, { person: who, email: to }) });
      assert.equal(firstAnswer.status, 200, firstAnswer.text);
      // Positive control for the count below: the first order's invitation is seen before the calls.
      assert.equal(await invitationsTo(to, 1), 1, `round ${round}: the first invitation`);

      const second = ctx.receiver.url(`/second-${who}`);
      const answers = await sendAtOnce(docsSendTest(second, { person: who, email: to }));
      assert.notEqual(oneId(answers, round), firstAnswer.body.partner_interview_id, 'the new url is a new order');
      assert.deepEqual((await ordersOf(firstAnswer.body.partner_interview_id)).sort(), [first, second].sort(), `round ${round}`);
      assert.equal(await invitationsTo(to, 2), 2, `round ${round}: invitations`);
    }
  });
});
