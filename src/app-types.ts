import type { Authenticator, Caller } from './api/auth.js';
import type { Config } from './config.js';
import type { Instruments } from './measurement/instruments/load.js';
import type { CompetenceModel } from './measurement/types.js';
import type { Interpretations } from './reports/interpretations.js';
import type { ReportLinks } from './reports/links.js';
import type { PdfThreads } from './reports/pdf-threads.js';
import type { CandidateKeys } from './portal/candidate-key.js';
import type { SecretBox } from './security/secret-box.js';
import type { WindowLimiter } from './security/window-limiter.js';
import type { KdfPool } from './security/kdf-pool.js';
import type { Metrics } from './ops/metrics.js';
import type { Store } from './db/database.js';
import type { Dispatcher } from './webhooks/dispatcher.js';
import type { Mailer } from './mail/mailer.js';

export type { App } from './http/app.js';

/** Everything the routes need, built once at start and passed down; no module-level state. */
export interface Deps {
  config: Config;
  store: Store;
  secretBox: SecretBox;
  instruments: Instruments;
  competences: CompetenceModel;
  interpretations: Interpretations;
  reportLinks: ReportLinks;
  /** The candidate's own credential, from Start on: their answers, finishing, feedback and release decision. */
  candidateKeys: CandidateKeys;
  authenticator: Authenticator;
  /** The password-check threads: their queue is observable (tests, metrics). */
  kdf: KdfPool;
  /** The threads that render PDF reports. */
  pdfs: PdfThreads;
  /** The webhook dispatcher: woken when an attempt is queued; a completion runs through `completeWith`. */
  webhooks: Pick<Dispatcher, 'wake' | 'completeWith' | 'activity'>;
  /** The mail outbox's sender (src/mail): woken when a message is queued. Idle without SMTP_URL. */
  mail: Pick<Mailer, 'wake' | 'activity'>;
  readiness: { shuttingDown: boolean };
  /** Portal lookups of unknown tokens, per client IP: token guessing is rate-limited. */
  tokenGuesses: WindowLimiter;
  /** Wrong personal codes, per client IP and per assessment: counted apart from unknown links. */
  codeGuesses: { byAddress: WindowLimiter; byAssessment: WindowLimiter };
  /** Prometheus metrics, when METRICS_PORT turns them on. */
  metrics: Metrics | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}
