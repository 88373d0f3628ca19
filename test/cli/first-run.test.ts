import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../src/platform/paths.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { apiClient, candidate, request } from '../helpers/http.js';

/** Reads the one-time demo banner the way a new user does: by eye, here by pattern. */
function banner(output: string) {
  const field = (name: string) => new RegExp(`${name}: +(\\S+)`).exec(output)?.[1];
  return { username: field('username'), password: field('password'), apiKey: field('api key'), portal: field('portal domain') };
}

/** The README's sample of the banner: the code block after its banner marker. */
function readmeBanner(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- banner[^>]*-->\n```\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, 'the README has its banner sample');
  return block[1]!.trim();
}

/**
 * The README's `npm start`: a data directory of its own and nothing else set, so the embedded SQLite
 * database in it; but the event-loop guard off. Shedding is not this suite's subject (security/overload
 * sets it), and a just-started server on a busy machine sheds its first requests for a second or two:
 * its first event-loop sample holds the start.
 */
const README_PATH = {
  DATABASE_URL: undefined,
  DEMO_TENANT: undefined,
  LOG_LEVEL: undefined,
  SHUTDOWN_DRAIN_MS: undefined,
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
};
/** The same, without the drain on SIGTERM, for the tests whose subject is not the stop's timing. */
const NO_DRAIN = { ...README_PATH, SHUTDOWN_DRAIN_MS: '0' };

suiteOnEachDatabase(
  'first start on an empty database (bin/assay serve, the README path)',
  { on: 'sqlite', process: true, start: false, tenant: false },
  ({ spawn, spawnChild, freshDir }) => {
    test('prints demo credentials once, with a curl that works; the README flow gives two 201s', async () => {
      const dataDir = freshDir();
      const first = await spawn({ ...README_PATH, DATA_DIR: dataDir });
      // The demo tenant is made once the server listens (its portal domain names the port), before the start is done.
      await first.waitForOutput('Assay is serving');
      const b = banner(first.output());
      assert.equal(b.username, 'demo');
      assert.ok(b.password && b.apiKey, first.output());
      assert.equal(b.portal, first.url);
      assert.ok(first.output().includes(`export AUTH='demo:${b.password}' KEY='${b.apiKey}' BASE=${first.url}`), first.output());

      // The README shows this banner, with sample secrets and the default address in place of the real ones.
      const sample = banner(readmeBanner());
      const out = first.output();
      const printed = out.slice(
        out.indexOf('Assay created a demo tenant'),
        out.indexOf('$BASE/api/anonymous/candidate') + '$BASE/api/anonymous/candidate'.length,
      );
      assert.equal(
        printed.replaceAll(b.password!, sample.password!).replaceAll(b.apiKey!, sample.apiKey!).replaceAll(first.url, sample.portal!),
        readmeBanner(),
      );

      const api = apiClient(first.url, { username: b.username!, password: b.password!, apiKey: b.apiKey! });
      const body = candidate();
      assert.equal((await api.createCandidate(body)).status, 201);
      const a = await api.createAssessment({ ExternalId: body.ExternalId, AssessmentType: 0 });
      assert.equal(a.status, 201);
      assert.ok(a.body.Data.AssessmentUrl.startsWith(`${first.url}/anonymous/analyse/start/`), 'portal domain is the server itself');
      assert.equal((await request(`${first.url}/healthz`)).status, 200);
      assert.equal((await request(`${first.url}/readyz`)).status, 200);

      assert.equal(await first.stop('SIGTERM'), 0, 'SIGTERM exits 0');
      const logs = first
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string });
      assert.ok(logs.findIndex((l) => l.msg.startsWith('shutting down')) >= 0, 'the drain is logged');
      assert.equal(logs.at(-1)?.msg, 'stopped', 'the last line says it is done');
      assert.ok(!logs.some((l) => JSON.stringify(l).includes(b.password!)), 'the password is in no JSON log line');

      const second = await spawn({ ...NO_DRAIN, DATA_DIR: dataDir });
      await second.waitForOutput('Assay is serving');
      assert.doesNotMatch(second.output(), /password:/, 'shown once only');
      const again = apiClient(second.url, { username: b.username!, password: b.password!, apiKey: b.apiKey! });
      assert.equal((await again.createCandidate(candidate())).status, 201, 'the demo credentials persist');
      assert.equal(await second.stop('SIGTERM'), 0);
    });

    test('DEMO_TENANT=false creates no tenant and prints nothing secret', async () => {
      const s = await spawn({ ...NO_DRAIN, DATA_DIR: freshDir(), DEMO_TENANT: 'false' });
      await s.waitForOutput('Assay is serving');
      assert.doesNotMatch(s.output(), /password:|api key:/);
      assert.equal(await s.stop('SIGTERM'), 0);
    });

    test('a SIGTERM as soon as the server listens stops it with exit 0, "serving" logged before the drain', async () => {
      const child = spawnChild({ ...NO_DRAIN, DATA_DIR: freshDir(), DEMO_TENANT: 'false' });
      let out = '';
      child.stderr.on('data', (d: Buffer) => process.stderr.write(d));
      // Fastify logs this at listen; on Node.js 20 the listening descriptors are then still being copied, so the signal comes during the start.
      child.stdout.on('data', (d: Buffer) => {
        out += d;
        if (out.includes('Server listening') && child.signalCode === null && !child.killed) child.kill('SIGTERM');
      });
      // A deadline for a start and stop that a busy machine may take over 20 s for.
      const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      clearTimeout(timer);
      assert.equal(code, 0, out);
      const logs = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => (JSON.parse(l) as { msg: string }).msg);
      const serving = logs.indexOf('Assay is serving');
      assert.ok(serving >= 0 && serving < logs.findIndex((m) => m.startsWith('shutting down')), logs.join('\n'));
      assert.equal(logs.at(-1), 'stopped');
    });

    test('broken questionnaire content stops the start and names the problem', async () => {
      const dataDir = freshDir();
      await assert.rejects(spawn({ ...README_PATH, DATA_DIR: dataDir, ASSESSMENT_CONTENT_DIR: dataDir }), /Cannot read .*tma170\.json/);
    });

    test('a bad setting stops the start with a clear message', async () => {
      await assert.rejects(
        spawn({ ...README_PATH, DATA_DIR: freshDir(), WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'maybe' }),
        /WEBHOOK_ALLOW_PRIVATE_NETWORKS must be true or false/,
      );
    });
  },
);
