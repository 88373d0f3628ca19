import assert from 'node:assert/strict';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { newAssessment } from '../helpers/fixtures.js';
import { eventually } from '../helpers/receiver.js';
import { address } from '../helpers/smtp-sink.js';
import { dispatcherQuiet } from '../helpers/ticks.js';

const BACKLOG = 40;

// Two messages at once, so one tenant holds at most one; each takes the relay 300 ms to answer.
suiteOnEachDatabase('mail shared out by tenant', { smtp: true, tenant: false, env: { MAIL_MAX_IN_FLIGHT: '2' } }, ({ server, sink }) => {
  test(`one tenant's backlog of ${BACKLOG} invitations does not hold back another tenant's one`, async () => {
    sink.dataDelayMs = 300;
    const a = await server.tenant();
    const b = await server.tenant();
    const backlog: string[] = [];
    for (let i = 0; i < BACKLOG; i++) {
      const to = address();
      backlog.push(to);
      await newAssessment(server.url, a, { SendInvitation: true }, { Email: to });
    }
    const fromA = () => sink.caught.filter((c) => backlog.includes(c.rcptTo[0]!)).length;
    const bTo = address();
    await newAssessment(server.url, b, { SendInvitation: true }, { Email: bTo });
    const aBefore = fromA();
    assert.ok(aBefore < BACKLOG - 5, `a backlog is left when B queues: ${BACKLOG - aBefore} of A's wait`);
    await eventually(async () => (sink.to(bTo).length > 0 ? true : undefined), 15_000, "B's invitation");
    const aAtB = fromA();
    assert.ok(aAtB - aBefore <= 3, `B's invitation came after ${aAtB - aBefore} more of A's`);
    assert.ok(aAtB < BACKLOG, "A's backlog had not drained");
    // Then A's backlog still drains, each once.
    sink.dataDelayMs = 0;
    await eventually(async () => (fromA() === BACKLOG ? true : undefined), 30_000, "A's backlog");
    await dispatcherQuiet(server.running.deps.mail);
    assert.deepEqual(
      backlog.filter((to) => sink.to(to).length !== 1),
      [],
    );
  });
});
