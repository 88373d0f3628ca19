import type { Command } from 'commander';
import { textProblem } from '../domain/text.js';
import { formatDuration, parseDuration, singleAddress } from './rules.js';
import type { MailSettings } from './settings-store.js';

/** The mail options of `portal set`, as commander gives them. */
export interface MailOptions {
  mailFromName?: string;
  replyTo?: string;
  mailLanguage?: string;
  sendInvitation?: string;
  reminderAfter?: string;
  maxReminders?: string;
}

export function addMailOptions(command: Command): Command {
  return command
    .option('--mail-from-name <name>', 'the sender name of mail to candidates (default: the organisation; "" clears it)')
    .option('--reply-to <email>', 'where candidates\' replies go (default: the contact address; "" clears it)')
    .option('--mail-language <nl|en>', 'the language of mail to candidates (default en)')
    .option('--send-invitation <on|off>', 'e-mail the invitation on create-assessment unless it says SendInvitation: false')
    .option('--reminder-after <duration|off>', 'remind a candidate who has not finished after 5s, 30m, 48h, 7d… (off: never)')
    .option('--max-reminders <n>', 'at most this many reminders per assessment (0-10)');
}

/**
 * The mail settings the options change; a message for the first one that is wrong. Names and
 * addresses with control characters are refused here, as the API refuses them.
 */
export function mailChanges(o: MailOptions): { changes: Partial<MailSettings> } | { problem: string } {
  const changes: Partial<MailSettings> = {};
  if (o.mailFromName !== undefined) {
    const problem = o.mailFromName.length > 100 ? '--mail-from-name must be at most 100 characters' : textProblem('--mail-from-name', o.mailFromName);
    if (problem) return { problem };
    changes.from_name = o.mailFromName.trim() === '' ? null : o.mailFromName.trim();
  }
  if (o.replyTo !== undefined) {
    if (o.replyTo.trim() === '') changes.reply_to = null;
    else if (!singleAddress(o.replyTo) || o.replyTo.length > 254) return { problem: `--reply-to must be one plain e-mail address, got "${o.replyTo}"` };
    else changes.reply_to = o.replyTo;
  }
  if (o.mailLanguage !== undefined) {
    if (o.mailLanguage !== 'nl' && o.mailLanguage !== 'en') return { problem: '--mail-language must be nl or en' };
    changes.language = o.mailLanguage;
  }
  if (o.sendInvitation !== undefined) {
    if (!/^(on|off)$/i.test(o.sendInvitation)) return { problem: `--send-invitation must be on or off, got "${o.sendInvitation}"` };
    changes.send_invitation = /^on$/i.test(o.sendInvitation) ? 1 : 0;
  }
  if (o.reminderAfter !== undefined) {
    if (/^off$/i.test(o.reminderAfter)) changes.reminder_after_seconds = null;
    else {
      const seconds = parseDuration(o.reminderAfter);
      if (seconds === undefined)
        return { problem: `--reminder-after must be a duration such as 5s, 30m, 48h or 7d (at most 365d), or off; got "${o.reminderAfter}"` };
      changes.reminder_after_seconds = seconds;
    }
  }
  if (o.maxReminders !== undefined) {
    if (!/^\d{1,2}$/.test(o.maxReminders) || Number(o.maxReminders) > 10)
      return { problem: `--max-reminders must be a whole number from 0 to 10, got "${o.maxReminders}"` };
    changes.max_reminders = Number(o.maxReminders);
  }
  return { changes };
}

/** The mail settings as `portal show` prints them. */
export function mailShown(s: MailSettings) {
  return {
    mailFromName: s.from_name,
    replyTo: s.reply_to,
    mailLanguage: s.language,
    sendInvitation: s.send_invitation === 1,
    reminderAfter: s.reminder_after_seconds === null ? null : formatDuration(s.reminder_after_seconds),
    maxReminders: s.max_reminders,
  };
}

export function mailText(p: ReturnType<typeof mailShown>): string[] {
  const or = (v: string | null) => v ?? '(none)';
  const reminders = p.reminderAfter === null || p.maxReminders === 0 ? 'off' : `after ${p.reminderAfter}, at most ${p.maxReminders}`;
  return [
    `  mail sender name:   ${or(p.mailFromName)}`,
    `  mail reply-to:      ${or(p.replyTo)}`,
    `  mail language:      ${p.mailLanguage}`,
    `  send invitation:    ${p.sendInvitation ? 'on' : 'off'}`,
    `  reminders:          ${reminders}`,
  ];
}
