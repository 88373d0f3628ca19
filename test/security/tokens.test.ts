import assert from 'node:assert/strict';
import { describe, test } from '../helpers/deadline.js';
import { newAnalysisId, newApiKey, newPassword } from '../../src/security/tokens.js';

describe('tokens: random, never repeated, URL-safe', () => {
  test('AnalysisIds across many refills of the random pool are all distinct 24-character base64url strings', () => {
    const ids = Array.from({ length: 20_000 }, () => newAnalysisId());
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, /^[A-Za-z0-9_-]{24}$/);
    // 480,000 characters of uniform base64url: every one of the 64 symbols turns up.
    assert.equal(new Set(ids.join('')).size, 64);
    // ...but never first: of 20,000 uniform first characters, about 600 would be - or _.
    assert.equal(ids.filter((id) => id[0] === '-' || id[0] === '_').length, 0, 'no AnalysisId starts with - or _');
  });

  test('AnalysisIds, passwords and API keys drawn from the same pool never repeat', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      for (const token of [newAnalysisId(), newPassword(), newApiKey().key.slice(3)]) {
        assert.ok(!seen.has(token), 'a token repeated');
        seen.add(token);
      }
    }
    const { key, prefix, hash } = newApiKey();
    assert.match(key, /^ak_[A-Za-z0-9_-]{32}$/);
    assert.ok(key.startsWith(prefix) && hash.length === 64);
  });
});
