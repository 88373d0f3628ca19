import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import type { Credentials } from '../helpers/http.js';
import { runCli } from '../helpers/cli.js';
import { instruments, takeTime } from '../helpers/results.js';

const spi = instruments.get(2)!;
const PAIRS = spi.consistencyAntonyms!;
const threshold = (file: string) => JSON.parse(readFileSync(join(ROOT, 'content', 'norms', `${file}.json`), 'utf8')).consistency.threshold as number;
const ALL = threshold('spi-sapa');
const OLDER = threshold('spi-sapa-age35');

/** Pearson's r by its definition, for the oracle: Σ(x−x̄)(y−ȳ) / √(Σ(x−x̄)² Σ(y−ȳ)²). */
function pearson(xs: number[], ys: number[]): number {
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const [mx, my] = [mean(xs), mean(ys)];
  const cov = xs.reduce((s, x, i) => s + (x - mx) * (ys[i]! - my), 0);
  return cov / Math.sqrt(xs.reduce((s, x) => s + (x - mx) ** 2, 0) * ys.reduce((s, y) => s + (y - my) ** 2, 0));
}

/**
 * An answer set: each pair's two answers from `pair(k)`, every other item spread over 1–6 by its
 * place (so no page is answered uniformly).
 */
function answers(pair: (k: number) => [number, number]): (name: string, i: number) => string {
  const fixed = new Map<string, number>();
  PAIRS.forEach(([a, b], k) => {
    const [x, y] = pair(k);
    fixed.set(`a_${a}`, x);
    fixed.set(`a_${b}`, y);
  });
  return (name, i) => String(fixed.get(name) ?? 1 + ((i * 5 + Math.floor(i / 7)) % 6));
}

const level = (k: number) => 1 + ((k * 5 + Math.floor(k / 6)) % 6);
/** Careful: the second item of each antonym pair answered the opposite way to the first. */
const careful = answers((k) => [level(k), 7 - level(k)]);
/** Careless: both items of every pair given the same answer. */
const same = answers((k) => [level(k), level(k)]);

/** A seeded answer set whose pairs give a consistency score between the two groups' thresholds, found by the oracle's own r. */
function between(low: number, high: number): { answer: (name: string, i: number) => string; score: number } {
  for (let seed = 1; seed < 10_000; seed++) {
    let s = seed;
    const next = () => 1 + ((s = (s * 1103515245 + 12345) % 2 ** 31) % 6);
    const pairs = PAIRS.map(() => [next(), next()] as [number, number]);
    const score = Math.round(
      100 *
        pearson(
          pairs.map(([x]) => x),
          pairs.map(([, y]) => 7 - y),
        ),
    );
    if (score > low && score <= high) return { answer: answers((k) => pairs[k]!), score };
  }
  throw new Error(`no answer set scores between ${low} and ${high}`);
}

suiteOnEachDatabase(
  "SPI careless responding: the consistency score over its antonym pairs, flagged at its norm group's threshold",
  {},
  ({ server, creds, cliEnv }) => {
    async function result(c: Credentials, answer: (name: string, i: number) => string) {
      const a = await newAssessment(server.url, c, { AssessmentType: 2 });
      await completeViaForms(new FormClient(server.url), a.id, { answer, beforePost: takeTime(server.running.deps.store, a.id) });
      return (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
    }

    test(
      'the same answer to both items of every pair scores 0 and is flagged LowConsistency; answering them opposite ways scores 100 and is not',
      { timeout: 150_000 },
      async () => {
        assert.ok(PAIRS.length >= 12, `${PAIRS.length} pairs`);
        const bad = await result(creds, same);
        assert.equal(bad.NormGroup.Id, 'spi-sapa-2.0.0');
        assert.equal(bad.ConsistencyScore, '0');
        assert.deepEqual(bad.IntegrityFlags, ['LowConsistency']);
        const good = await result(creds, careful);
        assert.equal(good.ConsistencyScore, '100');
        assert.deepEqual(good.IntegrityFlags, []);
      },
    );

    test('the midpoint everywhere scores 0, and answers only ever 3 or 4 score far below a careful set', { timeout: 150_000 }, async () => {
      const mid = await result(creds, () => '3');
      assert.equal(mid.ConsistencyScore, '0');
      assert.ok(mid.IntegrityFlags.includes('LowConsistency'), mid.IntegrityFlags.join());
      const near = await result(creds, (_name, i) => String(3 + (Math.floor(i / 3) % 2)));
      assert.ok(Number(near.ConsistencyScore) < 50, `3s and 4s score ${near.ConsistencyScore}`);
    });

    test(
      "a result is flagged against its own pinned group's threshold: the same answers flagged under the aged-35 group, not under the whole sample",
      { timeout: 150_000 },
      async () => {
        assert.ok(ALL < OLDER, `thresholds ${ALL} and ${OLDER}`);
        const { answer, score } = between(ALL, OLDER);
        const whole = await result(creds, answer);
        assert.equal(whole.NormGroup.Id, 'spi-sapa-2.0.0');
        assert.equal(whole.ConsistencyScore, String(score));
        assert.ok(!whole.IntegrityFlags.includes('LowConsistency'), `${score} is above ${ALL}`);
        const tenant = await server.tenant();
        const set = await runCli(['norms', 'activate', 'spi-sapa-age35-2.0.0', '--key', tenant.apiKeyId], cliEnv);
        assert.equal(set.code, 0, set.stderr);
        const older = await result(tenant, answer);
        assert.equal(older.NormGroup.Id, 'spi-sapa-age35-2.0.0');
        assert.equal(older.ConsistencyScore, String(score));
        assert.ok(older.IntegrityFlags.includes('LowConsistency'), `${score} is at or below ${OLDER}`);
      },
    );
  },
);
