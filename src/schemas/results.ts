import { Type, type Static } from 'typebox';
import { AnalysisIdParam } from './fields.js';

const Timestamp = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

/** One entry of the vendor's result lists. */
export const ResultItem = Type.Object({
  ID: Type.Integer({ description: 'Stable integer: the scale number (1–26) or the competence id. Never reused.' }),
  Value: Type.Number({
    description:
      'Raw lists: mean on the response scale of the instrument (1–5 for TMA170 and TMA312), two decimals. Sten lists: integer 1–10. Percentage lists: integer 0–100.',
  }),
  Description: Type.String({ description: "The scale or competence name in the culture's language." }),
  ExternalCode: Type.String({ description: 'Stable code callers can map, e.g. ACHIEVEMENT or RESULTS_ORIENTATION. Never changes between versions.' }),
});

export const NormGroupInfo = Type.Union(
  [
    Type.Null(),
    Type.Object({
      Id: Type.String(),
      Name: Type.String(),
      SampleSize: Type.Integer(),
      CollectedFrom: Type.Union([Type.String(), Type.Null()]),
      CollectedTo: Type.Union([Type.String(), Type.Null()]),
      Source: Type.String(),
      Illustrative: Type.Boolean({ description: 'True for the shipped example: simulated, never for selection decisions.' }),
    }),
  ],
  { description: 'The norm group the stens and percentiles are against: the one in force when the assessment was completed. Null when none was.' },
);

const FLAG = Type.Union([
  Type.Literal('StraightLining'),
  Type.Literal('Speeding'),
  Type.Literal('LowConsistency'),
  Type.Literal('EvenOdd'),
  Type.Literal('Synonyms'),
  Type.Literal('LongString'),
  Type.Literal('Outlier'),
]);

export const IntegrityFlags = Type.Array(FLAG, {
  description:
    'Signs that the answers may not describe the candidate, each naming the check that fired (EvenOdd, Synonyms, LongString and Outlier are careless-responding indices calibrated on the norm group); see docs/RESULTS.md "Results". Empty when none.',
});

export const ReportUrl = Type.Union([Type.String(), Type.Null()], {
  description: 'Once completed: a signed link to the report on the portal domain, for people without API credentials. It expires (REPORT_LINK_DAYS).',
});

export const TakenIn = {
  ContentVersion: Type.Union([Type.String(), Type.Null()], {
    description:
      "Once completed: the instrument's content version it was taken in. Null before completion, and for assessments completed before Assay recorded it.",
  }),
  Language: Type.Union([Type.Literal('nl'), Type.Literal('en'), Type.Null()], {
    description:
      'Once completed: the language the portal showed when the candidate finished. Null before completion, and for assessments completed before Assay recorded it.',
  }),
};

export const ResultsRelease = Type.Union([Type.Literal('NotRequired'), Type.Literal('Pending'), Type.Literal('Released'), Type.Literal('Declined')], {
  description: 'Whether the candidate must release the results before they are shown (a portal setting), and their answer.',
});

const List = (description: string) => Type.Array(ResultItem, { description });

export const ResultParams = Type.Object({
  token: AnalysisIdParam,
  culture: Type.String({ minLength: 1, maxLength: 20, description: 'nl-NL, en-GB or en-US (case-insensitive): the language of Description.' }),
});

export const StenBand = Type.Object(
  { Low: Type.Number(), High: Type.Number() },
  { description: "The sten's 90% band: ±1.645 standard errors of measurement from the norm group's reliability, within 1–10, one decimal." },
);

const Figure = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

/** One scale's adverse-impact figures in the norm group: the group's, the same for every candidate scored against it. */
export const FairnessItem = Type.Object({
  ID: Type.Integer({ description: 'The scale number, as in NormScores.' }),
  ExternalCode: Type.String(),
  D: Figure("Cohen's d, women minus men, in pooled SDs of the raw score (three decimals); null below 30 of either gender."),
  DLow: Figure("The lower bound of d's 95% interval; null where the group does not record it."),
  DHigh: Figure("The upper bound of d's 95% interval; null where the group does not record it."),
  RatioHigh: Figure(
    'The four-fifths ratio at sten 7 or more: the lower of the two genders’ shares over the higher (≤ 1, three decimals). Below 0.80, a cut there screens out one gender more than the other.',
  ),
  RatioLow: Figure('The same at sten 4 or less, where a cut screens out the low scorers; null where the group does not record it.'),
});

/** The vendor's classic results response: field names and types exactly as documented, plus Assay's extensions. */
export const AnalysisResult = Type.Object(
  {
    AnalysisToken: Type.String(),
    CandidateIdentifier: Type.String({ description: "The candidate's ExternalId." }),
    AptitudeScores: List('Per competence: sten 1–10 against the norm group. Empty without a norm group.'),
    NormScores: List('Per scale: sten 1–10 against the norm group. Empty without a norm group.'),
    NormScoresPercentage: List('Per scale: percentile 0–100 against the norm group. Empty without a norm group.'),
    AptitudeScoresPercentage: List('Per competence: percentile 0–100 against the norm group. Empty without a norm group.'),
    NormScoreScales: List('Per scale: the raw score, the mean of its keyed items on the response scale of the instrument.'),
    AptitudeScoresScale: List('Per competence: the raw score, the weighted mean of its scales on the response scale of the instrument.'),
    Done: Type.Boolean(),
    DoneDate: Timestamp,
    ConsistencyScore: Type.String({
      description:
        'Integer 0–100 as a string: the within-person correlation of designated item pairs × 100 (0 when negative or without variation). "" when not finished.',
    }),
    NormGroup: NormGroupInfo,
    Note: Type.Union([Type.String(), Type.Null()], {
      description:
        'Why lists are empty (no norm group; an illustrative group, whose simulated stens never fill them; results not released by the candidate), and, with every result that has competences, that they are a model without validation evidence. Null before completion.',
    }),
    IntegrityFlags,
    ReportUrl: ReportUrl,
    StenBands: Type.Array(Type.Object({ ID: Type.Integer(), ExternalCode: Type.String(), Sten: Type.Integer(), ...StenBand.properties }), {
      description:
        "Assay's: the precision of each sten in NormScores and AptitudeScores (same ID and ExternalCode): its 90% band. Empty when the lists are, or when the norm group records no reliability (precision unknown).",
    }),
    Fairness: Type.Array(FairnessItem, {
      description:
        'Assay\'s: per scale of NormScores, how it differs between women and men in the norm group (docs/PSYCHOMETRICS.md "Adverse impact"). Empty when the lists are, or when the group records no gender.',
    }),
  },
  { description: "The results, in TMA's own format (no envelope)" },
);
export type AnalysisResult = Static<typeof AnalysisResult>;
