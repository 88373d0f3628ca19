import assert from 'node:assert/strict';
import { createAssessment } from '../../src/assessments/create-assessment.js';
import { createCandidate } from '../../src/assessments/create-candidate.js';
import { fieldNames } from '../../src/assessments/rules.js';
import { resendInvitation } from '../../src/mail/resend.js';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { uniqueId } from '../helpers/http.js';
import { eventually } from '../helpers/receiver.js';
import { address } from '../helpers/smtp-sink.js';

const NAMES = fieldNames({});

suiteOnEachDatabase('resendInvitation, called directly as a second door would', { smtp: true }, ({ server, creds, sink, api }) => {
  test('queued and sent; while that one waits or goes, a second is in-progress; another tenant’s is not-found', async () => {
    const deps = server.running.deps;
    const email = address();
    const externalId = uniqueId('resend');
    await createCandidate(deps, creds, { externalId, email, firstName: 'Ada', lastName: 'L', preposition: '', gender: 0, needsToUpdateData: false });
    const created = await createAssessment(
      deps,
      creds,
      {
        externalId,
        assessmentType: 0,
        invitation: 'none',
      },
      NAMES,
    );
    assert.ok(created.outcome === 'created');
    const first = await resendInvitation(deps, creds, created.analysisId, 'test-door');
    assert.equal(first.outcome, 'queued');
    const second = await resendInvitation(deps, creds, created.analysisId, 'test-door');
    // The first may have gone out already: then a second is queued, else it waits for the first.
    assert.ok(second.outcome === 'in-progress' || second.outcome === 'queued', second.outcome);
    await eventually(async () => (sink.to(email).length >= 1 ? true : undefined), 30_000, 'the invitation');
    const log = await api.get(`/api/anonymous/assessment/${created.analysisId}/emails`);
    assert.ok(log.body.Data.length >= 1);
    assert.deepEqual(await resendInvitation(deps, { tenantId: 'another-tenant' }, created.analysisId, 'test-door'), { outcome: 'not-found' });
  });

  test('on a server without e-mail it is no-mail, and nothing is queued', async () => {
    const plain = server.running.deps;
    assert.deepEqual(await resendInvitation({ ...plain, config: { ...plain.config, mail: undefined } }, creds, 'any-id', 'test-door'), { outcome: 'no-mail' });
  });
});
