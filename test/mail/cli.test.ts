import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { newAssessment } from '../helpers/fixtures.js';
import type { Credentials } from '../helpers/http.js';
import { spawnCli, type CliProcess } from '../helpers/process.js';
import type { TestServer } from '../helpers/server.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { address } from '../helpers/smtp-sink.js';

type Caught = { from: string; to: string[]; subject: string; links: string[]; text: string };

// The CLI and its catcher do not depend on the database: SQLite only. The server starts once the catcher listens.
suiteOnEachDatabase('bin/assay portal set (mail options) and mail listen', { on: 'sqlite', start: false, tenant: false }, ({ another }) => {
  let listener: CliProcess;
  let server: TestServer;
  let creds: Credentials & { apiKeyPrefix: string };
  let env: Record<string, string>;
  before(async () => {
    listener = spawnCli(['mail', 'listen', '--port', '0', '--json']);
    const url = await listener.line((l) => (JSON.parse(l) as { listening?: string }).listening);
    server = await another({ SMTP_URL: url, SMTP_REQUIRE_TLS: 'false', MAIL_FROM: 'assessments@assay.test' });
    creds = await server.tenant();
    env = { DATA_DIR: server.dataDir, DATABASE_URL: server.databaseUrl };
  });
  after(async () => {
    await listener.stop();
  });

  test('portal set takes the mail settings, shows them, and refuses bad values', async () => {
    const set = await runCli(
      [
        'portal',
        'set',
        '--key',
        creds.apiKeyPrefix,
        '--name',
        'Bakkerij Jansen',
        '--mail-from-name',
        'Werving',
        '--reply-to',
        'werving@jansen.example',
        '--mail-language',
        'nl',
        '--send-invitation',
        'on',
        '--reminder-after',
        '48h',
        '--max-reminders',
        '2',
        '--json',
      ],
      env,
    );
    assert.equal(set.code, 0, set.stderr);
    const shown = await runCli(['portal', 'show', '--key', creds.apiKeyPrefix, '--json'], env);
    const s = JSON.parse(shown.stdout);
    assert.deepEqual(
      { name: s.mailFromName, replyTo: s.replyTo, language: s.mailLanguage, send: s.sendInvitation, after: s.reminderAfter, max: s.maxReminders },
      { name: 'Werving', replyTo: 'werving@jansen.example', language: 'nl', send: true, after: '2d', max: 2 },
    );
    for (const [option, value] of [
      ['--reminder-after', '2w'],
      ['--max-reminders', '11'],
      ['--reply-to', 'a@b.example, c@d.example'],
      ['--mail-language', 'de'],
    ]) {
      const bad = await runCli(['portal', 'set', '--key', creds.apiKeyPrefix, option!, value!], env);
      assert.equal(bad.code, 1, `${option} ${value}`);
      assert.match(bad.stderr, new RegExp(option!));
    }
  });

  test('mail listen prints the invitation: sender, recipient, subject, link and text', async () => {
    const to = address();
    // The portal's default (set above) sends it: no SendInvitation in the request.
    const a = await newAssessment(server.url, creds, {}, { Email: to });
    const got = await listener.line((l) => {
      const m = (JSON.parse(l) as { mail?: Caught }).mail;
      return m?.to.includes(to) ? m : undefined;
    });
    assert.equal(got.from, 'assessments@assay.test');
    assert.equal(got.subject, 'Bakkerij Jansen nodigt u uit voor een vragenlijst');
    assert.ok(
      got.links.some((l) => l.includes(`/anonymous/analyse/${a.id}/resume/`)),
      JSON.stringify(got.links),
    );
    assert.ok(got.text.includes('Beste Ada Lovelace'));
  });
});
