import type { App, Deps } from '../../app-types.js';
import { DomainError } from '../../domain/errors.js';
import { CULTURES, cultureLanguage } from '../../measurement/culture.js';
import type { Result, Scored } from '../../measurement/result.js';
import { fairnessView } from '../../measurement/fairness.js';
import { apiErrors } from '../../schemas/errors.js';
import { normGroupInfo } from '../../measurement/norm-group-view.js';
import { AnalysisResult, ResultParams } from '../../schemas/results.js';
import { cachedRender, currentOwnSummary, peekCachedRender, reportUrl, resultOf, withheld, type RenderRow } from '../../reports/render.js';
import type { Language } from '../../measurement/instruments/types.js';
import type { Static } from 'typebox';
import type { FastifyReply } from 'fastify';

const JSON_UTF8 = 'application/json; charset=utf-8';
// The render cache's name for a results body in one language.
const variantOf = (lang: Language) => `results:${lang}`;

const item = (s: Scored, value: number) => ({ ID: s.id, Value: value, Description: s.name, ExternalCode: s.code });

/**
 * The vendor's list fields from a result: raw scores always, stens and percentiles where normed by
 * a real group. An illustrative group's never go here: a client of these fields never reads the
 * warning; nor a translation's against another language's group, unless the portal allows it.
 */
/** The norm group's figures for each scale in NormScores. */
function fairness(r: Result, listed: readonly Scored[]) {
  const codes = new Map(listed.map((s) => [s.id, s.code]));
  return r.fairness.filter((f) => codes.has(f.id)).map((f) => ({ ID: f.id, ExternalCode: codes.get(f.id)!, ...fairnessView(f) }));
}

function lists(r: Result, translatedAllowed: boolean) {
  const kept = !r.normGroup?.illustrative && (!r.translatedNorms || translatedAllowed);
  const normed = (xs: Scored[]) => (kept ? xs.filter((x) => x.sten !== undefined) : []);
  return {
    AptitudeScores: normed(r.competences).map((c) => item(c, c.sten!)),
    NormScores: normed(r.scales).map((s) => item(s, s.sten!)),
    NormScoresPercentage: normed(r.scales).map((s) => item(s, s.percentile!)),
    AptitudeScoresPercentage: normed(r.competences).map((c) => item(c, c.percentile!)),
    NormScoreScales: r.scales.map((s) => item(s, s.raw)),
    AptitudeScoresScale: r.competences.map((c) => item(c, c.raw)),
    StenBands: [...normed(r.scales), ...normed(r.competences)].flatMap((x) =>
      x.stenBand ? [{ ID: x.id, ExternalCode: x.code, Sten: x.sten!, Low: x.stenBand.low, High: x.stenBand.high }] : [],
    ),
    Fairness: fairness(r, normed(r.scales)),
  };
}

const WITHHELD = 'The candidate has not released these results (the portal asks them to first): the lists stay empty until they do.';

/** The competences' standing, said with every result that has them: a model, not a validated measure. */
const COMPETENCE_NOTE =
  'The competences (Aptitude lists) are a model written for Assay: weighted combinations of scales with no validation evidence behind the weights.';

/** Why a translation's stens are left out of the lists, or that the portal lets them in. */
function translatedNote(t: NonNullable<Result['translatedNorms']>, allowed: boolean): string {
  const group = `Its norm group's language is ${t.groupLanguage ?? 'not recorded'}, not ${t.takenIn}`;
  return allowed
    ? `${group}; this portal's operator allows its stens and percentiles in the lists (translated-norms setting), though no evidence shows the comparison holds in ${t.takenIn}.`
    : `${group}, so the sten, percentile and band lists stay empty; the report shows the comparison with this note. A portal's operator may allow the lists (translated-norms setting).`;
}

function note(r: Result, translatedAllowed: boolean): string | null {
  const group = r.normGroup;
  const norms = !group
    ? 'No norm group was in force when this assessment was completed: the sten and percentile lists are empty, and the raw scores are not norm-referenced.'
    : group.illustrative
      ? 'The norm group in force is an illustrative example built from simulated answers, so the sten and percentile lists stay empty: no simulated score goes where the warning cannot be seen. The raw scores are not norm-referenced.'
      : r.translatedNorms
        ? translatedNote(r.translatedNorms, translatedAllowed)
        : undefined;
  // The API's prose is English, whatever the culture asked for.
  return [r.translationNote?.en, norms, r.competences.length > 0 ? COMPETENCE_NOTE : undefined].filter(Boolean).join(' ') || null;
}

