import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { START_STEPS, type StartStep } from '../../src/app.js';
import { freePort } from '../helpers/cli.js';
import { freshDatabaseUrl } from '../helpers/databases.js';
import { test } from '../helpers/deadline.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { mailEnv } from '../helpers/smtp-sink.js';

// A start that fails part-way must leave the process as it found it, so that it can end: every
// listening port free again, no connection or file of the store open, no thread left running.
// The oracle is the process itself, as Linux shows it: its open descriptors and its threads.

/** What this process's open descriptors point at: files, sockets, pipes. */
const openFiles = () =>
  readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return []; // closed since the listing (the listing's own descriptor among them)
    }
  });
const descriptors = () => openFiles().length;
/** This process's threads: the main one, libuv's and V8's, and every worker thread. */
const threads = () => Number(/^Threads:\s+(\d+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);

/** Whether something accepts connections on `port` of the loopback address. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Listens on `port` and closes again: it throws EADDRINUSE while anything holds the port. */
const listenable = (port: number) =>
  new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });

/** Polls until `probe` returns `want`, failing with the last value seen after `ms`. */
async function until(probe: () => number, want: number, what: () => string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (probe() !== want) {
    if (Date.now() > deadline) assert.equal(probe(), want, what());
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The process's descriptors and threads once they have stayed the same for a while: a thread ends, and its descriptors close, a moment after its stop. */
async function settled(): Promise<{ descriptors: number; threads: number; files: string[] }> {
  const now = () => ({ descriptors: descriptors(), threads: threads(), files: openFiles() });
  const deadline = Date.now() + 10_000;
  let last = now();
  for (let same = 0; same < 5 && Date.now() < deadline;) {
    await new Promise((r) => setTimeout(r, 50));
    const next = now();
    same = next.descriptors === last.descriptors && next.threads === last.threads ? same + 1 : 0;
    last = next;
  }
  return last;
}

suiteOnEachDatabase('a start that fails part-way', { start: false, tenant: false, smtp: true, timeout: 240_000 }, ({ db, sink, another, freshDir }) => {
  test('failing after each step of the start closes all it opened: ports free, no descriptor of the store, no thread left', async () => {
    const dataDir = freshDir();
    const reuse = { dataDir, databaseUrl: await freshDatabaseUrl(db, dataDir) };
    const env = (port: number, metricsPort: number) => mailEnv(sink, { PORT: String(port), METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' });

    // A start that goes through passes every step, in order, and a stop closes it all: after it, the baseline.
    const seen: StartStep[] = [];
    const whole = await another(env(await freePort(), await freePort()), { reuse, afterStep: (step) => void seen.push(step) });
    assert.deepEqual(seen, [...START_STEPS]);
    await whole.stop(true);
    const before = await settled();

    for (const failAt of START_STEPS) {
      const [port, metricsPort] = [await freePort(), await freePort()];
      let atFailure: { descriptors: number; threads: number; port: boolean; metrics: boolean } | undefined;
      const afterStep = async (step: StartStep) => {
        if (step !== failAt) return;
        atFailure = { descriptors: descriptors(), threads: threads(), port: await accepts(port), metrics: await accepts(metricsPort) };
        throw new Error(`injected failure after ${step}`);
      };
      await assert.rejects(another(env(port, metricsPort), { reuse, afterStep }), { message: `injected failure after ${failAt}` });

      // Positive controls, at the failure: the store was open (descriptors), and what the steps so far had opened.
      const reached = (step: StartStep) => START_STEPS.indexOf(failAt) >= START_STEPS.indexOf(step);
      assert.ok(atFailure, failAt);
      // A PostgreSQL pool connects at its first query, the migration's; SQLite opens its files at once.
      if (reached(db === 'sqlite' ? 'store' : 'migrated'))
        assert.ok(atFailure.descriptors > before.descriptors, `${failAt}: the store's descriptors were open`);
      if (reached('engines')) assert.ok(atFailure.threads > before.threads, `${failAt}: the threads were running`);
      assert.equal(atFailure.port, reached('listening'), `${failAt}: the server listened`);
      assert.equal(atFailure.metrics, reached('metrics'), `${failAt}: the metrics server listened`);

      // After the failed start: all closed.
      const extra = () => openFiles().filter((f) => !before.files.includes(f));
      await until(descriptors, before.descriptors, () => `${failAt}: descriptors left open: ${extra().join(', ')}`);
      await until(threads, before.threads, () => `${failAt}: threads left running`);
      await listenable(port);
      await listenable(metricsPort);
    }
  });
});
