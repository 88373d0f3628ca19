import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before } from 'node:test';
import { ROOT } from '../../src/platform/paths.js';
import { test } from '../helpers/deadline.js';
import { greenhouseKeyFor } from '../helpers/greenhouse.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';

const DOC = 'docs/integrations/greenhouse.md';

/** The calls of Greenhouse's Assessment Partner API that Greenhouse makes to a partner. */
const CALLS = ['GET list_tests', 'POST send_test', 'GET test_status', 'POST response_error'];

interface Example {
  heading: string;
  command: string;
  status: number;
  response: unknown;
}

/** The doc's examples: each `sh greenhouse-example` block, the `json greenhouse-response <status>` after it, and the `###` heading they sit under. */
function examples(): Example[] {
  const doc = readFileSync(join(ROOT, DOC), 'utf8');
  const found: Example[] = [];
  const block = /^### (.*)$|^```sh greenhouse-example\n([\s\S]*?)^```\n\s*^```json greenhouse-response (\d{3})\n([\s\S]*?)^```/gm;
  let heading = '';
  for (const m of doc.matchAll(block)) {
    if (m[1] !== undefined) heading = m[1];
    else found.push({ heading, command: m[2]!.trim(), status: Number(m[3]), response: JSON.parse(m[4]!) });
  }
  // Every marked block was paired: none left over.
  assert.equal(doc.split('```sh greenhouse-example').length - 1, found.length, 'each example request has its response block right after it');
  return found;
}

/** The shape of a JSON value: its keys and the kinds of its values, not the values. */
function shape(v: unknown): unknown {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? [] : [shape(v[0])];
  if (typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, shape((v as Record<string, unknown>)[k])]),
    );
  return typeof v;
}

/** Runs the doc's command as a reader pastes it, in bash, with curl reporting what it sent and got. */
function run(command: string, env: Record<string, string>): Promise<{ status: number; method: string; url: string; body: string }> {
  const script = `${command} --max-time 20 -w '\\n%{http_code} %{method} %{url_effective}'`;
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', script], { env: { PATH: process.env.PATH, ...env }, timeout: 30_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${command}\n${stderr}`, { cause: err }));
      const cut = stdout.lastIndexOf('\n');
      const [status, method, url] = stdout.slice(cut + 1).split(' ');
      resolve({ status: Number(status), method: method!, url: url!, body: stdout.slice(0, cut) });
    });
  });
}

suiteOnEachDatabase(`${DOC}: its curl examples against a real server`, { smtp: true, on: 'first' }, (ctx) => {
  let key: string;
  before(async () => {
    key = await greenhouseKeyFor(ctx.server, ctx.creds);
  });

  test('each of the four calls has a heading "METHOD call" with at least one example under it', () => {
    const all = examples();
    for (const call of CALLS)
      assert.ok(
        all.some((e) => e.heading === `\`${call}\``),
        `${call} has an example`,
      );
  });

  test('every example, run with curl, answers the status shown, with the keys and value kinds of the response shown, by the method and path of its heading', async () => {
    const env: Record<string, string> = { BASE: ctx.server.url, GH_KEY: key, ID: '' };
    for (const e of examples()) {
      const got = await run(e.command, env);
      const what = `${e.heading}: ${e.command}\n${got.body}`;
      assert.equal(got.status, e.status, what);
      const body: unknown = JSON.parse(got.body);
      assert.deepEqual(shape(body), shape(e.response), what);
      // Arrays: every entry, not only the first, has the shape shown.
      if (Array.isArray(body)) for (const item of body) assert.deepEqual(shape(item), shape((e.response as unknown[])[0]), what);
      const call = /^`(GET|POST) (\w+)`$/.exec(e.heading);
      if (call) {
        assert.equal(got.method, call[1], what);
        assert.equal(new URL(got.url).pathname, `/integrations/greenhouse/${call[2]}`, what);
      }
      const id = (body as { partner_interview_id?: unknown }).partner_interview_id;
      if (typeof id === 'string') env.ID = id;
    }
    assert.notEqual(env.ID, '', 'a send_test example gave the id the test_status example uses');
  });
});
