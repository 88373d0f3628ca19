import { Server as NetServer, type AddressInfo } from 'node:net';
import { Authenticator } from './api/auth.js';
import type { App, Deps } from './app-types.js';
import { publicOrigin, type Config } from './config.js';
import { loadInstruments } from './measurement/instruments/load.js';
import { loadCompetences } from './measurement/load.js';
import { BUILT_IN_CONTENT_DIR, COMPETENCES_FILE, EXAMPLE_NORMS_DIR, INTERPRETATIONS_FILE } from './platform/paths.js';
import { ensureShippedNorms } from './measurement/shipped-norms.js';
import { loadInterpretations } from './reports/interpretations.js';
import { CandidateKeys } from './portal/candidate-key.js';
import { ReportLinks } from './reports/links.js';
import { PdfThreads } from './reports/pdf-threads.js';
import { demoBanner, ensureDemoTenant, ensureExampleNorms, giveDemoExampleNorms } from './tenancy/provision.js';
import { WindowLimiter } from './security/window-limiter.js';
import { KdfPool } from './security/kdf-pool.js';
import { loadServerKey, SecretBox } from './security/secret-box.js';
import { buildServer } from './server.js';
import { openStore } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import type { Resolver } from './webhooks/dns.js';
import { Metrics } from './ops/metrics.js';
import { startMetricsServer } from './ops/metrics-server.js';
import { RetentionSweeper } from './lifecycle/retention.js';
import { countByStatus } from './assessments/assessments-store.js';
import { Dispatcher } from './webhooks/dispatcher.js';
import { Mailer } from './mail/mailer.js';
import { close, listen, openConnections } from './http/listeners.js';
import { Closers } from './platform/closers.js';

export interface RunningApp {
  app: App;
  url: string;
  /** Where Prometheus scrapes, when METRICS_PORT is set. */
  metricsUrl: string | undefined;
  deps: Deps;
  /** Graceful stop: unready, drain for `drainMs`, finish in-flight requests and webhook attempts, close the store. */
  stop(drainMs?: number): Promise<void>;
}

/** The steps of a start, in order; StartOptions.afterStep is called after each. */
export const START_STEPS = [
  'store',
  'migrated',
  'norms',
  'engines',
  'server',
  'workers',
  'listening',
  'demo',
  'workers started',
  'metrics',
  'sweeper',
] as const;
export type StartStep = (typeof START_STEPS)[number];

export interface StartOptions {
  /** Where the one-time demo credentials go; the CLI prints them to stdout. */
  print?: (text: string) => void;
  /** DNS for webhooks; tests substitute one to exercise the address checks. */
  resolver?: Resolver;
  /** The file PDF threads render with; tests substitute one that holds its thread until told. */
  pdfWorker?: URL;
  /** Called after each step of the start; tests throw from it to fail the start at that step. */
  afterStep?: (step: StartStep) => void | Promise<void>;
}

/** Opens the store, migrates, loads content, builds the server and the dispatcher, and listens. */
export async function startApp(config: Config, options: StartOptions = {}): Promise<RunningApp> {
  // Every resource adds its close here as it opens: a start that fails part-way and `stop` close the same list.
  const closers = new Closers();
  let opened: Opened;
  try {
    opened = await open(config, options, closers);
  } catch (err) {
    // The process can then end: no descriptor left accepting, no store or threads left open behind.
    try {
      await closers.closeAll();
    } catch (closeErr) {
      throw new AggregateError([err, closeErr], `${(err as Error).message}; closing what the start had opened failed too`);
    }
    throw err;
  }
  const { app, deps, metricsServer, drain } = opened;
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  if (metricsServer) app.log.info({ url: metricsServer.url }, 'metrics listening');

  let stopping: Promise<void> | undefined;
  return {
    app,
    url: `http://${host}:${address.port}`,
    metricsUrl: metricsServer?.url,
    deps,
    stop(drainMs = config.shutdownDrainMs) {
      stopping ??= (async () => {
        deps.readiness.shuttingDown = true;
        app.log.info({ drainMs }, 'shutting down: unready, draining');
        if (drainMs > 0) await new Promise((r) => setTimeout(r, drainMs));
        if (drainMs > 0) await drain(Math.min(drainMs, 1_000));
        await closers.closeAll();
        app.log.info('stopped');
      })();
      return stopping;
    },
  };
}

interface Opened {
  app: App;
  deps: Deps;
  metricsServer: { url: string } | undefined;
  /** Stops every listener accepting, then waits up to `graceMs` for the open connections' requests. */
  drain(graceMs: number): Promise<void>;
}

