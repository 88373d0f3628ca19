import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import { bool, ConfigError, int, parseOrigin, safely, type Env } from './config-values.js';

export { ConfigError, parseOrigin } from './config-values.js';

/** Every setting Assay reads, validated once at start. See docs/CONFIGURATION.md "Configuration". */
export interface Config {
  port: number;
  host: string;
  /** PUBLIC_BASE_URL; undefined: `http://HOST:<the port listened on>` (`publicOrigin`). */
  publicBaseUrl: string | undefined;
  dataDir: string;
  /**
   * PostgreSQL: `credentialsFlushMs` (AUTH_CACHE_FLUSH_MS) is the floor on how long a credential
   * change whose NOTIFY was lost can go unheard: the credentials version moves that often anyway.
   */
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; poolSize: number; credentialsFlushMs: number };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  encryptionKey: string | undefined;
  demoTenant: boolean;
  /** Load the illustrative example norm group for an instrument that has none. */
  exampleNorms: boolean;
  contentDir: string | undefined;
  /** Addresses or CIDRs of the reverse proxies whose X-Forwarded-* headers are believed; empty: none. */
  trustProxy: string[];
  webhook: {
    allowPrivateNetworks: boolean;
    timeoutMs: number;
    maxResponseBytes: number;
    pollIntervalMs: number;
    /** Attempts on their way at once; one tenant's take at most half. */
    maxInFlight: number;
    /** The first wait before a retried completion call (style 'patch') is tried again; it doubles each time. */
    retryBaseMs: number;
  };
  auth: { cacheTtlMs: number; cacheMax: number; failuresPerMinute: number };
  kdf: { threads: number; queue: number; perClient: number };
  /** The PDF report threads (reports/pdf-threads.ts). */
  pdf: { threads: number; queue: number };
  overload: { maxInFlight: number; maxEventLoopDelayMs: number; bodyBytes: number; bodyBytesPerClient: number };
  rateLimit: {
    perKeyPerMinute: number;
    portalUnknownTokenPerMinute: number;
    /** Wrong personal codes one address may type in 15 minutes, over all assessments. */
    portalCodeGuessesPerAddress: number;
    /** Wrong personal codes one assessment may be sent in an hour, from all addresses. */
    portalCodeGuessesPerAssessment: number;
  };
  http: { requestTimeoutMs: number; keepAliveTimeoutMs: number; headersTimeoutMs: number; maxHeaderBytes: number };
  shutdownDrainMs: number;
  /** From the signal: the process exits by then, finished or not. */
  shutdownTimeoutMs: number;
  /** Prometheus metrics on a listener of their own, off the public port; undefined: off. */
  metrics: { port: number; host: string } | undefined;
  /** How long a portal page's form token is accepted after the page was served. */
  portalFormTtlMs: number;
  /** How long a report share link stays valid. */
  reportLinkDays: number;
  /** Console sessions (src/console): they end after `idleMs` without a request, and `maxMs` after the sign-in at the latest. */
  console: { sessionIdleMs: number; sessionMaxMs: number };
  /** E-mail to candidates (src/mail); undefined without SMTP_URL: nothing is sent. */
  mail: MailConfig | undefined;
  lifecycle: {
    /** An assessment without ExpiresAt expires this long after creation. */
    expiryDays: number;
    /** Personal data is erased this long after a candidate's last assessment closed (per tenant overridable). */
    retentionDays: number;
    /** How often the retention sweep runs. */
    sweepIntervalMs: number;
  };
}

