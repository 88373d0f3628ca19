import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, test } from '../helpers/deadline.js';
import { listeningPort } from '../helpers/ports.js';

// A child that listens on a port of its own choosing once told to, and says which.
const LISTENER = `
process.stdin.once('data', () => {
  const s = require('node:net').createServer().listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));
});`;

describe('bench processes: the port a child listens on', () => {
  test('read from /proc: none before it listens, then the port it chose', { timeout: 20_000 }, async () => {
    const child = spawn(process.execPath, ['-e', LISTENER], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await once(child, 'spawn');
      assert.equal(listeningPort(child.pid!), undefined);
      child.stdin!.write('go\n');
      const [said] = (await once(child.stdout!, 'data')) as [Buffer];
      assert.equal(listeningPort(child.pid!), Number(said.toString().trim()));
    } finally {
      child.kill('SIGKILL');
    }
  });
});
