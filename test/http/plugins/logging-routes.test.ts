import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { before } from 'node:test';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { test } from '../../helpers/deadline.js';
import { runCli } from '../../helpers/cli.js';
import { docsSendTest } from '../../helpers/greenhouse.js';
import { newAssessment } from '../../helpers/fixtures.js';
import { suiteOnEachDatabase } from '../../helpers/harness.js';
import { authHeaders, basic, request } from '../../helpers/http.js';

// Path and query parameters known to carry no capability; every other one is treated as one, so a
// new route's AnalysisId (or token) is checked without anyone listing it here.
const PLAIN_PARAMS = new Set(['page', 'culture', 'file', 'key', 'hash', 'lang', 'format']);

interface Route {
  method: string;
  url: string;
  query: string[];
}

/** Every route the app registers, with its query's schema properties, seen by an onRoute hook added as Fastify makes the instance. */
async function appRoutes(start: () => Promise<{ stop(): Promise<void> }>): Promise<Route[]> {
  const routes: Route[] = [];
  const onInit = (message: unknown) => {
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', (r: RouteOptions) => {
      const properties = (r.schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
      for (const method of [r.method].flat()) routes.push({ method, url: r.url, query: Object.keys(properties) });
    });
  };
  subscribe('fastify.initialization', onInit);
  try {
    await (await start()).stop();
  } finally {
    unsubscribe('fastify.initialization', onInit);
  }
  return routes.filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
}

/** Shaped as an AnalysisId: 24 base64url characters, the first a letter. */
const token = () => `T${randomBytes(18).toString('base64url').slice(1)}`;

suiteOnEachDatabase(
  'logs of every route that takes an AnalysisId or another token',
  { process: true, smtp: true, tenant: { name: 'route-logs' }, env: { LOG_LEVEL: 'debug', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } },
  (ctx) => {
    let ghKey: string;
    before(async () => {
      const out = await runCli(['key', 'greenhouse', 'create', '--key', ctx.creds.apiKeyPrefix, '--json'], ctx.cliEnv);
      assert.equal(out.code, 0, out.stderr);
      ghKey = JSON.parse(out.stdout).greenhouseKey as string;
    });

    test("no token, path or query, reaches the log whole: at most its first six characters; Greenhouse's test_status poll logs the prefix", async () => {
      const routes = await appRoutes(() => ctx.another());
      // Positive controls: the enumeration sees the routes this change is about, with their parameters.
      assert.ok(routes.some((r) => r.url === '/integrations/greenhouse/test_status' && r.query.includes('partner_interview_id')));
      assert.ok(routes.some((r) => r.url === '/anonymous/analyse/start/:id'));
      const server = ctx.serverProcess;
      const headersFor = (path: string) =>
        path.startsWith('/integrations/greenhouse/') ? { authorization: basic(ghKey, '') } : path.startsWith('/api/') ? authHeaders(ctx.creds) : {};

      // A real assessment of each door, so that routes also run with ids that exist.
      const api = await newAssessment(server.url, ctx.creds);
      const ordered = await request(`${server.url}/integrations/greenhouse/send_test`, {
        method: 'POST',
        body: docsSendTest('http://127.0.0.1:9/gh', { person: `logs-${ctx.db}` }),
        headers: { authorization: basic(ghKey, '') },
      });
      assert.equal(ordered.status, 200, ordered.text);
      const greenhouseId = ordered.body.partner_interview_id as string;

      // Each route twice: a fresh token in every capability slot, then the real ids.
      const sent: Array<{ reqId: string; path: string; tokens: string[] }> = [];
      const send = async (route: Route, fill: (name: string) => string) => {
        const tokens: string[] = [];
        const value = (name: string) => {
          if (PLAIN_PARAMS.has(name)) return '1';
          const t = fill(name);
          tokens.push(t);
          return t;
        };
        const path = route.url.replace(/:(\w+)/g, (_, name: string) => value(name)).replace('*', 'x');
        const query = route.query.map((name) => `${name}=${value(name)}`).join('&');
        const reqId = `route-${sent.length}`;
        sent.push({ reqId, path: route.url, tokens });
        await request(`${server.url}${path}${query ? `?${query}` : ''}`, { method: route.method, headers: { ...headersFor(path), 'x-request-id': reqId } });
      };
      const carrying = routes.filter((r) => r.url.includes(':') || r.query.some((q) => !PLAIN_PARAMS.has(q)));
      assert.ok(carrying.length >= 20, `${carrying.length} routes with parameters`);
      for (const route of carrying) await send(route, token);
      for (const route of carrying) await send(route, () => (route.url.startsWith('/integrations/') ? greenhouseId : api.id));
      // The portal's resume link (a colleague's route, a 404 until it lands): its token goes whole.
      const resumeToken = token();
      await send({ method: 'GET', url: '/anonymous/analyse/:id/resume/:token', query: [] }, (name) => (name === 'token' ? resumeToken : token()));
      // Greenhouse's poll, and its name spelled with a percent-encoding the query parser decodes.
      const poll = await request(`${server.url}/integrations/greenhouse/test_status?partner_interview_id=${greenhouseId}`, {
        headers: { authorization: basic(ghKey, ''), 'x-request-id': 'gh-poll' },
      });
      assert.equal(poll.status, 200, poll.text);
      const encoded = await request(`${server.url}/integrations/greenhouse/test_status?x=1&partner_interview_%69d=${greenhouseId}`, {
        headers: { authorization: basic(ghKey, '') },
      });
      assert.equal(encoded.status, 200, 'the parser decodes the name, so the route reads the id');
      assert.equal(await server.stop('SIGTERM'), 0);

      const all = server.output();
      const lines = all
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const byReqId = new Map(lines.filter((l) => l.msg === 'request').map((l) => [l.reqId, l]));
      // Positive control: every request's line is there to be read.
      assert.deepEqual(
        sent.filter((s) => !byReqId.has(s.reqId)).map((s) => s.path),
        [],
      );
      const leaked = sent.filter((s) => s.tokens.some((t) => all.includes(t.slice(0, 7))));
      assert.deepEqual(
        leaked.map((s) => String(byReqId.get(s.reqId)?.url)),
        [],
        'more than six characters of a token reached the log',
      );
      assert.equal(byReqId.get('gh-poll')?.url, `/integrations/greenhouse/test_status?partner_interview_id=${greenhouseId.slice(0, 6)}...`);
      for (const id of [greenhouseId, api.id]) assert.ok(!all.includes(id.slice(0, 7)), 'a real AnalysisId reached the log');
      assert.ok(!all.includes(resumeToken.slice(0, 3)), "the resume link's token is left out whole");
    });
  },
);
