import type { Command } from 'commander';
import { DomainError } from '../domain/errors.js';
import { checkAssessmentRequest, fieldNames } from '../assessments/rules.js';
import { findAttempts, latestAttempt } from '../webhooks/attempt-log-store.js';
import { isDelivered, requestRedelivery, type AttemptRow } from '../webhooks/outbox-store.js';
import { basicAuthorization } from '../security/basic-auth.js';
import { WebhookClient } from '../webhooks/client.js';
import { loadConfig } from '../config.js';
import { CliError, print, table, tenantId, withStore } from './shared.js';
import { webhookListenCommand } from './webhook-listen.js';

/** The rules name this command's options, for the fields it has. */
const OPTION_NAMES = fieldNames({ webhookUrl: '--url', webhookUsername: '--username', webhookPassword: '--password' });

const STATUSES: Record<string, AttemptRow['status']> = { failed: 'failed', unknown: 'unknown', delivered: 'delivered', pending: 'pending', sending: 'sending' };

function status(value: string | undefined): AttemptRow['status'] | undefined {
  if (value === undefined) return undefined;
  const s = STATUSES[value];
  if (!s) throw new CliError(`--status must be one of ${Object.keys(STATUSES).join(', ')}`);
  return s;
}

function since(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at)) throw new CliError(`--since must be a date (YYYY-MM-DD) or date-time, got "${value}"`);
  return new Date(at).toISOString();
}

export function webhookCommands(program: Command): void {
  const webhook = program.command('webhook').description('completion webhooks: the delivery log, redelivery, a test delivery');

  webhook
    .command('list')
    .description('webhook attempts, newest first (at most 1,000)')
    .option('--tenant <tenant>', 'only this tenant (id or name)')
    .option('--status <status>', 'failed, unknown, delivered, pending or sending')
    .option('--since <date>', 'attempts created on or after this date')
    .option('--json', 'print JSON')
    .action(async (opts: { tenant?: string; status?: string; since?: string; json?: boolean }) => {
      const filter = { status: status(opts.status), since: since(opts.since) };
      const rows = await withStore(async (store) =>
        findAttempts(store, {
          ...(opts.tenant ? { tenantId: await tenantId(store, opts.tenant) } : {}),
          ...(filter.status ? { status: filter.status } : {}),
          ...(filter.since ? { since: filter.since } : {}),
        }),
      );
      const shown = rows.map((r) => ({
        analysisId: r.analysis_id,
        kind: r.kind,
        status: r.status,
        createdAt: r.created_at,
        attemptedAt: r.attempted_at,
        durationMs: r.duration_ms,
        responseStatus: r.response_status,
        error: r.error,
      }));
      print(!!opts.json, shown, table(shown));
    });

  webhook
    .command('redeliver')
    .description("send a completed assessment's webhook once more, on purpose (it is never retried by itself)")
    .argument('[analysisId]', 'the assessment (an id that starts with - goes after --)')
    .option('--all', 'every assessment whose latest attempt matches --status (and --since)')
    .option('--status <status>', 'with --all: failed or unknown')
    .option('--since <date>', 'with --all: attempts created on or after this date')
    .option('--json', 'print JSON')
    .action(async (analysisId: string | undefined, opts: { all?: boolean; status?: string; since?: string; json?: boolean }) => {
      if (!opts.all && !analysisId) throw new CliError('Name an assessment, or use --all --status failed|unknown');
      const wanted = status(opts.status);
      if (opts.all && wanted !== 'failed' && wanted !== 'unknown') throw new CliError('--all needs --status failed or --status unknown');
      const outcomes = await withStore(async (store) => {
        let ids = [analysisId!];
        if (opts.all) {
          const matching = new Set(
            (await findAttempts(store, { status: wanted, ...(opts.since ? { since: since(opts.since)! } : {}) }, 100_000)).map((r) => r.analysis_id),
          );
          // Only those still in that state: a later attempt may have delivered it already.
          ids = [];
          for (const id of matching) if ((await latestAttempt(store, id))?.latest.status === wanted) ids.push(id);
        }
        const out: Array<{ analysisId: string; outcome: string }> = [];
        for (const id of ids) out.push({ analysisId: id, outcome: (await requestRedelivery(store, id, 'cli')).outcome });
        return out;
      });
      if (!opts.all && outcomes[0]!.outcome !== 'queued') throw new CliError(`Not redelivered: ${outcomes[0]!.outcome}`);
      print(!!opts.json, outcomes, outcomes.map((o) => `${o.analysisId}: ${o.outcome}`).join('\n') || '(nothing to redeliver)');
    });

  webhookListenCommand(webhook);

  webhook
    .command('test')
    .description('send a sample delivery to a receiver through the same guarded client and address policy')
    .requiredOption('--url <url>', 'the receiver')
    .option('--username <username>', 'Basic user')
    .option('--password <password>', 'Basic password')
    .option('--json', 'print JSON')
    .action(async (opts: { url: string; username?: string; password?: string; json?: boolean }) => {
      const config = loadConfig();
      const out = await (async () => {
        let url: string;
        try {
          url = checkAssessmentRequest(
            { assessmentType: 0, returnUrl: undefined, webhookUrl: opts.url, webhookUsername: opts.username, webhookPassword: opts.password },
            config.webhook.allowPrivateNetworks,
            OPTION_NAMES,
          ).webhook!.url;
        } catch (error) {
          if (error instanceof DomainError) throw new CliError(error.message);
          throw error;
        }
        const client = new WebhookClient(config.webhook);
        try {
          const auth = opts.username !== undefined ? basicAuthorization(opts.username, opts.password ?? '') : undefined;
          const body = JSON.stringify({ Analysis_Id: 'test-delivery', External_Id: 'test-delivery' });
          return await client.post(url, body, auth, { 'x-assay-test': 'true' });
        } finally {
          await client.close();
        }
      })();
      const ok = isDelivered(out);
      print(
        !!opts.json,
        out,
        ok ? `Delivered: HTTP ${out.status} in ${out.durationMs} ms` : `Not delivered: ${out.detail ?? out.error} (${out.durationMs} ms)`,
      );
      if (!ok) process.exitCode = 1;
    });
}
