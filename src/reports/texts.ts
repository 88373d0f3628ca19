import type { Language, ResponseRange } from '../measurement/instruments/types.js';
import type { IntegrityFlag } from '../measurement/types.js';
import type { Band } from './interpretations.js';

/** Every word of the report in both languages. Scale and competence texts are content data. */
const en = {
  title: 'Assessment report',
  confidential: 'Confidential: for the recruitment process this candidate applied for.',
  candidate: 'Candidate',
  instrument: 'Questionnaire',
  completed: 'Completed',
  normGroup: 'Norm group',
  normed: (name: string, size: number, period: string) => `${name} (${size.toLocaleString('en')} people${period ? `, ${period}` : ''})`,
  period: (from: string | null, to: string | null) => (from || to ? `${from ?? '…'} to ${to ?? '…'}` : ''),
  notNormed:
    'These scores are not norm-referenced: no norm group was in force when the questionnaire was completed. They show how the candidate answered, not how they compare with anyone else.',
  illustrative: 'This norm group is an illustrative example built from simulated answers. Do not use these scores for selection decisions.',
  profile: 'Motivation profile',
  profileIntro:
    'Each bar shows the candidate’s standard ten (sten) on a scale. Stens run from 1 to 10; the shaded band from 4 to 7 is where about two thirds of the norm group score.',
  profileRaw: (r: ResponseRange) => `Each bar shows the candidate’s raw score on a scale, the mean of its statements on the ${r.min}–${r.max} response scale.`,
  chartLabel: (n: number) => `Bar chart of ${n} scales; the same scores follow in a table.`,
  tableCaption: 'The scores of the chart',
  scale: 'Scale',
  sten: 'Sten',
  percentile: 'Percentile',
  raw: (r: ResponseRange) => `Raw (${r.min}–${r.max})`,
  band: 'Band',
  bands: { low: 'Low', average: 'Average', high: 'High' } as Record<Band, string>,
  averageBand: 'Average band (sten 4–7)',
  interpretation: 'What the scores mean',
  scalesMeaning: 'What each scale measures',
  stenBand: '90% band',
  stenBandExplained:
    'The 90% band is where the sten would fall nine times out of ten if the candidate answered again: the questionnaire measures with some error. Two stens whose bands overlap may not really differ. The chart draws each band as a line across the bar’s end.',
  fairness: {
    title: 'Differences between women and men in the norm group',
    intro:
      'For each scale: d, how far women’s mean score lies from men’s in standard deviations (positive: women score higher), with its 95% interval; and the four-fifths ratio: of the shares of women and of men scoring sten 7 or more, the smaller over the larger, and the same at sten 4 or less. A ratio below 0.80 means a cut there would screen out one gender more than the other in the norm group (the four-fifths rule). These figures describe the norm group, not the candidate.',
    advice: 'Do not use any single scale as a cut-off: decide on several sources together, each weighed for what the job requires.',
    interval: '95% interval',
    ratioHigh: 'Ratio at sten 7+',
    ratioLow: 'Ratio at sten 4−',
    adverse: 'A cut on this scale screens out one gender more than the other in the norm group.',
  },
  competences: 'Competences',
  competencesIntro:
    'Each competence combines several motivation scales. It says how well the candidate’s motivation fits work that calls for it, not how well they would do that work. The competences and their weights are a model written for Assay: no validation evidence stands behind them.',
  compositeReliability: 'Reliability',
  competence: 'Competence',
  quality: 'How the questionnaire was answered',
  consistency: (score: number) => `Consistency: ${score} out of 100.`,
  consistencyHelp:
    'The questionnaire asks some things twice in different words. The consistency score shows how much those answers go together: careful answering scores high, random answering near 0, and the same answer everywhere 0.',
  noConsistency: 'No consistency score is available for this questionnaire.',
  noFlags: 'Nothing in the way the questionnaire was answered calls for attention.',
  flags: {
    StraightLining: 'On at least half of the pages every statement got the same answer. The scores may not describe the candidate.',
    Speeding: 'The candidate spent less than a second per statement on a typical page, too little to read them.',
    LowConsistency: 'Pairs of statements that careful respondents answer in step were often answered out of step (a low consistency score).',
    EvenOdd: 'Within each scale, the answers to one half of its statements did not go with the answers to the other half, as careful answers do.',
    Synonyms: 'Statements that careful respondents answer alike (or opposite) were answered with little relation to each other.',
    LongString: 'A long run of statements in a row all got the same answer, longer than almost anyone in the norm group gave.',
    Outlier: 'The pattern of answers is further from the norm group than almost any careful respondent’s, as random answering is.',
  } as Record<IntegrityFlag, string>,
  flagAdvice: 'Talk about this with the candidate before you rely on the scores.',
  howToRead: 'How to read this report',
  howToReadItems: [
    'The questionnaire describes what motivates the candidate in work: what gives energy and what matters in a job. It measures preferences, not abilities, knowledge or performance.',
    'Stens compare the candidate with the norm group named above. A sten of 5 or 6 is average; each step is half a standard deviation.',
    'Low and high scores are neither good nor bad. What fits depends on the job and the team.',
    'Scores are estimates. A difference of one sten between two scales, or between two candidates, means little.',
  ],
  howToReadRaw: (r: ResponseRange) =>
    `Each score is the mean of the candidate’s answers on the ${r.min}–${r.max} response scale. Without a norm group a score says nothing about how the candidate stands among other people, and this report makes no such comparison.`,
  limits: 'What this report must not be used for',
  limitsItems: [
    'Do not reject or select anyone on this report alone. Use it next to interviews, references and work samples, and discuss it with the candidate.',
    'Do not use it for people other than the candidate named here, or for purposes other than this recruitment process.',
    'The candidate has the right to see and discuss their results.',
  ],
  pdf: 'Download as PDF',
  generated: (at: string) => `Generated ${at} by Assay.`,
  withheldTitle: 'Results not released',
  withheld: 'The candidate has not agreed, or no longer agrees, to share these results. They become available if the candidate releases them.',
  page: (n: number, of: number) => `Page ${n} of ${of}`,
};

