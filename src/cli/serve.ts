import type { Command } from 'commander';
import { loadConfig, type Config } from '../config.js';
import { misspelledSettings } from '../config-names.js';
import { openStore } from '../db/database.js';
import { AlreadyServed, lockForServing } from '../db/sqlite-serve-lock.js';
import { migrateToLatest } from '../db/migrate.js';
import { CliError } from './shared.js';

/**
 * A port that cannot be bound (another server on it, or a privileged port) as one line naming the
 * setting to change, not a stack trace; undefined for any other failure.
 */
export function listenProblem(err: unknown, config: Pick<Config, 'port' | 'host' | 'metrics'>): string | undefined {
  const e = err as NodeJS.ErrnoException & { port?: number; address?: string };
  if (e?.syscall !== 'listen' && e?.syscall !== 'bind') return undefined;
  const metrics = config.metrics !== undefined && e.port === config.metrics.port && e.port !== config.port;
  const [portVar, hostVar] = metrics ? ['METRICS_PORT', 'METRICS_HOST'] : ['PORT', 'HOST'];
  const port = e.port ?? (metrics ? config.metrics!.port : config.port);
  const host = e.address ?? (metrics ? config.metrics!.host : config.host);
  if (e.code === 'EADDRINUSE') return `Port ${port} on ${host} is in use (is another Assay running?): set ${portVar} to a free port`;
  if (e.code === 'EACCES') return `Port ${port} on ${host} needs privileges this process lacks: set ${portVar} to 1024 or above`;
  if (e.code === 'EADDRNOTAVAIL') return `Address ${host} is not one of this machine's: set ${hostVar} to one of its addresses, or 0.0.0.0`;
  return undefined;
}

export function serveCommands(program: Command): void {
  program
    .command('serve')
    .description('serve the API and the candidate portal (what npm start runs)')
    .action(async () => {
      const config = loadConfig();
      // One serving process per SQLite file, told in one line before anything is opened. Instances
      // on PostgreSQL are many by design, and may share a DATA_DIR (secret.key is made race-free).
      if (config.database.kind === 'sqlite') {
        try {
          lockForServing(config.database.path);
        } catch (err) {
          throw err instanceof AlreadyServed ? new CliError(err.message) : err;
        }
      }
      // Loaded here, not with the CLI: the other commands start without the web server's modules.
      const { startApp } = await import('../app.js');
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
      let running: Awaited<typeof starting>;
      try {
        running = started = await starting;
      } catch (err) {
        // The start closed what it had opened; main.ts prints this one line and exits 1.
        const problem = listenProblem(err, config);
        throw problem ? new CliError(problem) : err;
      }
      if (config.webhook.allowPrivateNetworks) {
        running.app.log.warn(
          'WEBHOOK_ALLOW_PRIVATE_NETWORKS=true: webhooks may reach loopback, private and other non-public addresses, this network included; for development only, never in production',
        );
      }
      // The names only: a value may be a secret.
      for (const { variable, resembles } of misspelledSettings(process.env)) {
        running.app.log.warn({ variable, resembles }, `${variable} is not a setting and is ignored: did you mean ${resembles}?`);
      }
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
