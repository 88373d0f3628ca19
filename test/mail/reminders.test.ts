import assert from 'node:assert/strict';
import { before } from 'node:test';
import { updateMailSettings } from '../../src/mail/settings-store.js';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { eventually } from '../helpers/receiver.js';
import type { TestServer } from '../helpers/server.js';
import { address, mailEnv, type Caught } from '../helpers/smtp-sink.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

const DELAY_S = 3;
const isReminder = (c: Caught) => (c.parsed.subject ?? '').startsWith('Reminder:');
type Api = Awaited<ReturnType<typeof newAssessment>>['api'];
const mailLog = async (api: Api, id: string) =>
  (await api.get(`/api/anonymous/assessment/${id}/emails`)).body.Data as Array<{
    Kind: string;
    Status: string;
    LastReply: string | null;
    SentAt: string | null;
  }>;

suiteOnEachDatabase('mail reminders', { smtp: true, env: { MAIL_POLL_INTERVAL_MS: '100' } }, ({ server, sink, creds }) => {
  before(async () => {
    await updateMailSettings(server.running.deps.store, creds.apiKeyId, { reminder_after_seconds: DELAY_S, max_reminders: 1 });
  });

  test(`exactly one reminder, ${DELAY_S} s after the invitation, and no second one (max 1)`, async () => {
    const to = address();
    const a = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: to });
    const reminder = await eventually(async () => sink.to(to).find(isReminder), 15_000, 'the reminder');
    // The sink has it a moment before the log records it sent.
    const log = await eventually(async () => {
      const l = await mailLog(a.api, a.id);
      return l.length === 2 && l.every((m) => m.Status === 'Sent') ? l : undefined;
    });
    const invitedAt = Date.parse(log.find((m) => m.Kind === 'Invitation')!.SentAt!);
    const remindedAt = Date.parse(log.find((m) => m.Kind === 'Reminder')!.SentAt!);
    assert.ok(remindedAt - invitedAt >= DELAY_S * 1000, `the reminder came ${remindedAt - invitedAt} ms after the invitation`);
    assert.ok(reminder.parsed.text!.includes(`/anonymous/analyse/${a.id}/resume/`));
    assert.ok(reminder.parsed.text!.includes('you have not finished it yet'));
    // This portal has no organisation name: the reminder says so in plain sentences.
    assert.equal(reminder.parsed.subject, 'Reminder: you are invited to complete a questionnaire');
    assert.ok(reminder.parsed.text!.includes('You were invited to complete a questionnaire, and you have not finished it yet.'));
    // Another delay and more: a second reminder would be due by now.
    await new Promise((r) => setTimeout(r, DELAY_S * 1000 + 500));
    await dispatcherQuiet(server.running.deps.mail);
    assert.deepEqual(
      sink.to(to).map((c) => (isReminder(c) ? 'reminder' : 'invitation')),
      ['invitation', 'reminder'],
    );
  });

  test('no reminder after completion, cancel or expiry: each is cancelled in the log, with why', async () => {
    const done = await newAssessment(server.url, creds, { SendInvitation: false }, { Email: address() });
    const cancelled = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: address() });
    // Cancelled as soon as its reminder waits: one request, not the finish below, before it is due.
    await eventually(
      async () => ((await mailLog(cancelled.api, cancelled.id)).some((m) => m.Kind === 'Reminder' && m.Status === 'Pending') ? true : undefined),
      15_000,
      'the reminder of the one to cancel, due',
    );
    assert.equal((await cancelled.api.delete(`/api/anonymous/assessment/${cancelled.id}`)).status, 200);
    // It expires before its reminder is due however slow the create: the reminder counts from the invitation, sent after it.
    const expiring = await newAssessment(
      server.url,
      creds,
      { SendInvitation: true, ExpiresAt: new Date(Date.now() + DELAY_S * 1000 - 500).toISOString() },
      { Email: address() },
    );
    // A positive control: one left alone gets its reminder in the same time.
    const control = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: address() });
    // Its invitation goes out once every answer is in, so the finish (one request) comes before the reminder is due, however busy the machine.
    await completeViaForms(new FormClient(server.url), done.id, {
      details: { FirstName: 'Noor', Preposition: '', LastName: 'Dijk', Email: 'noor-done@example.nl' },
      beforeFinish: async () => {
        assert.equal((await done.api.post(`/api/anonymous/assessment/${done.id}/invitation`, {})).status, 202);
        await eventually(
          async () => ((await mailLog(done.api, done.id)).some((m) => m.Kind === 'Reminder' && m.Status === 'Pending') ? true : undefined),
          15_000,
          'the reminder due',
        );
      },
    });
    for (const [a, why] of [
      [done, /completed/],
      [cancelled, /cancelled/],
      [expiring, /expired/],
    ] as const) {
      const reminder = await eventually(
        async () => (await mailLog(a.api, a.id)).find((m) => m.Kind === 'Reminder' && m.Status !== 'Pending' && m.Status !== 'Sending'),
        15_000,
        'the reminder settled',
      );
      assert.equal(reminder.Status, 'Cancelled');
      assert.match(reminder.LastReply!, why);
    }
    await eventually(
      async () => ((await mailLog(control.api, control.id)).some((m) => m.Kind === 'Reminder' && m.Status === 'Sent') ? true : undefined),
      15_000,
      'the control reminder',
    );
    const reminded = sink.caught.filter(isReminder).map((c) => c.parsed.text ?? '');
    for (const a of [done, cancelled, expiring]) assert.ok(!reminded.some((t) => t.includes(`/anonymous/analyse/${a.id}/`)), `no reminder for ${a.id}`);
    assert.ok(reminded.some((t) => t.includes(`/anonymous/analyse/${control.id}/resume/`)));
  });

  test('a resend cancels the reminder that was due and schedules its own from the new invitation', async () => {
    const to = address();
    const a = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: to });
    await eventually(
      async () => ((await mailLog(a.api, a.id)).some((m) => m.Kind === 'Reminder' && m.Status === 'Pending') ? true : undefined),
      10_000,
      'a reminder waiting',
    );
    const r = await a.api.post(`/api/anonymous/assessment/${a.id}/invitation`, undefined);
    assert.equal(r.status, 202);
    const first = (await mailLog(a.api, a.id)).find((m) => m.Kind === 'Reminder')!;
    assert.equal(first.Status, 'Cancelled');
    assert.match(first.LastReply!, /replaced/);
    await eventually(
      async () => ((await mailLog(a.api, a.id)).some((m) => m.Kind === 'Reminder' && m.Status === 'Sent') ? true : undefined),
      15_000,
      'the new reminder',
    );
    await dispatcherQuiet(server.running.deps.mail);
    assert.deepEqual(
      sink.to(to).map((c) => (isReminder(c) ? 'reminder' : 'invitation')),
      ['invitation', 'invitation', 'reminder'],
    );
    const log = await mailLog(a.api, a.id);
    const resentAt = Date.parse(log.filter((m) => m.Kind === 'Invitation')[1]!.SentAt!);
    const remindedAt = Date.parse(log.find((m) => m.Kind === 'Reminder' && m.Status === 'Sent')!.SentAt!);
    assert.ok(remindedAt - resentAt >= DELAY_S * 1000, 'counted from the resent invitation');
  });
});

