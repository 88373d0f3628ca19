import assert from 'node:assert/strict';
import { after } from 'node:test';
import { test } from '../helpers/deadline.js';
import fc from 'fast-check';
import { newAssessment } from '../helpers/fixtures.js';
import { csrfToken, FormClient, itemNames, startPath } from '../helpers/forms.js';
import { authHeaders, request, type Reply } from '../helpers/http.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';

/** CI runs a fixed seed (reproducible) and a fresh one, printed so a failure can be replayed. */
const FIXED_SEED = 20261121;
const RANDOM_SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);

const nasty = fc.constantFrom('\u0000', '\ud800', '\udfff', '\u202e', '\ufeff', '😀', '"', '\\', '\n', 'é', '%', '<script>');
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: nasty, maxLength: 20 }),
  fc.string({ maxLength: 8 }).map((s) => s.repeat(2_000)),
  fc.emailAddress(),
  fc.webUrl(),
);
const edgeNumber = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 2, 3, 4, 2 ** 31, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e308, -1e308, 5e-324, 0.5),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small', withCrossShrink: true }, text, edgeNumber, fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('any'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(text, fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString')), tie('any'), { maxKeys: 4 }),
})).any;

const FIELDS = {
  candidate: ['ExternalId', 'Email', 'FirstName', 'LastName', 'Preposition', 'Gender', 'NeedsToUpdateData'],
  assessment: ['ExternalId', 'AssessmentType', 'ReturnUrl', 'WebhookUrl', 'WebhookUsername', 'WebhookPassword'],
};

const caseOf = (name: string) => fc.constantFrom(name, name.toLowerCase(), name[0]!.toLowerCase() + name.slice(1), name.toUpperCase());

/** Bodies shaped like the real ones, with any field any value, and raw JSON that is broken on purpose. */
function bodies(fields: string[]): fc.Arbitrary<string> {
  const shaped = fc
    .tuple(...fields.map((f) => fc.tuple(caseOf(f), fc.option(value, { nil: undefined }))), fc.dictionary(text, value, { maxKeys: 2 }))
    .map(([...parts]) => {
      const extra = parts.pop() as Record<string, unknown>;
      const body: Record<string, unknown> = { ...extra };
      for (const [k, v] of parts as Array<[string, unknown]>) if (v !== undefined) body[k] = v;
      return JSON.stringify(body);
    });
  const deep = fc
    .integer({ min: 1, max: 20_000 })
    .chain((d) => fc.constantFrom('['.repeat(d) + ']'.repeat(d), '{"ExternalId":'.repeat(Math.min(d, 4_000)) + '1' + '}'.repeat(Math.min(d, 4_000))));
  const poison = fc.constantFrom(
    '{"__proto__":{"polluted":"yes"}}',
    '{"ExternalId":"x","constructor":{"prototype":{"polluted":"yes"}}}',
    '{"a":{"__proto__":{"polluted":"yes"}}}',
    '{"__proto__":null}',
  );
  const truncated = fc.tuple(shaped, fc.nat()).map(([s, n]) => s.slice(0, n % (s.length + 1)));
  return fc.oneof(
    shaped,
    shaped,
    value.map((v) => JSON.stringify(v) ?? 'null'),
    truncated,
    deep,
    poison,
  );
}

