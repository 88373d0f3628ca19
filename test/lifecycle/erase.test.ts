import assert from 'node:assert/strict';
import { eraseCandidate } from '../../src/lifecycle/erase.js';
import { listErasures } from '../../src/lifecycle/erasure-store.js';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';

suiteOnEachDatabase('eraseCandidate, called directly as a second door would', {}, ({ server, creds }) => {
  test('erases the candidate of the given tenant with their answers, audits who, and the API then finds nothing', async () => {
    const deps = server.running.deps;
    const a = await newAssessment(server.url, creds);
    await completeViaForms(new FormClient(server.url), a.id);
    assert.equal(await eraseCandidate(deps, a.externalId, { tenantId: 'another-tenant', erasedBy: 'console:x', reason: 'request' }), undefined);
    assert.equal((await a.api.get(`/api/anonymous/candidate/${a.externalId}`)).status, 200, "another tenant's erasure touched nothing");
    const erased = await eraseCandidate(deps, a.externalId, { tenantId: creds.tenantId, erasedBy: 'console:x', reason: 'request' });
    assert.equal(erased?.assessments, 1);
    assert.ok((erased?.answers ?? 0) > 0, `answers erased: ${erased?.answers}`);
    assert.equal((await a.api.get(`/api/anonymous/candidate/${a.externalId}`)).status, 404);
    assert.equal((await a.api.get(`/api/anonymous/assessment/${a.id}`)).status, 404);
    const audit = (await listErasures(deps.store, creds.tenantId)).filter((e) => e.erased_by === 'console:x');
    assert.equal(audit.length, 1);
    assert.equal(await eraseCandidate(deps, a.externalId, { tenantId: creds.tenantId, erasedBy: 'console:x', reason: 'request' }), undefined, 'once');
  });
});