suiteOnEachDatabase(
  'mail reminders on two instances sharing PostgreSQL',
  { on: 'postgres', smtp: true, tenant: false, env: { MAIL_POLL_INTERVAL_MS: '50' } },
  ({ server: one, another, sink }) => {
    let two: TestServer;
    before(async () => {
      two = await another(mailEnv(sink, { MAIL_POLL_INTERVAL_MS: '50' }), { reuse: { dataDir: one.dataDir, databaseUrl: one.databaseUrl } });
    });

    test('each reminder is sent once, not once per instance', async () => {
      const creds = await one.tenant();
      await updateMailSettings(one.running.deps.store, creds.apiKeyId, { reminder_after_seconds: 1, max_reminders: 1 });
      const to = Array.from({ length: 6 }, () => address());
      for (const t of to) await newAssessment(one.url, creds, { SendInvitation: true }, { Email: t });
      await eventually(async () => (to.every((t) => sink.to(t).some(isReminder)) ? true : undefined), 20_000, 'every reminder');
      await dispatcherQuiet(one.running.deps.mail);
      await dispatcherQuiet(two.running.deps.mail);
      for (const t of to)
        assert.deepEqual(
          sink.to(t).map((c) => (isReminder(c) ? 'reminder' : 'invitation')),
          ['invitation', 'reminder'],
          t,
        );
      const claimers = await one.running.deps.store.db.selectFrom('mail_messages').select('claimed_by').where('kind', '=', 'reminder').execute();
      // Says whether both instances took part; the count above is the claim.
      console.log(`reminders claimed by ${new Set(claimers.map((c) => c.claimed_by)).size} instance(s)`);
    });
  },
);
