import type { Instrument, Language } from '../measurement/instruments/types.js';
import { fullName } from '../domain/names.js';
import { html, type Html } from '../platform/html.js';
import { headerText } from './rules.js';
import { MAIL_TEXTS } from './texts.js';

/** What a message says, from the assessment, its candidate and its portal at the time of sending. */
export interface MailContent {
  kind: 'invitation' | 'reminder';
  language: Language;
  candidate: { first_name: string; preposition: string; last_name: string };
  organisation: string | null;
  /** The logo as an inline attachment's content id, when the portal has one mail clients show. */
  logoCid: string | null;
  instrument: Pick<Instrument, 'name' | 'estimatedMinutes' | 'items'>;
  link: string;
  expiresAt: string | null;
  privacyUrl: string | null;
  contactEmail: string | null;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

function date(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(new Date(iso));
}

/**
 * The invitation or reminder, as plain text and as HTML with the same words. The HTML needs no
 * image to be read (the logo has the organisation's name as its alternative text), sets its
 * language, and has one heading and a link that says where it goes.
 */
export function renderMail(c: MailContent): RenderedMail {
  const t = MAIL_TEXTS[c.language];
  const who = c.organisation ? headerText(c.organisation) : null;
  const subject = headerText(c.kind === 'invitation' ? t.invitationSubject(who) : t.reminderSubject(who));
  const lines = {
    greeting: t.greeting(headerText(fullName(c.candidate))),
    intro: c.kind === 'invitation' ? t.invited(who) : t.reminded(who),
    about: t.about(c.instrument.name[c.language], c.instrument.items.length, c.instrument.estimatedMinutes),
    until: c.expiresAt ? t.until(date(c.expiresAt, t.dateLocale)) : null,
    contact: c.contactEmail ? t.contact(c.contactEmail) : null,
    footer: t.footer(who),
  };
  const text = [
    lines.greeting,
    '',
    lines.intro,
    '',
    lines.about,
    ...(lines.until ? ['', lines.until] : []),
    '',
    `${t.open}: ${c.link}`,
    ...(c.privacyUrl ? ['', `${t.privacy} ${c.privacyUrl}`] : []),
    ...(lines.contact ? ['', lines.contact] : []),
    '',
    '-- ',
    lines.footer,
    '',
  ].join('\n');
  const para = (s: string | null): Html | null => (s ? html`<p style="margin:0 0 16px">${s}</p>` : null);
  const body = html`<!DOCTYPE html>
<html lang="${c.language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${subject}</title></head>
<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5">
<main style="max-width:600px;margin:0 auto">
${c.logoCid ? html`<p style="margin:0 0 16px"><img src="cid:${c.logoCid}" alt="${t.logo(who)}" style="max-height:60px;max-width:240px"></p>` : null}
<h1 style="font-size:22px;margin:0 0 16px">${subject}</h1>
${para(lines.greeting)}${para(lines.intro)}${para(lines.about)}${para(lines.until)}
<p style="margin:24px 0"><a href="${c.link}" style="display:inline-block;padding:12px 20px;background:#1d4ed8;color:#ffffff;text-decoration:underline;border-radius:4px">${t.open}</a></p>
<p style="margin:0 0 16px">${t.linkText}<br><a href="${c.link}" style="color:#1d4ed8;word-break:break-all">${c.link}</a></p>
${c.privacyUrl ? html`<p style="margin:0 0 16px">${t.privacy} <a href="${c.privacyUrl}" style="color:#1d4ed8">${c.privacyUrl}</a></p>` : null}
${lines.contact && c.contactEmail ? html`<p style="margin:0 0 16px">${t.contact(c.contactEmail)}</p>` : null}
<hr style="border:0;border-top:1px solid #cccccc;margin:24px 0">
<p style="margin:0;color:#4a4a4a;font-size:14px">${lines.footer}</p>
</main>
</body>
</html>`;
  return { subject, text, html: body.value };
}
