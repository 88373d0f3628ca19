import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before } from 'node:test';
import { describe, test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';
import { spawnCli, type CliProcess } from '../helpers/process.js';

// The development listeners on their own: no server, no database.
describe('bin/assay webhook listen and mail listen on a port that is taken', () => {
  let taken: Server;
  let port: number;
  before(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as { port: number }).port;
  });
  after(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  for (const command of ['webhook', 'mail']) {
    test(`${command} listen says so in one line and exits 1`, async () => {
      const r = await runCli([command, 'listen', '--port', String(port)], {}, 20_000);
      assert.equal(r.stderr, `assay: Cannot listen on 127.0.0.1:${port}: EADDRINUSE\n`);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
    });
  }
});

describe('bin/assay webhook listen shows the start of a credential, never all of it', () => {
  const key = 'gh_R9FxQe2LmWv8TzKp3NcYbA';
  const listeners: CliProcess[] = [];
  after(async () => {
    for (const l of listeners) await l.stop();
  });

  async function post(url: string, username: string): Promise<void> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${username}:`).toString('base64')}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 200);
  }

  test('a Greenhouse key sent as the Basic user: mismatched, unexpected and matched, in text and JSON', async () => {
    const other = 'gh_Zt7uWq1PLmN0xY5vBc2D9e';
    for (const json of [false, true]) {
      for (const [expected, sent, verdict] of [
        [key, other, 'mismatched'],
        [undefined, key, 'unexpected'],
        [key, key, 'matched'],
      ] as const) {
        const args = ['webhook', 'listen', '--port', '0', ...(expected ? ['--username', expected] : []), ...(json ? ['--json'] : [])];
        const listener = spawnCli(args);
        listeners.push(listener);
        const url = await listener.line((l) => (json ? (JSON.parse(l) as { listening?: string }).listening : /^Listening on (\S+)/.exec(l)?.[1]));
        await post(url, sent);
        const shown = await listener.line((l) =>
          json ? (JSON.parse(l) as { delivery?: { credentials: string; username: string } }).delivery : /Basic credentials.*/.exec(l)?.[0],
        );
        if (typeof shown === 'string') {
          const expectedLine = {
            mismatched: `Basic credentials did NOT match (user "${sent.slice(0, 6)}…")`,
            unexpected: `Basic credentials sent (user "${sent.slice(0, 6)}…"), none expected`,
            matched: `Basic credentials matched (${sent.slice(0, 6)}…)`,
          }[verdict];
          assert.equal(shown, expectedLine);
        } else assert.deepEqual({ credentials: shown.credentials, username: shown.username }, { credentials: verdict, username: `${sent.slice(0, 6)}…` });
        await listener.stop();
        for (const secret of [key, other]) assert.ok(!listener.output().includes(secret), `${args.join(' ')} printed all of ${secret}:\n${listener.output()}`);
      }
    }
  });

  test('a short user name shows at most half of it', async () => {
    const listener = spawnCli(['webhook', 'listen', '--port', '0', '--json']);
    listeners.push(listener);
    const url = await listener.line((l) => (JSON.parse(l) as { listening?: string }).listening);
    await post(url, 'ats');
    const got = await listener.line((l) => (JSON.parse(l) as { delivery?: { username: string } }).delivery);
    assert.equal(got.username, 'a…');
  });
});