const EMPTY = {
  AptitudeScores: [],
  NormScores: [],
  NormScoresPercentage: [],
  AptitudeScoresPercentage: [],
  NormScoreScales: [],
  AptitudeScoresScale: [],
  StenBands: [],
  Fairness: [],
};

/** The vendor's result body for one assessment in one language. */
async function resultBody(deps: Deps, row: RenderRow, lang: Language): Promise<Static<typeof AnalysisResult>> {
  const ids = { AnalysisToken: row.analysis_id, CandidateIdentifier: row.external_id };
  const result = withheld(row) ? undefined : await resultOf(deps, row, lang);
  if (!result) {
    const done = row.status === 'Completed';
    return {
      ...ids,
      ...EMPTY,
      Done: done,
      DoneDate: done ? row.completed_at : null,
      ConsistencyScore: '',
      NormGroup: null,
      Note: done ? WITHHELD : null,
      IntegrityFlags: [],
      ReportUrl: reportUrl(deps, row),
    };
  }
  const allowed = row.translated_norms === 1;
  return {
    ...ids,
    ...lists(result, allowed),
    Done: true,
    DoneDate: row.completed_at,
    ConsistencyScore: result.consistency === undefined ? '' : String(result.consistency),
    NormGroup: normGroupInfo(result.normGroup),
    Note: note(result, allowed),
    IntegrityFlags: result.flags,
    ReportUrl: reportUrl(deps, row),
  };
}

/** TMA's classic results endpoint, so a caller of the original service can point it at Assay. */
export function analysisResult(app: App, deps: Deps): void {
  app.get(
    '/api/candidateanalysisresult/:token/:culture',
    {
      schema: {
        summary: "Results of an assessment (the vendor's classic endpoint)",
        description:
          "Field names and types as in TMA's public documentation of the classic API. `culture` picks the language of each Description: " +
          `${Object.keys(CULTURES).join(', ')}, case-insensitive; any other is a 400. Until the candidate finishes: Done false, DoneDate null, empty lists. ` +
          'Assay adds NormGroup, Note, IntegrityFlags and ReportUrl. When the portal asks candidates to release their results, the lists stay empty ' +
          "until they do. Only the caller's own tenant's assessments are visible; others are 404.",
        tags: ['Results'],
        params: ResultParams,
        response: { 200: AnalysisResult, ...apiErrors({ body: false }, 'NotFound') },
      },
    },
    (request, reply) => {
      const { token, culture } = request.params;
      const lang = cultureLanguage(culture);
      if (!lang) {
        throw new DomainError('ValidationError', `Culture "${culture}" is not supported; use one of ${Object.keys(CULTURES).join(', ')}`, {
          field: 'culture',
          rule: 'supportedCulture',
          supported: Object.keys(CULTURES),
        });
      }
      // A plain function, not an async one: a kept body goes out with nothing awaited.
      const kept = peekCachedRender<Buffer>(deps, token, request.caller!.tenantId, variantOf(lang));
      if (kept) {
        reply.type(JSON_UTF8).send(kept);
        return;
      }
      return answer(token, lang, request.caller!.tenantId, reply);
    },
  );

  async function answer(token: string, lang: Language, tenantId: string, reply: FastifyReply): Promise<FastifyReply> {
    const summary = await currentOwnSummary(deps, tenantId, token);
    const notFound = () => new DomainError('NotFound', 'No assessment found with this token', { field: 'token' });
    if (!summary) throw notFound();
    // The body is kept while the row it came from is unchanged: an ATS polling for results gets the bytes made the first time.
    const body = await cachedRender(
      deps,
      summary,
      variantOf(lang),
      async (row) => Buffer.from(reply.serialize(await resultBody(deps, row, lang)) as string),
      (json) => json.length,
    );
    // Gone between the two reads: erased.
    if (!body) throw notFound();
    return reply.type(JSON_UTF8).send(body);
  }
}
