import { Type } from 'typebox';
import { Envelope } from './envelopes.js';
import { FairnessItem } from './results.js';

const PerLanguage = (what: string) => Type.Object({ nl: Type.String(), en: Type.String() }, { description: `${what}, per language.` });

export const CatalogueScale = Type.Object({
  ID: Type.Integer({ description: 'The scale number: the `ID` of the result lists.' }),
  ExternalCode: Type.String({ description: 'The `ExternalCode` of the result lists, e.g. SPI_TRUST.' }),
  Name: PerLanguage('The scale name'),
  Items: Type.Integer({ description: 'How many of the statements asked count for this scale.' }),
  Published: Type.Union([Type.Null(), Type.Object({ Items: Type.Integer(), R: Type.Number() })], {
    description:
      "Where the instrument is a shortened form of a published inventory (`PublishedForm`): the scale's item count there, and R, the correlation of " +
      'its score as shipped with its published score in the norm sample. Null otherwise.',
  }),
  Fairness: Type.Union([Type.Null(), Type.Omit(FairnessItem, ['ID', 'ExternalCode'])], {
    description:
      "How the scale differs between women and men in `NormGroup` (the results' `Fairness` item): d with its 95% interval and the four-fifths " +
      'ratios at sten 7 or more and 4 or less; a ratio below 0.80 means a cut on this scale screens out one gender more than the other. Null when the group records no gender.',
  }),
});

export const PublishedForm = Type.Union(
  [
    Type.Null(),
    Type.Object({
      Source: Type.String({ description: 'The published scoring keys, e.g. psychTools::spi.keys.' }),
      Items: Type.Integer({ description: "The published form's item count." }),
      Scales: Type.Integer({ description: "The published form's scale count." }),
      SampleSize: Type.Integer({ description: "N of the norm sample each scale's R was computed in." }),
      LeftOut: Type.Array(Type.Object({ Key: Type.String(), Items: Type.Integer() }), {
        description: "Its scales this form does not have (e.g. the SPI's Conservatism, which asked about religion and politics), with their item counts.",
      }),
    }),
  ],
  { description: 'Where the instrument is a shortened form of a published inventory (the SPI): what that inventory has. Null otherwise.' },
);

export const CatalogueEntry = Type.Object({
  AssessmentType: Type.Integer({ description: 'What `POST /api/anonymous/assessment` takes as AssessmentType.' }),
  Code: Type.String({ description: 'The instrument code, e.g. TMA170 or SPI.' }),
  Name: PerLanguage('The instrument name'),
  ContentVersion: Type.String({ description: 'The content version a completion now records.' }),
  ItemCount: Type.Integer({ description: 'How many statements the candidate answers.' }),
  PublishedForm,
  EstimatedMinutes: Type.Integer({ description: 'About how long the questionnaire takes.' }),
  ResponseScale: Type.Object(
    { Min: Type.Integer(), Max: Type.Integer() },
    { description: 'The answers each statement takes, from Min to Max: raw scale scores lie between them.' },
  ),
  Languages: Type.Array(
    Type.Object({
      Language: Type.Union([Type.Literal('nl'), Type.Literal('en')]),
      Translation: Type.Boolean({
        description: 'True for a translation of the source text made for Assay; false for the source text, or where the instrument records no source.',
      }),
      Note: Type.Union([Type.String(), Type.Null()], {
        description:
          'What every result taken in this language says (in `Note` and in the report), e.g. that a translation has no norms of its own; null when nothing.',
      }),
    }),
    { description: 'The languages a candidate can take it in.' },
  ),
  Scales: Type.Array(CatalogueScale, { description: 'Every scale a result reports, in the order of the result lists.' }),
  NormGroup: Type.Union(
    [
      Type.Null(),
      Type.Object({
        Id: Type.String(),
        Name: Type.String(),
        SampleSize: Type.Integer({ description: 'N: the respondents the group was built from.' }),
        Illustrative: Type.Boolean({ description: 'True for a simulated example: never for selection decisions.' }),
      }),
    ],
    {
      description:
        "The norm group an assessment completed now would be scored against, for the caller's portal: its own choice, else the instrument's default. Null when none: stens and percentiles then stay empty.",
    },
  ),
});

export const Catalogue = Envelope(Type.Array(CatalogueEntry), 200);
