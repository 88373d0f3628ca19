// The names of Assay's settings, and the environment variables that look like a misspelling of one.

import type { Env } from './config-values.js';

/**
 * Every environment variable `loadConfig` reads (docs/CONFIGURATION.md lists the same;
 * test/config-names.test.ts checks both).
 */
export const SETTINGS: readonly string[] = [
  'PORT',
  'HOST',
  'PUBLIC_BASE_URL',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'LOG_LEVEL',
  'ENCRYPTION_KEY',
  'DEMO_TENANT',
  'EXAMPLE_NORMS',
  'ASSESSMENT_CONTENT_DIR',
  'TRUST_PROXY',
  'WEBHOOK_ALLOW_PRIVATE_NETWORKS',
  'WEBHOOK_TIMEOUT_MS',
  'WEBHOOK_MAX_RESPONSE_BYTES',
  'WEBHOOK_POLL_INTERVAL_MS',
  'WEBHOOK_MAX_IN_FLIGHT',
  'WEBHOOK_RETRY_BASE_MS',
  'SMTP_URL',
  'SMTP_REQUIRE_TLS',
  'SMTP_CA_FILE',
  'MAIL_FROM',
  'DKIM_DOMAIN',
  'DKIM_SELECTOR',
  'DKIM_PRIVATE_KEY_FILE',
  'MAIL_POLL_INTERVAL_MS',
  'MAIL_RETRY_BASE_MS',
  'MAIL_RETRY_FOR_MS',
  'MAIL_TIMEOUT_MS',
  'MAIL_MAX_IN_FLIGHT',
  'MAIL_PER_RECIPIENT_PER_HOUR',
  'MAIL_PER_TENANT_PER_MINUTE',
  'AUTH_CACHE_TTL_MS',
  'AUTH_CACHE_MAX',
  'AUTH_CACHE_FLUSH_MS',
  'AUTH_FAILURES_PER_MINUTE',
  'KDF_THREADS',
  'KDF_QUEUE',
  'KDF_PER_CLIENT',
  'PDF_THREADS',
  'PDF_QUEUE',
  'RATE_LIMIT_PER_KEY_PER_MINUTE',
  'PORTAL_UNKNOWN_TOKEN_PER_MINUTE',
  'PORTAL_CODE_GUESSES_PER_ADDRESS',
  'PORTAL_CODE_GUESSES_PER_ASSESSMENT',
  'PORTAL_FORM_TTL_MS',
  'REQUEST_TIMEOUT_MS',
  'HEADERS_TIMEOUT_MS',
  'KEEP_ALIVE_TIMEOUT_MS',
  'MAX_HEADER_BYTES',
  'OVERLOAD_MAX_IN_FLIGHT',
  'OVERLOAD_BODY_BYTES',
  'OVERLOAD_BODY_BYTES_PER_CLIENT',
  'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS',
  'ASSESSMENT_EXPIRY_DAYS',
  'RETENTION_DAYS',
  'RETENTION_SWEEP_INTERVAL_MS',
  'REPORT_LINK_DAYS',
  'CONSOLE_SESSION_IDLE_MS',
  'CONSOLE_SESSION_MAX_MS',
  'SHUTDOWN_DRAIN_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'METRICS_PORT',
  'METRICS_HOST',
];

/** Edits (insert, delete, substitute, swap two neighbours) from a to b, or limit + 1 once past limit. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  // Optimal string alignment: Damerau-Levenshtein without edits of a substring edited before.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    if (Math.min(...row) > limit) return limit + 1;
    before = previous;
    previous = row;
  }
  return Math.min(previous[b.length]!, limit + 1);
}

/** Upper case, digits and underscores: the shape of a setting's name. */
const SETTING_SHAPE = /^[A-Z][A-Z0-9_]*$/;

/**
 * The environment variables that are not settings but one edit from one (two for names of 8
 * characters or more: in a short name two edits make another word, HOME for HOST), with the setting
 * each resembles. Only names; a value may be a secret.
 */
export function misspelledSettings(env: Env, settings: readonly string[] = SETTINGS): Array<{ variable: string; resembles: string }> {
  const known = new Set(settings);
  const found: Array<{ variable: string; resembles: string }> = [];
  for (const variable of Object.keys(env).sort()) {
    if (known.has(variable) || !SETTING_SHAPE.test(variable)) continue;
    let best: { setting: string; distance: number } | undefined;
    for (const setting of settings) {
      const limit = setting.length >= 8 ? 2 : 1;
      const distance = editDistance(variable, setting, limit);
      if (distance <= limit && (!best || distance < best.distance)) best = { setting, distance };
    }
    if (best) found.push({ variable, resembles: best.setting });
  }
  return found;
}
