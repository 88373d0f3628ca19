import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { ROOT } from '../../src/platform/paths.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { completeViaForms, FormClient } from '../helpers/forms.js';
import type { Credentials } from '../helpers/http.js';
import { runR } from '../helpers/r.js';
import { takeTime } from '../helpers/results.js';

const CARELESS = ['EvenOdd', 'Synonyms', 'LongString', 'Outlier'];

// A real respondent, by R: the adult of psychTools::spi at the median squared Mahalanobis distance
// from the adults' mean (stats::mahalanobis), answers by item id. Typical, so careful by any index.
const R_RESPONDENT = `
items <- vapply(jsonlite::fromJSON("${join(ROOT, 'content', 'instruments', 'spi.json')}", simplifyVector = FALSE)$items, function(i) i$id, "")
spi <- psychTools::spi
x <- as.matrix(spi[spi$age >= 18, items])
x <- x[complete.cases(x), ]
d <- mahalanobis(x, colMeans(x), cov(x))
cat(jsonlite::toJSON(as.list(x[order(d)[ceiling(nrow(x) / 2)], ]), auto_unbox = TRUE))`;

/** Uniformly random answers 1–6 from a fixed seed (a linear congruential generator), so each run walks the same. */
function uniform(seed: number): (name: string) => string {
  let s = seed;
  return () => String(1 + Math.floor(((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 6));
}

suiteOnEachDatabase('SPI careless responding over HTTP: random answers are flagged by name, a real respondent is not', {}, ({ server, creds }) => {
  async function result(c: Credentials, answer: (name: string, i: number) => string) {
    const a = await newAssessment(server.url, c, { AssessmentType: 2 });
    await completeViaForms(new FormClient(server.url), a.id, { answer, beforePost: takeTime(server.running.deps.store, a.id) });
    return (await a.api.get(`/api/candidateanalysisresult/${a.id}/en-GB`)).body;
  }

  test(
    'a uniformly random walk is flagged and names a careless index; the adult answered from psychTools::spi is not flagged',
    { timeout: 240_000 },
    async () => {
      const real = JSON.parse(runR(R_RESPONDENT)) as Record<string, number>;
      assert.ok(Object.keys(real).length >= 100, `${Object.keys(real).length} answers`);
      const careful = await result(creds, (name) => {
        const v = real[name.replace(/^a_/, '')];
        assert.ok(v !== undefined, `no answer for ${name}`);
        return String(v);
      });
      assert.equal(careful.NormGroup.Id, 'spi-sapa-2.1.0');
      assert.deepEqual(careful.IntegrityFlags, []);
      assert.ok(Number(careful.ConsistencyScore) >= 30, `a careful respondent's consistency ${careful.ConsistencyScore}`);
      for (const seed of [7, 11]) {
        const random = await result(creds, uniform(seed));
        assert.equal(random.NormGroup.Id, 'spi-sapa-2.1.0');
        const named = (random.IntegrityFlags as string[]).filter((f) => CARELESS.includes(f));
        assert.ok(named.length > 0, `seed ${seed}: flags ${JSON.stringify(random.IntegrityFlags)}`);
        // Random answers leave no page uniform and took their time: only the careless indices fire.
        assert.deepEqual(random.IntegrityFlags, named, `seed ${seed}`);
      }
    },
  );
});