export interface MailConfig {
  /** SMTP_URL: smtp:// (STARTTLS, required unless SMTP_REQUIRE_TLS=false) or smtps://; certificates verified. */
  smtpUrl: string;
  requireTls: boolean;
  /** SMTP_CA_FILE: a PEM bundle trusted besides the system's, for a relay with a private CA. */
  caFile: string | undefined;
  /** MAIL_FROM: the sender's address. */
  from: string;
  dkim: { domainName: string; keySelector: string; privateKeyFile: string } | undefined;
  /** The poll for due mail; the first retry's delay (doubling, up to an hour); how long retries go on; messages sent at once. */
  pollIntervalMs: number;
  retryBaseMs: number;
  retryForMs: number;
  timeoutMs: number;
  /** Messages sent at once by this process; one tenant's take at most half. */
  maxInFlight: number;
  /** Invitations queued to one address (per tenant) an hour, and by one tenant a minute; past either, 429. */
  perRecipientPerHour: number;
  perTenantPerMinute: number;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function parseDatabase(env: Env, dataDir: string): Config['database'] {
  // Validated whatever the database, so a bad value is found before a move to PostgreSQL.
  const credentialsFlushMs = int(env, 'AUTH_CACHE_FLUSH_MS', 2_000, 100, 3_600_000);
  const raw = env.DATABASE_URL?.trim() || `sqlite:${resolve(dataDir, 'assay.db')}`;
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!path) throw new ConfigError('DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/assay.db');
    return { kind: 'sqlite', path: resolve(path) };
  }
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL is not a valid postgres:// URL');
    }
    return { kind: 'postgres', url: raw, poolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 200), credentialsFlushMs };
  }
  throw new ConfigError('DATABASE_URL must start with sqlite: or postgres://');
}

/**
 * TRUST_PROXY: a comma-separated list of proxy addresses or CIDRs. `true` would believe any
 * client's X-Forwarded-For, and a hop count cannot check that the peer is a proxy at all
 * (Fastify 5 ignores one on purpose), so both are refused with the form that works.
 */
function parseTrustProxy(env: Env): string[] {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  if (raw === '' || /^(false|0|no|off)$/i.test(raw)) return [];
  const hint = 'list the proxies instead, e.g. TRUST_PROXY=10.0.0.5 or TRUST_PROXY=10.0.0.0/24,127.0.0.1';
  if (/^(true|yes|on)$/i.test(raw)) {
    throw new ConfigError(`TRUST_PROXY=true would let any client forge its address in X-Forwarded-For; ${hint}`);
  }
  if (/^\d+$/.test(raw)) {
    throw new ConfigError(`TRUST_PROXY=${raw}: a hop count cannot check that the peer is a proxy (Fastify 5 ignores it); ${hint}`);
  }
  return raw.split(',').map((entry) => {
    const value = entry.trim();
    const ok = value.includes('/') ? safely(() => ipaddr.parseCIDR(value)) && isIP(value.split('/')[0]!) !== 0 : isIP(value) !== 0;
    if (!ok) throw new ConfigError(`TRUST_PROXY: "${value}" is not an IP address or CIDR; ${hint}`);
    return value;
  });
}

function parseMetrics(env: Env): Config['metrics'] {
  if (!env.METRICS_PORT?.trim()) return undefined;
  const host = env.METRICS_HOST?.trim() || '127.0.0.1';
  if (isIP(host) === 0 && host !== 'localhost') throw new ConfigError(`METRICS_HOST must be an IP address, got "${host}"`);
  return { port: int(env, 'METRICS_PORT', 0, 0, 65535), host };
}

