import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { rmSync } from 'node:fs';
import { spawnServe, spawnServer, type ServerProcess } from '../helpers/process.js';
import { tempDir } from '../helpers/server.js';

/** pino's JSON lines in `output`. */
const logLines = (output: string) =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string });

const PRIVATE_WARNING = /WEBHOOK_ALLOW_PRIVATE_NETWORKS=true: webhooks may reach .*never in production/;

describe('bin/assay serve at start: a busy port, private-network webhooks', () => {
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  const dir = () => {
    const d = tempDir();
    dirs.push(d);
    return d;
  };
  after(async () => {
    for (const s of servers) await s.stop('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test('a second server on a port in use exits non-zero with one line naming PORT, no stack trace', async () => {
    const first = await spawnServer({ DATA_DIR: dir(), DEMO_TENANT: 'false' });
    servers.push(first);
    await first.waitForOutput('Assay is serving');
    // The positive control of the warning test below: without the setting, no such warning.
    assert.doesNotMatch(first.output(), PRIVATE_WARNING);

    const second = spawnServe({ DATA_DIR: dir(), DEMO_TENANT: 'false', PORT: String(first.port) });
    let stdout = '';
    let stderr = '';
    second.stdout.on('data', (d: Buffer) => (stdout += d));
    second.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => second.kill('SIGKILL'), 20_000);
    const code = await new Promise<number | null>((resolve) => second.on('exit', (c) => resolve(c)));
    clearTimeout(timer);
    const output = `${stdout}\n${stderr}`;
    assert.notEqual(code, 0, output);
    assert.notEqual(code, null, `killed, not exited:\n${output}`);
    assert.equal(stderr, `assay: Port ${first.port} on 127.0.0.1 is in use (is another Assay running?): set PORT to a free port\n`);
    assert.doesNotMatch(output, /^\s+at /m, 'no stack trace');
    assert.doesNotMatch(output, /EADDRINUSE/);
    // The first server is untouched.
    assert.equal((await fetch(`${first.url}/healthz`)).status, 200);
    assert.equal(await first.stop('SIGTERM'), 0);
  });

  test('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true is warned about in the log at start', async () => {
    const s = await spawnServer({ DATA_DIR: dir(), DEMO_TENANT: 'false', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    servers.push(s);
    await s.waitForOutput('Assay is serving');
    const warnings = logLines(s.output()).filter((l) => PRIVATE_WARNING.test(l.msg));
    assert.equal(warnings.length, 1, s.output());
    assert.equal(warnings[0]!.level, 40, 'logged at warn');
    assert.equal(await s.stop('SIGTERM'), 0);
  });
});
