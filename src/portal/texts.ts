import type { Language } from '../domain/instruments/types.js';

/** Every word the portal shows, in both languages. The instrument files hold the questionnaire's own. */
const en = {
  languageName: 'English',
  switchTo: 'Taal: Nederlands',
  skipToContent: 'Skip to content',
  siteName: 'Assay assessment',
  startTitle: 'Welcome',
  startIntro: 'You have been invited to complete a questionnaire.',
  aboutDuration: (minutes: number, items: number) => `It has ${items} statements and takes about ${minutes} minutes.`,
  startSaved: 'Your answers are saved after every page. You can stop at any time and continue later with the same link, on any device.',
  startButton: 'Start the questionnaire',
  continueTitle: 'Welcome back',
  continueIntro: 'You have already started this questionnaire. Continue where you left off.',
  continueButton: 'Continue',
  detailsTitle: 'Your details',
  detailsIntro: 'Please enter your details before you start.',
  firstName: 'First name',
  preposition: 'Name prefix (optional, e.g. “van der”)',
  lastName: 'Last name',
  email: 'E-mail address',
  save: 'Save and continue',
  genderTitle: 'Before you start',
  genderQuestion: 'Your gender',
  genderHint: 'Choose the option that fits you best.',
  genders: { 1: 'Male', 2: 'Female', 3: 'Neutral' } as Record<1 | 2 | 3, string>,
  questionsTitle: (page: number, pages: number) => `Page ${page} of ${pages}`,
  instructions: 'For each statement, choose how much you agree. There are no right or wrong answers.',
  /** {answered} and {total} are filled in on the server and, as answers change, by portal.js. */
  progress: '{answered} of {total} statements answered',
  statement: (n: number) => `Statement ${n}`,
  back: 'Back',
  next: 'Next',
  finish: 'Finish',
  errorSummary: 'There is a problem',
  answerAll: (n: number) => (n === 1 ? 'Please answer the statement marked below.' : `Please answer the ${n} statements marked below.`),
  answerThis: 'Please choose an answer',
  completedTitle: 'Already completed',
  completedText: 'This questionnaire has been completed. Thank you; there is nothing more to do.',
  returnLink: 'Return to the website',
  closeTitle: 'Thank you',
  closeText: 'Your answers have been saved. You can now close this browser tab or window.',
  notFoundTitle: 'Link not found',
  notFoundText: 'This assessment link is not valid. Please check that you used the complete link from your invitation.',
  expiredTitle: 'Please try again',
  expiredText: 'This page was open too long or came from another window, so your last step was not saved. Please continue from here.',
  tooManyTitle: 'Too many attempts',
  tooManyText: 'Please wait a minute and try again.',
  busyTitle: 'Very busy right now',
  busyText: 'Too many people are using this service at the moment. Your earlier answers are safe; please try again in a few seconds.',
  errorTitle: 'Something went wrong',
  errorText: 'We could not process this step. Your earlier answers are safe; please try again in a moment.',
  fieldRequired: (label: string) => `Enter your ${label.toLowerCase()}`,
  fieldErrors: {
    FirstName: 'First name must be 2 to 100 characters',
    LastName: 'Last name must be 2 to 100 characters',
    Preposition: 'Name prefix must be at most 50 characters',
    Email: 'Enter a valid e-mail address, like name@example.com',
    Gender: 'Choose one of the options',
  } as Record<string, string>,
};

export type Texts = typeof en;

