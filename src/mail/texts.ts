import type { Language } from '../measurement/instruments/types.js';

/**
 * Every word a mail to a candidate says, in both languages. `org` is the portal's organisation
 * name; without one (null) the sentences say who invited the candidate no more than they know.
 */
const en = {
  invitationSubject: (org: string | null) => (org ? `${org} invites you to complete a questionnaire` : 'You are invited to complete a questionnaire'),
  reminderSubject: (org: string | null) =>
    org ? `Reminder: ${org} invites you to complete a questionnaire` : 'Reminder: you are invited to complete a questionnaire',
  greeting: (name: string) => `Dear ${name},`,
  invited: (org: string | null) => (org ? `${org} has invited you to complete a questionnaire.` : 'You have been invited to complete a questionnaire.'),
  reminded: (org: string | null) =>
    `${org ? `${org} invited you` : 'You were invited'} to complete a questionnaire, and you have not finished it yet. This is a reminder.`,
  about: (name: string, items: number, minutes: number) =>
    `The questionnaire is ${name}. It has ${items} statements and takes about ${minutes} minutes. Your answers are saved after every page, so you can stop and continue later with the same link.`,
  until: (date: string) => `The link works until ${date}.`,
  open: 'Start the questionnaire',
  linkText: 'Or copy this link into your browser:',
  privacy: 'How your data is handled:',
  contact: (email: string) => `Questions? Write to ${email}.`,
  footer: (org: string | null) =>
    `You receive this e-mail because ${org ?? 'an organisation'} invited you through Assay, the service that runs the questionnaire.`,
  logo: (org: string | null) => (org ? `${org} logo` : "The inviting organisation's logo"),
  dateLocale: 'en-GB',
};

const nl: typeof en = {
  invitationSubject: (org) => (org ? `${org} nodigt u uit voor een vragenlijst` : 'Uitnodiging voor een vragenlijst'),
  reminderSubject: (org) => (org ? `Herinnering: ${org} nodigt u uit voor een vragenlijst` : 'Herinnering: uitnodiging voor een vragenlijst'),
  greeting: (name) => `Beste ${name},`,
  invited: (org) => (org ? `${org} nodigt u uit om een vragenlijst in te vullen.` : 'U bent uitgenodigd om een vragenlijst in te vullen.'),
  reminded: (org) =>
    `${org ? `${org} heeft u uitgenodigd` : 'U bent uitgenodigd'} om een vragenlijst in te vullen, en u bent nog niet klaar. Dit is een herinnering.`,
  about: (name, items, minutes) =>
    `Het gaat om de ${name}. Die heeft ${items} stellingen en duurt ongeveer ${minutes} minuten. Uw antwoorden worden na elke pagina bewaard, dus u kunt stoppen en later verdergaan met dezelfde link.`,
  until: (date) => `De link werkt tot ${date}.`,
  open: 'Begin met de vragenlijst',
  linkText: 'Of kopieer deze link naar uw browser:',
  privacy: 'Hoe er met uw gegevens wordt omgegaan:',
  contact: (email) => `Vragen? Schrijf naar ${email}.`,
  footer: (org) => `U ontvangt deze e-mail omdat ${org ?? 'een organisatie'} u heeft uitgenodigd via Assay, de dienst die de vragenlijst afneemt.`,
  logo: (org) => (org ? `Logo van ${org}` : 'Logo van de organisatie die u uitnodigde'),
  dateLocale: 'nl-NL',
};

export type MailTexts = typeof en;
export const MAIL_TEXTS: Record<Language, MailTexts> = { en, nl };
