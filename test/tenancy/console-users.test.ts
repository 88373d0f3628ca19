import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { checkRole, ConsoleUserError, normalEmail, passwordProblem } from '../../src/tenancy/console-users.js';

describe("console users' rules", () => {
  test('e-mail addresses are trimmed and lower-cased; what is no address is refused', () => {
    assert.equal(normalEmail('  Ada.Lovelace@Example.TEST '), 'ada.lovelace@example.test');
    for (const bad of ['', 'ada', 'ada@', '@example.test', 'a b@example.test', 'ada@example'])
      assert.throws(() => normalEmail(bad), ConsoleUserError, JSON.stringify(bad));
  });

  test('a password has at least 12 characters, counted as characters, not bytes', () => {
    assert.equal(passwordProblem('x'.repeat(11)), 'tooShort');
    assert.equal(passwordProblem('x'.repeat(12)), undefined);
    // Eleven characters of two bytes each: still too short.
    assert.equal(passwordProblem('é'.repeat(11)), 'tooShort');
    assert.equal(passwordProblem('x'.repeat(1025)), 'tooLong');
  });

  test('three roles, no others', () => {
    for (const role of ['admin', 'recruiter', 'viewer']) assert.equal(checkRole(role), role);
    assert.throws(() => checkRole('Admin'), ConsoleUserError);
  });
});
