import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { portalSet, runCli } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { FormClient, startPath } from '../helpers/forms.js';
import { apiClient, type Credentials } from '../helpers/http.js';
import { ROOT } from '../../src/platform/paths.js';
import { WALK_REFUSED } from '../../src/portal/walk-guard.js';
import { choose } from '../../src/cli/portal-walk.js';

/** Each shipped instrument's item count and scale, read from its content file, not from src/. */
function instrument(file: string): { items: number; values: number[] } {
  const json = JSON.parse(readFileSync(join(ROOT, 'content', 'instruments', file), 'utf8')) as {
    items: unknown[];
    responseScale: { min: number; max: number };
  };
  const { min, max } = json.responseScale;
  return { items: json.items.length, values: Array.from({ length: max - min + 1 }, (_, i) => min + i) };
}
const INSTRUMENTS = [
  { type: 0, name: 'TMA170', ...instrument('tma170.json') },
  { type: 1, name: 'TMA312', ...instrument('tma312.json') },
  { type: 2, name: 'SPI', ...instrument('spi.json') },
];

const walk = (url: string, ...args: string[]) => runCli(['portal', 'walk', url, ...args], {});
/** The answers the walk says it gave, summed over its page lines. */
const answered = (stdout: string) => [...stdout.matchAll(/: (\d+) answered$/gm)].reduce((n, m) => n + Number(m[1]), 0);
const statusOf = async (base: string, creds: Credentials, id: string) => (await apiClient(base, creds).get(`/api/anonymous/assessment/${id}`)).body.Data.Status;

