import type { Language } from '../domain/language.js';

/** The invite form's words, in both languages. */
const en = {
  title: 'Invite a candidate',
  intro: 'An existing ExternalId of your own reuses that candidate; their details stay as they are.',
  link: 'Invite a candidate',
  fields: {
    ExternalId: 'ExternalId',
    Email: 'E-mail',
    FirstName: 'First name',
    Preposition: 'Preposition (optional)',
    LastName: 'Last name',
    AssessmentType: 'Instrument',
    ExpiresAt: 'Expires at (optional)',
  },
  expiresHint: 'An ISO-8601 date-time with a time zone, e.g. 2026-12-31T23:59:00Z. Empty: the default.',
  fieldErrors: {
    ExternalId: 'Enter an ExternalId of at most 255 characters.',
    Email: 'Enter a valid e-mail address.',
    FirstName: 'Enter a first name of 2 to 100 characters.',
    Preposition: 'A preposition has at most 50 characters.',
    LastName: 'Enter a last name of 2 to 100 characters.',
    AssessmentType: 'Choose an instrument.',
    ExpiresAt: 'Enter a valid date-time.',
  },
  taken: 'This ExternalId is already in use.',
  noKey: 'Your organisation has no active API key, which gives assessments their portal. Ask an administrator to create one.',
  capped: (minutes: number) => `Too many invitations for now. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  submit: 'Invite',
  doneTitle: 'Candidate invited',
  sent: 'The invitation is on its way. The link, should you need it:',
  noMail: 'This server sends no e-mail. Copy the link and send it to the candidate yourself:',
  toCandidate: "To the candidate's page",
};

type Texts = typeof en;

const nl: Texts = {
  title: 'Een kandidaat uitnodigen',
  intro: 'Een bestaande ExternalId van uw organisatie hergebruikt die kandidaat; diens gegevens blijven zoals ze zijn.',
  link: 'Een kandidaat uitnodigen',
  fields: {
    ExternalId: 'ExternalId',
    Email: 'E-mail',
    FirstName: 'Voornaam',
    Preposition: 'Tussenvoegsel (optioneel)',
    LastName: 'Achternaam',
    AssessmentType: 'Instrument',
    ExpiresAt: 'Verloopt op (optioneel)',
  },
  expiresHint: 'Een ISO-8601-datum en -tijd met tijdzone, bijv. 2026-12-31T23:59:00Z. Leeg: de standaard.',
  fieldErrors: {
    ExternalId: 'Vul een ExternalId in van hoogstens 255 tekens.',
    Email: 'Vul een geldig e-mailadres in.',
    FirstName: 'Vul een voornaam in van 2 tot 100 tekens.',
    Preposition: 'Een tussenvoegsel heeft hoogstens 50 tekens.',
    LastName: 'Vul een achternaam in van 2 tot 100 tekens.',
    AssessmentType: 'Kies een instrument.',
    ExpiresAt: 'Vul een geldige datum en tijd in.',
  },
  taken: 'Deze ExternalId is al in gebruik.',
  noKey: 'Uw organisatie heeft geen actieve API-sleutel, die assessments hun portaal geeft. Vraag een beheerder er een te maken.',
  capped: (minutes: number) => `Te veel uitnodigingen op dit moment. Probeer het over ${minutes} ${minutes === 1 ? 'minuut' : 'minuten'} opnieuw.`,
  submit: 'Uitnodigen',
  doneTitle: 'Kandidaat uitgenodigd',
  sent: 'De uitnodiging is onderweg. De link, mocht u hem nodig hebben:',
  noMail: 'Deze server verstuurt geen e-mail. Kopieer de link en stuur hem zelf naar de kandidaat:',
  toCandidate: 'Naar de pagina van de kandidaat',
};

export const INVITE_TEXTS: Record<Language, Texts> = { en, nl };
