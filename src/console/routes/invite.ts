import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, Deps } from '../../app-types.js';
import { checkOrder, createChecked, type CheckedOrder } from '../../assessments/create-assessment.js';
import { createCandidate } from '../../assessments/create-candidate.js';
import type { FieldNames } from '../../assessments/rules.js';
import { readCandidate } from '../../assessments/views.js';
import { CONSOLE_INVITE_PATH, CONSOLE_PREFIX } from '../../domain/console-paths.js';
import { DomainError } from '../../domain/errors.js';
import type { Language } from '../../domain/language.js';
import { takeForm } from '../../http/forms.js';
import { expiryFor } from '../../lifecycle/rules.js';
import { Email, ExternalId, FirstName, LastName, Preposition } from '../../schemas/fields.js';
import { consoleRequester } from '../../tenancy/credentials-store.js';
import { recordAudit } from '../audit-store.js';
import { allow, signedIn } from '../guard.js';
import { INVITE_TEXTS } from '../invite-texts.js';
import { INVITE_FIELDS, invitedPage, invitePage, type InviteErrors, type InviteField, type InviteValues } from '../invite-view.js';
import { consoleContext, sendPage } from '../render.js';
import { csrfBinding } from '../sessions.js';

// The API's own rules for a candidate's fields, checking every field so all errors show at once.
const checkPerson = Compile(Type.Object({ ExternalId, Email, FirstName, Preposition, LastName }));
const PERSON = ['ExternalId', 'Email', 'FirstName', 'Preposition', 'LastName'] as const;

/** The rooms' rule messages name the form's fields as the form labels them. */
function fieldNames(lang: Language): FieldNames {
  const f = INVITE_TEXTS[lang].fields;
  return {
    externalId: f.ExternalId,
    assessmentType: f.AssessmentType,
    returnUrl: 'ReturnUrl',
    webhookUrl: 'WebhookUrl',
    webhookUsername: 'WebhookUsername',
    webhookPassword: 'WebhookPassword',
    expiresAt: f.ExpiresAt,
    sendInvitation: 'SendInvitation',
  };
}

/** The form field a rule's DomainError names, by the label `fieldNames` gave it. */
function fieldOf(err: DomainError, names: FieldNames): InviteField {
  return err.details.field === names.expiresAt ? 'ExpiresAt' : err.details.field === names.externalId ? 'ExternalId' : 'AssessmentType';
}

/** GET and POST /console/invite for admins and recruiters: a candidate (new or their own) and an assessment with its invitation. */
export function inviteRoutes(app: App, deps: Deps): void {
  const path = CONSOLE_INVITE_PATH.slice(CONSOLE_PREFIX.length);
  const choices = (lang: Language) => [...deps.instruments.values()].map((i) => ({ assessmentType: i.assessmentType, label: `${i.code} – ${i.name[lang]}` }));
  const form = (request: FastifyRequest, reply: FastifyReply, values: InviteValues = {}, errors: InviteErrors = {}, problem?: string, status = 200) => {
    const ctx = consoleContext(request, reply);
    return sendPage(reply, invitePage(ctx, reply.generateCsrf({ userInfo: csrfBinding(request) }), choices(ctx.lang), values, errors, problem), status);
  };

  app.get(path, { preHandler: [signedIn(deps), allow('admin', 'recruiter')] }, async (request, reply) => form(request, reply));

  app.post(path, { preHandler: [signedIn(deps), allow('admin', 'recruiter'), app.csrfProtection] }, async (request, reply) => {
    const posted = takeForm(request);
    const values: InviteValues = {};
    for (const f of INVITE_FIELDS) values[f] = posted[f]?.trim() ?? '';
    const { lang } = consoleContext(request, reply);
    const t = INVITE_TEXTS[lang];
    const user = request.consoleUser!;

    const failed = new Set([...checkPerson.Errors(values)].map((e) => e.instancePath.slice(1)));
    const errors: InviteErrors = {};
    for (const f of PERSON) if (failed.has(f)) errors[f] = t.fieldErrors[f];
    const type = Number(values.AssessmentType);
    if (!/^\d+$/.test(values.AssessmentType!) || !deps.instruments.has(type)) errors.AssessmentType = t.fieldErrors.AssessmentType;
    const names = fieldNames(lang);
    let checked: CheckedOrder | undefined;
    if (!errors.AssessmentType) {
      const expiresAt = values.ExpiresAt || undefined;
      try {
        checked = checkOrder(deps, { externalId: values.ExternalId!, assessmentType: type, expiresAt, invitation: deps.config.mail ? 'send' : 'none' }, names);
        // The expiry's rule runs again on writing; checked here, before a candidate is created.
        expiryFor(expiresAt, deps.config.lifecycle.expiryDays, Date.now(), names.expiresAt);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        errors[fieldOf(err, names)] = err.message;
      }
    }
    if (Object.keys(errors).length > 0 || !checked) return form(request, reply, values, errors, undefined, 400);

    const requester = await consoleRequester(deps.store, user.tenantId);
    if (!requester) return form(request, reply, values, {}, t.noKey, 409);
    const person = {
      externalId: values.ExternalId!,
      email: values.Email!,
      firstName: values.FirstName!,
      lastName: values.LastName!,
      preposition: values.Preposition!,
    };
    // An ExternalId of this tenant's reuses that candidate; another tenant's is taken, and says no more.
    if ((await createCandidate(deps, requester, person)) === 'exists' && !(await readCandidate(deps, user, person.externalId))) {
      return form(request, reply, values, { ExternalId: t.taken }, undefined, 409);
    }
    const created = await createChecked(deps, requester, checked);
    if (created.outcome === 'capped') {
      reply.header('retry-after', String(created.retryAfterSeconds));
      return form(request, reply, values, {}, t.capped(Math.max(1, Math.ceil(created.retryAfterSeconds / 60))), 429);
    }
    if (created.outcome !== 'created') return form(request, reply, values, { ExternalId: t.taken }, undefined, 409);
    await recordAudit(deps.store, { tenantId: user.tenantId, userId: user.id, action: 'candidate.invite', address: request.ip });
    return sendPage(reply, invitedPage(consoleContext(request, reply), person.externalId, created.assessmentUrl, Boolean(deps.config.mail)), 201);
  });
}
