import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cancelAssessment } from '../../src/assessments/cancel-assessment.js';
import { createAssessment } from '../../src/assessments/create-assessment.js';
import { createCandidate } from '../../src/assessments/create-candidate.js';
import { placePartnerOrder } from '../../src/assessments/partner-order.js';
import type { FieldNames } from '../../src/assessments/rules.js';
import { findAssessment } from '../../src/assessments/assessments-store.js';
import { DomainError } from '../../src/domain/errors.js';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import { uniqueId } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';
import { address } from '../helpers/smtp-sink.js';

/** A door of the tests' own, with its own names for the fields. */
const NAMES: FieldNames = {
  externalId: 'person',
  assessmentType: 'test',
  returnUrl: 'back',
  webhookUrl: 'callback',
  webhookUsername: 'user',
  webhookPassword: 'secret',
  expiresAt: 'until',
  sendInvitation: 'mail',
};

const person = (email = address()) => ({
  externalId: uniqueId('svc'),
  email,
  firstName: 'Grace',
  lastName: 'Hopper',
  preposition: '',
  gender: 2,
  needsToUpdateData: false,
});

suiteOnEachDatabase('the actions, called directly as a second door would', { smtp: true, timeout: 120_000 }, ({ server, creds, api, sink }) => {
  const deps = () => server.running.deps;

  test('createCandidate: the candidate is the tenant’s and the API reads it; the same ExternalId again is `exists`', async () => {
    const p = person();
    assert.equal(await createCandidate(deps(), creds, p), 'created');
    assert.equal(await createCandidate(deps(), creds, { ...p, email: address() }), 'exists');
    const got = await api.get(`/api/anonymous/candidate/${p.externalId}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.Data.Candidate.Email, p.email, 'the first create stands');
    assert.equal(got.body.Data.Candidate.Gender, 2);
  });

  test('createAssessment: created with its invitation, which is sent; a rule refuses in the door’s own words and nothing is created', async () => {
    const p = person();
    await createCandidate(deps(), creds, p);
    const order = {
      externalId: p.externalId,
      assessmentType: 1,
      invitation: 'send' as const,
    };
    const created = await createAssessment(deps(), creds, order, NAMES);
    assert.equal(created.outcome, 'created');
    assert.ok(created.outcome === 'created' && created.assessmentUrl.startsWith(creds.portalDomain));
    const shown = await api.get(`/api/anonymous/assessment/${created.analysisId}`);
    assert.equal(shown.body.Data.AssessmentType, 1);
    await eventually(async () => (sink.to(p.email).length === 1 ? true : undefined), 30_000, 'the invitation');

    const refused = await createAssessment(deps(), creds, { ...order, webhookUrl: 'ftp://x.example/' }, NAMES).catch((e: unknown) => e);
    assert.ok(refused instanceof DomainError);
    assert.equal(refused.message, 'callback must be an absolute http or https URL');
    assert.equal(refused.details.field, 'callback');
    const late = await createAssessment(deps(), creds, { ...order, expiresAt: '2000-01-01T00:00:00Z' }, NAMES).catch((e: unknown) => e);
    assert.ok(late instanceof DomainError);
    assert.equal(late.message, 'until must be in the future');
    const list = await api.get(`/api/anonymous/assessments?ExternalId=${p.externalId}`);
    assert.equal(list.body.Data.Assessments.length, 1, 'the refused orders created nothing');
    assert.deepEqual(await createAssessment(deps(), creds, { ...order, externalId: 'nobody-here' }, NAMES), { outcome: 'no-candidate' });
  });

  test('placePartnerOrder: another ATS’s order, keyed by its URL; a repeat gets the first id and sends nothing more', async () => {
    const p = person();
    const url = `https://ats.example/tests/${uniqueId('o')}/done`;
    const given = { person: p, assessmentType: 0, url, partner: { via: 'other-ats', key: 'partner-key-1' } };
    const first = await placePartnerOrder(deps(), creds, given, NAMES);
    assert.equal(first.outcome, 'ordered');
    const again = await placePartnerOrder(deps(), creds, given, NAMES);
    assert.deepEqual(again, first);
    const id = first.outcome === 'ordered' ? first.analysisId : '';
    const row = await findAssessment(deps().store, id);
    assert.equal(row?.ordered_via, 'other-ats');
    assert.equal(row?.webhook_style, 'patch');
    assert.equal(row?.order_key, createHash('sha256').update(url).digest('hex'));
    assert.equal(deps().secretBox.open(row!.webhook_username_enc!, id), 'partner-key-1');
    await eventually(async () => (sink.to(p.email).length === 1 ? true : undefined), 30_000, 'one invitation');
  });

  test('cancelAssessment: cancelled, again without error and with the same time; a completed one is `completed`', async () => {
    const p = person();
    await createCandidate(deps(), creds, p);
    const order = {
      externalId: p.externalId,
      assessmentType: 0,
      invitation: 'none' as const,
    };
    const made = await createAssessment(deps(), creds, order, NAMES);
    const done = await createAssessment(deps(), creds, order, NAMES);
    assert.ok(made.outcome === 'created' && done.outcome === 'created');
    const first = await cancelAssessment(deps(), creds, made.analysisId);
    assert.equal(first.outcome, 'cancelled');
    assert.deepEqual(await cancelAssessment(deps(), creds, made.analysisId), first);
    assert.equal((await api.get(`/api/anonymous/assessment/${made.analysisId}`)).body.Data.Status, 'Cancelled');
    assert.deepEqual(await cancelAssessment(deps(), { tenantId: 'another-tenant' }, made.analysisId), { outcome: 'not-found' });
    await completeViaForms(new FormClient(server.url), done.analysisId);
    assert.deepEqual(await cancelAssessment(deps(), creds, done.analysisId), { outcome: 'completed' });
  });
});
