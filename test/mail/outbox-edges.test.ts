import assert from 'node:assert/strict';
import { createPublicKey, createHash, generateKeyPairSync, verify } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before } from 'node:test';
import { updateMailSettings } from '../../src/mail/settings-store.js';
import { test } from '../helpers/deadline.js';
import { newAssessment } from '../helpers/fixtures.js';
import { csrfToken, FormClient, itemNames, startPath } from '../helpers/forms.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { eventually } from '../helpers/receiver.js';
import { address, mailEnv } from '../helpers/smtp-sink.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

const DELAY_S = 3;
type Entry = { Kind: string; Status: string; SentAt: string | null };
type Api = Awaited<ReturnType<typeof newAssessment>>['api'];
const mailLog = async (api: Api, id: string) => (await api.get(`/api/anonymous/assessment/${id}/emails`)).body.Data as Entry[];
const sentAt = async (api: Api, id: string, kind: string) =>
  eventually(
    async () => {
      const m = (await mailLog(api, id)).find((e) => e.Kind === kind && e.Status === 'Sent');
      return m ? Date.parse(m.SentAt!) : undefined;
    },
    20_000,
    `the ${kind} sent`,
  );

/** Takes the assessment through its start, details and gender pages and posts its first page of statements. */
async function answerFirstPage(base: string, id: string): Promise<void> {
  const client = new FormClient(base);
  let res = await client.submit(startPath(id), {});
  for (let guard = 0; guard < 5; guard++) {
    assert.equal(res.status, 303, res.html.slice(0, 200));
    const location = res.location!;
    if (location.endsWith('/details')) res = await client.submit(location, { FirstName: 'Noor', Preposition: '', LastName: 'Dijk', Email: 'noor@example.nl' });
    else if (location.endsWith('/gender')) res = await client.submit(location, { Gender: '2' });
    else if (/\/questions\/1$/.test(location)) {
      const page = await client.get(location);
      const fields: Record<string, string> = { _csrf: csrfToken(page.html), nav: 'next' };
      for (const name of itemNames(page.html)) fields[name] = '3';
      res = await client.post(location, fields);
      assert.equal(res.status, 303);
      assert.match(res.location!, /\/questions\/2$/, 'the first page was saved');
      return;
    } else throw new Error(`unexpected step ${location}`);
  }
  throw new Error('never reached the statements');
}