export type ReportTexts = typeof en;

const nl: ReportTexts = {
  title: 'Assessmentrapport',
  confidential: 'Vertrouwelijk: voor de selectieprocedure waarvoor deze kandidaat solliciteerde.',
  candidate: 'Kandidaat',
  instrument: 'Vragenlijst',
  completed: 'Afgerond',
  normGroup: 'Normgroep',
  normed: (name, size, period) => `${name} (${size.toLocaleString('nl')} personen${period ? `, ${period}` : ''})`,
  period: (from, to) => (from || to ? `${from ?? '…'} tot ${to ?? '…'}` : ''),
  notNormed:
    'Deze scores zijn niet genormeerd: er gold geen normgroep toen de vragenlijst werd ingevuld. Ze laten zien hoe de kandidaat antwoordde, niet hoe de kandidaat zich tot anderen verhoudt.',
  illustrative: 'Deze normgroep is een illustratief voorbeeld, gemaakt met gesimuleerde antwoorden. Gebruik deze scores niet voor selectiebeslissingen.',
  profile: 'Motivatieprofiel',
  profileIntro:
    'Elke balk toont de stenscore van de kandidaat op een schaal. Stenscores lopen van 1 tot 10; in de gearceerde band van 4 tot 7 scoort ongeveer twee derde van de normgroep.',
  profileRaw: (r) =>
    `Elke balk toont de ruwe score van de kandidaat op een schaal: het gemiddelde van de uitspraken op de antwoordschaal van ${r.min} tot ${r.max}.`,
  chartLabel: (n) => `Staafdiagram van ${n} schalen; dezelfde scores staan in de tabel hierna.`,
  tableCaption: 'De scores uit het diagram',
  scale: 'Schaal',
  sten: 'Sten',
  percentile: 'Percentiel',
  raw: (r) => `Ruw (${r.min}–${r.max})`,
  band: 'Niveau',
  bands: { low: 'Laag', average: 'Gemiddeld', high: 'Hoog' },
  averageBand: 'Gemiddelde band (sten 4–7)',
  interpretation: 'Wat de scores betekenen',
  scalesMeaning: 'Wat elke schaal meet',
  stenBand: '90%-band',
  stenBandExplained:
    'De 90%-band is waar de stenscore negen van de tien keer zou uitkomen als de kandidaat de vragenlijst opnieuw invulde: de vragenlijst meet met enige fout. Twee stenscores waarvan de banden overlappen, verschillen misschien niet echt. Het diagram tekent elke band als een lijn over het einde van de balk.',
  fairness: {
    title: 'Verschillen tussen vrouwen en mannen in de normgroep',
    intro:
      'Per schaal: d, hoe ver de gemiddelde score van vrouwen van die van mannen ligt, in standaarddeviaties (positief: vrouwen scoren hoger), met het 95%-interval; en de vier-vijfdeverhouding: van de aandelen vrouwen en mannen met sten 7 of hoger het kleinste gedeeld door het grootste, en hetzelfde bij sten 4 of lager. Een verhouding onder 0,80 betekent dat een afkappunt daar in de normgroep het ene geslacht vaker uitsluit dan het andere (de vier-vijfderegel). Deze cijfers beschrijven de normgroep, niet de kandidaat.',
    advice: 'Gebruik geen enkele schaal als afkappunt: beslis op meerdere bronnen samen, elk gewogen naar wat de functie vraagt.',
    interval: '95%-interval',
    ratioHigh: 'Verhouding bij sten 7+',
    ratioLow: 'Verhouding bij sten 4−',
    adverse: 'Een afkappunt op deze schaal sluit in de normgroep het ene geslacht vaker uit dan het andere.',
  },
  competences: 'Competenties',
  competencesIntro:
    'Elke competentie combineert een aantal motivatieschalen. Ze zegt hoe goed de motivatie van de kandidaat past bij werk dat erom vraagt, niet hoe goed de kandidaat dat werk zou doen. De competenties en hun gewichten zijn een model dat voor Assay is geschreven: er staat geen validiteitsonderzoek achter.',
  compositeReliability: 'Betrouwbaarheid',
  competence: 'Competentie',
  quality: 'Hoe de vragenlijst is ingevuld',
  consistency: (score) => `Consistentie: ${score} van de 100.`,
  consistencyHelp:
    'De vragenlijst vraagt sommige dingen twee keer, in andere woorden. De consistentiescore laat zien hoe goed die antwoorden overeenkomen: zorgvuldig invullen geeft een hoge score, willekeurig invullen bijna 0, en overal hetzelfde antwoord 0.',
  noConsistency: 'Voor deze vragenlijst is geen consistentiescore beschikbaar.',
  noFlags: 'Niets in de manier van invullen vraagt om aandacht.',
  flags: {
    StraightLining: 'Op minstens de helft van de pagina’s kreeg elke uitspraak hetzelfde antwoord. De scores beschrijven de kandidaat mogelijk niet.',
    Speeding: 'De kandidaat besteedde op een gewone pagina minder dan een seconde per uitspraak, te weinig om ze te lezen.',
    LowConsistency:
      'Paren uitspraken die zorgvuldige invullers met elkaar in lijn beantwoorden, kregen vaak antwoorden die niet in lijn zijn (een lage consistentiescore).',
    EvenOdd:
      'Binnen elke schaal kwamen de antwoorden op de ene helft van de uitspraken niet overeen met die op de andere helft, zoals bij zorgvuldig invullen.',
    Synonyms: 'Uitspraken die zorgvuldige invullers gelijk (of juist tegengesteld) beantwoorden, kregen antwoorden die weinig met elkaar te maken hebben.',
    LongString: 'Een lange reeks uitspraken achter elkaar kreeg hetzelfde antwoord, langer dan bijna iemand in de normgroep gaf.',
    Outlier: 'Het antwoordpatroon ligt verder van de normgroep dan dat van bijna elke zorgvuldige invuller, zoals bij willekeurig invullen.',
  },
  flagAdvice: 'Bespreek dit met de kandidaat voordat u op de scores vertrouwt.',
  howToRead: 'Zo leest u dit rapport',
  howToReadItems: [
    'De vragenlijst beschrijft wat de kandidaat motiveert in het werk: waar de kandidaat energie van krijgt en wat belangrijk is in een baan. Ze meet voorkeuren, geen vaardigheden, kennis of prestaties.',
    'Stenscores vergelijken de kandidaat met de normgroep hierboven. Een sten van 5 of 6 is gemiddeld; elke stap is een halve standaarddeviatie.',
    'Lage en hoge scores zijn niet goed of slecht. Wat past, hangt af van de functie en het team.',
    'Scores zijn schattingen. Een verschil van één sten tussen twee schalen, of tussen twee kandidaten, zegt weinig.',
  ],
  howToReadRaw: (r) =>
    `Elke score is het gemiddelde van de antwoorden van de kandidaat op de antwoordschaal van ${r.min} tot ${r.max}. Zonder normgroep zegt een score niets over waar de kandidaat staat ten opzichte van andere mensen, en dit rapport maakt die vergelijking ook niet.`,
  limits: 'Waarvoor dit rapport niet gebruikt mag worden',
  limitsItems: [
    'Wijs niemand af en kies niemand uit op grond van dit rapport alleen. Gebruik het naast gesprekken, referenties en werkproeven, en bespreek het met de kandidaat.',
    'Gebruik het niet voor anderen dan de kandidaat die hier genoemd is, en niet voor andere doelen dan deze selectieprocedure.',
    'De kandidaat heeft het recht de resultaten in te zien en te bespreken.',
  ],
  pdf: 'Downloaden als pdf',
  generated: (at) => `Gemaakt op ${at} door Assay.`,
  withheldTitle: 'Resultaten niet vrijgegeven',
  withheld:
    'De kandidaat heeft (nog) geen toestemming gegeven om deze resultaten te delen, of heeft die ingetrokken. Ze komen beschikbaar als de kandidaat ze vrijgeeft.',
  page: (n, of) => `Pagina ${n} van ${of}`,
};

