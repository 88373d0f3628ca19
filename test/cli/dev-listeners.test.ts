import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before } from 'node:test';
import { describe, test } from '../helpers/deadline.js';
import { runCli } from '../helpers/cli.js';

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