suiteOnEachDatabase('mail outbox edges', { smtp: true, env: { MAIL_POLL_INTERVAL_MS: '100' } }, ({ server, creds, sink, another }) => {
  before(async () => {
    await updateMailSettings(server.running.deps.store, creds.apiKeyId, { reminder_after_seconds: DELAY_S, max_reminders: 1 });
  });

  test(`a started assessment's reminder counts ${DELAY_S} s from the last activity, not from the invitation`, async () => {
    const active = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: address() });
    // A positive control beside it: invited at the same moment, left alone.
    const idle = await newAssessment(server.url, creds, { SendInvitation: true }, { Email: address() });
    const invited = await sentAt(active.api, active.id, 'Invitation');
    await new Promise((r) => setTimeout(r, Math.max(0, invited + 2_000 - Date.now())));
    const activityFrom = Date.now();
    await answerFirstPage(server.url, active.id);
    const idleReminded = await sentAt(idle.api, idle.id, 'Reminder');
    const activeReminded = await sentAt(active.api, active.id, 'Reminder');
    assert.ok(activeReminded >= activityFrom + DELAY_S * 1000, `reminded ${activeReminded - activityFrom} ms after the activity began`);
    assert.ok(
      idleReminded < activityFrom + DELAY_S * 1000,
      `the control was reminded ${idleReminded - invited} ms after its invitation, before the active one could be`,
    );
  });

  test("a message left 'sending' by a stopped process is queued again and delivered; one claimed just now by a live one is left alone", async () => {
    const [staleTo, freshTo] = [address(), address()];
    const stale = await newAssessment(server.url, creds, { SendInvitation: false }, { Email: staleTo });
    const fresh = await newAssessment(server.url, creds, { SendInvitation: false }, { Email: freshTo });
    const db = server.running.deps.store.db;
    const tenant = await db.selectFrom('assessments').select('tenant_id').where('analysis_id', '=', stale.id).executeTakeFirstOrThrow();
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const now = new Date().toISOString();
    const row = (id: string, analysisId: string, claimedAt: string, by: string) => ({
      id,
      tenant_id: tenant.tenant_id,
      analysis_id: analysisId,
      kind: 'invitation' as const,
      requested_by: null,
      status: 'sending' as const,
      due_at: claimedAt,
      created_at: claimedAt,
      claimed_at: claimedAt,
      claimed_by: by,
    });
    await server.running.deps.store.write((trx) =>
      trx
        .insertInto('mail_messages')
        .values([row(`stale-${stale.id}`, stale.id, hourAgo, 'a-stopped-process'), row(`fresh-${fresh.id}`, fresh.id, now, 'a-live-process')])
        .execute(),
    );
    await sentAt(stale.api, stale.id, 'Invitation');
    await dispatcherQuiet(server.running.deps.mail);
    assert.equal(sink.to(staleTo).length, 1, 'delivered once');
    assert.equal(sink.to(freshTo).length, 0);
    assert.equal((await mailLog(fresh.api, fresh.id))[0]!.Status, 'Sending', 'not taken from a process that may still be sending it');
  });

  test('with DKIM set, the message carries a DKIM-Signature for the domain and selector, and it verifies against the public key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'assay-dkim-'));
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = join(dir, 'dkim.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const signing = await another(
      mailEnv(sink, { MAIL_POLL_INTERVAL_MS: '100', DKIM_DOMAIN: 'assay.test', DKIM_SELECTOR: 'mail2026', DKIM_PRIVATE_KEY_FILE: keyFile }),
    );
    const c = await signing.tenant();
    const to = address();
    await newAssessment(signing.url, c, { SendInvitation: true }, { Email: to });
    const [m] = await eventually(async () => (sink.to(to).length > 0 ? sink.to(to) : undefined), 15_000, 'the signed message');
    const tags = dkimTags(m!.raw);
    assert.equal(tags.d, 'assay.test');
    assert.equal(tags.s, 'mail2026');
    assert.equal(tags.a, 'rsa-sha256');
    assert.equal(verifyDkim(m!.raw, createPublicKey(publicKey.export({ type: 'spki', format: 'pem' }))), true);
    // A negative control: the same check fails once one signed byte of the body changes.
    const tampered = m!.raw.replace(/(\r\n\r\n[\s\S]*?)Dear/, '$1Deer');
    assert.notEqual(tampered, m!.raw);
    assert.equal(verifyDkim(tampered, createPublicKey(publicKey.export({ type: 'spki', format: 'pem' }))), false);
    // The message from the suite's server, without DKIM settings, is not signed.
    const plain = address();
    await newAssessment(server.url, creds, { SendInvitation: true }, { Email: plain });
    const [p] = await eventually(async () => (sink.to(plain).length > 0 ? sink.to(plain) : undefined), 15_000, 'the unsigned message');
    assert.ok(!/^dkim-signature:/im.test(p!.raw.split('\r\n\r\n')[0]!));
  });
});

// A DKIM check written from RFC 6376 (relaxed/relaxed, rsa-sha256), apart from nodemailer's signer.
function split(raw: string): { headers: string[]; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  return { headers: raw.slice(0, at).split(/\r\n(?![ \t])/), body: raw.slice(at + 4) };
}

function dkimHeader(raw: string): string {
  const h = split(raw).headers.find((l) => /^dkim-signature\s*:/i.test(l));
  assert.ok(h, 'a DKIM-Signature header');
  return h;
}

function dkimTags(raw: string): Record<string, string> {
  const value = dkimHeader(raw).slice(dkimHeader(raw).indexOf(':') + 1);
  return Object.fromEntries(
    value
      .split(';')
      .map((t) => t.replace(/\s+/g, ''))
      .filter(Boolean)
      .map((t) => [t.slice(0, t.indexOf('=')), t.slice(t.indexOf('=') + 1)]),
  );
}

const relaxedHeader = (line: string) => {
  const colon = line.indexOf(':');
  return `${line.slice(0, colon).trim().toLowerCase()}:${line
    .slice(colon + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .trim()}`;
};

function relaxedBody(body: string): string {
  const lines = body.split('\r\n').map((l) => l.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? '' : lines.join('\r\n') + '\r\n';
}

function verifyDkim(raw: string, publicKey: ReturnType<typeof createPublicKey>): boolean {
  const tags = dkimTags(raw);
  assert.equal(tags.c, 'relaxed/relaxed', 'the check knows relaxed canonicalisation only');
  const { headers, body } = split(raw);
  if (createHash('sha256').update(relaxedBody(body)).digest('base64') !== tags.bh) return false;
  const pool = [...headers];
  const signed: string[] = [];
  for (const name of tags.h!.split(':')) {
    const i = pool.map((l) => l.slice(0, l.indexOf(':')).trim().toLowerCase()).lastIndexOf(name.toLowerCase());
    if (i < 0) continue;
    signed.push(relaxedHeader(pool[i]!) + '\r\n');
    pool.splice(i, 1);
  }
  const own = relaxedHeader(dkimHeader(raw)).replace(/(^dkim-signature:|;)(\s*b=)[^;]*/, '$1$2');
  return verify('sha256', Buffer.from(signed.join('') + own), publicKey, Buffer.from(tags.b!, 'base64'));
}