suiteOnEachDatabase(
  'bin/assay portal walk fills in an assessment over HTTP',
  { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, receiver: true, tenant: { portalDomain: ({ url }) => url } },
  ({ server, creds, receiver, another, cliEnv }) => {
    let n = 0;
    const order = async (type: number) => {
      const hook = `/hooks/${++n}`;
      const back = `https://ats.example.test/back/${n}`;
      const a = await newAssessment(server.url, creds, { AssessmentType: type, WebhookUrl: receiver.url(hook), ReturnUrl: back });
      return { ...a, hook, back };
    };

    const cases = [
      ...INSTRUMENTS.map((i) => ({ ...i, answers: 'random' })),
      ...INSTRUMENTS.filter((i) => i.name !== 'TMA312').map((i) => ({ ...i, answers: 'midpoint' })),
    ];
    for (const c of cases) {
      test(`${c.name} with --answers ${c.answers}: every item answered, Completed, the webhook sent, the ReturnUrl printed`, async () => {
        const a = await order(c.type);
        const r = await walk(a.url, '--answers', c.answers);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(answered(r.stdout), c.items, r.stdout);
        assert.equal(r.stdout.trim().split('\n').at(-1), `Sent to the ReturnUrl: ${a.back}`);
        assert.equal(await statusOf(server.url, creds, a.id), 'Completed');
        const [delivery] = await receiver.waitForPath(a.hook);
        assert.equal(JSON.parse(delivery!.body).Analysis_Id, a.id);
      });
    }

    test('a candidate asked to update their details and gender: the walk fills in both pages, then the items', async () => {
      const hook = `/hooks/${++n}`;
      const a = await newAssessment(server.url, creds, { AssessmentType: 0, WebhookUrl: receiver.url(hook) }, { NeedsToUpdateData: true, Gender: 0 });
      const r = await walk(a.url, '--answers', 'midpoint');
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /: details given as Portal Walk <portal-walk@example\.com>$/m);
      assert.match(r.stdout, /: prefer not to say$/m);
      assert.equal(answered(r.stdout), INSTRUMENTS[0]!.items);
      assert.match(r.stdout.trim().split('\n').at(-1)!, /^Done: .*\/done \(no ReturnUrl/);
      const c = (await apiClient(server.url, creds).get(`/api/anonymous/candidate/${encodeURIComponent(a.externalId)}`)).body.Data.Candidate;
      assert.deepEqual([c.FirstName, c.LastName, c.Email, c.NeedsToUpdateData], ['Portal', 'Walk', 'portal-walk@example.com', false]);
      await receiver.waitForPath(hook);
    });

    test('midpoint is the middle option, the lower of two on an even scale; random stays on the scale', () => {
      const scale = (k: number) => Array.from({ length: k }, (_, i) => String(i + 1));
      assert.equal(choose(scale(5), 'midpoint'), '3');
      assert.equal(choose(scale(6), 'midpoint'), '3');
      assert.equal(choose(['5', '1', '3', '2', '4'], 'midpoint'), '3', 'by value, not by page order');
      const drawn = new Set(Array.from({ length: 600 }, () => choose(scale(6), 'random')));
      assert.deepEqual([...drawn].sort(), scale(6), 'every option drawn, and nothing else');
    });

    test('an assessment started in another browser is refused in one line; a fresh one beside it walks', async () => {
      const a = await order(0);
      const browser = new FormClient(server.url);
      assert.equal((await browser.submit(startPath(a.id), {})).status, 303, 'the browser pressed Start');
      const r = await walk(a.url);
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        "assay: This assessment was started in another browser: only that browser, or one given the candidate's personal code, can go on with it\n",
      );
      assert.equal(r.stdout, '');
      assert.equal(await statusOf(server.url, creds, a.id), 'Started');
      const fresh = await order(0);
      assert.equal((await walk(fresh.url)).code, 0);
    });

    test('a bad URL, an unknown assessment, a finished one and a bad --answers each give one line and exit 1', async () => {
      const done = await order(2);
      assert.equal((await walk(done.url, '--answers', 'midpoint')).code, 0);
      const unknown = `${server.url}/anonymous/analyse/start/${'x'.repeat(24)}`;
      const cases: Array<[string[], RegExp]> = [
        [['not a url'], /^assay: "not a url" is not a URL: give the AssessmentUrl/],
        [[`${server.url}/anonymous/analyse/elsewhere`], /is not an AssessmentUrl: expected/],
        [[unknown], new RegExp(`^assay: ${unknown}: 404 `)],
        [[done.url], /: Already completed: /],
        [[done.url, '--answers', 'lowest'], /^assay: --answers must be random or midpoint, got "lowest"\n$/],
      ];
      for (const [args, expected] of cases) {
        const r = await walk(args[0]!, ...args.slice(1));
        assert.equal(r.code, 1, args.join(' '));
        assert.match(r.stderr, expected);
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      }
    });

    test('a portal with feedback and the release question: the walk shows the page, leaves the decision open and goes on to the ReturnUrl', async () => {
      await portalSet(creds.apiKeyId, cliEnv, '--candidate-feedback', 'on', '--candidate-release', 'on');
      try {
        const a = await order(2);
        const r = await walk(a.url);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /: shown; any question about sharing the results is left to the candidate$/m);
        assert.equal(r.stdout.trim().split('\n').at(-1), `Sent to the ReturnUrl: ${a.back}`);
        assert.equal(await statusOf(server.url, creds, a.id), 'Completed');
      } finally {
        await portalSet(creds.apiKeyId, cliEnv, '--candidate-feedback', 'off', '--candidate-release', 'off');
      }
    });

    test('the server refuses it without private-network webhooks, except for the demo tenant with DEMO_TENANT on', async () => {
      // Without private-network webhooks and DEMO_TENANT off: a tenant named demo is refused too.
      const off = await another({ DEMO_TENANT: 'false' });
      const demo = await off.tenant('demo', off.url);
      const other = await off.tenant('other', off.url);
      const ofDemo = await newAssessment(off.url, demo);
      const ofOther = await newAssessment(off.url, other);
      const refused = await walk(ofDemo.url);
      assert.equal(r1line(refused.stderr), `assay: ${WALK_REFUSED}`);
      assert.equal(refused.code, 1);
      assert.equal(await statusOf(off.url, demo, ofDemo.id), 'Created', 'refused before Start');
      await off.stop(true);

      // The same data with DEMO_TENANT on: the demo tenant's assessment walks, any other is still refused.
      const on = await another({ DEMO_TENANT: 'true' }, { reuse: { dataDir: off.dataDir, databaseUrl: off.databaseUrl } });
      const there = (url: string) => url.replace(off.url, on.url);
      const still = await walk(there(ofOther.url));
      assert.equal(r1line(still.stderr), `assay: ${WALK_REFUSED}`);
      assert.equal(await statusOf(on.url, other, ofOther.id), 'Created');
      const walked = await walk(there(ofDemo.url));
      assert.equal(walked.code, 0, walked.stderr);
      assert.equal(await statusOf(on.url, demo, ofDemo.id), 'Completed');
    });
  },
);

/** stderr that must be one line: that line. */
function r1line(stderr: string): string {
  assert.equal(stderr.split('\n').length, 2, stderr);
  return stderr.trimEnd();
}
