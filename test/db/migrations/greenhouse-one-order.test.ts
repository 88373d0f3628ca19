import assert from 'node:assert/strict';
import { before } from 'node:test';
import { test } from '../../helpers/deadline.js';
import type { Store } from '../../../src/db/database.js';
import { migrator } from '../../../src/db/migrate.js';
import { docsSendTest, greenhouseClient, greenhouseKeyFor } from '../../helpers/greenhouse.js';
import { suiteOnEachDatabase } from '../../helpers/harness.js';

const env = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_POLL_INTERVAL_MS: '60000' };

suiteOnEachDatabase('migration 0015: one Greenhouse order per person, test and url', { smtp: true, receiver: true, env, timeout: 120_000 }, (ctx) => {
  let store: Store;
  let gh: ReturnType<typeof greenhouseClient>;
  before(async () => {
    store = ctx.server.running.deps.store;
    gh = greenhouseClient(ctx.server.url, await greenhouseKeyFor(ctx.server, ctx.creds));
  });
  const order = async (body: unknown) => {
    const res = await gh('/send_test', { method: 'POST', body });
    assert.equal(res.status, 200, res.text);
    return res.body.partner_interview_id as string;
  };
  /** The person's assessments, oldest first, as the caller API's access call lists them. */
  const ordersOf = async (id: string) => {
    const externalId = (await ctx.api.get(`/api/anonymous/assessment/${id}`)).body.Data.ExternalId as string;
    const res = await ctx.api.get(`/api/anonymous/candidate/${encodeURIComponent(externalId)}`);
    assert.equal(res.status, 200, res.text);
    return (res.body.Data.Assessments as Array<{ AnalysisId: string; WebhookUrl: string }>).map((a) => [a.AnalysisId, a.WebhookUrl]);
  };

  test('duplicates made before it stay and still answer test_status; repeats, one at a time or at once, get the first; a new url is still a new order', async () => {
    const url = ctx.receiver.url(`/dup-${ctx.db}`);
    const body = docsSendTest(url, { person: `dup-${ctx.db}-${process.pid}` });
    const first = await order(body);

    // The state an earlier version's race left: a second order for the same person, test and url.
    assert.equal((await migrator(store).migrateTo('0014-norm-group-description')).error, undefined);
    const row = await store.db.selectFrom('assessments').selectAll().where('analysis_id', '=', first).executeTakeFirstOrThrow();
    const duplicate = `dup${first.slice(3)}`;
    await store.db
      .insertInto('assessments')
      .values({ ...row, analysis_id: duplicate, created_at: new Date(Date.parse(row.created_at) + 1).toISOString() })
      .execute();
    const up = await migrator(store).migrateToLatest();
    assert.equal(up.error, undefined);
    // 0015 first, then any later ones, each a success.
    const ran = up.results?.map((r) => [r.migrationName, r.status]) ?? [];
    assert.deepEqual(ran[0], ['0015-greenhouse-one-order', 'Success']);
    assert.ok(
      ran.every(([, status]) => status === 'Success'),
      JSON.stringify(ran),
    );

    assert.deepEqual(await ordersOf(first), [
      [first, url],
      [duplicate, url],
    ]);
    const status = await gh(`/test_status?partner_interview_id=${duplicate}`);
    assert.equal(status.status, 200, status.text);
    assert.equal(status.body.partner_status, 'sent');

    assert.equal(await order(body), first);
    const atOnce = await Promise.all(Array.from({ length: 10 }, () => order(body)));
    assert.deepEqual(new Set(atOnce), new Set([first]));
    assert.equal((await ordersOf(first)).length, 2, 'no order added by the repeats');

    // Positive control: the count above can grow.
    const other = ctx.receiver.url(`/dup-${ctx.db}-2`);
    const another = await order({ ...body, url: other });
    assert.notEqual(another, first);
    assert.deepEqual((await ordersOf(first)).slice(2), [[another, other]]);
  });
});
