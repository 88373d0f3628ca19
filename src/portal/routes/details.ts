import { Compile } from 'typebox/compile';
import type { App, Deps } from '../../app-types.js';
import { CandidateDetails } from '../../schemas/candidate.js';
import { setGender, updateCandidateDetails } from '../session-store.js';
import { currentStep } from '../../measurement/instruments/flow.js';
import { takeForm } from '../../http/forms.js';
import { redirect, sendPage } from '../render.js';
import { loadAtStep, stepUrl } from '../session.js';
import { TEXTS } from '../texts.js';
import { detailsPage, genderPage, type DetailsValues } from '../views/details.js';
import type { FieldError } from '../views/pages.js';
import { portalPagePath } from '../../domain/portal-paths.js';

// The API's own field rules, compiled once, checking every field so all errors show at once.
const checkDetails = Compile(CandidateDetails);
const FIELDS = ['FirstName', 'Preposition', 'LastName', 'Email'] as const;

function formValues(form: Record<string, string>): DetailsValues {
  const values: DetailsValues = {};
  for (const f of FIELDS) values[f] = form[f]?.trim() ?? '';
  return values;
}

export function detailsRoutes(app: App, deps: Deps): void {
  app.get('/:id/details', async (request, reply) => {
    const l = await loadAtStep(deps, request, reply, 'details');
    if (!l) return reply;
    return sendPage(reply, detailsPage(l.ctx, portalPagePath(l.id, 'details'), reply.generateCsrf({ userInfo: l.id })));
  });

  app.post('/:id/details', { preHandler: app.csrfProtection }, async (request, reply) => {
    const values = formValues(takeForm(request));
    const l = await loadAtStep(deps, request, reply, 'details');
    if (!l) return reply;
    const t = TEXTS[l.ctx.lang];
    const failed = new Set([...checkDetails.Errors(values)].map((e) => e.instancePath.slice(1)));
    const errors: FieldError[] = FIELDS.filter((f) => failed.has(f)).map((field) => ({ field, message: t.fieldErrors[field]! }));
    if (errors.length > 0) {
      const page = detailsPage(l.ctx, portalPagePath(l.id, 'details'), reply.generateCsrf({ userInfo: l.id }), values, errors);
      return sendPage(reply, page, { status: 400 });
    }
    await updateCandidateDetails(deps.store, l.session.candidate.external_id, {
      first_name: values.FirstName!,
      preposition: values.Preposition!,
      last_name: values.LastName!,
      email: values.Email!,
    });
    return redirect(reply, stepUrl(l.id, currentStep(l.instrument, { ...l.progress, needsToUpdateData: false })));
  });

  app.get('/:id/gender', async (request, reply) => {
    const l = await loadAtStep(deps, request, reply, 'gender');
    if (!l) return reply;
    return sendPage(reply, genderPage(l.ctx, portalPagePath(l.id, 'gender'), reply.generateCsrf({ userInfo: l.id })));
  });

  app.post('/:id/gender', { preHandler: app.csrfProtection }, async (request, reply) => {
    const raw = takeForm(request).Gender;
    const l = await loadAtStep(deps, request, reply, 'gender');
    if (!l) return reply;
    // 0 is "prefer not to say": the question was answered, so it is not asked again.
    if (raw !== '0' && raw !== '1' && raw !== '2' && raw !== '3') {
      return sendPage(reply, genderPage(l.ctx, portalPagePath(l.id, 'gender'), reply.generateCsrf({ userInfo: l.id }), true), { status: 400 });
    }
    const gender = Number(raw);
    await setGender(deps.store, l.session.candidate.external_id, gender);
    return redirect(reply, stepUrl(l.id, currentStep(l.instrument, { ...l.progress, gender, genderAsked: true })));
  });
}
