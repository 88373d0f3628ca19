import type { Command } from 'commander';
import { startApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openStore } from '../store/database.js';
import { migrateToLatest } from '../store/migrate.js';

export function serveCommands(program: Command): void {
  program
    .command('serve')
    .description('serve the API and the candidate portal (what npm start runs)')
    .action(async () => {
      const config = loadConfig();
      const starting = startApp(config);
      // Handled from the first moment: the server answers before its start has finished (on
      // Node.js 20 the listening descriptors are still being copied), and a signal then must
      // stop it gracefully once started, not end the process at once.
      let started: Awaited<typeof starting> | undefined;
      const onSignal = (signal: NodeJS.Signals) => {
        // A stop waits for requests, webhook attempts and the store, and each of them can wait on a
        // database that no longer answers (so can a start): past the deadline the process ends
        // anyway. Nothing unacknowledged was promised, and an attempt cut off is marked unknown later.
        setTimeout(() => {
          const message = 'shutdown did not finish within SHUTDOWN_TIMEOUT_MS: exiting with work unfinished';
          if (started) started.app.log.error({ timeoutMs: config.shutdownTimeoutMs }, message);
          else process.stderr.write(`${message}\n`);
          process.exit(1);
        }, config.shutdownTimeoutMs).unref();
        starting.then(
          (running) =>
            // Ctrl-C in a terminal needs no drain; SIGTERM from an orchestrator gets one.
            running
              .stop(signal === 'SIGINT' ? 0 : undefined)
              .then(() => process.exit(0))
              .catch((err: unknown) => {
                running.app.log.error({ err }, 'shutdown failed');
                process.exit(1);
              }),
          // A failed start is reported, and ends the process, where it is awaited below.
          () => {},
        );
      };
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
      const running = (started = await starting);
      running.app.log.info({ url: running.url }, 'Assay is serving');
    });

  program
    .command('migrate')
    .description('apply pending database migrations (serve does this too)')
    .action(async () => {
      const store = openStore(loadConfig().database);
      try {
        const results = await migrateToLatest(store);
        process.stdout.write(results.length ? results.map((r) => `${r.status}: ${r.migrationName}`).join('\n') + '\n' : 'Already up to date\n');
      } finally {
        await store.close();
      }
    });
}