const ADDRESS = /^[^\s@<>"]{1,64}@[^\s@<>"]+\.[^\s@<>"]{2,}$/;

function parseMail(env: Env): MailConfig | undefined {
  const url = env.SMTP_URL?.trim();
  if (!url) return undefined;
  if (!/^smtps?:\/\/[^/]/.test(url) || !safely(() => new URL(url)))
    throw new ConfigError('SMTP_URL must be smtp://host[:port] or smtps://host[:port], with user:password@ if the relay needs them');
  const from = env.MAIL_FROM?.trim() ?? '';
  if (!ADDRESS.test(from))
    throw new ConfigError(`MAIL_FROM must be the sender's e-mail address (e.g. assessments@example.com) when SMTP_URL is set, got "${from}"`);
  const dkimNames = ['DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY_FILE'] as const;
  const dkimSet = dkimNames.filter((n) => env[n]?.trim());
  if (dkimSet.length > 0 && dkimSet.length < 3) throw new ConfigError(`DKIM signing needs all of ${dkimNames.join(', ')}; only ${dkimSet.join(', ')} set`);
  return {
    smtpUrl: url,
    requireTls: bool(env, 'SMTP_REQUIRE_TLS', true),
    caFile: env.SMTP_CA_FILE?.trim() ? resolve(env.SMTP_CA_FILE.trim()) : undefined,
    from,
    dkim:
      dkimSet.length === 3
        ? { domainName: env.DKIM_DOMAIN!.trim(), keySelector: env.DKIM_SELECTOR!.trim(), privateKeyFile: resolve(env.DKIM_PRIVATE_KEY_FILE!.trim()) }
        : undefined,
    pollIntervalMs: int(env, 'MAIL_POLL_INTERVAL_MS', 1_000, 50, 60_000),
    retryBaseMs: int(env, 'MAIL_RETRY_BASE_MS', 30_000, 10, 3_600_000),
    retryForMs: int(env, 'MAIL_RETRY_FOR_MS', 86_400_000, 1_000, 7 * 86_400_000),
    timeoutMs: int(env, 'MAIL_TIMEOUT_MS', 30_000, 500, 300_000),
    maxInFlight: int(env, 'MAIL_MAX_IN_FLIGHT', 8, 1, 256),
    perRecipientPerHour: int(env, 'MAIL_PER_RECIPIENT_PER_HOUR', 10, 1, 10_000),
    perTenantPerMinute: int(env, 'MAIL_PER_TENANT_PER_MINUTE', 300, 1, 1_000_000),
  };
}

/**
 * The server's public origin: PUBLIC_BASE_URL, or else the host and the port it actually listens
 * on (with PORT=0 the system picks the port, so it is known only once listening).
 */
export function publicOrigin(config: Pick<Config, 'host' | 'publicBaseUrl'>, listeningPort: number): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${listeningPort}`;
}

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST?.trim() || '127.0.0.1';
  const dataDir = resolve(env.DATA_DIR?.trim() || './data');
  const publicBaseUrl = env.PUBLIC_BASE_URL?.trim() ? parseOrigin(env.PUBLIC_BASE_URL.trim(), 'PUBLIC_BASE_URL') : undefined;

  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }

  const encryptionKey = env.ENCRYPTION_KEY?.trim() || undefined;
  if (encryptionKey !== undefined && Buffer.from(encryptionKey, 'base64').length !== 32) {
    throw new ConfigError('ENCRYPTION_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  }

  const shutdownDrainMs = int(env, 'SHUTDOWN_DRAIN_MS', 3_000, 0, 300_000);
  const shutdownTimeoutMs = int(env, 'SHUTDOWN_TIMEOUT_MS', 30_000, 1_000, 3_600_000);
  if (shutdownTimeoutMs <= shutdownDrainMs) {
    throw new ConfigError(`SHUTDOWN_TIMEOUT_MS (${shutdownTimeoutMs}) must be longer than SHUTDOWN_DRAIN_MS (${shutdownDrainMs})`);
  }

  return {
    port,
    host,
    publicBaseUrl,
    dataDir,
    database: parseDatabase(env, dataDir),
    logLevel,
    encryptionKey,
    demoTenant: bool(env, 'DEMO_TENANT', true),
    exampleNorms: bool(env, 'EXAMPLE_NORMS', false),
    contentDir: env.ASSESSMENT_CONTENT_DIR?.trim() ? resolve(env.ASSESSMENT_CONTENT_DIR.trim()) : undefined,
    trustProxy: parseTrustProxy(env),
    webhook: {
      allowPrivateNetworks: bool(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
      maxResponseBytes: int(env, 'WEBHOOK_MAX_RESPONSE_BYTES', 16_384, 0, 1_048_576),
      pollIntervalMs: int(env, 'WEBHOOK_POLL_INTERVAL_MS', 1_000, 50, 60_000),
      maxInFlight: int(env, 'WEBHOOK_MAX_IN_FLIGHT', 256, 2, 4_096),
      retryBaseMs: int(env, 'WEBHOOK_RETRY_BASE_MS', 60_000, 10, 3_600_000),
    },
    auth: {
      cacheTtlMs: int(env, 'AUTH_CACHE_TTL_MS', 60_000, 0, 3_600_000),
      cacheMax: int(env, 'AUTH_CACHE_MAX', 10_000, 1, 1_000_000),
      failuresPerMinute: int(env, 'AUTH_FAILURES_PER_MINUTE', 10, 1, 100_000),
    },
    kdf: {
      threads: int(env, 'KDF_THREADS', 1, 1, 64),
      queue: int(env, 'KDF_QUEUE', 64, 0, 100_000),
      perClient: int(env, 'KDF_PER_CLIENT', 8, 1, 100_000),
    },
    pdf: {
      threads: int(env, 'PDF_THREADS', Math.min(2, availableParallelism()), 1, 64),
      queue: int(env, 'PDF_QUEUE', 32, 0, 100_000),
    },
    overload: {
      maxInFlight: int(env, 'OVERLOAD_MAX_IN_FLIGHT', 1_024, 1, 1_000_000),
      maxEventLoopDelayMs: int(env, 'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', 500, 0, 60_000),
      bodyBytes: int(env, 'OVERLOAD_BODY_BYTES', 32 * 1024 * 1024, 64 * 1024, 4 * 1024 * 1024 * 1024),
      bodyBytesPerClient: int(env, 'OVERLOAD_BODY_BYTES_PER_CLIENT', 4 * 1024 * 1024, 64 * 1024, 4 * 1024 * 1024 * 1024),
    },
    rateLimit: {
      perKeyPerMinute: int(env, 'RATE_LIMIT_PER_KEY_PER_MINUTE', 600_000, 1, 100_000_000),
      portalUnknownTokenPerMinute: int(env, 'PORTAL_UNKNOWN_TOKEN_PER_MINUTE', 30, 1, 100_000),
      portalCodeGuessesPerAddress: int(env, 'PORTAL_CODE_GUESSES_PER_ADDRESS', 10, 1, 100_000),
      portalCodeGuessesPerAssessment: int(env, 'PORTAL_CODE_GUESSES_PER_ASSESSMENT', 30, 1, 100_000),
    },
    http: {
      requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000, 1_000, 600_000),
      keepAliveTimeoutMs: int(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 1_000, 600_000),
      headersTimeoutMs: int(env, 'HEADERS_TIMEOUT_MS', 10_000, 1_000, 600_000),
      maxHeaderBytes: int(env, 'MAX_HEADER_BYTES', 16_384, 1_024, 65_536),
    },
    shutdownDrainMs,
    shutdownTimeoutMs,
    metrics: parseMetrics(env),
    portalFormTtlMs: int(env, 'PORTAL_FORM_TTL_MS', 86_400_000, 1_000, 30 * 86_400_000),
    reportLinkDays: int(env, 'REPORT_LINK_DAYS', 30, 1, 3_650),
    console: {
      sessionIdleMs: int(env, 'CONSOLE_SESSION_IDLE_MS', 30 * 60_000, 10_000, 7 * 86_400_000),
      sessionMaxMs: int(env, 'CONSOLE_SESSION_MAX_MS', 12 * 3_600_000, 10_000, 30 * 86_400_000),
    },
    mail: parseMail(env),
    lifecycle: {
      expiryDays: int(env, 'ASSESSMENT_EXPIRY_DAYS', 90, 1, 3_650),
      retentionDays: int(env, 'RETENTION_DAYS', 180, 0, 36_500),
      sweepIntervalMs: int(env, 'RETENTION_SWEEP_INTERVAL_MS', 3_600_000, 1_000, 86_400_000),
    },
  };
}