function assertSane(res: Reply, label: string): void {
  assert.ok(res.status < 500, `${label}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
  if (res.status === 201) {
    assert.equal(res.body?.StatusCode, 201, label);
    return;
  }
  assert.ok(res.status >= 400, `${label}: HTTP ${res.status}`);
  assert.equal(typeof res.body?.error?.code, 'string', `${label}: no error envelope: ${res.text.slice(0, 200)}`);
  assert.equal(typeof res.body?.error?.message, 'string', label);
  assert.equal(typeof res.body?.error?.innererror, 'object', label);
}

suiteOnEachDatabase('fuzzing the API and the portal forms (fast-check)', { on: 'first', env: { AUTH_FAILURES_PER_MINUTE: '100000' } }, ({ server, creds }) => {
  after(async () => {
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype was not polluted');
  });

  for (const [endpoint, fields] of Object.entries(FIELDS)) {
    for (const [label, seed, numRuns] of [
      ['fixed seed', FIXED_SEED, RUNS],
      ['random seed', RANDOM_SEED, Math.ceil(RUNS / 5)],
    ] as const) {
      test(`POST /api/anonymous/${endpoint}: any body gets a 201 or a 4xx envelope, never a 5xx (${label} ${seed})`, async (t) => {
        t.diagnostic(`seed ${seed}, ${numRuns} runs (replay with FUZZ_SEED=${seed})`);
        await fc.assert(
          fc.asyncProperty(bodies(fields), async (body) => {
            const res = await request(`${server.url}/api/anonymous/${endpoint}`, {
              method: 'POST',
              body,
              headers: { ...authHeaders(creds), 'content-type': 'application/json' },
            });
            assertSane(res, body.slice(0, 120));
            assert.equal(({} as Record<string, unknown>).polluted, undefined);
          }),
          { seed, numRuns },
        );
      });
    }
  }

  test('arbitrary headers and methods on the API get an envelope, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        fc.constantFrom(
          '/api/anonymous/candidate',
          '/api/anonymous/assessment',
          '/api/anonymous/assessment/x',
          '/api/anonymous/assessment/%ff%fe',
          '/api/%2e%2e/x',
        ),
        fc.constantFrom('application/json', 'text/plain', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', ''),
        fc.option(fc.string({ unit: 'binary-ascii', maxLength: 200 }), { nil: undefined }),
        async (method, path, type, body) => {
          const headers: Record<string, string> = { ...authHeaders(creds) };
          if (type) headers['content-type'] = type;
          const res = await request(server.url + path, { method, headers, body: method === 'GET' || method === 'OPTIONS' ? undefined : (body ?? '') });
          assert.ok(res.status < 500, `${method} ${path} ${type}: ${res.status}`);
          if (method !== 'OPTIONS') assert.equal(typeof res.body?.error?.code, 'string', `${method} ${path} ${type}: ${res.text.slice(0, 100)}`);
        },
      ),
      { seed: FIXED_SEED, numRuns: 300 },
    );
  });

  test('portal forms: any fields get a page or a redirect, never a 5xx', async (t) => {
    t.diagnostic(`seed ${FIXED_SEED}`);
    const a = await newAssessment(server.url, creds, {}, { NeedsToUpdateData: true, Gender: 0 });
    const client = new FormClient(server.url);
    const token = csrfToken((await client.get(startPath(a.id))).html);
    const b = await newAssessment(server.url, creds);
    await client.submit(startPath(b.id), {});
    const bToken = csrfToken((await client.get(`/anonymous/analyse/${b.id}/questions/1`)).html);
    const names = itemNames((await client.get(`/anonymous/analyse/${b.id}/questions/1`)).html);
    const formValue = fc.oneof(text, edgeNumber.map(String), fc.constantFrom('1', '5', '0', '6', '-1', '1e1', ' 3', '3 '));
    const field = fc.oneof(fc.constantFrom('FirstName', 'LastName', 'Email', 'Preposition', 'Gender', 'nav', '_csrf', ...names), text);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          `/anonymous/analyse/${a.id}/details`,
          `/anonymous/analyse/${a.id}/gender`,
          startPath(a.id),
          `/anonymous/analyse/${b.id}/questions/1`,
          `/anonymous/analyse/${b.id}/questions/2`,
        ),
        fc.dictionary(field, fc.oneof(formValue, fc.array(formValue, { maxLength: 3 })), { maxKeys: 8 }),
        fc.boolean(),
        async (path, fields, withToken) => {
          const body = { ...fields } as Record<string, string | string[]>;
          if (withToken) body._csrf = path.includes(b.id) ? bToken : token;
          const res = await client.post(path, body);
          assert.ok(res.status < 500, `${path} ${JSON.stringify(body).slice(0, 200)}: ${res.status}`);
        },
      ),
      { seed: FIXED_SEED, numRuns: Math.ceil(RUNS / 3) },
    );
    const raw = await fetch(`${server.url}/anonymous/analyse/${b.id}/questions/1`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '%zz=%%&a_%ff=1&' + 'x='.repeat(10_000),
    });
    assert.ok(raw.status < 500, `malformed urlencoding: ${raw.status}`);
  });
});