async function open(config: Config, options: StartOptions, closers: Closers): Promise<Opened> {
  const step = async (name: StartStep) => options.afterStep?.(name);
  const instruments = loadInstruments(config.contentDir ?? BUILT_IN_CONTENT_DIR);
  const competences = loadCompetences(COMPETENCES_FILE, instruments);
  const interpretations = loadInterpretations(INTERPRETATIONS_FILE, instruments);
  const secretBox = new SecretBox(loadServerKey(config.encryptionKey, config.dataDir));
  let app: App | undefined;
  const metrics = config.metrics ? new Metrics() : undefined;
  const store = openStore(config.database, {
    serving: true,
    onPoolError: (err) => app?.log.warn({ err }, 'database connection lost'),
    ...(metrics ? { onDurableWrite: (size: number, seconds: number) => metrics.durableWrite(size, seconds) } : {}),
  });
  closers.add('engines', () => store.close());
  await step('store');
  await migrateToLatest(store);
  await step('migrated');
  await ensureShippedNorms(store, instruments, competences, EXAMPLE_NORMS_DIR);
  if (config.exampleNorms) await ensureExampleNorms(store, instruments, competences);
  await step('norms');

  const kdf = new KdfPool(config.kdf);
  closers.add('engines', () => kdf.close());
  const pdfs = new PdfThreads(config.pdf, options.pdfWorker);
  closers.add('engines', () => pdfs.close());
  const readiness = { shuttingDown: false };
  let dispatcher: Dispatcher | undefined;
  let mailer: Mailer | undefined;
  const deps: Deps = {
    config,
    store,
    secretBox,
    instruments,
    competences,
    interpretations,
    reportLinks: new ReportLinks(secretBox.derive('report-links'), config.reportLinkDays),
    candidateKeys: new CandidateKeys(secretBox.derive('candidate-key')),
    authenticator: new Authenticator(store, kdf, config.auth),
    kdf,
    pdfs,
    // The dispatcher is made once the server exists (it logs through it); until then, no claims.
    webhooks: {
      wake: () => dispatcher?.wake(),
      completeWith: (tenantId, complete) => (dispatcher ? dispatcher.completeWith(tenantId, complete) : complete(undefined)),
      get activity() {
        return dispatcher ? dispatcher.activity : { passes: 0, inFlight: 0, stopping: false };
      },
    },
    mail: {
      wake: () => mailer?.wake(),
      get activity() {
        return mailer ? mailer.activity : { passes: 0, inFlight: 0 };
      },
    },
    readiness,
    tokenGuesses: new WindowLimiter(config.rateLimit.portalUnknownTokenPerMinute),
    codeGuesses: {
      byAddress: new WindowLimiter(config.rateLimit.portalCodeGuessesPerAddress, 15 * 60_000),
      byAssessment: new WindowLimiter(config.rateLimit.portalCodeGuessesPerAssessment, 60 * 60_000),
    },
    metrics,
  };
  metrics?.watch({ kdf, pdf: pdfs, assessmentsByStatus: () => countByStatus(store), webhooks: deps.webhooks });
  await step('engines');

  const server = (app = await buildServer(deps));
  let extraListeners: NetServer[] = [];
  // Resolves once the connections the extra listeners accepted are gone too, which app.close sees to.
  let extrasClosed: Promise<void> | undefined;
  const closeExtras = () => (extrasClosed ??= close(extraListeners));
  closers.add('doors', async () => {
    const extras = closeExtras();
    await server.close();
    await extras;
  });
  await step('server');
  dispatcher = new Dispatcher(store, secretBox, config, server.log, {
    ...(options.resolver ? { resolver: options.resolver } : {}),
    ...(metrics ? { metrics } : {}),
  });
  closers.add('workers', () => dispatcher?.stop());
  mailer = config.mail ? new Mailer(store, config.mail, instruments, deps.candidateKeys, server.log, metrics) : undefined;
  if (mailer) closers.add('workers', () => mailer?.stop());
  await step('workers');

  // A deeper accept queue than Node's 511: a burst of new connections waits in the kernel rather than being reset.
  extraListeners = await listen(server, config.host, config.port, 2048);
  await step('listening');
  // After listening: with PORT=0 the demo's portal domain needs the port the system picked.
  if (config.demoTenant) {
    const origin = publicOrigin(config, (server.server.address() as AddressInfo).port);
    const demo = await ensureDemoTenant(store, origin);
    if (demo) await giveDemoExampleNorms(store, demo.apiKeyId, instruments, competences);
    if (demo) (options.print ?? ((t) => process.stdout.write(t + '\n')))(demoBanner(demo, origin));
  }
  await step('demo');
  await dispatcher.start();
  await mailer?.start();
  await step('workers started');
  const metricsServer = metrics && config.metrics ? await startMetricsServer(metrics, config.metrics.host, config.metrics.port) : undefined;
  if (metricsServer) closers.add('doors', () => metricsServer.close());
  await step('metrics');
  const sweeper = new RetentionSweeper(store, config.lifecycle.retentionDays, config.lifecycle.sweepIntervalMs, server.log);
  closers.add('workers', () => sweeper.stop());
  sweeper.start();
  await step('sweeper');
  const drain = (graceMs: number) => {
    void closeExtras();
    return stopAccepting(server.server, extraListeners, graceMs);
  };
  return { app: server, deps, metricsServer, drain };
}

/**
 * Stops accepting connections but, unlike http.Server.close, leaves open ones alone for up to
 * `graceMs`: a client may be writing its next request on one right now. Each such request is
 * answered (with Connection: close) instead of meeting a reset.
 */
async function stopAccepting(server: NetServer, extras: NetServer[], graceMs: number): Promise<void> {
  NetServer.prototype.close.call(server);
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if ((await openConnections([server, ...extras])) === 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}