export const REPORT_TEXTS: Record<Language, ReportTexts> = { en, nl };

/** A personality inventory's report: the words that speak of motivation, said of personality. */
const PERSONALITY = {
  en: {
    profile: 'Personality profile',
    firstHowToRead:
      'The questionnaire describes how the candidate sees themselves: their usual ways of feeling, thinking and acting, in the five broad domains and the narrower traits within them. It measures self-description, not abilities, knowledge or performance.',
  },
  nl: {
    profile: 'Persoonlijkheidsprofiel',
    firstHowToRead:
      'De vragenlijst beschrijft hoe de kandidaat zichzelf ziet: hoe de kandidaat gewoonlijk voelt, denkt en handelt, in de vijf brede domeinen en de smallere trekken daarbinnen. Ze meet zelfbeschrijving, geen vaardigheden, kennis of prestaties.',
  },
} satisfies Record<Language, { profile: string; firstHowToRead: string }>;

/** The report's words for an instrument of this kind: motivation (the default) or personality. */
export function reportTexts(lang: Language, kind: 'motivation' | 'personality' = 'motivation'): ReportTexts {
  if (kind !== 'personality') return REPORT_TEXTS[lang];
  const t = REPORT_TEXTS[lang];
  const p = PERSONALITY[lang];
  return { ...t, profile: p.profile, howToReadItems: [p.firstHowToRead, ...t.howToReadItems.slice(1)] };
}

// Made once: a DateTimeFormat costs far more to build than to use.
const LONG_DATE = {
  en: new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
  nl: new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }),
} satisfies Record<Language, Intl.DateTimeFormat>;

/** A date as the report writes it: 23 November 2026, 23 november 2026. */
export function longDate(iso: string, lang: Language): string {
  return LONG_DATE[lang].format(new Date(iso));
}
