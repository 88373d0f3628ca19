import type { App, Deps } from '../../app-types.js';
import { itemKeys, LANGUAGES, type Instrument } from '../../measurement/instruments/types.js';
import { findNormGroup, normGroupInForce } from '../../measurement/norms-store.js';
import { fairnessOf, fairnessView } from '../../measurement/fairness.js';
import { scaleCode } from '../../measurement/result.js';
import { Catalogue } from '../../schemas/catalogue.js';
import { apiErrors } from '../../schemas/errors.js';

/** Beyond the spec: what a caller may order, and what each result will be normed on for this caller. */
export function assessmentTypes(app: App, deps: Deps): void {
  const { store, instruments } = deps;
  app.get(
    '/api/anonymous/assessmenttypes',
    {
      schema: {
        summary: 'The instruments a caller may order (extension)',
        description:
          'Not in the original specification. Per instrument: its AssessmentType and code, its name per language, item count (for a shortened form, against the published one), estimated minutes, languages (with what a ' +
          "result taken in each must say), scales (each with how it differs between women and men in that norm group), and the norm group an assessment completed now would be scored against for the caller's portal, with its N.",
        tags: ['Extensions'],
        response: { 200: Catalogue, ...apiErrors({ body: false }) },
      } as Record<string, unknown>,
    },
    async (request, reply) => {
      const apiKeyId = request.caller!.apiKeyId;
      const Data = [];
      for (const i of [...instruments.values()].sort((a, b) => a.assessmentType - b.assessmentType)) {
        const groupId = await normGroupInForce(store, apiKeyId, i.assessmentType);
        const group = groupId ? await findNormGroup(store, groupId) : undefined;
        const fairness = new Map(fairnessOf(group, i).map((f) => [f.scale, fairnessView(f)]));
        Data.push({
          AssessmentType: i.assessmentType,
          Code: i.code,
          Name: { nl: i.name.nl, en: i.name.en },
          ContentVersion: i.version,
          ItemCount: i.items.length,
          PublishedForm: i.publishedForm
            ? {
                Source: i.publishedForm.source,
                Items: i.publishedForm.items,
                Scales: i.publishedForm.scales,
                SampleSize: i.publishedForm.sampleSize,
                LeftOut: i.publishedForm.leftOut.map((l) => ({ Key: l.key, Items: l.items })),
              }
            : null,
          EstimatedMinutes: i.estimatedMinutes,
          ResponseScale: { Min: i.responseScale.min, Max: i.responseScale.max },
          Languages: LANGUAGES.map((lang) => {
            const translation = i.languages?.translations?.[lang];
            return { Language: lang, Translation: translation !== undefined, Note: translation?.note.en ?? null };
          }),
          Scales: i.scales.map((s) => ({
            ID: s.number,
            ExternalCode: scaleCode(s.id),
            Name: { nl: s.name.nl, en: s.name.en },
            Items: itemsOn(i, s.id),
            Published: s.published ? { Items: s.published.items, R: s.published.r } : null,
            Fairness: fairness.get(s.id) ?? null,
          })),
          NormGroup: group ? { Id: group.id, Name: group.name, SampleSize: group.sampleSize, Illustrative: group.illustrative } : null,
        });
      }
      // Per caller (the portal's own norm choice), and an operator may activate another group at any time.
      reply.header('cache-control', 'no-store');
      return { StatusCode: 200 as const, Message: null, Data };
    },
  );
}

/** How many of the instrument's items count for the scale. */
function itemsOn(instrument: Instrument, scale: string): number {
  return instrument.items.filter((item) => itemKeys(item).some((k) => k.scale === scale)).length;
}
