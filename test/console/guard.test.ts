import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { describe, test } from '../helpers/deadline.js';
import { allow } from '../../src/console/guard.js';
import type { ConsoleRole } from '../../src/tenancy/console-users.js';

describe('allow(role…): the role guard later console pages put after signedIn', () => {
  async function answer(role: ConsoleRole, allowed: ConsoleRole[]) {
    const app = Fastify();
    app.decorateRequest('consoleUser', null);
    app.get('/page', {
      preHandler: [
        async (request) => {
          request.consoleUser = { id: 'u', tenantId: 't', email: 'x@example.test', role };
        },
        allow(...allowed),
      ],
      handler: async () => 'the page',
    });
    const res = await app.inject({ url: '/page' });
    await app.close();
    return res;
  }

  test('a role outside the list gets 403 and the handler never runs; a role in it gets the page', async () => {
    const refused = await answer('viewer', ['admin', 'recruiter']);
    assert.equal(refused.statusCode, 403);
    assert.doesNotMatch(refused.body, /the page/);
    assert.match(refused.body, /Your role does not allow this/);
    const let_in = await answer('recruiter', ['admin', 'recruiter']);
    assert.equal(let_in.statusCode, 200);
    assert.equal(let_in.body, 'the page');
  });
});