const nl: Texts = {
  languageName: 'Nederlands',
  switchTo: 'Language: English',
  skipToContent: 'Naar de inhoud',
  siteName: 'Assay-assessment',
  startTitle: 'Welkom',
  startIntro: 'U bent uitgenodigd om een vragenlijst in te vullen.',
  aboutDuration: (minutes, items) => `De vragenlijst heeft ${items} uitspraken en duurt ongeveer ${minutes} minuten.`,
  startSaved: 'Uw antwoorden worden na elke pagina bewaard. U kunt op elk moment stoppen en later verdergaan met dezelfde link, op elk apparaat.',
  startButton: 'Start de vragenlijst',
  continueTitle: 'Welkom terug',
  continueIntro: 'U bent al aan deze vragenlijst begonnen. Ga verder waar u gebleven was.',
  continueButton: 'Verdergaan',
  detailsTitle: 'Uw gegevens',
  detailsIntro: 'Vul uw gegevens in voordat u begint.',
  firstName: 'Voornaam',
  preposition: 'Tussenvoegsel (optioneel, bijv. “van der”)',
  lastName: 'Achternaam',
  email: 'E-mailadres',
  save: 'Opslaan en verder',
  genderTitle: 'Voordat u begint',
  genderQuestion: 'Uw geslacht',
  genderHint: 'Kies de optie die het best bij u past.',
  genders: { 1: 'Man', 2: 'Vrouw', 3: 'Neutraal' },
  questionsTitle: (page, pages) => `Pagina ${page} van ${pages}`,
  instructions: 'Geef bij elke uitspraak aan in hoeverre u het ermee eens bent. Er zijn geen goede of foute antwoorden.',
  progress: '{answered} van {total} uitspraken beantwoord',
  statement: (n) => `Uitspraak ${n}`,
  back: 'Vorige',
  next: 'Volgende',
  finish: 'Afronden',
  errorSummary: 'Er is een probleem',
  answerAll: (n) => (n === 1 ? 'Beantwoord de uitspraak die hieronder is gemarkeerd.' : `Beantwoord de ${n} uitspraken die hieronder zijn gemarkeerd.`),
  answerThis: 'Kies een antwoord',
  completedTitle: 'Al afgerond',
  completedText: 'Deze vragenlijst is afgerond. Dank u wel; u hoeft niets meer te doen.',
  returnLink: 'Terug naar de website',
  closeTitle: 'Dank u wel',
  closeText: 'Uw antwoorden zijn bewaard. U kunt dit tabblad of venster nu sluiten.',
  notFoundTitle: 'Link niet gevonden',
  notFoundText: 'Deze assessmentlink is niet geldig. Controleer of u de volledige link uit uw uitnodiging hebt gebruikt.',
  expiredTitle: 'Probeer het opnieuw',
  expiredText: 'Deze pagina stond te lang open of kwam uit een ander venster, dus uw laatste stap is niet bewaard. Ga hier verder.',
  tooManyTitle: 'Te veel pogingen',
  tooManyText: 'Wacht een minuut en probeer het opnieuw.',
  busyTitle: 'Het is nu erg druk',
  busyText: 'Er maken op dit moment te veel mensen gebruik van deze dienst. Uw eerdere antwoorden zijn veilig; probeer het over een paar seconden opnieuw.',
  errorTitle: 'Er ging iets mis',
  errorText: 'We konden deze stap niet verwerken. Uw eerdere antwoorden zijn veilig; probeer het zo opnieuw.',
  fieldRequired: (label) => `Vul uw ${label.toLowerCase()} in`,
  fieldErrors: {
    FirstName: 'Voornaam moet 2 tot 100 tekens hebben',
    LastName: 'Achternaam moet 2 tot 100 tekens hebben',
    Preposition: 'Tussenvoegsel mag hoogstens 50 tekens hebben',
    Email: 'Vul een geldig e-mailadres in, zoals naam@voorbeeld.nl',
    Gender: 'Kies een van de opties',
  },
};

export const TEXTS: Record<Language, Texts> = { en, nl };

/** Picks nl or en from an Accept-Language header by q-value; English when neither is asked for. */
export function negotiateLanguage(header: string | undefined): Language {
  if (!header) return 'en';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { lang: (tag ?? '').split('-')[0], q: q === undefined ? 1 : Number(q), index };
    })
    .filter((x) => (x.lang === 'nl' || x.lang === 'en') && x.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranked[0]?.lang as Language | undefined) ?? 'en';
}

export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}
