import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before } from 'node:test';
import { updateMailSettings } from '../../src/mail/settings-store.js';
import { updatePortalSettings } from '../../src/tenancy/portal-settings-store.js';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { errorCode } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';
import { address } from '../helpers/smtp-sink.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

suiteOnEachDatabase('e-mail invitation through a real SMTP server', { smtp: true, env: { MAIL_POLL_INTERVAL_MS: '60000' } }, ({ db, server, sink, creds }) => {
  before(async () => {
    // A one-minute poll: a message can only go out because the request that queued it woke the sender.
    await updatePortalSettings(server.running.deps.store, creds.apiKeyId, {
      organisation_name: 'Acme Recruitment',
      privacy_url: 'https://acme.example/privacy',
      contact_email: 'hr@acme.example',
    });
  });

  test('SendInvitation: exactly one message over STARTTLS, with the link, the organisation, the expiry, and the log shows it sent', async () => {
    const to = address();
    const a = await newAssessment(
      server.url,
      creds,
      { SendInvitation: true, ExpiresAt: '2031-03-04T10:00:00Z' },
      { Email: to, FirstName: 'Ada', LastName: 'Lovelace' },
    );
    const [m] = await eventually(async () => (sink.to(to).length > 0 ? sink.to(to) : undefined));
    assert.ok(m!.secure, 'the session switched to TLS before the message');
    assert.deepEqual(m!.rcptTo, [to]);
    assert.equal(m!.mailFrom, 'assessments@assay.test');
    assert.equal(m!.parsed.subject, 'Acme Recruitment invites you to complete a questionnaire');
    assert.equal(m!.parsed.from?.value[0]?.name, 'Acme Recruitment');
    assert.equal(m!.parsed.replyTo?.value[0]?.address, 'hr@acme.example');
    for (const part of [m!.parsed.text ?? '', String(m!.parsed.html)]) {
      // The candidate's personal link: the AssessmentUrl's origin and id, with a token the employer does not hold.
      assert.match(part, new RegExp(`${new URL(a.url).origin}/anonymous/analyse/${a.id}/resume/[A-Za-z0-9_-]{22}`), 'the personal link');
      assert.ok(part.includes('Acme Recruitment'));
      assert.ok(part.includes('4 March 2031'), 'the expiry date');
      assert.ok(part.includes('Dear Ada Lovelace'));
      assert.ok(part.includes('https://acme.example/privacy'));
      assert.ok(part.includes('hr@acme.example'));
    }
    assert.match(String(m!.parsed.html), /<html lang="en">/);

    await dispatcherQuiet(server.running.deps.mail);
    assert.equal(sink.to(to).length, 1, 'exactly one message');
    const log = await a.api.get(`/api/anonymous/assessment/${a.id}/emails`);
    assert.equal(log.status, 200);
    assert.equal(log.body.Data.length, 1);
    const [entry] = log.body.Data;
    assert.equal(entry.Kind, 'Invitation');
    assert.equal(entry.Status, 'Sent');
    assert.equal(entry.Attempts, 1);
    assert.equal(entry.Recipient, `${to[0]}***@example.com`);
    assert.ok(!JSON.stringify(log.body).includes(to), 'the address never appears whole');
    assert.match(entry.LastReply, /^250/);
  });

  test('without SendInvitation (and no portal default) nothing is sent and the log is empty', async () => {
    const to = address();
    const a = await newAssessment(server.url, creds, {}, { Email: to });
    // A positive control beside it: one with SendInvitation, created after, does arrive.
    const control = address();
    await newAssessment(server.url, creds, { SendInvitation: true }, { Email: control });
    await eventually(async () => (sink.to(control).length > 0 ? true : undefined));
    await dispatcherQuiet(server.running.deps.mail);
    assert.equal(sink.to(to).length, 0);
    assert.deepEqual((await a.api.get(`/api/anonymous/assessment/${a.id}/emails`)).body.Data, []);
  });

  test('in Dutch when the portal speaks Dutch; the portal default sends it unless SendInvitation is false', async () => {
    const other = await server.tenant(undefined, 'https://werving.example.test');
    await updatePortalSettings(server.running.deps.store, other.apiKeyId, { organisation_name: 'Bakkerij Jansen' });
    await updateMailSettings(server.running.deps.store, other.apiKeyId, { language: 'nl', send_invitation: 1, from_name: 'Werving Jansen' });
    const to = address();
    const a = await newAssessment(
      server.url,
      other,
      { ExpiresAt: '2031-03-04T10:00:00Z' },
      { Email: to, FirstName: 'Jan', Preposition: 'de', LastName: 'Vries' },
    );
    const off = address();
    await newAssessment(server.url, other, { SendInvitation: false }, { Email: off });
    const [m] = await eventually(async () => (sink.to(to).length > 0 ? sink.to(to) : undefined));
    assert.equal(m!.parsed.subject, 'Bakkerij Jansen nodigt u uit voor een vragenlijst');
    assert.equal(m!.parsed.from?.value[0]?.name, 'Werving Jansen');
    assert.ok(m!.parsed.text!.includes('Beste Jan de Vries'));
    assert.ok(m!.parsed.text!.includes('4 maart 2031'));
    assert.ok(m!.parsed.text!.includes(`/anonymous/analyse/${a.id}/resume/`), 'the personal link');
    assert.match(String(m!.parsed.html), /<html lang="nl">/);
    await dispatcherQuiet(server.running.deps.mail);
    assert.equal(sink.to(off).length, 0, 'SendInvitation: false overrides the default');
  });

  test('without an organisation name the invitation reads as plain sentences, in English and Dutch', async () => {
    const expected = {
      en: {
        subject: 'You are invited to complete a questionnaire',
        intro: 'You have been invited to complete a questionnaire.',
        footer: 'You receive this e-mail because an organisation invited you through Assay, the service that runs the questionnaire.',
      },
      nl: {
        subject: 'Uitnodiging voor een vragenlijst',
        intro: 'U bent uitgenodigd om een vragenlijst in te vullen.',
        footer: 'U ontvangt deze e-mail omdat een organisatie u heeft uitgenodigd via Assay, de dienst die de vragenlijst afneemt.',
      },
    };
    for (const language of ['en', 'nl'] as const) {
      // A new tenant's portal has no organisation name.
      const nameless = await server.tenant();
      if (language === 'nl') await updateMailSettings(server.running.deps.store, nameless.apiKeyId, { language: 'nl' });
      const to = address();
      await newAssessment(server.url, nameless, { SendInvitation: true }, { Email: to });
      const [m] = await eventually(async () => (sink.to(to).length > 0 ? sink.to(to) : undefined));
      const want = expected[language];
      assert.equal(m!.parsed.subject, want.subject);
      for (const part of [m!.parsed.text ?? '', String(m!.parsed.html)]) {
        assert.ok(part.includes(want.intro), `${language}: the opening sentence in\n${part}`);
        assert.ok(part.includes(want.footer), `${language}: the footer in\n${part}`);
        assert.doesNotMatch(part, /organisation that invited you|organisatie die u uitnodigde/i);
      }
    }
  });

  test('a resend is one more message (202), limited per assessment (429 with Retry-After), refused once cancelled (409)', async () => {
    const to = address();
    const a = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: to });
    // The sink has a message a moment before the log records it sent; a resend meanwhile is 409 (in progress).
    const allSent = (n: number) => async () => {
      const log = (await a.api.get(`/api/anonymous/assessment/${a.id}/emails`)).body.Data as Array<{ Status: string }>;
      return log.length === n && log.every((m) => m.Status === 'Sent') ? true : undefined;
    };
    await eventually(allSent(1));
    for (let i = 1; i <= 3; i++) {
      const r = await a.api.post(`/api/anonymous/assessment/${a.id}/invitation`, undefined);
      assert.equal(r.status, 202, r.text);
      assert.equal(r.body.Data.Status, 'Pending');
      await eventually(allSent(1 + i));
    }
    assert.equal(sink.to(to).length, 4);
    const limited = await a.api.post(`/api/anonymous/assessment/${a.id}/invitation`, undefined);
    assert.equal(limited.status, 429);
    assert.equal(errorCode(limited), 'TooManyRequests');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    const b = await newAssessment(server.url, creds, {}, { Email: address() });
    assert.equal((await b.api.delete(`/api/anonymous/assessment/${b.id}`)).status, 200);
    const closed = await b.api.post(`/api/anonymous/assessment/${b.id}/invitation`, undefined);
    assert.equal(closed.status, 409);
    assert.equal(errorCode(closed), 'NotSendable');
    await dispatcherQuiet(server.running.deps.mail);
    assert.equal(sink.to(to).length, 4);
    const log = (await a.api.get(`/api/anonymous/assessment/${a.id}/emails`)).body.Data;
    assert.deepEqual(
      log.map((m: { RequestedBy: string | null }) => m.RequestedBy),
      [null, `api:${creds.apiKeyId}`, `api:${creds.apiKeyId}`, `api:${creds.apiKeyId}`],
    );
  });

  test("another tenant's assessment: 404 for its log and its resend", async () => {
    const a = await newAssessment(server.url, creds, {}, { Email: address() });
    const other = await server.tenant();
    const b = await newAssessment(server.url, other, {}, { Email: address() });
    assert.equal((await b.api.get(`/api/anonymous/assessment/${a.id}/emails`)).status, 404);
    const r = await b.api.post(`/api/anonymous/assessment/${a.id}/invitation`, undefined);
    assert.equal(r.status, 404);
    assert.equal(errorCode(r), 'NotFound');
  });

  test('erasure removes the mail log with every address it held', async () => {
    const to = address();
    const a = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: to });
    // The sink has the message a moment before the log records where it went.
    await eventually(async () => ((await a.api.get(`/api/anonymous/assessment/${a.id}/emails`)).body.Data[0]?.Status === 'Sent' ? true : undefined));
    const store = server.running.deps.store;
    // A positive control: the address is in the mail log before erasure.
    assert.equal((await store.db.selectFrom('mail_messages').select('recipient').where('analysis_id', '=', a.id).execute())[0]?.recipient, to);
    assert.equal((await a.api.delete(`/api/anonymous/candidate/${encodeURIComponent(a.externalId)}`)).status, 200);
    assert.equal((await store.db.selectFrom('mail_messages').select('id').where('analysis_id', '=', a.id).execute()).length, 0);
    assert.equal((await a.api.get(`/api/anonymous/assessment/${a.id}/emails`)).status, 404);
    if (db === 'sqlite') {
      // As the retention sweep does after erasing: pages SQLite rebuilt may hold old copies of rows.
      await store.compact();
      const path = server.databaseUrl.slice('sqlite:'.length);
      for (const file of [path, `${path}-wal`]) {
        let bytes: Buffer;
        try {
          bytes = readFileSync(file);
        } catch {
          continue;
        }
        assert.equal(bytes.indexOf(to), -1, `${file} still holds the address`);
      }
    }
  });
});
